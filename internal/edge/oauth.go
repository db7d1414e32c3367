package edge

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// OAuthOptions configures warden as an OAuth 2.1 resource server for JWT
// access tokens (RFC 9068).
type OAuthOptions struct {
	// Issuer is the authorization server's issuer identifier; tokens must
	// carry it as iss exactly.
	Issuer string
	// Resource is this server's resource URL: tokens must name it in aud
	// (RFC 8707), and it is the resource of the RFC 9728 metadata.
	Resource string
	// JWKSURL is the issuer's key set; "" discovers it from the issuer's
	// metadata.
	JWKSURL string
	// Skew is the tolerance on exp, nbf and iat.
	Skew time.Duration
	// HTTPClient fetches metadata and keys; nil = a client with timeouts.
	HTTPClient *http.Client
	Now        func() time.Time
	Logger     *slog.Logger
}

// OAuth verifies JWT access tokens from one issuer.
type OAuth struct {
	o    OAuthOptions
	keys *jwks
}

// signingMethods are the asymmetric algorithms accepted; "none" and the
// HMAC family never are (an HMAC key would be the public key).
var signingMethods = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}

// NewOAuth returns a verifier for o; nothing is fetched until a token
// arrives, so an unreachable issuer does not stop warden from starting.
func NewOAuth(o OAuthOptions) *OAuth {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.HTTPClient == nil {
		o.HTTPClient = &http.Client{
			Timeout: fetchTimeout,
			// Keys come from where the issuer's metadata says; a redirect
			// elsewhere is not followed.
			CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		}
	}
	return &OAuth{o: o, keys: &jwks{issuer: o.Issuer, url: o.JWKSURL, client: o.HTTPClient, now: o.Now, log: o.Logger}}
}

// Metadata is this resource's RFC 9728 protected-resource metadata.
func (v *OAuth) Metadata() *oauthex.ProtectedResourceMetadata {
	return &oauthex.ProtectedResourceMetadata{
		Resource:               v.o.Resource,
		AuthorizationServers:   []string{v.o.Issuer},
		ScopesSupported:        Scopes,
		BearerMethodsSupported: []string{"header"},
		ResourceName:           "warden",
	}
}

// looksLikeJWT reports whether a bearer token has the shape of a JWS.
func looksLikeJWT(t string) bool {
	return strings.Count(t, ".") == 2 && strings.HasPrefix(t, "eyJ")
}

// Verify checks a JWT access token: signature by the issuer's current key,
// the access-token type (typ at+jwt, so an ID token or any other JWT the
// issuer signs is refused), iss, aud, exp and nbf with skew, and a subject.
// Every failure unwraps to auth.ErrInvalidToken; the cause is for the log.
func (v *OAuth) Verify(ctx context.Context, raw string) (*auth.TokenInfo, error) {
	p := jwt.NewParser(
		jwt.WithValidMethods(signingMethods),
		jwt.WithIssuer(v.o.Issuer),
		jwt.WithAudience(v.o.Resource),
		jwt.WithExpirationRequired(),
		jwt.WithIssuedAt(),
		jwt.WithLeeway(v.o.Skew),
		jwt.WithTimeFunc(v.o.Now),
		jwt.WithStrictDecoding(),
	)
	claims := jwt.MapClaims{}
	tok, err := p.ParseWithClaims(raw, claims, func(t *jwt.Token) (any, error) {
		if typ, _ := t.Header["typ"].(string); !isAccessTokenType(typ) {
			return nil, fmt.Errorf("token type %q is not an access token (want at+jwt)", typ)
		}
		if _, crit := t.Header["crit"]; crit {
			return nil, errors.New("critical header parameters are not supported")
		}
		kid, _ := t.Header["kid"].(string)
		return v.keys.key(ctx, kid, t.Method.Alg())
	})
	if err != nil || !tok.Valid {
		return nil, fmt.Errorf("%w: %v", auth.ErrInvalidToken, err)
	}
	sub, _ := claims["sub"].(string)
	if sub == "" || !validIdentity(sub) {
		return nil, fmt.Errorf("%w: no usable sub claim", auth.ErrInvalidToken)
	}
	exp, _ := claims.GetExpirationTime()
	info := &auth.TokenInfo{
		UserID: "oauth:" + sub,
		Scopes: tokenScopes(claims),
		Extra:  map[string]any{"issuer": v.o.Issuer},
	}
	if exp != nil {
		info.Expiration = exp.Time
	}
	if cid, ok := claims["client_id"].(string); ok && validIdentity(cid) {
		info.Extra["client_id"] = cid
	}
	return info, nil
}

// isAccessTokenType reports whether a JOSE typ names an RFC 9068 access
// token; the "application/" prefix may be omitted and case is ignored.
func isAccessTokenType(typ string) bool {
	typ = strings.ToLower(typ)
	return typ == "at+jwt" || typ == "application/at+jwt"
}

// tokenScopes reads "scope" (a space-separated string, RFC 9068) or "scp"
// (an array, as some issuers write it).
func tokenScopes(c jwt.MapClaims) []string {
	if s, ok := c["scope"].(string); ok {
		return strings.Fields(s)
	}
	var out []string
	if a, ok := c["scp"].([]any); ok {
		for _, v := range a {
			if s, ok := v.(string); ok {
				out = append(out, s)
			}
		}
	}
	return out
}
