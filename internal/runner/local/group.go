package local

import (
	"sync"
	"syscall"
	"time"
)

// stopReason says why warden stopped a command before it exited.
type stopReason string

const (
	stopTimeout stopReason = "timeout"
	stopCancel  stopReason = "cancel"
)

// killer signals a command's process group on timeout or cancellation:
// SIGTERM, then SIGKILL after the grace period. Once the main process has
// exited it sends nothing more, because the group id is only known to be
// the command's while its leader is unreaped.
type killer struct {
	mu      sync.Mutex
	pgid    int
	grace   time.Duration
	done    bool
	why     stopReason
	timeout *time.Timer
	kill    *time.Timer
}

// stop asks the group to end for reason why; the first reason wins.
func (k *killer) stop(why stopReason) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.done || k.why != "" {
		return
	}
	k.why = why
	killGroup(k.pgid, syscall.SIGTERM)
	k.kill = time.AfterFunc(k.grace, func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		if !k.done {
			killGroup(k.pgid, syscall.SIGKILL)
		}
	})
}

// exited records that the main process has exited and cancels pending
// signals. The caller reads why only after this returns.
func (k *killer) exited() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.done = true
	if k.timeout != nil {
		k.timeout.Stop()
	}
	if k.kill != nil {
		k.kill.Stop()
	}
}

// killGroup sends sig to every process in group pgid. An empty group is
// the common case after a clean exit, not an error.
func killGroup(pgid int, sig syscall.Signal) {
	_ = syscall.Kill(-pgid, sig)
}
