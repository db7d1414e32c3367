package gate

import (
	"bytes"
	"encoding/base64"
	"errors"
	"regexp"
	"testing"
	"time"
)

var testKey = bytes.Repeat([]byte("k"), 32)

func TestSealerRoundTrip(t *testing.T) {
	s := NewSealer(testKey, newFakeClock().Now)
	urlSafe := regexp.MustCompile(`^[A-Za-z0-9_-]+$`)
	for _, payload := range [][]byte{nil, []byte("x"), []byte(`{"step":2,"answer":"yes"}`), bytes.Repeat([]byte{0, 0xff}, 1000)} {
		state := s.Seal(digestA, time.Minute, payload)
		if !urlSafe.MatchString(state) {
			t.Errorf("state %q is not URL-safe", state)
		}
		got, err := s.Open(state, digestA)
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		if !bytes.Equal(got, payload) {
			t.Errorf("Open payload = %q, want %q", got, payload)
		}
	}
}

func TestSealerOtherCall(t *testing.T) {
	s := NewSealer(testKey, nil)
	state := s.Seal(digestA, time.Minute, []byte("p"))
	if _, err := s.Open(state, digestB); !errors.Is(err, ErrMismatch) {
		t.Errorf("Open with other digest = %v, want ErrMismatch", err)
	}
	other := NewSealer(bytes.Repeat([]byte("j"), 32), nil)
	if _, err := other.Open(state, digestA); !errors.Is(err, ErrMismatch) {
		t.Errorf("Open with other key = %v, want ErrMismatch", err)
	}
}

func TestSealerRandomKey(t *testing.T) {
	a, b := NewSealer(nil, nil), NewSealer([]byte{}, nil)
	state := a.Seal(digestA, time.Minute, []byte("p"))
	if _, err := a.Open(state, digestA); err != nil {
		t.Fatalf("Open with own random key: %v", err)
	}
	if _, err := b.Open(state, digestA); !errors.Is(err, ErrMismatch) {
		t.Errorf("Open with another random key = %v, want ErrMismatch", err)
	}
}

func TestSealerCopiesKey(t *testing.T) {
	key := bytes.Clone(testKey)
	s := NewSealer(key, nil)
	state := s.Seal(digestA, time.Minute, nil)
	key[0] ^= 1
	if _, err := s.Open(state, digestA); err != nil {
		t.Errorf("Open after caller changed its key slice: %v", err)
	}
}

func TestSealerExpiry(t *testing.T) {
	clock := newFakeClock()
	s := NewSealer(testKey, clock.Now)
	state := s.Seal(digestA, time.Minute, []byte("p"))
	clock.Advance(time.Minute - time.Nanosecond)
	if _, err := s.Open(state, digestA); err != nil {
		t.Fatalf("Open just before expiry: %v", err)
	}
	clock.Advance(time.Nanosecond)
	if _, err := s.Open(state, digestA); !errors.Is(err, ErrExpired) {
		t.Errorf("Open at expiry = %v, want ErrExpired", err)
	}
	if _, err := s.Open(s.Seal(digestA, 0, nil), digestA); !errors.Is(err, ErrExpired) {
		t.Errorf("Open of zero-TTL state = %v, want ErrExpired", err)
	}
}

// TestSealerCannotExtend rewrites the expiry inside a state, as a client
// wanting more time would, and checks the MAC catches it.
func TestSealerCannotExtend(t *testing.T) {
	clock := newFakeClock()
	s := NewSealer(testKey, clock.Now)
	state := s.Seal(digestA, time.Minute, []byte("p"))
	later := s.Seal(digestA, time.Hour, []byte("p"))
	b, _ := base64.RawURLEncoding.DecodeString(state)
	l, _ := base64.RawURLEncoding.DecodeString(later)
	copy(b[1:sealHeader], l[1:sealHeader])
	clock.Advance(2 * time.Minute)
	if _, err := s.Open(base64.RawURLEncoding.EncodeToString(b), digestA); !errors.Is(err, ErrMismatch) {
		t.Errorf("Open with extended expiry = %v, want ErrMismatch", err)
	}
}

func TestSealerTamper(t *testing.T) {
	s := NewSealer(testKey, newFakeClock().Now)
	state := s.Seal(digestA, time.Minute, []byte(`{"answer":"no"}`))
	raw, err := base64.RawURLEncoding.DecodeString(state)
	if err != nil {
		t.Fatal(err)
	}
	for i := range raw {
		for _, bit := range []byte{0x01, 0x80} {
			b := bytes.Clone(raw)
			b[i] ^= bit
			if p, err := s.Open(base64.RawURLEncoding.EncodeToString(b), digestA); err == nil {
				t.Errorf("byte %d ^ %#x: Open succeeded with payload %q", i, bit, p)
			}
		}
	}
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
	for i := range len(state) {
		for _, c := range []byte(alphabet) {
			if c == state[i] {
				continue
			}
			b := []byte(state)
			b[i] = c
			if p, err := s.Open(string(b), digestA); err == nil {
				t.Fatalf("char %d -> %q: Open succeeded with payload %q", i, c, p)
			}
		}
	}
	for name, bad := range map[string]string{
		"truncated":    state[:len(state)-1],
		"extended":     state + "A",
		"newline":      state[:10] + "\n" + state[10:],
		"empty":        "",
		"header only":  base64.RawURLEncoding.EncodeToString(raw[:sealHeader]),
		"padded":       base64.URLEncoding.EncodeToString(raw),
		"std alphabet": base64.RawStdEncoding.EncodeToString(raw),
	} {
		if name == "std alphabet" && bad == state {
			continue // no + or / in this state to tell the alphabets apart
		}
		if p, err := s.Open(bad, digestA); err == nil {
			t.Errorf("%s: Open succeeded with payload %q", name, p)
		}
	}
}

func TestSealerMalformedIsNotMismatch(t *testing.T) {
	s := NewSealer(testKey, nil)
	raw, _ := base64.RawURLEncoding.DecodeString(s.Seal(digestA, time.Minute, nil))
	raw[0] = 99
	for name, bad := range map[string]string{
		"not base64":      "!!!",
		"too short":       "AAAA",
		"unknown version": base64.RawURLEncoding.EncodeToString(raw),
	} {
		_, err := s.Open(bad, digestA)
		if err == nil || errors.Is(err, ErrMismatch) || errors.Is(err, ErrExpired) {
			t.Errorf("%s: Open = %v, want a malformed-state error", name, err)
		}
	}
}

func FuzzOpen(f *testing.F) {
	clock := newFakeClock()
	s := NewSealer(testKey, clock.Now)
	valid := map[string]bool{}
	for _, p := range []string{"", "x", `{"a":1}`} {
		state := s.Seal(digestA, time.Hour, []byte(p))
		valid[state] = true
		f.Add(state)
	}
	f.Add("")
	f.Add("AQ")
	f.Add("!!!!")
	f.Fuzz(func(t *testing.T, state string) {
		p, err := s.Open(state, digestA)
		if err == nil && !valid[state] {
			t.Fatalf("forged state %q opened with payload %q", state, p)
		}
		if _, err := s.Open(state, digestB); err == nil {
			t.Fatalf("state %q opened for another digest", state)
		}
	})
}
