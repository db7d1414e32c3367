package metrics

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/warden-mcp/warden/internal/audit/export"
)

// exportCollector reports each audit export sink's counters at scrape time.
type exportCollector struct {
	stats                                  func() []export.Stats
	sent, dropped, retries, queued, online *prometheus.Desc
}

func newExportCollector(stats func() []export.Stats) *exportCollector {
	d := func(name, help string) *prometheus.Desc {
		return prometheus.NewDesc(name, help, []string{"sink"}, nil)
	}
	return &exportCollector{
		stats:   stats,
		sent:    d("warden_audit_export_sent_total", "Audit records written to the sink's connection."),
		dropped: d("warden_audit_export_dropped_total", "Audit records not exported because the sink's queue was full (they are in the local log)."),
		retries: d("warden_audit_export_retries_total", "Writes to the sink that failed and were retried after reconnecting."),
		queued:  d("warden_audit_export_queued", "Audit records waiting in the sink's queue."),
		online:  d("warden_audit_export_connected", "1 while the sink has a connection to its collector."),
	}
}

func (c *exportCollector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.sent, c.dropped, c.retries, c.queued, c.online} {
		ch <- d
	}
}

func (c *exportCollector) Collect(ch chan<- prometheus.Metric) {
	for _, s := range c.stats() {
		online := 0.0
		if s.Connected {
			online = 1
		}
		ch <- prometheus.MustNewConstMetric(c.sent, prometheus.CounterValue, float64(s.Sent), s.Name)
		ch <- prometheus.MustNewConstMetric(c.dropped, prometheus.CounterValue, float64(s.Dropped), s.Name)
		ch <- prometheus.MustNewConstMetric(c.retries, prometheus.CounterValue, float64(s.Retries), s.Name)
		ch <- prometheus.MustNewConstMetric(c.queued, prometheus.GaugeValue, float64(s.Queued), s.Name)
		ch <- prometheus.MustNewConstMetric(c.online, prometheus.GaugeValue, online, s.Name)
	}
}
