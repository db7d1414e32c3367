package approvals

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

// receiver is a local webhook endpoint that answers each request with the
// next status of codes (the last one repeats) and keeps the bodies.
type receiver struct {
	mu     sync.Mutex
	codes  []int
	bodies [][]byte
	srv    *httptest.Server
}

func newReceiver(t *testing.T, codes ...int) *receiver {
	r := &receiver{codes: codes}
	r.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		b, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.bodies = append(r.bodies, b)
		code := r.codes[min(len(r.bodies)-1, len(r.codes)-1)]
		r.mu.Unlock()
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" {
			code = http.StatusBadRequest
		}
		w.WriteHeader(code)
	}))
	t.Cleanup(r.srv.Close)
	return r
}

func (r *receiver) got() [][]byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([][]byte(nil), r.bodies...)
}

func pendingFor(t *testing.T) Pending {
	q := New(Options{Wait: time.Minute})
	r := request("rm -rf /srv/old")
	// What the relay hands over is already redacted as the audit log
	// keeps it.
	r.Args = json.RawMessage(`{"command":"rm -rf /srv/old","env":{"PASSWORD":"[redacted]"}}`)
	tk, err := q.Open(r)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tk.Close)
	return tk.Pending()
}

func TestNotifyNtfy(t *testing.T) {
	rcv := newReceiver(t, 200)
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: rcv.srv.URL, Format: "ntfy", Topic: "ops"}}, ConsoleURL: "https://warden.example/"})
	p := pendingFor(t)
	n.Pending(p)
	n.Close()
	bodies := rcv.got()
	if len(bodies) != 1 {
		t.Fatalf("%d posts, want 1", len(bodies))
	}
	var m map[string]any
	if err := json.Unmarshal(bodies[0], &m); err != nil {
		t.Fatal(err)
	}
	link := "https://warden.example/approvals/" + p.ID
	if m["topic"] != "ops" || m["click"] != link || !strings.Contains(m["title"].(string), "run_command") ||
		!strings.Contains(m["message"].(string), "warden approvals show "+p.ID) {
		t.Errorf("ntfy body = %s", bodies[0])
	}
	acts, _ := m["actions"].([]any)
	if len(acts) != 1 || acts[0].(map[string]any)["url"] != link || acts[0].(map[string]any)["action"] != "view" {
		t.Errorf("ntfy actions = %v, want one view action to the console", m["actions"])
	}
}

func TestNotifyJSON(t *testing.T) {
	rcv := newReceiver(t, 204)
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: rcv.srv.URL, Format: "json"}}})
	p := pendingFor(t)
	n.Pending(p)
	n.Close()
	bodies := rcv.got()
	if len(bodies) != 1 {
		t.Fatalf("%d posts, want 1", len(bodies))
	}
	var e Event
	if err := json.Unmarshal(bodies[0], &e); err != nil {
		t.Fatal(err)
	}
	if e.Event != "approval_pending" || e.ID != p.ID || e.Digest != p.Digest || e.Tier != 3 || e.Link != "" ||
		string(e.Args) != string(p.Args) {
		t.Errorf("json body = %s", bodies[0])
	}
	if sent, failed, dropped := n.Stats(); sent != 1 || failed != 0 || dropped != 0 {
		t.Errorf("stats = %d sent, %d failed, %d dropped", sent, failed, dropped)
	}
}

// A failing endpoint is tried once plus its retries, then given up on.
func TestNotifyRetriesBounded(t *testing.T) {
	rcv := newReceiver(t, 503)
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: rcv.srv.URL, Format: "json", Retries: 2}}, Backoff: time.Millisecond})
	n.Pending(pendingFor(t))
	n.Close()
	if got := len(rcv.got()); got != 3 {
		t.Errorf("%d attempts, want 3 (one and two retries)", got)
	}
	if _, failed, _ := n.Stats(); failed != 1 {
		t.Errorf("%d failed, want 1", failed)
	}
}

// A 4xx is the endpoint refusing the message: retrying would not help.
func TestNotifyNoRetryOnClientError(t *testing.T) {
	rcv := newReceiver(t, 400)
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: rcv.srv.URL, Format: "json", Retries: 5}}, Backoff: time.Millisecond})
	n.Pending(pendingFor(t))
	n.Close()
	if got := len(rcv.got()); got != 1 {
		t.Errorf("%d attempts, want 1", got)
	}
}

// A retry after a transient failure delivers.
func TestNotifyRetryDelivers(t *testing.T) {
	rcv := newReceiver(t, 500, 200)
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: rcv.srv.URL, Format: "json", Retries: 3}}, Backoff: time.Millisecond})
	n.Pending(pendingFor(t))
	n.Close()
	if got := len(rcv.got()); got != 2 {
		t.Errorf("%d attempts, want 2", got)
	}
	if sent, failed, _ := n.Stats(); sent != 1 || failed != 0 {
		t.Errorf("sent %d failed %d", sent, failed)
	}
}

// The queue is bounded: a flood is dropped and counted, never blocking the
// calls that feed it.
func TestNotifyQueueBounded(t *testing.T) {
	block := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { <-block }))
	defer srv.Close()
	n := NewNotifier(NotifyOptions{Hooks: []Webhook{{URL: srv.URL, Format: "json", Timeout: 30 * time.Second}}, Queue: 4})
	p := pendingFor(t)
	for range 100 {
		n.Pending(p) // must not block
	}
	close(block)
	n.Close()
	sent, _, dropped := n.Stats()
	if dropped < 100-4-1 || sent+dropped != 100 {
		t.Errorf("sent %d dropped %d of 100 with a queue of 4", sent, dropped)
	}
}
