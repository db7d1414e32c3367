// Package metrics owns warden's Prometheus metrics: calls by tool,
// decision and status, call latency, audit write failures, audit export
// sinks (sent, dropped, retried, queued, connected), edge refusals
// (authentication failures, lockouts, source and rate refusals), and gauges
// read at scrape time (MCP sessions, terminal sessions, pooled SSH
// connections, locked-out sources). It is served on its own loopback
// listener, never on the MCP port.
package metrics

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/warden-mcp/warden/internal/audit/export"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/relay"
)

// Gauges are read at scrape time; a nil func is left out.
type Gauges struct {
	MCPSessions      func() float64
	TerminalSessions func() float64
	SSHConnections   func() float64
	LockedSources    func() float64
	// AuditExports reports the audit export sinks (sent, dropped, …).
	AuditExports func() []export.Stats
}

// Metrics collects warden's metrics in its own registry.
type Metrics struct {
	reg           *prometheus.Registry
	calls         *prometheus.CounterVec
	latency       *prometheus.HistogramVec
	auditFailures prometheus.Counter
	edgeEvents    *prometheus.CounterVec
	lockouts      prometheus.Counter
}

// New registers every metric.
func New(g Gauges) *Metrics {
	reg := prometheus.NewRegistry()
	m := &Metrics{
		reg: reg,
		calls: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_calls_total",
			Help: "Tool calls by tool, policy decision and outcome status.",
		}, []string{"tool", "decision", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "warden_call_duration_seconds",
			Help:    "Tool call latency from arrival to audited result.",
			Buckets: []float64{.001, .005, .01, .05, .1, .5, 1, 5, 15, 60, 300},
		}, []string{"tool"}),
		auditFailures: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_audit_write_failures_total",
			Help: "Audit records that could not be written.",
		}),
		edgeEvents: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "warden_http_refusals_total",
			Help: "HTTP requests or connections refused at the edge, by reason (invalid_token and insufficient_scope are authentication failures).",
		}, []string{"reason"}),
		lockouts: prometheus.NewCounter(prometheus.CounterOpts{
			Name: "warden_lockouts_total",
			Help: "Sources put in the lockout table after failed authentications.",
		}),
	}
	reg.MustRegister(m.calls, m.latency, m.auditFailures, m.edgeEvents, m.lockouts,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	gauge := func(name, help string, f func() float64) {
		if f != nil {
			reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, f))
		}
	}
	gauge("warden_mcp_sessions", "Connected stateful MCP client sessions.", g.MCPSessions)
	gauge("warden_terminal_sessions", "Open interactive terminal sessions.", g.TerminalSessions)
	gauge("warden_ssh_connections", "Open pooled SSH connections, jump hops included.", g.SSHConnections)
	gauge("warden_locked_sources", "Sources in the lockout table now.", g.LockedSources)
	if g.AuditExports != nil {
		reg.MustRegister(newExportCollector(g.AuditExports))
	}
	return m
}

// Observe counts a finished call; it is the relay's Options.Observe.
func (m *Metrics) Observe(o relay.Observation) {
	m.calls.WithLabelValues(o.Tool, o.Decision, o.Status).Inc()
	m.latency.WithLabelValues(o.Tool).Observe(o.Duration.Seconds())
	if o.AuditFailed {
		m.auditFailures.Inc()
	}
}

// AuditFailed counts an audit write that failed outside a call (an edge
// lockout record).
func (m *Metrics) AuditFailed() { m.auditFailures.Inc() }

// Edge counts a refusal at the edge; it is edge.Options.OnEvent.
func (m *Metrics) Edge(e edge.Event) { m.edgeEvents.WithLabelValues(string(e)).Inc() }

// Lockout counts a source put in the lockout table.
func (m *Metrics) Lockout() { m.lockouts.Inc() }

// Handler serves the metrics in the Prometheus text format.
func (m *Metrics) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{}))
	return mux
}

// Serve serves /metrics on ln until ctx ends.
func (m *Metrics) Serve(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: m.Handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
