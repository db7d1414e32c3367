package edge

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"math/big"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
)

// issuer is a real minimal authorization server: metadata and a JWKS
// endpoint whose keys the test rotates.
type issuer struct {
	srv     *httptest.Server
	mu      sync.Mutex
	keys    []any // *rsa.PrivateKey or *ecdsa.PrivateKey, by kid index
	kids    []string
	fetches atomic.Int32
}

func newIssuer(t *testing.T) *issuer {
	is := &issuer{}
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/openid-configuration", func(w http.ResponseWriter, r *http.Request) {
		json.NewEncoder(w).Encode(map[string]string{"issuer": is.srv.URL, "jwks_uri": is.srv.URL + "/jwks"})
	})
	mux.HandleFunc("/jwks", func(w http.ResponseWriter, r *http.Request) {
		is.fetches.Add(1)
		is.mu.Lock()
		defer is.mu.Unlock()
		var keys []map[string]string
		b := func(n *big.Int) string { return base64.RawURLEncoding.EncodeToString(n.Bytes()) }
		for i, k := range is.keys {
			switch k := k.(type) {
			case *rsa.PrivateKey:
				keys = append(keys, map[string]string{"kty": "RSA", "kid": is.kids[i], "use": "sig", "n": b(k.N), "e": b(big.NewInt(int64(k.E)))})
			case *ecdsa.PrivateKey:
				keys = append(keys, map[string]string{"kty": "EC", "kid": is.kids[i], "crv": "P-256", "x": b(k.X), "y": b(k.Y)})
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"keys": keys})
	})
	is.srv = httptest.NewServer(mux)
	t.Cleanup(is.srv.Close)
	return is
}

// rotate replaces the published keys with one new key and returns it.
func (is *issuer) rotate(t *testing.T, kid string, ec bool) any {
	var k any
	var err error
	if ec {
		k, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	} else {
		k, err = rsa.GenerateKey(rand.Reader, 2048)
	}
	if err != nil {
		t.Fatal(err)
	}
	is.mu.Lock()
	is.keys, is.kids = []any{k}, []string{kid}
	is.mu.Unlock()
	return k
}

func sign(t *testing.T, key any, kid, typ string, claims jwt.MapClaims) string {
	t.Helper()
	m := jwt.SigningMethod(jwt.SigningMethodRS256)
	if _, ok := key.(*ecdsa.PrivateKey); ok {
		m = jwt.SigningMethodES256
	}
	tok := jwt.NewWithClaims(m, claims)
	tok.Header["kid"] = kid
	tok.Header["typ"] = typ
	s, err := tok.SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestOAuthKeyRotationAndRefetchLimit(t *testing.T) {
	is := newIssuer(t)
	now := time.Unix(1_800_000_000, 0)
	clock := func() time.Time { return now }
	v := NewOAuth(OAuthOptions{Issuer: is.srv.URL, Resource: "https://w.test/mcp", Now: clock})
	claims := func() jwt.MapClaims {
		return jwt.MapClaims{"iss": is.srv.URL, "aud": "https://w.test/mcp", "sub": "alice", "scope": "warden:read", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix()}
	}
	k1 := is.rotate(t, "k1", false)
	if _, err := v.Verify(context.Background(), sign(t, k1, "k1", "at+jwt", claims())); err != nil {
		t.Fatalf("k1: %v", err)
	}
	// The issuer rotates to an EC key; a token naming the new kid makes
	// warden refetch once.
	k2 := is.rotate(t, "k2", true)
	now = now.Add(time.Minute)
	if _, err := v.Verify(context.Background(), sign(t, k2, "k2", "at+jwt", claims())); err != nil {
		t.Fatalf("after rotation: %v", err)
	}
	before := is.fetches.Load()
	// Forged kids in a burst cause no more than one fetch per interval.
	for i := 0; i < 20; i++ {
		_, err := v.Verify(context.Background(), sign(t, k2, "unknown", "at+jwt", claims()))
		if !errors.Is(err, auth.ErrInvalidToken) {
			t.Fatalf("unknown kid: %v", err)
		}
	}
	if got := is.fetches.Load() - before; got > 1 {
		t.Errorf("%d JWKS fetches for a burst of unknown kids, want at most 1", got)
	}
	// The retired key no longer verifies.
	if _, err := v.Verify(context.Background(), sign(t, k1, "k1", "at+jwt", claims())); err == nil {
		t.Error("a token signed by a rotated-out key verified")
	}
}

func TestOAuthRefuses(t *testing.T) {
	is := newIssuer(t)
	now := time.Unix(1_800_000_000, 0)
	v := NewOAuth(OAuthOptions{Issuer: is.srv.URL, Resource: "https://w.test/mcp", Skew: 30 * time.Second, Now: func() time.Time { return now }})
	k := is.rotate(t, "k", false)
	base := func(mut func(jwt.MapClaims)) jwt.MapClaims {
		c := jwt.MapClaims{"iss": is.srv.URL, "aud": []string{"x", "https://w.test/mcp"}, "sub": "alice", "scope": "warden:read", "iat": now.Unix(), "exp": now.Add(time.Minute).Unix()}
		if mut != nil {
			mut(c)
		}
		return c
	}
	hmac := jwt.NewWithClaims(jwt.SigningMethodHS256, base(nil))
	hmac.Header["typ"], hmac.Header["kid"] = "at+jwt", "k"
	hs, _ := hmac.SignedString([]byte("public-key-as-secret"))
	none := jwt.NewWithClaims(jwt.SigningMethodNone, base(nil))
	none.Header["typ"] = "at+jwt"
	ns, _ := none.SignedString(jwt.UnsafeAllowNoneSignatureType)
	tests := []struct {
		name  string
		token string
		ok    bool
	}{
		{"valid, aud among several", sign(t, k, "k", "at+jwt", base(nil)), true},
		{"typ with application/ prefix", sign(t, k, "k", "application/at+jwt", base(nil)), true},
		{"exp within skew", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { c["exp"] = now.Add(-20 * time.Second).Unix() })), true},
		{"exp beyond skew", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { c["exp"] = now.Add(-40 * time.Second).Unix() })), false},
		{"no exp", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { delete(c, "exp") })), false},
		{"nbf in the future", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { c["nbf"] = now.Add(time.Hour).Unix() })), false},
		{"ID token typ", sign(t, k, "k", "JWT", base(nil)), false},
		{"refresh-shaped, no typ", sign(t, k, "k", "", base(nil)), false},
		{"no sub", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { delete(c, "sub") })), false},
		{"wrong aud", sign(t, k, "k", "at+jwt", base(func(c jwt.MapClaims) { c["aud"] = "https://w.test" })), false},
		{"HS256 with a guessable key", hs, false},
		{"alg none", ns, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := v.Verify(context.Background(), tc.token)
			if (err == nil) != tc.ok {
				t.Errorf("err = %v, want ok=%v", err, tc.ok)
			}
			if err != nil && !errors.Is(err, auth.ErrInvalidToken) {
				t.Errorf("error %v does not unwrap to ErrInvalidToken", err)
			}
		})
	}
}

