package gate

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"time"
)

// sealVersion is the first byte of every sealed state, so the layout can
// change without old states being misread.
const sealVersion = 1

// sealDomain separates state MACs from any other use of the key.
const sealDomain = "warden/gate/request_state/v1"

// sealHeader is version byte plus big-endian expiry in Unix nanoseconds.
const sealHeader = 1 + 8

// sealEncoding is strict so that each state has exactly one spelling.
var sealEncoding = base64.RawURLEncoding.Strict()

// Sealer protects the request_state of an MCP input-required round trip. The
// state carries a payload and an expiry, HMAC-SHA256-bound to the call digest,
// so a client can neither forge it, move it to another call, nor extend it.
//
// The payload is authenticated, not encrypted: the client can read it. A
// sealed state is not single use; it opens for the same call until it
// expires.
type Sealer struct {
	key []byte
	now func() time.Time
}

// NewSealer returns a Sealer keyed with key, which should hold at least 32
// random bytes and be shared by every server that may see the round trip.
// An empty key means 32 fresh random bytes, good for one process lifetime.
// A nil now means time.Now.
func NewSealer(key []byte, now func() time.Time) *Sealer {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key) // never fails; the runtime aborts instead
	} else {
		key = append([]byte(nil), key...)
	}
	if now == nil {
		now = time.Now
	}
	return &Sealer{key: key, now: now}
}

// Seal returns an opaque, URL-safe state that carries payload to Open for the
// call digest d until ttl from now.
func (s *Sealer) Seal(d [32]byte, ttl time.Duration, payload []byte) string {
	b := make([]byte, sealHeader, sealHeader+len(payload)+sha256.Size)
	b[0] = sealVersion
	binary.BigEndian.PutUint64(b[1:sealHeader], uint64(s.now().Add(ttl).UnixNano()))
	b = append(b, payload...)
	b = append(b, s.mac(d, b)...)
	return sealEncoding.EncodeToString(b)
}

// Open checks state against the call digest d and returns its payload. A
// state sealed for another call, or altered in any way, returns ErrMismatch;
// a genuine one past its expiry returns ErrExpired; anything that is not a
// state at all returns another error.
func (s *Sealer) Open(state string, d [32]byte) ([]byte, error) {
	b, err := sealEncoding.DecodeString(state)
	if err != nil {
		return nil, fmt.Errorf("gate: open state: %w", err)
	}
	// The decoder skips CR and LF; refuse them so a state has one spelling.
	if sealEncoding.EncodedLen(len(b)) != len(state) {
		return nil, errors.New("gate: open state: malformed encoding")
	}
	if len(b) < sealHeader+sha256.Size {
		return nil, errors.New("gate: open state: too short")
	}
	if b[0] != sealVersion {
		return nil, fmt.Errorf("gate: open state: unknown version %d", b[0])
	}
	body, tag := b[:len(b)-sha256.Size], b[len(b)-sha256.Size:]
	if !hmac.Equal(tag, s.mac(d, body)) {
		return nil, ErrMismatch
	}
	expires := time.Unix(0, int64(binary.BigEndian.Uint64(body[1:sealHeader])))
	if !s.now().Before(expires) {
		return nil, ErrExpired
	}
	return body[sealHeader:], nil
}

// mac returns HMAC-SHA256 over the domain, the call digest and body.
func (s *Sealer) mac(d [32]byte, body []byte) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(sealDomain))
	m.Write(d[:])
	m.Write(body)
	return m.Sum(nil)
}
