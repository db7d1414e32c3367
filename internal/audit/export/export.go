// Package export ships audit records off the host: each Exporter is an
// audit.Sink with a bounded queue, fed after the record is written locally
// (the local log stays the source of truth), and a goroutine that sends
// what is queued to one collector, reconnecting with backoff when it
// fails.
//
// The choices a reader must know:
//   - Send never blocks. A record that finds the queue full is dropped and
//     counted (Stats.Dropped); a collector that stops reading only ever
//     costs dropped exports, never a slower call.
//   - Delivery is at least once: a message whose write fails is sent again
//     after reconnecting, so a collector may see it twice. Every message
//     carries the record's seq and hash, which identify it, and anchor
//     the chain: a copy of them elsewhere is what detects a local log that
//     was truncated and had its head file rewritten.
//   - Records other warden processes sharing the log append are shipped by
//     those processes' own exporters.
//   - Syslog (RFC 5424) over UDP (one message per datagram, RFC 5426), TCP
//     (RFC 6587 octet counting) or TLS (RFC 5425 framing). The message body
//     is the exact log line (format json), or a CEF or LEEF event.
package export

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// Stats is what an Exporter reports to metrics and server_info.
type Stats struct {
	Name      string `json:"name"`
	Sent      uint64 `json:"sent"`
	Dropped   uint64 `json:"dropped"`
	Retries   uint64 `json:"retries"`
	Queued    int    `json:"queued"`
	Connected bool   `json:"connected"`
	LastError string `json:"last_error,omitempty"`
}

// DialFunc opens a connection to the collector.
type DialFunc func(ctx context.Context) (io.WriteCloser, error)

// EncodeFunc appends one message, framing included, to dst.
type EncodeFunc func(dst []byte, r audit.Record, line []byte) []byte

// Options configure an Exporter.
type Options struct {
	Name   string
	Queue  int // records waiting to be sent; at least 1
	Dial   DialFunc
	Encode EncodeFunc
	// WriteTimeout bounds one write; a collector that accepts nothing
	// for this long is reconnected. Default 30s.
	WriteTimeout time.Duration
	// Backoff is the first pause after a failure, doubled up to MaxBackoff.
	// Defaults 100ms and 30s.
	Backoff, MaxBackoff time.Duration
	Logger              *slog.Logger // nil = discard
}

type item struct {
	r    audit.Record
	line []byte
}

// Exporter sends audit records to one collector. Run it with Run; Send
// queues without blocking.
type Exporter struct {
	o                      Options
	q                      chan item
	sent, dropped, retries atomic.Uint64
	connected              atomic.Bool
	mu                     sync.Mutex
	lastErr                string
}

var _ audit.Sink = (*Exporter)(nil)

// New returns an Exporter; nothing is sent until Run.
func New(o Options) (*Exporter, error) {
	if o.Queue < 1 {
		return nil, fmt.Errorf("export %s: queue must be at least 1", o.Name)
	}
	if o.Dial == nil || o.Encode == nil {
		return nil, fmt.Errorf("export %s: no dial or encode", o.Name)
	}
	if o.WriteTimeout <= 0 {
		o.WriteTimeout = 30 * time.Second
	}
	if o.Backoff <= 0 {
		o.Backoff = 100 * time.Millisecond
	}
	if o.MaxBackoff < o.Backoff {
		o.MaxBackoff = max(30*time.Second, o.Backoff)
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Exporter{o: o, q: make(chan item, o.Queue)}, nil
}

// Send queues a record, or counts it dropped when the queue is full.
func (e *Exporter) Send(r audit.Record, line []byte) {
	select {
	case e.q <- item{r, line}:
	default:
		if e.dropped.Add(1) == 1 {
			e.o.Logger.Warn("audit export queue full; dropping records until it drains", "sink", e.o.Name)
		}
	}
}

// Stats reports the Exporter's counters.
func (e *Exporter) Stats() Stats {
	e.mu.Lock()
	last := e.lastErr
	e.mu.Unlock()
	return Stats{
		Name: e.o.Name, Sent: e.sent.Load(), Dropped: e.dropped.Load(), Retries: e.retries.Load(),
		Queued: len(e.q), Connected: e.connected.Load(), LastError: last,
	}
}

// deadliner is a connection whose writes can time out.
type deadliner interface {
	SetWriteDeadline(time.Time) error
}

// Run sends queued records until ctx ends, then tries for up to grace to
// send what is still queued.
func (e *Exporter) Run(ctx context.Context, grace time.Duration) {
	var conn io.WriteCloser
	defer func() {
		if conn != nil {
			conn.Close()
		}
		e.connected.Store(false)
	}()
	var buf []byte
	pause := e.o.Backoff
	var pending *item
	draining := false
	var deadline time.Time
	for {
		if !draining && ctx.Err() != nil {
			draining, deadline = true, time.Now().Add(grace)
		}
		if pending == nil {
			select {
			case it := <-e.q:
				pending = &it
			case <-ctx.Done():
				if !draining {
					draining, deadline = true, time.Now().Add(grace)
				}
				select {
				case it := <-e.q:
					pending = &it
				default:
					return
				}
			}
		}
		if draining && time.Now().After(deadline) {
			return
		}
		if conn == nil {
			dctx := ctx
			var cancel context.CancelFunc = func() {}
			if draining {
				dctx, cancel = context.WithDeadline(context.Background(), deadline)
			}
			c, err := e.o.Dial(dctx)
			cancel()
			if err != nil {
				e.failed(err)
				if !e.sleep(ctx, &pause, draining, deadline) {
					return
				}
				continue
			}
			conn = c
			e.connected.Store(true)
		}
		buf = e.o.Encode(buf[:0], pending.r, pending.line)
		if d, ok := conn.(deadliner); ok {
			dl := time.Now().Add(e.o.WriteTimeout)
			if draining && deadline.Before(dl) {
				dl = deadline
			}
			d.SetWriteDeadline(dl)
		}
		if _, err := conn.Write(buf); err != nil {
			conn.Close()
			conn = nil
			e.connected.Store(false)
			e.retries.Add(1)
			e.failed(err)
			if !e.sleep(ctx, &pause, draining, deadline) {
				return
			}
			continue
		}
		e.sent.Add(1)
		pending = nil
		pause = e.o.Backoff
	}
}

func (e *Exporter) failed(err error) {
	e.mu.Lock()
	first := e.lastErr == ""
	e.lastErr = err.Error()
	e.mu.Unlock()
	if first {
		e.o.Logger.Warn("audit export failed; retrying with backoff", "sink", e.o.Name, "err", err)
	} else {
		e.o.Logger.Debug("audit export failed", "sink", e.o.Name, "err", err)
	}
}

// sleep waits out the backoff, doubling it; it reports false when the
// Exporter should stop.
func (e *Exporter) sleep(ctx context.Context, pause *time.Duration, draining bool, deadline time.Time) bool {
	d := *pause
	*pause = min(*pause*2, e.o.MaxBackoff)
	if draining {
		if time.Until(deadline) < d {
			return false
		}
		time.Sleep(d)
		return true
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return true // the loop sees ctx and drains
	}
}
