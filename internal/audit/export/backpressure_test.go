package export

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// stalledCollector accepts TCP connections and never reads from them.
func stalledCollector(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var conns []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return ln.Addr().String()
}

func stalledExporter(t testing.TB, queue int) (*Exporter, func()) {
	t.Helper()
	s := Syslog{Network: "tcp", Address: stalledCollector(t), Format: "json", Facility: 10}
	enc, _ := s.Encoder()
	e, err := New(Options{Name: "stalled", Queue: queue, Dial: s.Dial(), Encode: enc, WriteTimeout: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { e.Run(ctx, 0); close(done) }()
	return e, func() { cancel() }
}

// TestStalledCollectorNeverBlocksAppends: a collector that stops reading
// fills the socket buffers and then the queue; every append still returns,
// every record is in the local log, and what did not fit is counted.
func TestStalledCollectorNeverBlocksAppends(t *testing.T) {
	e, stop := stalledExporter(t, 64)
	defer stop()
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l, err := audit.Open(audit.Options{Path: path, Node: "n", Sinks: []audit.Sink{e}})
	if err != nil {
		t.Fatal(err)
	}
	const n = 5000
	big := fmt.Sprintf(`{"command":%q}`, make([]byte, 2000))
	for i := 0; i < n; i++ {
		if _, err := l.Append(context.Background(), audit.Record{Tool: "run_command", Decision: "allow", Status: "ok", Args: []byte(big)}); err != nil {
			t.Fatal(err)
		}
	}
	l.Close()
	files, _ := audit.Files(path)
	rep, err := audit.Verify(files, nil)
	if err != nil || rep.Problem != nil || rep.Records != n {
		t.Fatalf("local log: %d records, %v %v", rep.Records, rep.Problem, err)
	}
	st := e.Stats()
	if st.Dropped == 0 {
		t.Fatalf("stats %+v: a stalled collector dropped nothing", st)
	}
	// Every record is accounted for: sent (into socket buffers), queued,
	// dropped, or the one being written.
	if total := st.Sent + st.Dropped + uint64(st.Queued); total != n && total != n-1 {
		t.Fatalf("stats %+v: %d accounted for, want %d", st, total, n)
	}
	t.Logf("stats: %+v", st)
}

// TestExporterReconnects: a collector that goes away and comes back
// receives what was queued meanwhile.
func TestExporterReconnects(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens yet
	s := Syslog{Network: "tcp", Address: addr, Format: "json", Facility: 10}
	enc, _ := s.Encoder()
	e, _ := New(Options{Name: "late", Queue: 100, Dial: s.Dial(), Encode: enc, Backoff: 5 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go e.Run(ctx, 0)
	testLog(t, e, "late-node", 5)
	deadline := time.Now().Add(20 * time.Second)
	for e.Stats().LastError == "" && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	ln, err = net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("port taken meanwhile: %v", err)
	}
	defer ln.Close()
	got := make(chan int, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			got <- 0
			return
		}
		defer c.Close()
		buf := make([]byte, 64<<10)
		total, msgs := 0, 0
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		for msgs < 5 {
			n, err := c.Read(buf[total:])
			total += n
			msgs = countFrames(buf[:total])
			if err != nil {
				break
			}
		}
		got <- msgs
	}()
	if n := <-got; n != 5 {
		t.Fatalf("collector received %d of 5 messages after reconnecting; stats %+v", n, e.Stats())
	}
}

// countFrames counts complete octet-counted frames.
func countFrames(b []byte) int {
	n := 0
	for len(b) > 0 {
		sp := slices.Index(b, ' ')
		if sp < 0 {
			return n
		}
		var size int
		if _, err := fmt.Sscanf(string(b[:sp]), "%d", &size); err != nil || len(b) < sp+1+size {
			return n
		}
		b = b[sp+1+size:]
		n++
	}
	return n
}

// BenchmarkAppendWithStalledExport compares appends with no sink and with
// a sink whose collector stopped reading: go test -run '^$' -bench
// AppendWithStalledExport ./internal/audit/export/
func BenchmarkAppendWithStalledExport(b *testing.B) {
	for _, name := range []string{"no-export", "stalled-export"} {
		b.Run(name, func(b *testing.B) {
			var sinks []audit.Sink
			var e *Exporter
			if name == "stalled-export" {
				var stop func()
				e, stop = stalledExporter(b, 4096)
				defer stop()
				sinks = []audit.Sink{e}
			}
			l, err := audit.Open(audit.Options{Path: filepath.Join(b.TempDir(), "audit.jsonl"), Node: "n", Sinks: sinks})
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			lat := make([]time.Duration, 0, b.N)
			r := audit.Record{Tool: "run_command", Decision: "allow", Status: "ok", Args: []byte(`{"command":"journalctl -u smbd --since '1 hour ago' | tail -n 200"}`)}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				if _, err := l.Append(context.Background(), r); err != nil {
					b.Fatal(err)
				}
				lat = append(lat, time.Since(t0))
			}
			b.StopTimer()
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Nanoseconds()), "p50-ns")
			b.ReportMetric(float64(lat[len(lat)*99/100].Nanoseconds()), "p99-ns")
			if e != nil {
				b.ReportMetric(float64(e.Stats().Dropped), "dropped")
			}
		})
	}
}
