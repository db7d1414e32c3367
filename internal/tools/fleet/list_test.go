package fleet

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
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

// listRig is warden's pipeline with the fleet tools over a generated
// inventory: the real policy, a real audit log, an in-memory MCP client.
type listRig struct {
	cs *mcp.ClientSession
}

func newListRig(tb testing.TB, hosts int) *listRig {
	tb.Helper()
	dir := tb.TempDir()
	f, err := sshpooltest.NewFleet(dir, hosts)
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
	fl := Register(r, Deps{Inventory: inv, Pool: pool, Groups: f.Groups, LocalConfinement: "landlock (test)"})
	tb.Cleanup(func() { fl.Close() })
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

// BenchmarkHostsList calls hosts_list over the whole pipeline (MCP
// client, relay, policy, audit) on an inventory of 1,000 hosts: 500 from
// warden.yaml and 500 ssh_config Host entries. Besides the mean it reports
// the fastest and the median call and the CPU time per call (client and
// server, the collector's included), which other people's load on a
// shared machine does not inflate.
func BenchmarkHostsList(b *testing.B) {
	for _, n := range []int{1000} {
		b.Run(fmt.Sprintf("hosts=%d", n), func(b *testing.B) {
			rg := newListRig(b, n)
			rg.list(b)
			took := make([]time.Duration, 0, b.N)
			b.ResetTimer()
			cpu := cpuTime()
			for range b.N {
				start := time.Now()
				rg.list(b)
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
		})
	}
}
