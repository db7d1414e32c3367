// Package ssh owns running one command on a remote host for the pipeline:
// the runner.Runner that execs over a pooled SSH connection with the same
// contract as the local runner — exactly the given environment, cwd,
// stdin, the shared bounded capture, exit codes, and a timeout or
// cancellation that ends the remote command and everything it started.
//
// On the remote side the command's environment is exactly Request.Env
// (cleared with shell builtins in the login shell, or through env -i; see
// command); a program named without a slash is found in that
// PATH, or in /usr/bin:/bin when Env has none, as the remote libc would.
//
// Killing: the runner sends the SSH "signal" request, which OpenSSH honours
// for non-root logins (it signals the session's process group), and also
// signals the process group by pid from a second session, which works for
// root logins too, where OpenSSH refuses signal requests. SIGTERM, then
// SIGKILL after the grace period, then the channel is closed.
//
// Each command runs in a session of its own, in which the login shell
// first runs a fixed stub and then reads the command from stdin (see
// stub). With Options.Prestart, each call starts the session for the next
// one while it runs, so the next call finds the session open and the
// login shell started, its environment already cleared: what a bare
// session pays in sshd's fork and the shell's exec is paid between calls.
// Such a spare is the same one-command session as any other — its own
// process group, fresh output pipes, the login's environment cleared —
// only started earlier. It never takes a connection's last free session
// slot, does not hold the connection open (an idle connection still
// closes, taking the spare with it), and is closed if no call takes it
// within Prestart, so its login is never much older than the call.
//
// After the command exits, anything it left holding its output open is
// killed with its process group, as the local runner does. A process that
// both detached from the output and outlived the command is not chased:
// that would cost a second round trip on every call.
package ssh

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// DefaultDrain is how long output is still read after the command exits
// before whatever holds it open is killed.
const DefaultDrain = 100 * time.Millisecond

// controlTimeout bounds a kill sent through a second session.
const controlTimeout = 5 * time.Second

// Pool is what the runner needs of sshpool.Pool.
type Pool interface {
	Acquire(ctx context.Context, t sshpool.Target) (*sshpool.Lease, error)
}

// Options tunes a Runner. The zero value gives the production behaviour.
type Options struct {
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Now is the clock for durations; nil means time.Now.
	Now func() time.Time
	// ProgressEvery is how often Request.Progress is called; zero means
	// runner.ProgressEvery.
	ProgressEvery time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL; zero means
	// runner.KillGrace.
	KillGrace time.Duration
	// Drain is how long output is read after exit before the process
	// group is killed; zero means DefaultDrain.
	Drain time.Duration
	// KeepHome gives the command the remote login's own HOME when the
	// request's Env names none; otherwise the environment is exactly Env.
	KeepHome bool
	// Prestart has each call start the session for the next one, which
	// is closed if no call takes it within this time; zero starts none.
	// Worth it for a Runner that is kept and called again.
	Prestart time.Duration
}

// Runner runs commands on one remote host. It is safe for concurrent use.
type Runner struct {
	pool   Pool
	target sshpool.Target
	log    *slog.Logger
	now    func() time.Time
	every  time.Duration
	grace  time.Duration
	drain  time.Duration
	home   bool

	prestart time.Duration
	mu       sync.Mutex
	spare    *shell        // guarded by mu
	filling  chan struct{} // guarded by mu: closed when the spare starting now is up
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner for target over pool.
func New(pool Pool, target sshpool.Target, opts Options) *Runner {
	r := &Runner{
		pool:   pool,
		target: target,
		log:    opts.Logger,
		now:    opts.Now,
		every:  opts.ProgressEvery,
		grace:  opts.KillGrace,
		drain:  opts.Drain,
		home:   opts.KeepHome,

		prestart: opts.Prestart,
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.now == nil {
		r.now = time.Now
	}
	if r.every <= 0 {
		r.every = runner.ProgressEvery
	}
	if r.grace <= 0 {
		r.grace = runner.KillGrace
	}
	if r.drain <= 0 {
		r.drain = DefaultDrain
	}
	if r.target.Shell == "" {
		r.target.Shell = sshpool.DefaultShell
	}
	return r
}

// execMsg is the payload of an "exec" request (RFC 4254 6.5).
type execMsg struct{ Command string }

// signalMsg is the payload of a "signal" request (RFC 4254 6.9).
type signalMsg struct{ Signal string }

// exitStatusMsg and exitSignalMsg are the server's report of how the
// command ended (RFC 4254 6.10).
type exitStatusMsg struct{ Status uint32 }

type exitSignalMsg struct {
	Signal     string
	CoreDumped bool
	Error      string
	Lang       string
}

// stopReason says why the runner stopped a command.
type stopReason string

const (
	stopTimeout stopReason = "timeout"
	stopCancel  stopReason = "cancel"
)

// Run runs req on the target and waits for it to exit, time out or be
// cancelled. A command that ran returns a nil error whatever its exit; an
// error means it did not run, or the connection was lost and its outcome
// is unknown (wrapping sshpool.ErrConnLost).
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("run: empty argv")
	}
	if err := ctx.Err(); err != nil {
		return runner.Result{}, fmt.Errorf("run: %w", err)
	}
	script, prog, err := command(r.target.Shell, req, r.home)
	if err != nil {
		return runner.Result{}, fmt.Errorf("run on %s: %w", r.target.Name, err)
	}
	start := r.now()
	framed := frame(script)
	res, err := r.run(ctx, req, framed, prog, start)
	if errors.Is(err, errNotTaken) {
		// A spare the server closed while it waited, most likely.
		r.log.Debug("remote shell gone before the command; retrying on a new session", "host", r.target.Name, "err", err)
		res, err = r.run(ctx, req, framed, prog, start)
	}
	return res, err
}

