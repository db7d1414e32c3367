package fleet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden")

// listServer is warden's pipeline with the fleet tools over a generated
// inventory of n hosts: the real policy and a real audit log.
func listServer(tb testing.TB, n int) *mcp.Server {
	tb.Helper()
	dir := tb.TempDir()
	f, err := sshpooltest.NewFleet(dir, n)
	if err != nil {
		tb.Fatal(err)
	}
	inv, err := sshpool.NewInventory(f.Options)
	if err != nil {
		tb.Fatal(err)
	}
	p, err := policy.New(policy.Rules{})
	if err != nil {
		tb.Fatal(err)
	}
	log, err := audit.Open(audit.Options{Path: filepath.Join(dir, "audit.jsonl")})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { log.Close() })
	pool := sshpool.New(sshpool.Options{})
	tb.Cleanup(func() { pool.Close() })
	srv := mcp.NewServer(&mcp.Implementation{Name: "warden-test"}, nil)
	r := relay.New(srv, relay.Options{Policy: p, Audit: log, Mode: policy.Guarded})
	fl := Register(r, Deps{Inventory: inv, Pool: pool, Groups: func() map[string][]string { return f.Groups }, LocalConfinement: "landlock (test)"})
	tb.Cleanup(func() { fl.Close() })
	return srv
}

// listRig is the Go SDK's client, in memory, on a listServer.
type listRig struct {
	cs *mcp.ClientSession
}

func newListRig(tb testing.TB, n int) *listRig {
	tb.Helper()
	srv := listServer(tb, n)
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close() })
	return &listRig{cs: cs}
}

// list calls hosts_list and returns its result, checked to be a listing.
func (rg *listRig) list(tb testing.TB) *mcp.CallToolResult {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	res, err := rg.cs.CallTool(ctx, &mcp.CallToolParams{Name: "hosts_list", Arguments: map[string]any{}})
	if err != nil {
		tb.Fatal(err)
	}
	if res.IsError || len(res.Content) != 1 || res.StructuredContent == nil {
		tb.Fatalf("hosts_list: %+v", res)
	}
	return res
}

// lineRig is the smallest client, as cmd/warden's latency benchmarks use:
// it writes one JSON-RPC line to a listServer over a pipe and reads one
// line back, so what it measures is warden and the SDK's server side, not
// a client's bookkeeping.
type lineRig struct {
	w  io.Writer
	r  *bufio.Reader
	id int
}

func newLineRig(tb testing.TB, n int) *lineRig {
	tb.Helper()
	srv := listServer(tb, n)
	sc, cc := net.Pipe()
	tb.Cleanup(func() { cc.Close() })
	if _, err := srv.Connect(context.Background(), &mcp.IOTransport{Reader: sc, Writer: sc}, nil); err != nil {
		tb.Fatal(err)
	}
	rg := &lineRig{w: cc, r: bufio.NewReaderSize(cc, 1<<20)}
	init := map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "line", "version": "1"}}
	rg.request(tb, "initialize", init)
	if _, err := io.WriteString(cc, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n"); err != nil {
		tb.Fatal(err)
	}
	return rg
}

// request sends one request and returns its result.
func (rg *lineRig) request(tb testing.TB, method string, params any) json.RawMessage {
	tb.Helper()
	rg.id++
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rg.id, "method": method, "params": params})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := rg.w.Write(append(line, '\n')); err != nil {
		tb.Fatal(err)
	}
	reply, err := rg.r.ReadBytes('\n')
	if err != nil {
		tb.Fatal(err)
	}
	var resp struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(reply, &resp); err != nil || resp.ID != rg.id || resp.Result == nil {
		tb.Fatalf("%s: reply %.200s (%v)", method, reply, err)
	}
	return resp.Result
}

