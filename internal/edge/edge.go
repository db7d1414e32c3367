// Package edge owns warden's HTTP front door: the listener, bearer-token
// authentication, Host and Origin checks, body caps, and the routing of
// each request to the stateful or stateless MCP handler by protocol
// revision.
package edge

import (
	"cmp"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync/atomic"
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
	// Auth verifies bearer tokens; required.
	Auth *Auth
	// AllowedHosts are Host header names accepted besides loopback names.
	AllowedHosts []string
	// AllowedOrigins are Origin values accepted; a request without Origin
	// (any non-browser client) is always accepted.
	AllowedOrigins []string
	MaxBodyBytes   int64
	// BodyTimeout bounds how long a request body may take to arrive
	// (DefaultBodyTimeout when zero).
	BodyTimeout time.Duration
	// TrustedProxyHeader names an identity header honoured only on
	// requests from loopback (a local proxy such as tailscale serve), and
	// only for the operator's own token.
	TrustedProxyHeader string
	// Sources applies the allowlist, lockout table and per-source caps to
	// each request; nil = none.
	Sources *Sources
	// ResourceMetadataURL is where WWW-Authenticate points OAuth clients;
	// Metadata is served there (RFC 9728). Both empty when OAuth is off.
	ResourceMetadataURL string
	// OnEvent is told of refusals, for metrics; nil = ignored.
	OnEvent func(Event)
	Logger  *slog.Logger
}

// Event is a refusal at the edge, for metrics.
type Event string

// Events.
const (
	EventInvalidToken      Event = "invalid_token"
	EventInsufficientScope Event = "insufficient_scope"
	EventSourceRefused     Event = "source_refused"
	EventLocked            Event = "locked_out"
	EventRateLimited       Event = "rate_limited"
	EventConnCap           Event = "conn_cap"
)

type handler struct{ o Options }

func (h *handler) event(e Event) {
	if h.o.OnEvent != nil {
		h.o.OnEvent(e)
	}
}

// MetadataPath is where RFC 9728 protected-resource metadata is served.
const MetadataPath = "/.well-known/oauth-protected-resource"

// Handler returns the HTTP handler serving MCP at /mcp.
func Handler(server *mcp.Server, o Options) http.Handler {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	h := &handler{o: o}
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

	mux := http.NewServeMux()
	mux.Handle("/mcp", h.sources(guard(o, h.authenticate(route))))
	if v := o.Auth.OAuth(); v != nil {
		md := auth.ProtectedResourceMetadataHandler(v.Metadata())
		mux.Handle(MetadataPath, h.sources(md))
		mux.Handle(MetadataPath+"/", h.sources(md))
	}
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprintln(w, "ok")
	})
	return boundBody(cmp.Or(o.BodyTimeout, DefaultBodyTimeout), mux)
}

// DefaultBodyTimeout is how long a request body may take to arrive: 1 MiB
// at 35 KB/s.
const DefaultBodyTimeout = 30 * time.Second

// boundBody gives each request's body a deadline. The server's
// ReadHeaderTimeout bounds the header alone; without this a client
// trickling its body one byte a minute holds a connection and a goroutine
// for ever, and so does one whose request is refused unread: net/http
// reads what is left of a refused body before it sends the answer. A body
// the handler does not read at all is not waited for. net/http lifts the
// deadline itself once the body has been read to its end (it starts its
// background read then), so a long call's answer is not cut;
// TestBodyTimeout holds it to that.
func boundBody(timeout time.Duration, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		rc := http.NewResponseController(w)
		if rc.SetReadDeadline(time.Now().Add(timeout)) != nil {
			next.ServeHTTP(w, r)
			return
		}
		b := &endBody{ReadCloser: r.Body}
		r.Body = b
		next.ServeHTTP(w, r)
		if !b.started.Load() {
			// Refused unread: what is left is not awaited beyond a
			// moment (a client still sending has that long to read
			// the answer before the connection closes under it).
			_ = rc.SetReadDeadline(time.Now().Add(min(refusedLinger, timeout/2)))
		}
	})
}

// refusedLinger is how long a request refused before its body was read
// keeps its connection for the client to read the answer.
const refusedLinger = 500 * time.Millisecond

// endBody notes whether its body was read at all.
type endBody struct {
	io.ReadCloser
	started atomic.Bool
}

func (b *endBody) Read(p []byte) (int, error) {
	b.started.Store(true)
	return b.ReadCloser.Read(p)
}

// sources applies the per-source controls to a request.
func (h *handler) sources(next http.Handler) http.Handler {
	if h.o.Sources == nil {
		return next
	}
	return h.o.Sources.middleware(next, h.event)
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
	if h, port, err := net.SplitHostPort(hostport); err == nil {
		// A port is digits; "localhost:80,evil.example" is no loopback
		// name whatever its prefix.
		if n, err := strconv.ParseUint(port, 10, 16); err != nil || n == 0 || len(port) > 5 {
			return false
		}
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
