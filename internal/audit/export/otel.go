package export

import (
	"context"
	"crypto/sha256"
	"crypto/tls"
	"fmt"
	"sync/atomic"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploggrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlplog/otlploghttp"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	otellog "go.opentelemetry.io/otel/log"
	sdklog "go.opentelemetry.io/otel/sdk/log"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc/credentials"

	"github.com/warden-mcp/warden/internal/audit"
)

// OTelOptions configure an OpenTelemetry sink.
type OTelOptions struct {
	Name     string
	Protocol string // grpc or http (OTLP/HTTP with protobuf)
	Endpoint string // host:port of the collector
	Insecure bool   // plaintext instead of TLS
	TLS      *tls.Config
	Headers  map[string]string
	Node     string // resource host.name
	Version  string // resource service.version
	Queue    int
}

// OTel ships each record as an OpenTelemetry log record over OTLP, with
// the exact log line as body and the record's fields as attributes, and
// one span per record (tool, host, tier, decision, status, duration),
// whose trace ID is derived from the call id, so the per-host records of a
// fan-out share one trace. It queues like Exporter: Send never blocks.
type OTel struct {
	name    string
	q       chan item
	lp      *sdklog.LoggerProvider
	tp      *sdktrace.TracerProvider
	logger  otellog.Logger
	tracer  trace.Tracer
	sent    atomic.Uint64
	dropped atomic.Uint64
}

var _ audit.Sink = (*OTel)(nil)

// NewOTel builds the OTLP exporters; they connect on first use.
func NewOTel(o OTelOptions) (*OTel, error) {
	if o.Queue < 1 {
		return nil, fmt.Errorf("export %s: queue must be at least 1", o.Name)
	}
	ctx := context.Background()
	var lexp sdklog.Exporter
	var texp sdktrace.SpanExporter
	var err error
	switch o.Protocol {
	case "grpc":
		lo := []otlploggrpc.Option{otlploggrpc.WithEndpoint(o.Endpoint), otlploggrpc.WithHeaders(o.Headers)}
		to := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(o.Endpoint), otlptracegrpc.WithHeaders(o.Headers)}
		if o.Insecure {
			lo, to = append(lo, otlploggrpc.WithInsecure()), append(to, otlptracegrpc.WithInsecure())
		} else if o.TLS != nil {
			c := credentials.NewTLS(o.TLS)
			lo, to = append(lo, otlploggrpc.WithTLSCredentials(c)), append(to, otlptracegrpc.WithTLSCredentials(c))
		}
		if lexp, err = otlploggrpc.New(ctx, lo...); err == nil {
			texp, err = otlptracegrpc.New(ctx, to...)
		}
	case "http":
		lo := []otlploghttp.Option{otlploghttp.WithEndpoint(o.Endpoint), otlploghttp.WithHeaders(o.Headers)}
		to := []otlptracehttp.Option{otlptracehttp.WithEndpoint(o.Endpoint), otlptracehttp.WithHeaders(o.Headers)}
		if o.Insecure {
			lo, to = append(lo, otlploghttp.WithInsecure()), append(to, otlptracehttp.WithInsecure())
		} else if o.TLS != nil {
			lo, to = append(lo, otlploghttp.WithTLSClientConfig(o.TLS)), append(to, otlptracehttp.WithTLSClientConfig(o.TLS))
		}
		if lexp, err = otlploghttp.New(ctx, lo...); err == nil {
			texp, err = otlptracehttp.New(ctx, to...)
		}
	default:
		return nil, fmt.Errorf("export %s: unknown OTLP protocol %q (want grpc or http)", o.Name, o.Protocol)
	}
	if err != nil {
		return nil, fmt.Errorf("export %s: %w", o.Name, err)
	}
	res := resource.NewSchemaless(
		attribute.String("service.name", "warden"),
		attribute.String("service.version", o.Version),
		attribute.String("host.name", o.Node),
	)
	lp := sdklog.NewLoggerProvider(sdklog.WithResource(res), sdklog.WithProcessor(sdklog.NewBatchProcessor(lexp)))
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithBatcher(texp), sdktrace.WithSampler(sdktrace.AlwaysSample()))
	return &OTel{
		name: o.Name, q: make(chan item, o.Queue), lp: lp, tp: tp,
		logger: lp.Logger("github.com/warden-mcp/warden/internal/audit"),
		tracer: tp.Tracer("github.com/warden-mcp/warden/internal/audit"),
	}, nil
}

