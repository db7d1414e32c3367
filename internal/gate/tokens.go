package gate

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Defaults for TokenOptions.
const (
	DefaultTTL        = 5 * time.Minute
	DefaultMaxPending = 256
)

// tokenBytes is the randomness in a token: 256 bits, far past guessing.
const tokenBytes = 32

// TokenOptions configures Tokens. Zero values take the defaults.
type TokenOptions struct {
	TTL        time.Duration    // how long an issued token stays redeemable; <= 0 means DefaultTTL
	MaxPending int              // outstanding tokens allowed at once; <= 0 means DefaultMaxPending
	Now        func() time.Time // clock; nil means time.Now
	Rand       io.Reader        // token randomness; nil means crypto/rand
}

// Tokens holds the pending approvals of the token mechanism: each token is
// bound to one call digest, redeemable once, until it expires. It is safe for
// concurrent use.
//
// Only SHA-256(token) is stored, so looking a token up does not leak timing
// about the secret itself, and a dump of the table cannot be replayed.
type Tokens struct {
	ttl        time.Duration
	maxPending int
	now        func() time.Time
	rand       io.Reader

	mu      sync.Mutex
	pending map[[32]byte]pendingApproval // keyed by SHA-256 of the token
}

// pendingApproval is what an issued token was bound to.
type pendingApproval struct {
	digest  [32]byte
	expires time.Time
}

// NewTokens returns an empty token table configured by o.
func NewTokens(o TokenOptions) *Tokens {
	t := &Tokens{
		ttl:        o.TTL,
		maxPending: o.MaxPending,
		now:        o.Now,
		rand:       o.Rand,
		pending:    make(map[[32]byte]pendingApproval),
	}
	if t.ttl <= 0 {
		t.ttl = DefaultTTL
	}
	if t.maxPending <= 0 {
		t.maxPending = DefaultMaxPending
	}
	if t.now == nil {
		t.now = time.Now
	}
	if t.rand == nil {
		t.rand = rand.Reader
	}
	return t
}

// Issue records a pending approval for the call digest d and returns an
// opaque, URL-safe token carrying 256 bits of randomness. Expired approvals
// are swept first; if MaxPending remain it returns ErrTooManyPending.
func (t *Tokens) Issue(d [32]byte) (string, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	now := t.now()
	t.sweep(now)
	if len(t.pending) >= t.maxPending {
		return "", ErrTooManyPending
	}
	var secret [tokenBytes]byte
	if _, err := io.ReadFull(t.rand, secret[:]); err != nil {
		return "", fmt.Errorf("gate: issue token: %w", err)
	}
	token := base64.RawURLEncoding.EncodeToString(secret[:])
	key := sha256.Sum256([]byte(token))
	if _, ok := t.pending[key]; ok {
		// Only a broken randomness source gets here; never hand out a
		// token that another approval already holds.
		return "", errors.New("gate: issue token: randomness repeated")
	}
	t.pending[key] = pendingApproval{digest: d, expires: now.Add(t.ttl)}
	return token, nil
}

// Redeem consumes token for the call digest d. Whatever the outcome, a token
// that was found is removed: it succeeds at most once, an expired one returns
// ErrExpired, and one presented with any other digest is burned and returns
// ErrMismatch, so a guess against a live token costs the token. A token not
// found returns ErrUnknownToken.
func (t *Tokens) Redeem(token string, d [32]byte) error {
	key := sha256.Sum256([]byte(token))
	t.mu.Lock()
	defer t.mu.Unlock()
	p, ok := t.pending[key]
	if !ok {
		return ErrUnknownToken
	}
	delete(t.pending, key)
	if !t.now().Before(p.expires) {
		return ErrExpired
	}
	if subtle.ConstantTimeCompare(p.digest[:], d[:]) != 1 {
		return ErrMismatch
	}
	return nil
}

// Pending returns how many unexpired tokens are outstanding.
func (t *Tokens) Pending() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.sweep(t.now())
	return len(t.pending)
}

// sweep drops expired approvals. The table is bounded by maxPending, so a
// full scan is cheap. t.mu must be held.
func (t *Tokens) sweep(now time.Time) {
	for k, p := range t.pending {
		if !now.Before(p.expires) {
			delete(t.pending, k)
		}
	}
}
