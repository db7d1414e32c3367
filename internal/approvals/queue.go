// Package approvals owns the calls that wait for a human: the bounded queue
// of pending approvals of the console mechanism and the webhooks that tell
// operators a call is waiting.
//
// The choices a reader must know:
//   - A pending approval is bound to one call: its id is random and its
//     entry carries the call's digest (gate.Digest over tool, arguments,
//     host and identity). An answer reaches only the call that opened it,
//     and an answer that names a digest must name that call's.
//   - The first answer wins: an entry leaves the queue under the lock as it
//     is answered, so a second answer finds nothing.
//   - It fails closed: an entry past its expiry cannot be approved, a call
//     whose wait runs out is refused, and a call whose client goes away
//     withdraws its entry, so nothing is left to approve for no one.
//   - It is bounded: at most MaxPending entries; each holds a small record
//     and the caller's goroutine, never output.
package approvals

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"
	"time"
)

// Defaults for Options.
const (
	DefaultWait       = 10 * time.Minute
	DefaultMaxPending = 256
)

// Errors of Open and Answer.
var (
	// ErrTooManyPending means MaxPending calls are already waiting.
	ErrTooManyPending = errors.New("approvals: too many calls waiting for an operator")
	// ErrUnknown means no call is waiting under that id: it was never
	// opened, was answered already, expired or was withdrawn.
	ErrUnknown = errors.New("approvals: no pending approval with that id")
	// ErrMismatch means the answer named another call's digest.
	ErrMismatch = errors.New("approvals: the answer is for a different call")
	// ErrExpired means the approval's time ran out before the answer.
	ErrExpired = errors.New("approvals: approval expired")
)

// Request is a call that needs a human's approval, as operators see it.
// Args are redacted and bounded as the audit log writes them: nothing here
// may carry what the audit log would not.
type Request struct {
	CallID   string
	Tool     string
	Host     string
	Identity string
	Client   string
	Tier     int
	Reason   string
	Args     json.RawMessage
	Digest   [32]byte
}

// Pending is one waiting call, as listed to operators.
type Pending struct {
	ID       string          `json:"id"`
	CallID   string          `json:"call_id"`
	Tool     string          `json:"tool"`
	Host     string          `json:"host"`
	Identity string          `json:"identity"`
	Client   string          `json:"client,omitempty"`
	Tier     int             `json:"tier"`
	Reason   string          `json:"reason"`
	Args     json.RawMessage `json:"args"`
	Digest   string          `json:"digest"`
	Created  time.Time       `json:"created"`
	Expires  time.Time       `json:"expires"`
}

// Verdict is how a wait ended.
type Verdict string

// Verdicts.
const (
	Approved  Verdict = "approved"
	Denied    Verdict = "denied"
	Expired   Verdict = "expired"
	Cancelled Verdict = "cancelled"
)

// Answer is how a call's wait ended and who ended it.
type Answer struct {
	Verdict Verdict
	// Approver names the human who answered ("" when none did).
	Approver string
	// Mechanism is how the answer came: console (the admin socket or the
	// web console) or elicit (the client asked its user).
	Mechanism string
	// Reason is the operator's, if they gave one.
	Reason string
	// Digest is the digest of the call the answer was given for.
	Digest [32]byte
}

// Decision is an operator's answer to one pending approval.
type Decision struct {
	Approve   bool
	Approver  string
	Mechanism string
	Reason    string
	// Digest, when set (hex), must be the pending call's: the operator
	// approves what they were shown.
	Digest string
}

// Options configures a Queue. Zero values take the defaults.
type Options struct {
	Wait       time.Duration
	MaxPending int
	Now        func() time.Time
	// OnPending is told of every call that starts waiting; it must not
	// block (the webhook notifier queues).
	OnPending func(Pending)
}

// Queue holds the calls waiting for an operator. It is safe for
// concurrent use.
type Queue struct {
	wait       time.Duration
	maxPending int
	now        func() time.Time
	onPending  func(Pending)

	mu      sync.Mutex
	pending map[string]*entry
	subs    map[chan struct{}]struct{}
}

type entry struct {
	p      Pending
	digest [32]byte
	answer chan Answer // buffered 1; sent once, by whoever removes the entry
}

// New returns an empty queue.
func New(o Options) *Queue {
	q := &Queue{wait: o.Wait, maxPending: o.MaxPending, now: o.Now, onPending: o.OnPending, pending: map[string]*entry{}}
	if q.wait <= 0 {
		q.wait = DefaultWait
	}
	if q.maxPending <= 0 {
		q.maxPending = DefaultMaxPending
	}
	if q.now == nil {
		q.now = time.Now
	}
	return q
}

// Wait reports how long a call waits for an answer.
func (q *Queue) Wait() time.Duration { return q.wait }

// Ticket is one call's place in the queue.
type Ticket struct {
	q *Queue
	e *entry
}

