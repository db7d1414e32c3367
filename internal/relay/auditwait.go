package relay

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultAuditWait bounds how long a call waits on the audit log when
// Options names no bound.
const DefaultAuditWait = 10 * time.Second

// auditWait is how long a call waits on the audit log. A log on a file
// system that stops answering (an NFS share whose server is gone) keeps
// its write waiting in the kernel, and every later write and health check
// waits behind it: the call is answered instead, saying so, and its record
// is written, in order, once the file system answers.
func (r *Relay) auditWait() time.Duration {
	if r.opts.AuditWait > 0 {
		return r.opts.AuditWait
	}
	return DefaultAuditWait
}

// Record writes rec, waiting at most auditWait; a record still
// waiting then is counted in auditLate until it is written. Every record
// warden writes goes through here, the calls' and its own (sessions it
// ends, operators' actions, HTTP lockouts), so none waits on a log that
// does not answer.
func (r *Relay) Record(ctx context.Context, rec audit.Record) error {
	const (
		running int32 = iota
		finished
		late
	)
	var state atomic.Int32
	done := make(chan error, 1)
	go func() {
		_, err := r.opts.Audit.Append(context.WithoutCancel(ctx), rec)
		if !state.CompareAndSwap(running, finished) {
			r.auditLate.Add(-1)
		}
		done <- err
	}()
	wait := r.auditWait()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
	}
	if !state.CompareAndSwap(running, late) {
		return <-done // written just now
	}
	r.auditLate.Add(1)
	return fmt.Errorf("the audit log did not answer within %s (a file system that does not answer?); "+
		"the record is written once it does", wait)
}

// AuditHealthy reports whether the audit log is writable: not when its
// last write failed, nor while a record waits on it past auditWait, nor
// when it does not answer within auditWait.
func (r *Relay) AuditHealthy() (bool, string) {
	wait := r.auditWait()
	if n := r.auditLate.Load(); n > 0 {
		return false, fmt.Sprintf("%d audit records have waited on the audit log for more than %s (a file system that does not answer?); "+
			"they are written once it answers", n, wait)
	}
	type health struct {
		ok  bool
		why string
	}
	h, err := runner.Await(context.Background(), nil, wait, func() health {
		ok, why := r.opts.Audit.Healthy()
		return health{ok, why}
	})
	if err != nil {
		return false, fmt.Sprintf("the audit log did not answer within %s: a write to it waits, on a file system that does not answer?", wait)
	}
	return h.ok, h.why
}
