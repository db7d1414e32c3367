// Package edge owns warden's HTTP front door: the listener, bearer-token
// authentication, Host and Origin checks, body caps, and the routing of
// each request to the stateful or stateless MCP handler by protocol
// revision.
package edge

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// statelessFrom is the first protocol revision the SDK serves only
// statelessly; older revisions keep the session-based handler, which can
// send requests (elicitation) back to the client.
const statelessFrom = "2026-07-28"

// Options configures the HTTP edge.
type Options struct {
	// Token is the bearer token every request must carry.
	Token string
	// AllowedHosts are Host header names accepted besides loopback names.
	AllowedHosts []string
	// AllowedOrigins are Origin values accepted; a request without Origin
	// (any non-browser client) is always accepted.
	AllowedOrigins []string
	MaxBodyBytes   int64
	// TrustedProxyHeader names an identity header honoured only on
	// requests from loopback (a local proxy such as tailscale serve).
	TrustedProxyHeader string
	Logger             *slog.Logger
}

// Handler returns the HTTP handler serving MCP at /mcp.
func Handler(server *mcp.Server, o Options) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	getServer := func(*http.Request) *mcp.Server { return server }
	stateful := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		MaxRequestBodyBytes: o.MaxBodyBytes,
		SessionTimeout:      30 * time.Minute,
		Logger:              o.Logger,
	})
	stateless := mcp.NewStreamableHTTPHandler(getServer, &mcp.StreamableHTTPOptions{
		Stateless:                    true,
		MaxRequestBodyBytes:          o.MaxBodyBytes,
		PropagateRequestCancellation: true,
		Logger:                       o.Logger,
	})
	route := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if v := r.Header.Get("Mcp-Protocol-Version"); v >= statelessFrom {
			stateless.ServeHTTP(w, r)
			return
		}
		stateful.ServeHTTP(w, r)
	})
	want := sha256.Sum256([]byte(o.Token))
	verify := func(_ context.Context, token string, r *http.Request) (*auth.TokenInfo, error) {
		got := sha256.Sum256([]byte(token))
		if o.Token == "" || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			o.Logger.Warn("rejected bearer token", "remote", r.RemoteAddr)
			return nil, auth.ErrInvalidToken
		}
		id := "token:default"
		if h := o.TrustedProxyHeader; h != "" && fromLoopback(r) {
			if v := strings.TrimSpace(r.Header.Get(h)); v != "" && validIdentity(v) {
				id = v
			}
		}
		return &auth.TokenInfo{UserID: id}, nil
	}
	authed := auth.RequireBearerToken(verify, &auth.RequireBearerTokenOptions{AllowMissingExpiration: true})(route)

	mux := http.NewServeMux()
	mux.Handle("/mcp", guard(o, authed))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	return mux
}

// guard refuses requests whose Host could be a DNS-rebinding name or whose
// Origin is a foreign web page, and caps the body, before authentication.
func guard(o Options, next http.Handler) http.Handler {
	hosts := map[string]bool{}
	for _, h := range o.AllowedHosts {
		hosts[strings.ToLower(h)] = true
	}
	origins := map[string]bool{}
	for _, v := range o.AllowedOrigins {
		origins[strings.TrimRight(v, "/")] = true
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !hostAllowed(r.Host, hosts) {
			o.Logger.Warn("rejected Host header", "host", r.Host, "remote", r.RemoteAddr)
			http.Error(w, "Forbidden: Host header not allowed", http.StatusForbidden)
			return
		}
		if origin := r.Header.Get("Origin"); origin != "" && !origins[strings.TrimRight(origin, "/")] && !sameOrigin(origin, r.Host) {
			o.Logger.Warn("rejected Origin", "origin", origin, "remote", r.RemoteAddr)
			http.Error(w, "Forbidden: Origin not allowed", http.StatusForbidden)
			return
		}
		if r.ContentLength > o.MaxBodyBytes {
			http.Error(w, "Request Entity Too Large", http.StatusRequestEntityTooLarge)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, o.MaxBodyBytes)
		next.ServeHTTP(w, r)
	})
}

func hostAllowed(hostport string, extra map[string]bool) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.ToLower(strings.Trim(host, "[]"))
	if host == "localhost" || extra[host] || extra[strings.ToLower(hostport)] {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether a browser Origin names the very host:port the
// request was sent to (a page served by warden's own address). The Host
// itself has already passed the rebinding check.
func sameOrigin(origin, host string) bool {
	u, err := url.Parse(origin)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return false
	}
	return strings.EqualFold(u.Host, host)
}

func fromLoopback(r *http.Request) bool {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// validIdentity bounds what a proxy header may claim: printable, short.
func validIdentity(s string) bool {
	if len(s) > 256 {
		return false
	}
	for _, r := range s {
		if r < 0x21 || r == 0x7f {
			return false
		}
	}
	return true
}

// Serve serves h on ln until ctx ends, then stops accepting and lets
// requests in flight finish for up to grace.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, grace time.Duration) error {
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), grace)
	defer cancel()
	err := srv.Shutdown(sctx)
	if errors.Is(err, context.DeadlineExceeded) {
		srv.Close()
		return nil
	}
	return err
}