// Open puts the call r in the queue and returns its ticket. The caller
// must Close the ticket when it stops waiting.
func (q *Queue) Open(r Request) (*Ticket, error) {
	var id [16]byte
	if _, err := rand.Read(id[:]); err != nil {
		return nil, fmt.Errorf("approvals: open: %w", err)
	}
	now := q.now()
	e := &entry{
		p: Pending{
			ID: hex.EncodeToString(id[:]), CallID: r.CallID, Tool: r.Tool, Host: r.Host,
			Identity: r.Identity, Client: r.Client, Tier: r.Tier, Reason: r.Reason, Args: r.Args,
			Digest: hex.EncodeToString(r.Digest[:]), Created: now, Expires: now.Add(q.wait),
		},
		digest: r.Digest,
		answer: make(chan Answer, 1),
	}
	q.mu.Lock()
	if len(q.pending) >= q.maxPending {
		q.mu.Unlock()
		return nil, ErrTooManyPending
	}
	q.pending[e.p.ID] = e
	q.changedLocked()
	q.mu.Unlock()
	if q.onPending != nil {
		q.onPending(e.p)
	}
	return &Ticket{q: q, e: e}, nil
}

// ID is the pending approval's id, as operators name it.
func (t *Ticket) ID() string { return t.e.p.ID }

// Pending is the pending approval as operators see it.
func (t *Ticket) Pending() Pending { return t.e.p }

// Wait blocks until the call is answered, its approval expires, or ctx
// ends (the client went away), and says which. The entry has left the
// queue when Wait returns.
func (t *Ticket) Wait(ctx context.Context) Answer {
	timer := time.NewTimer(t.q.wait)
	defer timer.Stop()
	select {
	case a := <-t.e.answer:
		return a
	case <-timer.C:
		if t.q.remove(t.e) {
			return Answer{Verdict: Expired, Digest: t.e.digest}
		}
	case <-ctx.Done():
		if t.q.remove(t.e) {
			return Answer{Verdict: Cancelled, Digest: t.e.digest}
		}
	}
	// An answer won the race with the timer or the cancellation.
	return <-t.e.answer
}

// Answer answers this ticket's call, as Queue.Answer does.
func (t *Ticket) Answer(d Decision) error { return t.q.Answer(t.e.p.ID, d) }

// Close withdraws the call if it is still waiting.
func (t *Ticket) Close() { t.q.remove(t.e) }

// remove takes e out of the queue and reports whether it was still there.
func (q *Queue) remove(e *entry) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.pending[e.p.ID] != e {
		return false
	}
	delete(q.pending, e.p.ID)
	q.changedLocked()
	return true
}

// Subscribe returns a channel that receives a value after the pending
// approvals change (several changes may arrive as one), and a function
// that ends the subscription.
func (q *Queue) Subscribe() (<-chan struct{}, func()) {
	ch := make(chan struct{}, 1)
	q.mu.Lock()
	if q.subs == nil {
		q.subs = map[chan struct{}]struct{}{}
	}
	q.subs[ch] = struct{}{}
	q.mu.Unlock()
	return ch, func() {
		q.mu.Lock()
		delete(q.subs, ch)
		q.mu.Unlock()
	}
}

// changedLocked tells every subscriber, never blocking. q.mu is held.
func (q *Queue) changedLocked() {
	for ch := range q.subs {
		select {
		case ch <- struct{}{}:
		default:
		}
	}
}

// Answer gives the waiting call id the operator's decision. The first
// answer wins; later ones get ErrUnknown. An answer whose Digest is not the
// call's is refused with ErrMismatch and the call keeps waiting; an answer
// after the approval's expiry fails closed: the call is refused and
// ErrExpired returned.
func (q *Queue) Answer(id string, d Decision) error {
	q.mu.Lock()
	e, ok := q.pending[id]
	if !ok {
		q.mu.Unlock()
		return ErrUnknown
	}
	if d.Digest != "" {
		want := e.p.Digest
		if subtle.ConstantTimeCompare([]byte(strings.ToLower(d.Digest)), []byte(want)) != 1 {
			q.mu.Unlock()
			return ErrMismatch
		}
	}
	delete(q.pending, id)
	q.changedLocked()
	expired := !q.now().Before(e.p.Expires)
	q.mu.Unlock()
	a := Answer{Verdict: Denied, Approver: d.Approver, Mechanism: d.Mechanism, Reason: d.Reason, Digest: e.digest}
	switch {
	case expired:
		a = Answer{Verdict: Expired, Digest: e.digest}
	case d.Approve:
		a.Verdict = Approved
	}
	e.answer <- a
	if expired {
		return ErrExpired
	}
	return nil
}

// Get returns the pending approval id.
func (q *Queue) Get(id string) (Pending, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	e, ok := q.pending[id]
	if !ok {
		return Pending{}, false
	}
	return e.p, true
}

// List returns the pending approvals, oldest first; identity, when not
// empty, keeps only that caller's.
func (q *Queue) List(identity string) []Pending {
	q.mu.Lock()
	out := make([]Pending, 0, len(q.pending))
	for _, e := range q.pending {
		if identity == "" || e.p.Identity == identity {
			out = append(out, e.p)
		}
	}
	q.mu.Unlock()
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].ID < out[j].ID
	})
	return out
}

// Len reports how many calls are waiting.
func (q *Queue) Len() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.pending)
}
