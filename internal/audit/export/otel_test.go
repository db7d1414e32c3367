package export

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	logspb "go.opentelemetry.io/proto/otlp/logs/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver collects what arrives over OTLP. It is built from the
// official OTLP protobuf and gRPC service definitions
// (go.opentelemetry.io/proto/otlp), serving gRPC and OTLP/HTTP.
type otlpReceiver struct {
	collogs.UnimplementedLogsServiceServer
	mu    sync.Mutex
	logs  []*logspb.LogRecord
	spans []*tracepb.Span
	hosts []string
}

func (rc *otlpReceiver) Export(_ context.Context, req *collogs.ExportLogsServiceRequest) (*collogs.ExportLogsServiceResponse, error) {
	rc.addLogs(req)
	return &collogs.ExportLogsServiceResponse{}, nil
}

type traceService struct {
	coltrace.UnimplementedTraceServiceServer
	rc *otlpReceiver
}

func (ts traceService) Export(_ context.Context, req *coltrace.ExportTraceServiceRequest) (*coltrace.ExportTraceServiceResponse, error) {
	ts.rc.addSpans(req)
	return &coltrace.ExportTraceServiceResponse{}, nil
}

func (rc *otlpReceiver) addLogs(req *collogs.ExportLogsServiceRequest) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, rl := range req.ResourceLogs {
		for _, a := range rl.GetResource().GetAttributes() {
			if a.Key == "host.name" {
				rc.hosts = append(rc.hosts, a.Value.GetStringValue())
			}
		}
		for _, sl := range rl.ScopeLogs {
			rc.logs = append(rc.logs, sl.LogRecords...)
		}
	}
}

func (rc *otlpReceiver) addSpans(req *coltrace.ExportTraceServiceRequest) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	for _, rs := range req.ResourceSpans {
		for _, ss := range rs.ScopeSpans {
			rc.spans = append(rc.spans, ss.Spans...)
		}
	}
}

func (rc *otlpReceiver) counts() (int, int) {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return len(rc.logs), len(rc.spans)
}

func serveGRPC(t *testing.T, rc *otlpReceiver) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := grpc.NewServer()
	collogs.RegisterLogsServiceServer(s, rc)
	coltrace.RegisterTraceServiceServer(s, traceService{rc: rc})
	go s.Serve(ln)
	t.Cleanup(s.Stop)
	return ln.Addr().String()
}

func serveHTTP(t *testing.T, rc *otlpReceiver) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req collogs.ExportLogsServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		rc.addLogs(&req)
		out, _ := proto.Marshal(&collogs.ExportLogsServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	})
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		rc.addSpans(&req)
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Header().Set("Content-Type", "application/x-protobuf")
		w.Write(out)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}

func attrMap(kvs []*commonpb.KeyValue) map[string]*commonpb.AnyValue {
	m := map[string]*commonpb.AnyValue{}
	for _, kv := range kvs {
		m[kv.Key] = kv.Value
	}
	return m
}

func TestOTelToOTLPReceiver(t *testing.T) {
	for _, protocol := range []string{"grpc", "http"} {
		t.Run(protocol, func(t *testing.T) {
			rc := &otlpReceiver{}
			addr := serveGRPC(t, rc)
			if protocol == "http" {
				addr = serveHTTP(t, rc)
			}
			e, err := NewOTel(OTelOptions{Name: "otel", Protocol: protocol, Endpoint: addr, Insecure: true, Node: "nas1", Version: "test", Queue: 100})
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan struct{})
			go func() { e.Run(ctx, 10*time.Second); close(done) }()
			recs := testLog(t, e, "nas1", 5)
			cancel() // shutdown flushes the batches
			<-done
			logs, spans := rc.counts()
			if logs != 5 || spans != 5 {
				t.Fatalf("receiver got %d logs and %d spans, want 5 and 5", logs, spans)
			}
			if rc.hosts[0] != "nas1" {
				t.Fatalf("resource host.name: %v", rc.hosts)
			}
			for i, lr := range rc.logs {
				a := attrMap(lr.Attributes)
				if a["warden.hash"].GetStringValue() != recs[i].Hash || a["warden.seq"].GetIntValue() != int64(recs[i].Seq) ||
					a["warden.tool"].GetStringValue() != "run_command" || a["warden.decision"].GetStringValue() != "allow" {
					t.Fatalf("log %d attributes: %v", i, a)
				}
				if len(lr.Body.GetStringValue()) == 0 || lr.TimeUnixNano != uint64(recs[i].TS.UnixNano()) {
					t.Fatalf("log %d: body %q time %d", i, lr.Body.GetStringValue(), lr.TimeUnixNano)
				}
				wantTrace, _ := traceIDs(recs[i].ID)
				if string(lr.TraceId) != string(wantTrace[:]) {
					t.Fatalf("log %d is not tied to its call's trace", i)
				}
			}
			for _, sp := range rc.spans {
				a := attrMap(sp.Attributes)
				if sp.Name != "run_command" || a["warden.tier"] == nil || a["warden.status"].GetStringValue() != "ok" || a["warden.host"].GetStringValue() != "local" {
					t.Fatalf("span %s attributes: %v", sp.Name, a)
				}
			}
			if st := e.Stats(); st.Sent != 5 || st.Dropped != 0 {
				t.Fatalf("stats: %+v", st)
			}
		})
	}
}

// TestOTelSpansOfOneCallShareATrace: the per-host records of a fan-out
// carry one call id, so their spans land in one trace.
func TestOTelSpansOfOneCallShareATrace(t *testing.T) {
	a, pa := traceIDs("call-1")
	b, pb := traceIDs("call-1")
	c, _ := traceIDs("call-2")
	if a != b || pa != pb || a == c || !a.IsValid() || !pa.IsValid() {
		t.Fatalf("trace ids: %v %v %v", a, b, c)
	}
}

func TestOTelRejectsBadProtocol(t *testing.T) {
	if _, err := NewOTel(OTelOptions{Name: "x", Protocol: "kafka", Endpoint: "a:1", Queue: 1}); err == nil {
		t.Fatal("NewOTel with protocol kafka succeeded")
	}
	if _, err := NewOTel(OTelOptions{Name: "x", Protocol: "grpc", Endpoint: "a:1"}); err == nil {
		t.Fatal("NewOTel with no queue succeeded")
	}
}
