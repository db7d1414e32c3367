package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/console"
)

// feedClient follows the console's stream of pending approvals as one
// operator's page does, and reports the first list of n calls it is sent,
// then the first empty list after it.
type feedClient struct {
	full  chan []string // the ids of the first list of n calls, sorted
	empty chan struct{} // closed at the first empty list after full
	ended chan error    // the stream's end, if before empty
}

func followPending(t *testing.T, base, cookie string, n int) *feedClient {
	t.Helper()
	req, err := http.NewRequest("GET", base+"/api/events", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Cookie", cookie)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		t.Fatalf("feed: %d %s", resp.StatusCode, b)
	}
	t.Cleanup(func() { resp.Body.Close() })
	f := &feedClient{full: make(chan []string, 1), empty: make(chan struct{}), ended: make(chan error, 1)}
	go func() {
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 4<<20), 4<<20)
		full := false
		for sc.Scan() {
			d, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			// Count before decoding: the lists on the way up to n are
			// many and only the full one matters.
			switch c := strings.Count(d, `"id":"`); {
			case !full && c == n:
				var ps []struct{ ID string }
				if err := json.Unmarshal([]byte(d), &ps); err != nil {
					f.ended <- err
					return
				}
				ids := make([]string, len(ps))
				for i, p := range ps {
					ids[i] = p.ID
				}
				slices.Sort(ids)
				f.full <- ids
				full = true
			case full && d == "[]":
				close(f.empty)
				return
			}
		}
		f.ended <- fmt.Errorf("stream ended: %v", sc.Err())
	}()
	return f
}

// Two hundred calls wait for an operator while fifty operators follow the
// console's live stream of them, at once, in a real server: every stream
// is sent all two hundred, each answer reaches its own call, every stream
// sees the list empty again, and the server's peak memory stays bounded.
func TestConsoleLoadTwoHundredPendingFiftyFeeds(t *testing.T) {
	if testing.Short() {
		t.Skip("load test")
	}
	const n, feeds = 200, 50 // approval.max_pending is 256 by default
	start := time.Now()
	s, env, base, opTok := webConsole(t)
	cookie, _ := login(t, base, opTok)
	pid := s.cmd.Process.Pid
	base0 := vmHWM(t, pid)

	fs := make([]*feedClient, feeds)
	for i := range fs {
		fs[i] = followPending(t, base, cookie, n)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	dones := make([]<-chan callResult, n)
	for i := range n {
		dones[i] = callAsync(ctx, s.cs, "run_command", map[string]any{"command": fmt.Sprintf("rm -rf /nonexistent-warden-load/%d; echo answered-%d", i, i)})
	}
	ps := waitPending(t, env, n)
	want := make([]string, n)
	for i, p := range ps {
		want[i] = p.ID
	}
	slices.Sort(want)
	for i, f := range fs {
		select {
		case ids := <-f.full:
			if !slices.Equal(ids, want) {
				t.Fatalf("feed %d was sent other calls than the %d waiting", i, n)
			}
		case err := <-f.ended:
			t.Fatalf("feed %d: %v", i, err)
		case <-time.After(2 * time.Minute):
			t.Fatalf("feed %d was never sent the %d waiting calls", i, n)
		}
	}
	waiting := vmHWM(t, pid)

	c := console.NewClient(s.state)
	approved := map[string]bool{}
	for i, p := range ps {
		// Approve the even ones, deny the odd ones: each call gets its own.
		if _, _, err := c.Answer(ctx, p.ID, i%2 == 0, "load"); err != nil {
			t.Fatalf("answer %s: %v", p.ID, err)
		}
		approved[p.CallID] = i%2 == 0
	}
	ok, denied := 0, 0
	for _, d := range dones {
		r := <-d
		if r.err != nil {
			t.Fatalf("call: %v", r.err)
		}
		got := structured(t, r.res)
		switch got["status"] {
		case "ok":
			ok++
			if !strings.Contains(fmt.Sprint(got["stdout"]), "answered-") {
				t.Errorf("approved call printed %v", got["stdout"])
			}
		case "denied":
			denied++
		default:
			t.Errorf("status %v", got["status"])
		}
	}
	if ok != n/2 || denied != n/2 {
		t.Errorf("%d ran and %d were denied, want %d each", ok, denied, n/2)
	}
	for i, f := range fs {
		select {
		case <-f.empty:
		case err := <-f.ended:
			t.Fatalf("feed %d: %v", i, err)
		case <-time.After(time.Minute):
			t.Fatalf("feed %d never showed the list empty again", i)
		}
	}
	peak := vmHWM(t, pid)
	t.Logf("VmHWM: %d KiB at start, %d KiB with %d calls waiting and %d feeds sent them all, %d KiB after all were answered (%s, load %s)",
		base0, waiting, n, feeds, peak, time.Since(start).Round(time.Second), loadavg())
	if peak > 160<<10 {
		t.Errorf("peak RSS %d KiB with %d calls waiting and %d feeds, want under 160 MiB", peak, n, feeds)
	}
	// Every record says the same as the answer its own call got.
	calls := 0
	for _, r := range auditRecords(t, s.state) {
		extra, _ := r["extra"].(map[string]any)
		if extra == nil || extra["approval_id"] == nil || r["tool"] == "console" {
			continue // not a call, or the operator's record of answering one
		}
		calls++
		if wantOK := approved[fmt.Sprint(r["id"])]; wantOK != (r["status"] == "ok") {
			t.Errorf("call %v: status %v, answered approve=%v", r["id"], r["status"], wantOK)
		}
	}
	if calls != n {
		t.Errorf("%d calls audited with their approval, want %d", calls, n)
	}
	waitPending(t, env, 0)
}
