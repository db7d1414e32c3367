package metrics

import (
	"io"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/audit/export"
)

func TestAuditExportMetrics(t *testing.T) {
	m := New(Gauges{AuditExports: func() []export.Stats {
		return []export.Stats{{Name: "siem", Sent: 7, Dropped: 3, Retries: 1, Queued: 2, Connected: true}}
	}})
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	body, _ := io.ReadAll(rec.Body)
	for _, want := range []string{
		`warden_audit_export_sent_total{sink="siem"} 7`,
		`warden_audit_export_dropped_total{sink="siem"} 3`,
		`warden_audit_export_retries_total{sink="siem"} 1`,
		`warden_audit_export_queued{sink="siem"} 2`,
		`warden_audit_export_connected{sink="siem"} 1`,
	} {
		if !strings.Contains(string(body), want) {
			t.Errorf("metrics lack %s", want)
		}
	}
}
