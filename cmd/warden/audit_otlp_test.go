package main

import (
	"io"
	"net"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	collogs "go.opentelemetry.io/proto/otlp/collector/logs/v1"
	coltrace "go.opentelemetry.io/proto/otlp/collector/trace/v1"
	"google.golang.org/protobuf/proto"

	"github.com/warden-mcp/warden/internal/audit"
)

// TestAuditExportOTLPFromServe: a served warden with an otlp sink sends
// each call as a log record and a span over OTLP/HTTP, carrying the
// record's hash and the configured node.
func TestAuditExportOTLPFromServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	type got struct {
		hash, node string
	}
	logs := make(chan got, 100)
	spans := make(chan string, 100)
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/logs", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req collogs.ExportLogsServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		for _, rl := range req.ResourceLogs {
			node := ""
			for _, a := range rl.GetResource().GetAttributes() {
				if a.Key == "host.name" {
					node = a.Value.GetStringValue()
				}
			}
			for _, sl := range rl.ScopeLogs {
				for _, lr := range sl.LogRecords {
					for _, a := range lr.Attributes {
						if a.Key == "warden.hash" {
							logs <- got{a.Value.GetStringValue(), node}
						}
					}
				}
			}
		}
		out, _ := proto.Marshal(&collogs.ExportLogsServiceResponse{})
		w.Write(out)
	})
	mux.HandleFunc("POST /v1/traces", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var req coltrace.ExportTraceServiceRequest
		if err := proto.Unmarshal(b, &req); err != nil {
			http.Error(w, err.Error(), 400)
			return
		}
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				for _, sp := range ss.Spans {
					spans <- sp.Name
				}
			}
		}
		out, _ := proto.Marshal(&coltrace.ExportTraceServiceResponse{})
		w.Write(out)
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	defer srv.Close()

	env, state := wardenEnv(t)
	cfg := writeFile(t, "audit:\n  node: otel-node\n  export:\n    - type: otlp\n      protocol: http\n      insecure: true\n      address: "+ln.Addr().String()+"\n")
	env = append(env, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	callTool(t, s.cs, "server_info", nil)
	// The SDK's batch processors send within seconds (logs 1 s, spans 5 s).
	recs, err := audit.Tail([]string{filepath.Join(state, "audit.jsonl")}, 1, audit.Filter{Tool: "server_info"})
	if err != nil || len(recs) != 1 {
		t.Fatalf("local record: %v %v", recs, err)
	}
	select {
	case g := <-logs:
		if g.hash != recs[0].Hash || g.node != "otel-node" {
			t.Fatalf("OTLP log: hash %s node %s, want %s otel-node", g.hash, g.node, recs[0].Hash)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no OTLP log arrived")
	}
	select {
	case name := <-spans:
		if name != "server_info" {
			t.Fatalf("span %q, want server_info", name)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no span arrived")
	}
}
