package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
)

// sharedCalls is how many calls each writer makes in
// TestManyWardensShareOneAuditLog: 2,000 unless WARDEN_E2E_AUDIT_CALLS
// says otherwise.
func sharedCalls(t *testing.T) int {
	if v := os.Getenv("WARDEN_E2E_AUDIT_CALLS"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 {
			t.Fatalf("WARDEN_E2E_AUDIT_CALLS=%q is not a positive number", v)
		}
		return n
	}
	return 2000
}

// startStdioAs is startStdio with the client named name, which the audit
// records of its calls carry.
func startStdioAs(t *testing.T, env []string, name string) *stdioServer {
	t.Helper()
	cmd := execCommand([]string{"serve"}, env)
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: name, Version: "1"}, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("%s stderr:\n%s", name, stderr)
		}
	})
	return &stdioServer{cs: cs, cmd: cmd, stderr: stderr}
}

// burst makes n server_info calls from 8 goroutines and returns how many
// returned a result, and the first protocol error.
func burst(cs *mcp.ClientSession, n int) (int, error) {
	var ok atomic.Int64
	var next atomic.Int64
	var firstErr atomic.Pointer[error]
	var wg sync.WaitGroup
	for w := 0; w < 8; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(n) {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "server_info"})
				cancel()
				if err != nil {
					firstErr.CompareAndSwap(nil, &err)
					return // e.g. the victim was killed
				}
				if !res.IsError {
					ok.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if e := firstErr.Load(); e != nil {
		return int(ok.Load()), *e
	}
	return int(ok.Load()), nil
}

// auditCounts counts the server_info records of each client across the
// log's files.
func auditCounts(t *testing.T, path string) map[string]int {
	t.Helper()
	files, err := audit.Files(path)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	for _, f := range files {
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		sc.Buffer(nil, 4<<20)
		for sc.Scan() {
			var r audit.Record
			if json.Unmarshal(sc.Bytes(), &r) != nil || r.Tool != "server_info" {
				continue
			}
			name, _, _ := strings.Cut(r.Client, "/")
			got[name]++
		}
		fh.Close()
	}
	return got
}

// TestManyWardensShareOneAuditLog: three stdio wardens and an HTTP warden
// on one state dir, each making thousands of calls at once while a fifth
// is killed with SIGKILL mid-burst. Every call of every surviving warden
// is recorded exactly once, the killed one's records are there up to its
// last complete one, the chain verifies, and the head file agrees.
func TestManyWardensShareOneAuditLog(t *testing.T) {
	n := sharedCalls(t)
	env, state := wardenEnv(t)
	// Rotate often, so writers also meet files another writer rotated;
	// lift the HTTP per-source rate cap, which a burst from one test
	// client would hit.
	cfg := writeFile(t, "audit:\n  rotate_bytes: 262144\nhttp:\n  rate_per_source: 0\n")
	env = append(env, "WARDEN_CONFIG="+cfg)
	names := []string{"p0", "p1", "p2", "e2e-http"}
	var sessions []*mcp.ClientSession
	for _, name := range names[:3] {
		sessions = append(sessions, startStdioAs(t, env, name).cs)
	}
	h := startHTTP(t, env, state)
	sessions = append(sessions, connectHTTP(t, h, "", nil))
	victim := startStdioAs(t, env, "victim")

	var wg sync.WaitGroup
	answered := make([]int, len(sessions))
	errs := make([]error, len(sessions))
	for i, cs := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			answered[i], errs[i] = burst(cs, n)
		}()
	}
	victimDone := make(chan int, 1)
	go func() { k, _ := burst(victim.cs, 1<<30); victimDone <- k }()
	// Kill the victim once it has made some calls, mid-burst.
	path := filepath.Join(state, "audit.jsonl")
	deadline := time.Now().Add(60 * time.Second)
	for auditCounts(t, path)["victim"] < 50 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if err := victim.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	victimAnswered := <-victimDone
	wg.Wait()
	for i, a := range answered {
		if a != n {
			t.Fatalf("writer %s: %d of %d calls answered; first error: %v", names[i], a, n, errs[i])
		}
	}

	out, err := execCommand([]string{"audit", "verify"}, env).CombinedOutput()
	if err != nil || !strings.HasPrefix(string(out), "ok: ") {
		t.Fatalf("warden audit verify: %v\n%s", err, out)
	}
	got := auditCounts(t, path)
	for _, name := range names {
		if c := got[name]; c != n {
			t.Errorf("writer %s: %d records for %d calls", name, c, n)
		}
	}
	if got["victim"] < victimAnswered {
		t.Errorf("killed writer: %d records, but %d calls were answered (each after its record)", got["victim"], victimAnswered)
	}
	files, _ := audit.Files(path)
	rep, err := audit.Verify(files, nil)
	if err != nil || rep.Problem != nil {
		t.Fatalf("Verify: %v %v", rep.Problem, err)
	}
	head, err := audit.ReadHead(audit.HeadPath(path))
	if err != nil {
		t.Fatal(err)
	}
	if p, note := audit.CheckHead(rep, head); p != nil {
		t.Fatalf("head: %v %s", p, note)
	}
	t.Logf("%d calls per writer; victim answered %d, recorded %d; %d records in %d files; %s",
		n, victimAnswered, got["victim"], rep.Records, len(files), strings.TrimSpace(string(out)))
}

// TestAuditExportFromServe: a served warden ships each record, after
// writing it, to a syslog collector named in audit.export, with the
// configured node and the record's seq and hash.
func TestAuditExportFromServe(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	lines := make(chan string, 100)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		br := bufio.NewReader(c)
		for {
			var size int
			if _, err := fmt.Fscanf(br, "%d ", &size); err != nil {
				return
			}
			msg := make([]byte, size)
			if _, err := io.ReadFull(br, msg); err != nil {
				return
			}
			lines <- string(msg)
		}
	}()
	env, state := wardenEnv(t)
	cfg := writeFile(t, fmt.Sprintf("audit:\n  node: shipper-1\n  export:\n    - name: collector\n      network: tcp\n      address: %s\n", ln.Addr()))
	env = append(env, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	if info["node"] != "shipper-1" {
		t.Fatalf("server_info node: %v", info["node"])
	}
	var msg string
	select {
	case msg = <-lines:
	case <-time.After(30 * time.Second):
		t.Fatal("the collector received nothing")
	}
	recs, err := audit.Tail([]string{filepath.Join(state, "audit.jsonl")}, 1, audit.Filter{Tool: "server_info"})
	if err != nil || len(recs) != 1 {
		t.Fatalf("local record: %v %v", recs, err)
	}
	r := recs[0]
	if !strings.Contains(msg, " shipper-1 warden ") || !strings.Contains(msg, fmt.Sprintf(`seq="%d" hash="%s"`, r.Seq, r.Hash)) {
		t.Fatalf("exported message %q does not carry node, seq %d and hash %s", msg, r.Seq, r.Hash)
	}
	// A later server_info reports the first call's export as sent. The
	// collector may read the message before the exporter counts it, so
	// ask until it does, within a generous bound.
	deadline := time.Now().Add(30 * time.Second)
	for {
		_, info = callTool(t, s.cs, "server_info", nil)
		ex, _ := info["audit_export"].([]any)
		if len(ex) != 1 {
			t.Fatalf("server_info audit_export: %v", info["audit_export"])
		}
		st := ex[0].(map[string]any)
		if st["name"] != "collector" || st["dropped"].(float64) != 0 {
			t.Fatalf("server_info audit_export: %v", st)
		}
		if st["sent"].(float64) >= 1 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server_info audit_export never counted the first record as sent: %v", st)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
