package ssh

import (
	"context"
	"fmt"
	"io"
	"time"

	xssh "golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshpool"
)

// afterKill bounds the wait for an exit status once SIGKILL is sent.
const afterKill = 5 * time.Second

// killer ends one remote command.
type killer struct {
	r     *Runner
	lease *sshpool.Lease
	ch    xssh.Channel
	rep   *report
}

// stop sends SIGTERM, then SIGKILL after the grace period, and returns the
// exit the command reports, if it reports one before the channel closes.
func (k *killer) stop(exited <-chan exit, closed <-chan struct{}) (exit, bool) {
	k.signal("TERM")
	select {
	case ex := <-exited:
		return ex, true
	case <-closed:
		return exitAfterClose(exited)
	case <-time.After(k.r.grace):
	}
	k.signal("KILL")
	select {
	case ex := <-exited:
		return ex, true
	case <-closed:
		return exitAfterClose(exited)
	case <-time.After(afterKill):
		k.r.log.Warn("remote command did not report an exit after SIGKILL; closing its channel", "host", k.r.target.Name)
	}
	return exit{}, false
}

// exitAfterClose returns the exit reported before the channel closed, if
// any: watchRequests sends it before closing, but a select seeing both
// ready may pick either.
func exitAfterClose(exited <-chan exit) (exit, bool) {
	select {
	case ex := <-exited:
		return ex, true
	default:
		return exit{}, false
	}
}

// signal sends sig to the command's process group both ways: the SSH
// signal request, which OpenSSH refuses for root logins, and kill(1) on
// the group from a control session.
func (k *killer) signal(sig string) {
	_, _ = k.ch.SendRequest("signal", false, xssh.Marshal(signalMsg{sig}))
	pid := k.rep.getPid()
	if pid == 0 {
		// The script reports its pid first thing; it may still be on
		// its way.
		select {
		case <-k.rep.pidSet:
			pid = k.rep.getPid()
		case <-time.After(time.Second):
			k.r.log.Warn("remote pid unknown; relying on the signal request", "host", k.r.target.Name, "signal", sig)
			return
		}
	}
	if err := k.r.remoteKill(k.lease, pid, sig); err != nil {
		k.r.log.Warn("remote kill failed", "host", k.r.target.Name, "signal", sig, "err", err)
	}
}

// remoteKill signals process group pid on the target from a control
// session. The group is signalled only while it is known to hold the
// command (before its exit status, or while it still holds the output),
// so the id cannot have been reused.
func (r *Runner) remoteKill(lease *sshpool.Lease, pid int, sig string) error {
	ctx, cancel := context.WithTimeout(context.Background(), controlTimeout)
	defer cancel()
	ch, reqs, release, err := lease.ControlChannel(ctx)
	if err != nil {
		return err
	}
	defer release()
	defer ch.Close()
	go xssh.DiscardRequests(reqs)
	cmd := fmt.Sprintf("kill -%s -%d 2>/dev/null || kill -%s %d 2>/dev/null", sig, pid, sig, pid)
	ok, err := ch.SendRequest("exec", true, xssh.Marshal(execMsg{cmd}))
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("the server refused to exec kill")
	}
	_ = ch.CloseWrite()
	done := make(chan struct{})
	go func() {
		_, _ = io.Copy(io.Discard, ch)
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
