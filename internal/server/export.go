package server

import (
	"context"
	"crypto/tls"
	"fmt"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/audit/export"
	"github.com/warden-mcp/warden/internal/config"
)

// exportGrace bounds how long Close waits for sinks to send what is
// queued.
const exportGrace = 3 * time.Second

// sink is one audit.export sink: syslog or OpenTelemetry.
type sink interface {
	audit.Sink
	Run(ctx context.Context, grace time.Duration)
	Stats() export.Stats
}

// exporters are the running audit.export sinks.
type exporters struct {
	list   []sink
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// newExporters builds a sink per audit.export entry; none runs until start.
// node is the name records carry (audit.node or the host name).
func newExporters(cfg *config.Config, o Options, node string) (*exporters, error) {
	xs := &exporters{cancel: func() {}}
	for i, c := range cfg.Audit.Export {
		if c.Type == "otlp" {
			var tlsc *tls.Config
			if !c.Insecure && (c.CAFile != "" || c.CertFile != "" || c.ServerName != "") {
				var err error
				if tlsc, err = export.TLSConfig(c.Address, c.CAFile, c.CertFile, c.KeyFile, c.ServerName); err != nil {
					return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
				}
			}
			e, err := export.NewOTel(export.OTelOptions{Name: c.Name, Protocol: c.Protocol, Endpoint: c.Address,
				Insecure: c.Insecure, TLS: tlsc, Headers: c.Headers, Node: node, Version: o.Version, Queue: c.Queue})
			if err != nil {
				return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
			}
			xs.list = append(xs.list, e)
			continue
		}
		fac, err := export.Facility(c.Facility)
		if err != nil {
			return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
		}
		s := export.Syslog{Network: c.Network, Address: c.Address, Format: c.Format, Facility: fac,
			AppName: c.AppName, Version: o.Version}
		if c.Network == "tls" {
			if s.TLS, err = export.TLSConfig(c.Address, c.CAFile, c.CertFile, c.KeyFile, c.ServerName); err != nil {
				return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
			}
		}
		enc, err := s.Encoder()
		if err != nil {
			return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
		}
		e, err := export.New(export.Options{Name: c.Name, Queue: c.Queue, Dial: s.Dial(), Encode: enc, Logger: o.Logger})
		if err != nil {
			return nil, fmt.Errorf("audit.export[%d]: %w", i, err)
		}
		xs.list = append(xs.list, e)
	}
	return xs, nil
}

func (xs *exporters) sinks() []audit.Sink {
	var out []audit.Sink
	for _, e := range xs.list {
		out = append(out, e)
	}
	return out
}

func (xs *exporters) start() {
	ctx, cancel := context.WithCancel(context.Background())
	xs.cancel = cancel
	for _, e := range xs.list {
		xs.wg.Add(1)
		go func() {
			defer xs.wg.Done()
			e.Run(ctx, exportGrace)
		}()
	}
}

// stop lets each sink send what is queued, for up to exportGrace.
func (xs *exporters) stop() {
	xs.cancel()
	xs.wg.Wait()
}

func (xs *exporters) stats() []export.Stats {
	out := make([]export.Stats, 0, len(xs.list))
	for _, e := range xs.list {
		out = append(out, e.Stats())
	}
	return out
}

// AuditExports reports each audit.export sink's counters, for metrics and
// server_info.
func (w *Warden) AuditExports() []export.Stats { return w.exports.stats() }