func TestCeiling(t *testing.T) {
	tests := []struct {
		scopes []string
		tier   int
		ok     bool
	}{
		{[]string{"warden:read"}, 0, true},
		{[]string{"warden:operate"}, 2, true},
		{[]string{"warden:read", "warden:admin"}, 3, true},
		{[]string{"openid", "warden:adminx"}, 0, false},
		{nil, 0, false},
	}
	for _, tc := range tests {
		tier, ok := Ceiling(&auth.TokenInfo{Scopes: tc.scopes})
		if ok != tc.ok || (ok && int(tier) != tc.tier) {
			t.Errorf("Ceiling(%v) = %d, %v; want %d, %v", tc.scopes, tier, ok, tc.tier, tc.ok)
		}
	}
	if tier, ok := RelayCeiling(&auth.TokenInfo{}); !ok || tier >= 0 {
		t.Errorf("a token without warden scope gets ceiling %d, %v; want below tier 0", tier, ok)
	}
}

func TestLockoutExpires(t *testing.T) {
	now := time.Unix(1_800_000_000, 0)
	var unlocked []string
	s := NewSources(SourceOptions{MaxFailures: 2, Window: time.Minute, Duration: 10 * time.Minute, Now: func() time.Time { return now },
		OnUnlock: func(a, why string) { unlocked = append(unlocked, a+" "+why) }})
	r := httptest.NewRequest("POST", "/mcp", nil)
	r.RemoteAddr = "192.0.2.7:5555"
	// Failures spread wider than the window never lock.
	for i := 0; i < 5; i++ {
		if s.Fail(r) {
			t.Fatalf("locked after spread-out failure %d", i)
		}
		now = now.Add(31 * time.Second)
	}
	s.Fail(r)
	s.Fail(r)
	if !s.Fail(r) || len(s.List()) != 1 {
		t.Fatal("three failures within the window did not lock")
	}
	now = now.Add(10 * time.Minute)
	if len(s.List()) != 0 || len(unlocked) != 1 || unlocked[0] != "192.0.2.7 expired" {
		t.Errorf("lock did not expire: %v %v", s.List(), unlocked)
	}
}
