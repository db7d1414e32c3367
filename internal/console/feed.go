package console

import (
	"sync"
	"time"
)

// Call is one finished call as the live feed shows it: never its
// arguments or output.
type Call struct {
	ID         string    `json:"id"`
	Time       time.Time `json:"time"`
	Tool       string    `json:"tool"`
	Host       string    `json:"host"`
	Tier       int       `json:"tier"`
	Identity   string    `json:"identity"`
	Decision   string    `json:"decision"`
	Status     string    `json:"status"`
	DurationMS int64     `json:"duration_ms"`
}

// feedKeep is how many recent calls a new feed client is shown.
const feedKeep = 100

// Feed keeps the recent calls and tells subscribers of new ones. It is
// safe for concurrent use; Add never blocks.
type Feed struct {
	mu     sync.Mutex
	recent []Call // oldest first, at most feedKeep
	subs   map[chan Call]struct{}
}

// NewFeed returns an empty feed.
func NewFeed() *Feed { return &Feed{subs: map[chan Call]struct{}{}} }

// Add records a finished call. A subscriber too slow to take it misses it
// (its channel is bounded) rather than slowing the call.
func (f *Feed) Add(c Call) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.recent) == feedKeep {
		copy(f.recent, f.recent[1:])
		f.recent = f.recent[:feedKeep-1]
	}
	f.recent = append(f.recent, c)
	for ch := range f.subs {
		select {
		case ch <- c:
		default:
		}
	}
}

// Subscribe returns the recent calls and a channel of the next ones, and a
// function that ends the subscription.
func (f *Feed) Subscribe() ([]Call, <-chan Call, func()) {
	ch := make(chan Call, 64)
	f.mu.Lock()
	recent := append([]Call(nil), f.recent...)
	f.subs[ch] = struct{}{}
	f.mu.Unlock()
	return recent, ch, func() {
		f.mu.Lock()
		delete(f.subs, ch)
		f.mu.Unlock()
	}
}
