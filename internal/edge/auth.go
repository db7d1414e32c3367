package edge

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"

	"github.com/warden-mcp/warden/internal/policy"
)

// errInsufficientScope is a verified token that grants no warden scope.
var errInsufficientScope = errors.New("insufficient_scope")

// Auth verifies bearer tokens: the single WARDEN_TOKEN, the named tokens of
// the state dir, and, when configured, JWT access tokens from an OAuth
// issuer. The static set is swapped atomically on reload.
type Auth struct {
	static atomic.Pointer[staticSet]
	oauth  *OAuth
}

// staticSet is the operator-issued tokens, by SHA-256.
type staticSet struct {
	defaultSum [32]byte
	hasDefault bool
	named      map[[32]byte]NamedToken
}

// NewAuth returns an Auth for the default token (may be empty when OAuth
// or named tokens are used), the named tokens, and an optional OAuth
// verifier.
func NewAuth(defaultToken string, named []NamedToken, oauth *OAuth) *Auth {
	a := &Auth{oauth: oauth}
	a.SetTokens(defaultToken, named)
	return a
}

// SetTokens replaces the static tokens; calls in flight keep the identity
// they were admitted with, the next request sees the new set.
func (a *Auth) SetTokens(defaultToken string, named []NamedToken) {
	s := &staticSet{named: map[[32]byte]NamedToken{}}
	if defaultToken != "" {
		s.defaultSum, s.hasDefault = sha256.Sum256([]byte(defaultToken)), true
	}
	for _, t := range named {
		var sum [32]byte
		if n, err := hex.Decode(sum[:], []byte(t.SHA256)); err == nil && n == len(sum) {
			s.named[sum] = t
		}
	}
	a.static.Store(s)
}

// OAuth returns the JWT verifier, nil when OAuth is off.
func (a *Auth) OAuth() *OAuth { return a.oauth }

// verify returns the caller's token info, or an error unwrapping to
// auth.ErrInvalidToken (401) or errInsufficientScope (403).
func (a *Auth) verify(ctx context.Context, token string) (*auth.TokenInfo, error) {
	s := a.static.Load()
	sum := sha256.Sum256([]byte(token))
	if s.hasDefault && subtle.ConstantTimeCompare(sum[:], s.defaultSum[:]) == 1 {
		// The one operator token predates scopes: it is the operator.
		return &auth.TokenInfo{UserID: "token:default", Scopes: []string{ScopeAdmin}, Extra: map[string]any{"static": true}}, nil
	}
	// A map lookup by SHA-256 of a 256-bit random secret leaks nothing
	// usable through timing.
	if t, ok := s.named[sum]; ok {
		return checkScope(&auth.TokenInfo{UserID: t.Identity(), Scopes: slices.Clone(t.Scopes), Extra: map[string]any{"token": t.Name}})
	}
	if a.oauth != nil && looksLikeJWT(token) {
		info, err := a.oauth.Verify(ctx, token)
		if err != nil {
			return nil, err
		}
		return checkScope(info)
	}
	return nil, fmt.Errorf("%w: unknown bearer token", auth.ErrInvalidToken)
}

func checkScope(info *auth.TokenInfo) (*auth.TokenInfo, error) {
	if _, ok := Ceiling(info); !ok {
		// The info goes with the error, so the refusal can name who.
		return info, errInsufficientScope
	}
	return info, nil
}

// Ceiling maps a verified token's scopes to the highest tier it may reach:
// warden:read → 0, warden:operate → 2, warden:admin → 3. ok is false when
// the token grants no warden scope at all. It is the relay's TierCeiling.
func Ceiling(info *auth.TokenInfo) (tier policy.Tier, ok bool) {
	if info == nil {
		return 0, false
	}
	tier = -1
	for _, s := range info.Scopes {
		switch s {
		case ScopeAdmin:
			tier = max(tier, policy.TierDestructive)
		case ScopeOperate:
			tier = max(tier, policy.TierMutate)
		case ScopeRead:
			tier = max(tier, policy.TierRead)
		}
	}
	return tier, tier >= 0
}

