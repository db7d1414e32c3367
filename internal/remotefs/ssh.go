package remotefs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sync"

	xssh "golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshpool"
)

// Pool is what the SSH ExecFunc needs of sshpool.Pool.
type Pool interface {
	Acquire(ctx context.Context, t sshpool.Target) (*sshpool.Lease, error)
}

// maxScript bounds a script sent as the exec request's command: dropbear
// accepts at most 32 KiB in one packet, so anything larger goes on stdin.
const maxScript = 24 << 10

// SSH returns the ExecFunc that runs each script in a session of its own on
// t's pooled connection, as the command of an exec request, which the
// remote login shell runs. A cancelled command is sent SIGKILL (which
// OpenSSH and dropbear deliver to the shell) and its channel is closed.
//
// On a dropbear server the commands of one ExecFunc run one at a time:
// dropbear 2022.82 to 2024.85 closes a session opened while another
// session's command is exiting and then aborts the whole connection on a
// failed assertion (mkj/dropbear#321), and those versions are what
// routers run.
func SSH(pool Pool, t sshpool.Target) ExecFunc {
	gate := make(chan struct{}, 1)
	return func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
		return sshExec(ctx, pool, t, gate, script, stdin, stdout)
	}
}

// isDropbear reports whether an SSH server's version string is dropbear's.
func isDropbear(version []byte) bool {
	return bytes.Contains(bytes.ToLower(version), []byte("dropbear"))
}

func sshExec(ctx context.Context, pool Pool, t sshpool.Target, gate chan struct{}, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
	if len(script) > maxScript {
		return Exit{}, fmt.Errorf("exec on %s: the command is %d bytes, more than the %d a server is sure to accept", t.Name, len(script), maxScript)
	}
	lease, err := pool.Acquire(ctx, t)
	if err != nil {
		return Exit{}, err
	}
	defer lease.Release()
	if isDropbear(lease.Client.ServerVersion()) {
		select {
		case gate <- struct{}{}:
			defer func() { <-gate }()
		case <-ctx.Done():
			return Exit{}, fmt.Errorf("exec on %s: waiting for the previous command: %w", t.Name, ctx.Err())
		}
	}
	ch, reqs, release, err := lease.Channel(ctx)
	if err != nil {
		return Exit{}, err
	}
	defer release()
	defer ch.Close()

	exited := make(chan int, 1)
	reqsDone := make(chan struct{})
	go func() {
		defer close(reqsDone)
		sent := false
		for req := range reqs {
			code, ok := -1, false
			switch req.Type {
			case "exit-status":
				var m struct{ Status uint32 }
				if xssh.Unmarshal(req.Payload, &m) == nil {
					code, ok = int(m.Status), true
				}
			case "exit-signal":
				var m struct {
					Signal     string
					CoreDumped bool
					Error      string
					Lang       string
				}
				if xssh.Unmarshal(req.Payload, &m) == nil {
					code, ok = 128+signalNumber(m.Signal), true
				}
			}
			if req.WantReply {
				_ = req.Reply(false, nil)
			}
			if ok && !sent {
				sent = true
				exited <- code
			}
		}
	}()
	ok, err := ch.SendRequest("exec", true, xssh.Marshal(struct{ Command string }{script}))
	if err != nil || !ok {
		if err == nil {
			err = errors.New("the server refused to run a command")
		}
		return Exit{}, fmt.Errorf("exec on %s: %w", t.Name, err)
	}

	out := &guardWriter{w: stdout}
	in := &guardReader{r: stdin}
	errs := &guardWriter{w: &capBuffer{max: maxStderr}}
	abort := make(chan error, 2)
	var copies sync.WaitGroup
	copies.Add(2)
	go func() {
		defer copies.Done()
		if _, err := io.Copy(out, ch); err != nil && out.failed() != nil {
			abort <- out.failed()
		}
	}()
	go func() {
		defer copies.Done()
		_, _ = io.Copy(errs, ch.Stderr())
	}()
	if stdin == nil {
		_ = ch.CloseWrite()
	} else {
		go func() {
			_, _ = io.Copy(ch, in)
			if err := in.failed(); err != nil {
				abort <- err
				return
			}
			// A command that exits without reading all of stdin makes
			// the copy fail on the closed channel: not an error of ours.
			_ = ch.CloseWrite()
		}()
	}
	// Done once the output has ended and the exit status has come (or the
	// channel closed without one); the channel's own close may lag.
	finished := make(chan struct{})
	go func() {
		copies.Wait()
		select {
		case code := <-exited:
			exited <- code
		case <-reqsDone:
		}
		close(finished)
	}()

	var stopErr error
	select {
	case <-finished:
	case err := <-abort:
		stopErr = err
	case <-ctx.Done():
		stopErr = ctx.Err()
	}
	if stopErr != nil {
		_, _ = ch.SendRequest("signal", false, xssh.Marshal(struct{ Signal string }{"KILL"}))
		ch.Close()
	}
	// From here on nothing of the caller's is touched again.
	in.stop()
	out.stop()
	errs.stop()
	if stopErr != nil {
		return Exit{}, fmt.Errorf("exec on %s: %w", t.Name, stopErr)
	}
	stderr := errs.w.(*capBuffer).b
	select {
	case code := <-exited:
		return Exit{Code: code, Stderr: stderr}, nil
	default:
	}
	if err := lease.Err(); err != nil {
		return Exit{}, fmt.Errorf("exec on %s: %w: %v", t.Name, sshpool.ErrConnLost, err)
	}
	return Exit{}, fmt.Errorf("exec on %s: the command ended without an exit status", t.Name)
}

// signalNumbers maps RFC 4254 signal names to their Linux numbers.
var signalNumbers = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "ABRT": 6, "FPE": 8, "KILL": 9,
	"USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
}

func signalNumber(name string) int { return signalNumbers[name] }

// guardWriter passes writes on until stopped, then drops them; stop waits
// for a write in progress, so after it returns w is never called again.
type guardWriter struct {
	mu      sync.Mutex
	w       io.Writer
	stopped bool
	err     error
}

func (g *guardWriter) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return 0, io.ErrClosedPipe
	}
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.w.Write(p)
	if err != nil {
		g.err = err
	}
	return n, err
}

func (g *guardWriter) failed() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

func (g *guardWriter) stop() {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
}

// guardReader is guardWriter's counterpart for stdin; it records a read
// error, which ends the command.
type guardReader struct {
	mu      sync.Mutex
	r       io.Reader
	stopped bool
	err     error
}

func (g *guardReader) Read(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.stopped {
		return 0, io.EOF
	}
	n, err := g.r.Read(p)
	if err != nil && !errors.Is(err, io.EOF) {
		g.err = err
	}
	return n, err
}

func (g *guardReader) failed() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.err
}

func (g *guardReader) stop() {
	g.mu.Lock()
	g.stopped = true
	g.mu.Unlock()
}