// list calls hosts_list and checks that it lists n hosts.
func (rg *lineRig) list(tb testing.TB, n int) {
	raw := rg.request(tb, "tools/call", map[string]any{"name": "hosts_list", "arguments": map[string]any{}})
	var res struct {
		IsError    bool `json:"isError"`
		Structured struct {
			Status string `json:"status"`
			Hosts  []struct {
				Name string `json:"name"`
			} `json:"hosts"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		tb.Fatal(err)
	}
	if res.IsError || res.Structured.Status != "ok" || len(res.Structured.Hosts) != n {
		tb.Fatalf("hosts_list: %d hosts, status %q; want %d, ok", len(res.Structured.Hosts), res.Structured.Status, n)
	}
}

// TestHostsListGolden compares hosts_list of a mixed inventory (warden
// hosts, ssh_config aliases, jumps, groups, tags, unusable hosts) and the
// warden://hosts resource with testdata/hosts_list.golden, written by the
// listing as it was before resolution was precomputed.
func TestHostsListGolden(t *testing.T) {
	rg := newListRig(t, 210)
	res := rg.list(t)
	text := res.Content[0].(*mcp.TextContent).Text
	structured, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var indented bytes.Buffer
	if err := json.Indent(&indented, structured, "", " "); err != nil {
		t.Fatal(err)
	}
	read, err := rg.cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: HostsURI})
	if err != nil {
		t.Fatal(err)
	}
	var fromTool, fromResource map[string]any
	if err := json.Unmarshal(structured, &fromTool); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(read.Contents[0].Text), &fromResource); err != nil {
		t.Fatal(err)
	}
	delete(fromTool, "status") // the relay's, not the listing's
	if !reflect.DeepEqual(fromTool, fromResource) {
		t.Errorf("%s differs from hosts_list's structured result", HostsURI)
	}
	got := "# text\n" + text + "# structured\n" + indented.String() + "\n"
	golden := filepath.Join("testdata", "hosts_list.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := bytes.Split([]byte(got), []byte("\n")), bytes.Split(want, []byte("\n"))
		for i := 0; i < len(gl) || i < len(wl); i++ {
			var g, w []byte
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if !bytes.Equal(g, w) {
				t.Fatalf("hosts_list differs from %s at line %d:\ngot  %s\nwant %s", golden, i+1, g, w)
			}
		}
	}
}

// BenchmarkHostsList calls hosts_list over the whole pipeline (client,
// relay, policy, audit) on an inventory of 1,000 hosts: 500 from
// warden.yaml and 500 ssh_config Host entries. The result is about half a
// megabyte of JSON. "sdk" is the Go SDK's client in memory, which decodes
// the whole result into maps; "line" is the smallest client (see
// lineRig). Besides the mean each reports the fastest and the median call
// and the CPU time per call (client and server, the collector's
// included), which other people's load on a shared machine does not
// inflate.
func BenchmarkHostsList(b *testing.B) {
	const n = 1000
	b.Run(fmt.Sprintf("sdk/hosts=%d", n), func(b *testing.B) {
		rg := newListRig(b, n)
		rg.list(b)
		timeCalls(b, func() { rg.list(b) })
	})
	b.Run(fmt.Sprintf("line/hosts=%d", n), func(b *testing.B) {
		rg := newLineRig(b, n)
		rg.list(b, n)
		timeCalls(b, func() { rg.list(b, n) })
	})
}

// timeCalls runs call b.N times and reports the spread of its latency.
func timeCalls(b *testing.B, call func()) {
	took := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	cpu := cpuTime()
	for range b.N {
		start := time.Now()
		call()
		took = append(took, time.Since(start))
	}
	cpu = cpuTime() - cpu
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[0].Microseconds())/1000, "min-ms")
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Microseconds())/1000/float64(len(took)), "cpu-ms/op")
	}
}

// BenchmarkListing is warden's own share of hosts_list: the listing built
// from the inventory, its table and its JSON, without the relay and the
// SDK's encoding and decoding of the result.
func BenchmarkListing(b *testing.B) {
	f, err := sshpooltest.NewFleet(b.TempDir(), 1000)
	if err != nil {
		b.Fatal(err)
	}
	inv, err := sshpool.NewInventory(f.Options)
	if err != nil {
		b.Fatal(err)
	}
	d := &Deps{Inventory: inv, Groups: func() map[string][]string { return f.Groups }}
	b.ReportAllocs()
	for b.Loop() {
		l := d.listing()
		_ = l.text()
		if _, err := json.Marshal(l); err != nil {
			b.Fatal(err)
		}
	}
}
