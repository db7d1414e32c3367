package ssh

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// spareStart bounds starting a spare shell in the background.
const spareStart = 10 * time.Second

// shell is a session whose login shell runs the stub: started, with the
// command still to be sent.
type shell struct {
	ch      xssh.Channel
	reqs    <-chan *xssh.Request
	release func() // frees the session slot
	marker  string
	client  *xssh.Client // the connection it runs on
	expire  *time.Timer  // closes an unused spare
}

// close closes the session and frees its slot.
func (s *shell) close() {
	s.ch.Close()
	s.release()
}

// channelFunc opens a session channel: sshpool.Lease's Channel or
// SpareChannel.
type channelFunc func(context.Context) (xssh.Channel, <-chan *xssh.Request, func(), error)

// startShell opens a session with open on lease's connection and starts
// the stub in it.
func (r *Runner) startShell(ctx context.Context, lease *sshpool.Lease, open channelFunc) (*shell, error) {
	ch, reqs, release, err := open(ctx)
	if err != nil {
		return nil, err
	}
	s := &shell{ch: ch, reqs: reqs, release: release, marker: newMarker(), client: lease.Client}
	ok, err := ch.SendRequest("exec", true, xssh.Marshal(execMsg{stub(r.target.Shell, s.marker)}))
	if err != nil || !ok {
		s.close()
		if err == nil {
			err = errors.New("the server refused to exec")
		}
		return nil, err
	}
	return s, nil
}

// shell leases the target's connection and returns a shell on it: the
// spare if one is waiting there or about to be, else a new one. A
// connection found dead at that point had run nothing of this call, so it
// is dropped and the call redials once. A new shell waits at most wait
// (when positive; the call's timeout) for one of the connection's
// sessions to free: commands that hold them all for longer would
// otherwise hold this call past its timeout.
func (r *Runner) shell(ctx context.Context, wait time.Duration) (*sshpool.Lease, *shell, error) {
	open := func(lease *sshpool.Lease) channelFunc {
		if wait <= 0 {
			return lease.Channel
		}
		return func(ctx context.Context) (xssh.Channel, <-chan *xssh.Request, func(), error) {
			ctx, cancel := context.WithTimeoutCause(ctx, wait,
				fmt.Errorf("no session on %s freed within %s, the call's timeout: commands and sessions hold every one the connection may carry", r.target.Name, wait))
			defer cancel()
			ch, reqs, release, err := lease.Channel(ctx)
			if err != nil && ctx.Err() != nil {
				err = context.Cause(ctx)
			}
			return ch, reqs, release, err
		}
	}
	for attempt := 0; ; attempt++ {
		lease, err := r.pool.Acquire(ctx, r.target)
		if err != nil {
			return nil, nil, err
		}
		if s := r.takeSpare(ctx, lease); s != nil {
			return lease, s, nil
		}
		s, err := r.startShell(ctx, lease, open(lease))
		if err == nil {
			return lease, s, nil
		}
		lease.Release()
		if attempt > 0 || !errors.Is(err, sshpool.ErrConnLost) {
			return nil, nil, err
		}
		r.log.Debug("ssh connection found dead; redialling", "host", r.target.Name, "err", err)
	}
}

// takeSpare returns the spare if it runs on lease's connection, closing
// one that does not. A spare still starting is waited for: it started
// before this call, so it is up no later than a new session would be.
func (r *Runner) takeSpare(ctx context.Context, lease *sshpool.Lease) *shell {
	r.mu.Lock()
	if fill := r.filling; r.spare == nil && fill != nil {
		r.mu.Unlock()
		select {
		case <-fill:
		case <-ctx.Done():
			return nil
		}
		r.mu.Lock()
	}
	s := r.spare
	r.spare = nil
	r.mu.Unlock()
	if s == nil {
		return nil
	}
	s.expire.Stop()
	if s.client != lease.Client {
		s.close()
		return nil
	}
	return s
}

// refill starts a spare in the background unless one is waiting or
// starting. It holds its own lease on the connection while it starts.
func (r *Runner) refill(lease *sshpool.Lease) {
	if r.prestart <= 0 {
		return
	}
	r.mu.Lock()
	if r.spare != nil || r.filling != nil {
		r.mu.Unlock()
		return
	}
	fill := make(chan struct{})
	r.filling = fill
	r.mu.Unlock()
	l := lease.Retain()
	go func() {
		defer l.Release()
		ctx, cancel := context.WithTimeout(context.Background(), spareStart)
		s, err := r.startShell(ctx, l, l.SpareChannel)
		cancel()
		r.mu.Lock()
		defer r.mu.Unlock()
		r.filling = nil
		close(fill)
		if err != nil {
			r.log.Debug("no spare shell", "host", r.target.Name, "err", err)
			return
		}
		s.expire = time.AfterFunc(r.prestart, func() { r.expireSpare(s) })
		r.spare = s
	}()
}

// expireSpare closes s if it is still the unused spare.
func (r *Runner) expireSpare(s *shell) {
	r.mu.Lock()
	mine := r.spare == s
	if mine {
		r.spare = nil
	}
	r.mu.Unlock()
	if mine {
		s.close()
	}
}

// errNotTaken says the shell ended before it had the whole script: the
// command never ran, so the call may try again on a new session.
var errNotTaken = errors.New("the login shell ended before it took the command (is it a POSIX-family shell?)")

// said quotes the start of what a login shell wrote before it ended, which
// is where a shell that is not POSIX-family, or a nologin, explains itself.
func said(res runner.Result) string {
	out := slices.Concat(res.Stderr, res.Stdout)
	if len(out) == 0 {
		return ""
	}
	return fmt.Sprintf("; it wrote %q", out[:min(len(out), 200)])
}
