package edge

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/big"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Bounds on what warden fetches from an authorization server.
const (
	maxMetadataBytes = 1 << 20
	fetchTimeout     = 10 * time.Second
	// jwksMaxAge is how long a key set is trusted before it is refetched.
	jwksMaxAge = time.Hour
	// jwksMinRefetch rate-limits refetches caused by unknown key ids, so
	// a flood of forged tokens cannot make warden hammer the issuer.
	jwksMinRefetch = 10 * time.Second
)

// jwks is a cached, rotated JSON Web Key Set: keys are fetched on first
// use, refetched when older than jwksMaxAge, and refetched (at most every
// jwksMinRefetch) when a token names a key id the set does not have.
type jwks struct {
	issuer string
	url    string // "" = discover from the issuer's metadata
	client *http.Client
	now    func() time.Time
	log    *slog.Logger

	mu      sync.Mutex
	keys    map[string]jwk
	fetched time.Time
	tried   time.Time
}

type jwk struct {
	key crypto.PublicKey
	alg string
}

// key returns the public key for kid and alg.
func (s *jwks) key(ctx context.Context, kid, alg string) (crypto.PublicKey, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	k, ok := s.lookup(kid)
	stale := now.Sub(s.fetched) > jwksMaxAge
	if (!ok || stale) && (s.tried.IsZero() || now.Sub(s.tried) >= jwksMinRefetch) {
		s.tried = now
		if err := s.fetch(ctx); err != nil {
			s.log.Warn("oauth: fetching the issuer's keys failed", "issuer", s.issuer, "err", err)
		} else {
			s.fetched = now
		}
		k, ok = s.lookup(kid)
	}
	if !ok {
		return nil, fmt.Errorf("no key %q in the issuer's key set", kid)
	}
	if k.alg != "" && k.alg != alg {
		return nil, fmt.Errorf("key %q is for %s, token says %s", kid, k.alg, alg)
	}
	return k.key, nil
}

// lookup finds kid; a token without kid matches a set of exactly one key.
func (s *jwks) lookup(kid string) (jwk, bool) {
	if kid == "" && len(s.keys) == 1 {
		for _, k := range s.keys {
			return k, true
		}
	}
	k, ok := s.keys[kid]
	return k, ok
}

func (s *jwks) fetch(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, fetchTimeout)
	defer cancel()
	if s.url == "" {
		u, err := discoverJWKS(ctx, s.client, s.issuer)
		if err != nil {
			return err
		}
		s.url = u
	}
	var doc struct {
		Keys []json.RawMessage `json:"keys"`
	}
	if err := getJSON(ctx, s.client, s.url, &doc); err != nil {
		return err
	}
	keys := map[string]jwk{}
	for _, raw := range doc.Keys {
		kid, k, err := parseJWK(raw)
		if err != nil {
			s.log.Debug("oauth: skipping a key", "err", err)
			continue
		}
		keys[kid] = k
	}
	if len(keys) == 0 {
		return errors.New("the key set has no usable signing key")
	}
	s.keys = keys
	return nil
}

// discoverJWKS reads jwks_uri from the issuer's RFC 8414 or OpenID metadata,
// whose issuer must be the configured one exactly.
func discoverJWKS(ctx context.Context, c *http.Client, issuer string) (string, error) {
	base := strings.TrimRight(issuer, "/")
	var errs []error
	for _, p := range []string{"/.well-known/oauth-authorization-server", "/.well-known/openid-configuration"} {
		var md struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		if err := getJSON(ctx, c, base+p, &md); err != nil {
			errs = append(errs, err)
			continue
		}
		if md.Issuer != issuer {
			return "", fmt.Errorf("issuer metadata names issuer %q, not %q", md.Issuer, issuer)
		}
		if md.JWKSURI == "" {
			return "", errors.New("issuer metadata has no jwks_uri")
		}
		return md.JWKSURI, nil
	}
	return "", fmt.Errorf("discover jwks_uri: %w", errors.Join(errs...))
}

func getJSON(ctx context.Context, c *http.Client, url string, v any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", url, resp.Status)
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadataBytes+1))
	if err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	if len(b) > maxMetadataBytes {
		return fmt.Errorf("GET %s: larger than %d bytes", url, maxMetadataBytes)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("GET %s: %w", url, err)
	}
	return nil
}

// parseJWK turns one signing JWK (RSA, EC P-256/384/521, Ed25519) into a
// public key. Encryption keys are skipped.
func parseJWK(raw json.RawMessage) (string, jwk, error) {
	var k struct {
		Kty, Kid, Use, Alg, Crv, N, E, X, Y string
	}
	if err := json.Unmarshal(raw, &k); err != nil {
		return "", jwk{}, err
	}
	if k.Use != "" && k.Use != "sig" {
		return "", jwk{}, fmt.Errorf("key %q is not a signing key", k.Kid)
	}
	b := func(s string) ([]byte, error) { return base64.RawURLEncoding.DecodeString(s) }
	switch k.Kty {
	case "RSA":
		n, err1 := b(k.N)
		e, err2 := b(k.E)
		if err := errors.Join(err1, err2); err != nil || len(n) < 256 || len(e) == 0 || len(e) > 4 {
			return "", jwk{}, fmt.Errorf("key %q: bad or short RSA key", k.Kid)
		}
		exp := int(new(big.Int).SetBytes(e).Int64())
		return k.Kid, jwk{key: &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: exp}, alg: k.Alg}, nil
	case "EC":
		var curve elliptic.Curve
		switch k.Crv {
		case "P-256":
			curve = elliptic.P256()
		case "P-384":
			curve = elliptic.P384()
		case "P-521":
			curve = elliptic.P521()
		default:
			return "", jwk{}, fmt.Errorf("key %q: curve %q", k.Kid, k.Crv)
		}
		x, err1 := b(k.X)
		y, err2 := b(k.Y)
		if err := errors.Join(err1, err2); err != nil {
			return "", jwk{}, fmt.Errorf("key %q: %w", k.Kid, err)
		}
		pub := &ecdsa.PublicKey{Curve: curve, X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
		if !curve.IsOnCurve(pub.X, pub.Y) {
			return "", jwk{}, fmt.Errorf("key %q: point not on curve", k.Kid)
		}
		return k.Kid, jwk{key: pub, alg: k.Alg}, nil
	case "OKP":
		x, err := b(k.X)
		if k.Crv != "Ed25519" || err != nil || len(x) != ed25519.PublicKeySize {
			return "", jwk{}, fmt.Errorf("key %q: bad OKP key", k.Kid)
		}
		return k.Kid, jwk{key: ed25519.PublicKey(x), alg: k.Alg}, nil
	}
	return "", jwk{}, fmt.Errorf("key %q: key type %q", k.Kid, k.Kty)
}