// RelayCeiling is Ceiling for relay.Options.TierCeiling: a caller whose
// token somehow carries no warden scope gets a ceiling below every tier.
func RelayCeiling(info *auth.TokenInfo) (policy.Tier, bool) {
	if info == nil {
		return 0, false
	}
	t, ok := Ceiling(info)
	if !ok {
		return -1, true
	}
	return t, true
}

type tokenInfoKey struct{}

// authenticate is the bearer-token gate. It answers 401 for a missing,
// unknown, forged or expired token and 403 insufficient_scope for a valid
// token without a warden scope, with a WWW-Authenticate header that points
// to the protected-resource metadata when OAuth is on. Each presented but
// rejected token counts against its source for the lockout table. The
// token itself is never logged or forwarded: the request passed on carries
// only the verified token info.
func (h *handler) authenticate(next http.Handler) http.Handler {
	// The SDK's middleware is what puts TokenInfo where the MCP handlers
	// read it; it runs after this gate and just hands over its verdict.
	sdk := auth.RequireBearerToken(func(_ context.Context, _ string, r *http.Request) (*auth.TokenInfo, error) {
		if info, ok := r.Context().Value(tokenInfoKey{}).(*auth.TokenInfo); ok {
			return info, nil
		}
		return nil, auth.ErrInvalidToken
	}, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true, ClockSkew: h.skew()})(next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		token, ok := bearerToken(r)
		if !ok {
			h.challenge(w, http.StatusUnauthorized, "", "no bearer token")
			return
		}
		info, err := h.o.Auth.verify(r.Context(), token)
		switch {
		case errors.Is(err, errInsufficientScope):
			h.o.Logger.Warn("token lacks a warden scope", "remote", r.RemoteAddr, "identity", info.UserID)
			h.event(EventInsufficientScope)
			h.challenge(w, http.StatusForbidden, "insufficient_scope", "insufficient scope")
			return
		case err != nil:
			h.o.Logger.Warn("rejected bearer token", "remote", r.RemoteAddr, "err", strings.TrimPrefix(err.Error(), auth.ErrInvalidToken.Error()+": "))
			h.event(EventInvalidToken)
			if h.o.Sources != nil && h.o.Sources.Fail(r) {
				w.Header().Set("Connection", "close")
			}
			h.challenge(w, http.StatusUnauthorized, "invalid_token", "invalid token")
			return
		}
		if p := h.o.TrustedProxyHeader; p != "" && info.Extra["static"] == true && fromLoopback(r) {
			if v := strings.TrimSpace(r.Header.Get(p)); v != "" && validIdentity(v) {
				info.UserID = v
			}
		}
		r.Header.Del("Authorization")
		r.Header.Set("Authorization", "Bearer verified")
		next := r.WithContext(context.WithValue(r.Context(), tokenInfoKey{}, info))
		sdk.ServeHTTP(w, next)
	})
}

// bearerToken is the one bearer token of r. Two Authorization fields are
// no token at all: a proxy in front may check one and warden the other.
func bearerToken(r *http.Request) (string, bool) {
	v := r.Header.Values("Authorization")
	if len(v) != 1 {
		return "", false
	}
	f := strings.Fields(v[0])
	if len(f) != 2 || !strings.EqualFold(f[0], "bearer") {
		return "", false
	}
	return f[1], true
}

// challenge writes a 401 or 403 with its RFC 6750 WWW-Authenticate header.
func (h *handler) challenge(w http.ResponseWriter, code int, errCode, msg string) {
	params := []string{`realm="warden"`}
	if errCode != "" {
		params = append(params, fmt.Sprintf("error=%q", errCode))
	}
	if code == http.StatusForbidden {
		params = append(params, fmt.Sprintf("scope=%q", strings.Join(Scopes, " ")))
	}
	if h.o.ResourceMetadataURL != "" {
		params = append(params, fmt.Sprintf("resource_metadata=%q", h.o.ResourceMetadataURL))
	}
	w.Header().Set("WWW-Authenticate", "Bearer "+strings.Join(params, ", "))
	http.Error(w, msg, code)
}

func (h *handler) skew() time.Duration {
	if h.o.Auth.oauth != nil {
		return h.o.Auth.oauth.o.Skew
	}
	return 0
}