// run sends the framed script to a shell and waits for the command.
func (r *Runner) run(ctx context.Context, req runner.Request, script []byte, prog string, start time.Time) (runner.Result, error) {
	lease, sh, err := r.shell(ctx, req.Timeout)
	if err != nil {
		return runner.Result{}, fmt.Errorf("run on %s: %w", r.target.Name, err)
	}
	defer lease.Release()
	defer sh.close()
	ch := sh.ch

	capture := runner.NewCapture(req.MaxBytes)
	rep := newReport()
	exited := make(chan exit, 1)
	closed := make(chan struct{})
	go watchRequests(sh.reqs, exited, closed)

	var output sync.WaitGroup
	output.Add(2)
	go func() {
		defer output.Done()
		_, _ = io.Copy(capture.Stdout(), ch)
	}()
	go func() {
		defer output.Done()
		f := &stderrFilter{w: capture.Stderr(), marker: []byte(sh.marker), rep: rep}
		_, _ = io.Copy(f, ch.Stderr())
		f.flush()
	}()
	outputDone := make(chan struct{})
	go func() { output.Wait(); close(outputDone) }()
	go func() {
		if _, err := ch.Write(script); err == nil && len(req.Stdin) > 0 {
			_, _ = ch.Write(req.Stdin)
		}
		_ = ch.CloseWrite()
	}()
	r.refill(lease)
	stopProgress := capture.ReportProgress(req.Progress, r.every, start, r.now)

	var timeout <-chan time.Time
	if req.Timeout > 0 {
		t := time.NewTimer(req.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	k := &killer{r: r, lease: lease, ch: ch, rep: rep}
	var (
		ex   exit
		have bool
		why  stopReason
	)
	select {
	case ex = <-exited:
		have = true
	case <-closed:
		ex, have = exitAfterClose(exited)
	case <-timeout:
		why = stopTimeout
	case <-ctx.Done():
		why = stopCancel
	}
	if why != "" {
		ex, have = k.stop(exited, closed)
	}
	if have {
		// Output still open after the command exited is held by
		// something it started: kill its group, as the local runner
		// does, then stop waiting.
		select {
		case <-outputDone:
		case <-time.After(r.drain):
			k.signal("KILL")
			select {
			case <-outputDone:
			case <-time.After(time.Second):
			}
		}
	}
	ch.Close()
	<-outputDone
	stopProgress()

	res := runner.Result{
		ExitCode: -1,
		TimedOut: why == stopTimeout,
		Canceled: why == stopCancel,
		Duration: r.now().Sub(start),
	}
	capture.Fill(&res)
	if have {
		res.ExitCode = ex.code
	}
	rep.mu.Lock()
	noDir, noProg, started := rep.noDir, rep.noProg, rep.started
	rep.mu.Unlock()
	switch {
	case !started && why == "" && lease.Err() == nil:
		// Nothing the command wrote can have arrived: the stub reports
		// "go" before it evals, and a live connection delivers it first.
		return runner.Result{}, fmt.Errorf("run on %s: %w%s", r.target.Name, errNotTaken, said(res))
	case noDir:
		return runner.Result{}, fmt.Errorf("run on %s: chdir %q: no such directory, or not accessible", r.target.Name, req.Dir)
	case noProg:
		return runner.Result{}, fmt.Errorf("run on %s: exec %q: executable file not found", r.target.Name, prog)
	case !have && why == "":
		return res, r.lost(lease)
	}
	return res, nil
}

// lost explains a channel that closed without an exit status, and drops
// the connection if that is what died so the next call redials.
func (r *Runner) lost(lease *sshpool.Lease) error {
	cause := lease.Err()
	if cause == nil {
		select {
		case <-lease.Dead():
			cause = lease.Err()
		case <-time.After(200 * time.Millisecond):
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			_, perr := lease.Ping(ctx)
			cancel()
			if perr == nil {
				return fmt.Errorf("run on %s: the remote command ended without an exit status", r.target.Name)
			}
			cause = perr
			lease.Invalidate(perr)
		}
	}
	return fmt.Errorf("run on %s: %w during the command; its outcome is unknown (%v)", r.target.Name, sshpool.ErrConnLost, cause)
}

// exit is how the remote command ended.
type exit struct{ code int }

// watchRequests reads the channel's requests, reporting the exit status
// or signal on exited, and closes closed when the channel closes.
func watchRequests(reqs <-chan *xssh.Request, exited chan<- exit, closed chan<- struct{}) {
	defer close(closed)
	sent := false
	for req := range reqs {
		var code int
		var ok bool
		switch req.Type {
		case "exit-status":
			var m exitStatusMsg
			if xssh.Unmarshal(req.Payload, &m) == nil {
				code, ok = int(m.Status), true
			}
		case "exit-signal":
			var m exitSignalMsg
			if xssh.Unmarshal(req.Payload, &m) == nil {
				code, ok = 128+signalNumber(m.Signal), true
			}
		}
		if req.WantReply {
			_ = req.Reply(false, nil)
		}
		if ok && !sent {
			sent = true
			exited <- exit{code}
		}
	}
}

// signalNumbers maps RFC 4254 signal names to their Linux numbers, for the
// 128+n exit code a shell would report.
var signalNumbers = map[string]int{
	"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "ABRT": 6, "FPE": 8, "KILL": 9,
	"USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15,
}

// signalNumber returns the number for a signal name; 0 for one it does not
// know, making the exit code 128.
func signalNumber(name string) int { return signalNumbers[name] }

func newMarker() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return "warden-" + hex.EncodeToString(b) + ":"
}