// Send queues a record, or counts it dropped when the queue is full.
func (e *OTel) Send(r audit.Record, line []byte) {
	select {
	case e.q <- item{r, line}:
	default:
		e.dropped.Add(1)
	}
}

// Stats reports the sink's counters. Sent counts records handed to the
// OpenTelemetry SDK, whose batch processors send them on.
func (e *OTel) Stats() Stats {
	return Stats{Name: e.name, Sent: e.sent.Load(), Dropped: e.dropped.Load(), Queued: len(e.q)}
}

// Run hands queued records to the SDK until ctx ends, then flushes for up
// to grace and shuts the providers down.
func (e *OTel) Run(ctx context.Context, grace time.Duration) {
	for {
		select {
		case it := <-e.q:
			e.emit(it)
			continue
		case <-ctx.Done():
		}
		break
	}
	for {
		select {
		case it := <-e.q:
			e.emit(it)
			continue
		default:
		}
		break
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	e.lp.Shutdown(sctx)
	e.tp.Shutdown(sctx)
}

// traceIDs derives a trace ID and a parent span ID from a call id.
func traceIDs(callID string) (trace.TraceID, trace.SpanID) {
	sum := sha256.Sum256([]byte("warden trace " + callID))
	var t trace.TraceID
	var s trace.SpanID
	copy(t[:], sum[:16])
	copy(s[:], sum[16:24])
	return t, s
}

func (e *OTel) emit(it item) {
	r := it.r
	attrs := []attribute.KeyValue{
		attribute.String("warden.tool", r.Tool), attribute.String("warden.host", r.Host),
		attribute.Int("warden.tier", r.Tier), attribute.String("warden.decision", r.Decision),
		attribute.String("warden.status", r.Status), attribute.Int64("warden.duration_ms", r.DurationMS),
		attribute.Int64("warden.seq", int64(r.Seq)), attribute.String("warden.hash", r.Hash),
		attribute.String("warden.call_id", r.ID), attribute.String("warden.node", r.Node),
	}
	tid, pid := traceIDs(r.ID)
	parent := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: pid, TraceFlags: trace.FlagsSampled, Remote: true})
	ctx := trace.ContextWithRemoteSpanContext(context.Background(), parent)
	end := r.TS
	start := end.Add(-time.Duration(r.DurationMS) * time.Millisecond)
	ctx, span := e.tracer.Start(ctx, r.Tool, trace.WithTimestamp(start), trace.WithAttributes(attrs...), trace.WithSpanKind(trace.SpanKindInternal))
	if r.Status == "error" || r.Status == "timeout" {
		span.SetStatus(codes.Error, r.Status)
	}

	var rec otellog.Record
	rec.SetTimestamp(r.TS)
	rec.SetObservedTimestamp(time.Now())
	switch Severity(r) {
	case 4:
		rec.SetSeverity(otellog.SeverityWarn)
		rec.SetSeverityText("WARN")
	case 5:
		rec.SetSeverity(otellog.SeverityInfo2)
		rec.SetSeverityText("NOTICE")
	default:
		rec.SetSeverity(otellog.SeverityInfo)
		rec.SetSeverityText("INFO")
	}
	rec.SetBody(attribute.StringValue(string(it.line)))
	rec.AddAttributes(attrs...)
	rec.AddAttributes(attribute.String("warden.prev", r.Prev), attribute.String("warden.identity", r.Identity))
	e.logger.Emit(ctx, rec)
	span.End(trace.WithTimestamp(end))
	e.sent.Add(1)
}
