package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"io"
	"regexp"
	"sync"
	"testing"
	"testing/iotest"
	"time"
)

var (
	digestA = sha256.Sum256([]byte("call a"))
	digestB = sha256.Sum256([]byte("call b"))
)

func mustIssue(t *testing.T, tk *Tokens, d [32]byte) string {
	t.Helper()
	tok, err := tk.Issue(d)
	if err != nil {
		t.Fatalf("Issue: %v", err)
	}
	return tok
}

func TestTokensRedeemOnce(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	tok := mustIssue(t, tk, digestA)
	if got := tk.Pending(); got != 1 {
		t.Errorf("Pending() = %d, want 1", got)
	}
	if err := tk.Redeem(tok, digestA); err != nil {
		t.Fatalf("first Redeem: %v", err)
	}
	if err := tk.Redeem(tok, digestA); !errors.Is(err, ErrUnknownToken) {
		t.Errorf("second Redeem = %v, want ErrUnknownToken", err)
	}
	if got := tk.Pending(); got != 0 {
		t.Errorf("Pending() = %d, want 0", got)
	}
}

func TestTokensUnknown(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	tok := mustIssue(t, tk, digestA)
	for _, bad := range []string{"", "x", tok[:len(tok)-1], tok + "A", base64.RawURLEncoding.EncodeToString(make([]byte, 32))} {
		if err := tk.Redeem(bad, digestA); !errors.Is(err, ErrUnknownToken) {
			t.Errorf("Redeem(%q) = %v, want ErrUnknownToken", bad, err)
		}
	}
	// Wrong guesses must not disturb the real token.
	if err := tk.Redeem(tok, digestA); err != nil {
		t.Errorf("Redeem after wrong guesses: %v", err)
	}
}

func TestTokensMismatchBurns(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	tok := mustIssue(t, tk, digestA)
	other := mustIssue(t, tk, digestA)
	if err := tk.Redeem(tok, digestB); !errors.Is(err, ErrMismatch) {
		t.Fatalf("Redeem with other digest = %v, want ErrMismatch", err)
	}
	if err := tk.Redeem(tok, digestA); !errors.Is(err, ErrUnknownToken) {
		t.Errorf("Redeem with right digest after mismatch = %v, want ErrUnknownToken (burned)", err)
	}
	// Burning one token leaves the others alone.
	if err := tk.Redeem(other, digestA); err != nil {
		t.Errorf("Redeem of another token: %v", err)
	}
}

func TestTokensExpiry(t *testing.T) {
	tests := []struct {
		name string
		ttl  time.Duration
		want time.Duration
	}{
		{"default", 0, 5 * time.Minute},
		{"negative means default", -time.Second, 5 * time.Minute},
		{"custom", 30 * time.Second, 30 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			tk := NewTokens(TokenOptions{TTL: tt.ttl, Now: clock.Now})

			live := mustIssue(t, tk, digestA)
			clock.Advance(tt.want - time.Nanosecond)
			if err := tk.Redeem(live, digestA); err != nil {
				t.Errorf("Redeem just before TTL: %v", err)
			}

			dead := mustIssue(t, tk, digestA)
			clock.Advance(tt.want)
			if err := tk.Redeem(dead, digestA); !errors.Is(err, ErrExpired) {
				t.Errorf("Redeem at TTL = %v, want ErrExpired", err)
			}
			if err := tk.Redeem(dead, digestA); !errors.Is(err, ErrUnknownToken) {
				t.Errorf("Redeem after expiry = %v, want ErrUnknownToken (removed)", err)
			}
		})
	}
}

func TestTokensMaxPending(t *testing.T) {
	clock := newFakeClock()
	tk := NewTokens(TokenOptions{MaxPending: 3, TTL: time.Minute, Now: clock.Now})
	old1 := mustIssue(t, tk, digestA)
	mustIssue(t, tk, digestA)
	clock.Advance(30 * time.Second)
	young := mustIssue(t, tk, digestA)
	if _, err := tk.Issue(digestA); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("Issue past MaxPending = %v, want ErrTooManyPending", err)
	}
	if got := tk.Pending(); got != 3 {
		t.Errorf("Pending() = %d, want 3", got)
	}

	// Redeeming frees a slot.
	if err := tk.Redeem(old1, digestA); err != nil {
		t.Fatal(err)
	}
	mustIssue(t, tk, digestA)
	if _, err := tk.Issue(digestA); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("Issue when full again = %v, want ErrTooManyPending", err)
	}

	// Once the oldest expires, Issue sweeps it instead of refusing, and
	// sweeps nothing younger.
	clock.Advance(31 * time.Second)
	mustIssue(t, tk, digestA)
	if _, err := tk.Issue(digestA); !errors.Is(err, ErrTooManyPending) {
		t.Fatalf("Issue after sweep refilled = %v, want ErrTooManyPending", err)
	}
	if err := tk.Redeem(young, digestA); err != nil {
		t.Errorf("unexpired token lost in sweep: %v", err)
	}
	if got := tk.Pending(); got != 2 {
		t.Errorf("Pending() = %d, want 2", got)
	}
}

