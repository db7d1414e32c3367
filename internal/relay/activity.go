package relay

import (
	"context"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Activity tracks the last time a call started or ended and how many calls
// are in flight, for idle exit and graceful shutdown.
type Activity struct {
	mu       sync.Mutex
	last     time.Time
	inflight int
	idle     chan struct{} // closed when inflight drops to zero; nil when none waits
	now      func() time.Time
}

// Touch marks activity now.
func (a *Activity) Touch() {
	a.mu.Lock()
	a.last = a.now()
	a.mu.Unlock()
}

func (a *Activity) begin() {
	a.mu.Lock()
	a.inflight++
	a.last = a.now()
	a.mu.Unlock()
}

func (a *Activity) end() {
	a.mu.Lock()
	a.inflight--
	a.last = a.now()
	if a.inflight == 0 && a.idle != nil {
		close(a.idle)
		a.idle = nil
	}
	a.mu.Unlock()
}

// Last reports when a call last started or ended, and how many run now.
func (a *Activity) Last() (last time.Time, inflight int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last, a.inflight
}

// Drain waits until no call is in flight or ctx ends.
func (a *Activity) Drain(ctx context.Context) error {
	a.mu.Lock()
	if a.inflight == 0 {
		a.mu.Unlock()
		return nil
	}
	if a.idle == nil {
		a.idle = make(chan struct{})
	}
	ch := a.idle
	a.mu.Unlock()
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// IdleExit returns when warden has been idle for d with nothing in flight,
// or when ctx ends. It never fires mid-call.
func (a *Activity) IdleExit(ctx context.Context, d time.Duration) {
	tick := time.NewTicker(min(d/4, time.Second) + time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			last, n := a.Last()
			if n == 0 && a.now().Sub(last) >= d {
				return
			}
		}
	}
}

// identity names the caller: the verified token's subject over HTTP, or the
// local identity for stdio.
func (r *Relay) identity(extra *mcp.RequestExtra) string {
	if extra != nil && extra.TokenInfo != nil && extra.TokenInfo.UserID != "" {
		return extra.TokenInfo.UserID
	}
	if r.opts.LocalIdentity != "" {
		return r.opts.LocalIdentity
	}
	return "local"
}
