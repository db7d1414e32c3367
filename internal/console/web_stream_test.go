package console

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// noFlush is a ResponseWriter that cannot stream.
type noFlush struct{ http.ResponseWriter }

// TestLiveStreamSlots: the live event streams are bounded by MaxClients —
// one past the bound is refused with 503 and nothing streamed — a slot is
// given back when its stream ends, and a writer that cannot flush is
// refused without taking one.
func TestLiveStreamSlots(t *testing.T) {
	w := NewWeb(WebOptions{Feed: NewFeed(), MaxClients: 1})
	slots := func() int {
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.clients
	}
	ctx, cancel := context.WithCancel(context.Background())
	first := httptest.NewRecorder()
	done := make(chan struct{})
	go func() {
		defer close(done)
		w.calls(first, httptest.NewRequest("GET", "/api/calls", nil).WithContext(ctx), authn{})
	}()
	for deadline := time.Now().Add(30 * time.Second); slots() != 1; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the first stream never took its slot")
		}
	}
	// Its request is already over, so were it let in it would stream
	// nothing and return at once, failing below rather than hanging.
	over, end := context.WithCancel(context.Background())
	end()
	second := httptest.NewRecorder()
	w.calls(second, httptest.NewRequest("GET", "/api/calls", nil).WithContext(over), authn{})
	if second.Code != http.StatusServiceUnavailable || second.Header().Get("Content-Type") == "text/event-stream" {
		t.Fatalf("a stream past MaxClients: %d %q", second.Code, second.Body)
	}
	cancel()
	<-done
	if n := slots(); n != 0 {
		t.Fatalf("%d slots held after the stream ended", n)
	}
	third := httptest.NewRecorder()
	w.calls(third, httptest.NewRequest("GET", "/api/calls", nil).WithContext(over), authn{})
	if third.Code != http.StatusOK {
		t.Fatalf("the slot given back was not reusable: %d %q", third.Code, third.Body)
	}
	plain := noFlush{httptest.NewRecorder()}
	w.calls(plain, httptest.NewRequest("GET", "/api/calls", nil), authn{})
	if rec := plain.ResponseWriter.(*httptest.ResponseRecorder); rec.Code != http.StatusInternalServerError {
		t.Fatalf("a writer that cannot flush: %d", rec.Code)
	}
	if n := slots(); n != 0 {
		t.Fatalf("%d slots held after refusals", n)
	}
}