func TestTokensDefaultMaxPending(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	for i := range DefaultMaxPending {
		if _, err := tk.Issue(digestA); err != nil {
			t.Fatalf("Issue %d: %v", i, err)
		}
	}
	if _, err := tk.Issue(digestA); !errors.Is(err, ErrTooManyPending) {
		t.Errorf("Issue %d = %v, want ErrTooManyPending", DefaultMaxPending, err)
	}
}

func TestTokensFormat(t *testing.T) {
	tk := NewTokens(TokenOptions{MaxPending: 1000})
	urlSafe := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	seen := map[string]bool{}
	for range 1000 {
		tok := mustIssue(t, tk, digestA)
		if !urlSafe.MatchString(tok) {
			t.Fatalf("token %q is not URL-safe", tok)
		}
		raw, err := base64.RawURLEncoding.DecodeString(tok)
		if err != nil || len(raw) < 16 {
			t.Fatalf("token %q does not carry 128 bits (%d bytes, %v)", tok, len(raw), err)
		}
		if seen[tok] {
			t.Fatalf("token %q issued twice", tok)
		}
		seen[tok] = true
	}
}

func TestTokensRandInjected(t *testing.T) {
	secret := bytes.Repeat([]byte{0xA5}, 64)
	tk := NewTokens(TokenOptions{Rand: bytes.NewReader(secret)})
	tok := mustIssue(t, tk, digestA)
	if want := base64.RawURLEncoding.EncodeToString(secret[:32]); tok != want {
		t.Errorf("token = %q, want %q from the injected reader", tok, want)
	}
	// The same bytes again must not yield a token that is already held.
	if _, err := tk.Issue(digestB); err == nil {
		t.Error("Issue with repeated randomness succeeded")
	}
	if err := tk.Redeem(tok, digestA); err != nil {
		t.Errorf("Redeem: %v", err)
	}

	failing := NewTokens(TokenOptions{Rand: iotest.ErrReader(io.ErrUnexpectedEOF)})
	if _, err := failing.Issue(digestA); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("Issue with failing Rand = %v, want wrapped io.ErrUnexpectedEOF", err)
	}
	if got := failing.Pending(); got != 0 {
		t.Errorf("Pending() after failed Issue = %d, want 0", got)
	}
}

// TestTokensStoreHashOnly checks the table is keyed by SHA-256 of the token,
// so neither lookups nor a memory dump expose the secret.
func TestTokensStoreHashOnly(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	tok := mustIssue(t, tk, digestA)
	tk.mu.Lock()
	_, ok := tk.pending[sha256.Sum256([]byte(tok))]
	n := len(tk.pending)
	tk.mu.Unlock()
	if !ok || n != 1 {
		t.Errorf("pending table has %d entries, keyed by SHA-256(token): %v", n, ok)
	}
}

func TestTokensConcurrentRedeem(t *testing.T) {
	tk := NewTokens(TokenOptions{})
	for round := range 20 {
		tok := mustIssue(t, tk, digestA)
		const n = 32
		errs := make(chan error, n)
		var start, wg sync.WaitGroup
		start.Add(1)
		for range n {
			wg.Go(func() {
				start.Wait()
				errs <- tk.Redeem(tok, digestA)
			})
		}
		start.Done()
		wg.Wait()
		close(errs)
		ok := 0
		for err := range errs {
			switch {
			case err == nil:
				ok++
			case !errors.Is(err, ErrUnknownToken):
				t.Errorf("round %d: Redeem = %v, want nil or ErrUnknownToken", round, err)
			}
		}
		if ok != 1 {
			t.Fatalf("round %d: %d redeems succeeded, want exactly 1", round, ok)
		}
	}
}

func TestTokensConcurrentMixed(t *testing.T) {
	clock := newFakeClock()
	tk := NewTokens(TokenOptions{MaxPending: 64, Now: clock.Now})
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			d := sha256.Sum256([]byte{byte(g)})
			for range 200 {
				tok, err := tk.Issue(d)
				if errors.Is(err, ErrTooManyPending) {
					continue
				}
				if err != nil {
					t.Errorf("Issue: %v", err)
					return
				}
				if err := tk.Redeem(tok, d); err != nil {
					t.Errorf("Redeem own token: %v", err)
				}
				_ = tk.Pending()
			}
		})
	}
	wg.Wait()
	if got := tk.Pending(); got != 0 {
		t.Errorf("Pending() = %d, want 0", got)
	}
}
