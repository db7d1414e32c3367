package relay

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// stuckLog is an audit log whose writes and health checks wait until
// answer is closed, as one on a file system that stopped answering.
type stuckLog struct{ answer chan struct{} }

func (l stuckLog) Append(context.Context, audit.Record) (audit.Record, error) {
	<-l.answer
	return audit.Record{}, nil
}

func (l stuckLog) Healthy() (bool, string) { <-l.answer; return true, "" }

// TestAuditWaitBounded: a health check that does not answer reports the
// log unhealthy after AuditWait; a record that waits past it is counted,
// keeps the log unhealthy without another wait, and stops counting once
// it is written.
func TestAuditWaitBounded(t *testing.T) {
	log := stuckLog{answer: make(chan struct{})}
	r := &Relay{opts: Options{Audit: log, AuditWait: 50 * time.Millisecond}}
	if ok, why := r.AuditHealthy(); ok || !strings.Contains(why, "did not answer within 50ms") {
		t.Errorf("health of a log that does not answer: %v %q", ok, why)
	}
	if err := r.Record(t.Context(), audit.Record{}); err == nil || !strings.Contains(err.Error(), "written once it does") {
		t.Errorf("a record the log does not take: %v", err)
	}
	if ok, why := r.AuditHealthy(); ok || !strings.Contains(why, "1 audit records have waited") {
		t.Errorf("health with a record waiting: %v %q", ok, why)
	}
	close(log.answer)
	deadline := time.Now().Add(time.Minute)
	for r.auditLate.Load() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if ok, why := r.AuditHealthy(); !ok {
		t.Errorf("health once the log answers: %q", why)
	}
}
