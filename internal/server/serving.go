package server

// This file is a running server's HTTP side and what it shares with
// reloads: the bearer token, the edge (authentication, sources, lockouts,
// TLS), the metrics listener and the admin socket.

import (
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/netip"
	neturl "net/url"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/metrics"
)

// httpToken returns the bearer token: configured (WARDEN_TOKEN or
// http.token), read from http.token_file, or generated in the state dir.
func httpToken(cfg *config.Config) (token, file string, err error) {
	if cfg.HTTP.Token != "" {
		return cfg.HTTP.Token, "", nil
	}
	if cfg.HTTP.TokenFile != "" {
		t, err := config.ReadTokenFile(cfg.HTTP.TokenFile)
		if err != nil {
			return "", "", err
		}
		if len(t) < config.MinTokenLen {
			return "", "", fmt.Errorf("http.token_file: token must be at least %d characters", config.MinTokenLen)
		}
		return t, cfg.HTTP.TokenFile, nil
	}
	t, _, err := edge.LoadOrCreateToken(cfg.StateDir)
	if err != nil {
		return "", "", err
	}
	return t, filepath.Join(cfg.StateDir, edge.TokenFile), nil
}

// serving is one running `warden serve`: what the HTTP edge, the metrics
// listener, the admin socket and reloads share.
type serving struct {
	cfg    *config.Config
	w      *Warden
	logger *slog.Logger
	stderr io.Writer
	// load re-reads the configuration exactly as startup did.
	load func() (*config.Config, error)
	path string
	// ready is called once the HTTP listener serves.
	ready func()

	metrics *metrics.Metrics
	auth    *edge.Auth
	sources *edge.Sources
	cert    atomic.Pointer[tls.Certificate]

	reloadMu sync.Mutex
}

// serveMetrics starts the Prometheus listener (loopback, validated).
func (s *serving) serveMetrics(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.cfg.Metrics.Addr)
	if err != nil {
		return fmt.Errorf("metrics listener: %w", err)
	}
	s.metrics = metrics.New(metrics.Gauges{
		MCPSessions: func() float64 {
			n := 0
			for range s.w.MCP.Sessions() {
				n++
			}
			return float64(n)
		},
		TerminalSessions: func() float64 { return float64(s.w.Stats().TerminalSessions) },
		SSHConnections:   func() float64 { return float64(s.w.Stats().SSHConnections) },
		LockedSources: func() float64 {
			if s.sources == nil {
				return 0
			}
			return float64(len(s.sources.List()))
		},
		AuditExports: s.w.AuditExports,
	})
	s.w.Relay.SetObserver(s.metrics.Observe)
	fmt.Fprintf(s.stderr, "warden: metrics at http://%s/metrics\n", ln.Addr())
	go func() {
		if err := s.metrics.Serve(ctx, ln); err != nil {
			s.logger.Error("metrics listener", "err", err)
		}
	}()
	return nil
}

func (s *serving) serveHTTP(ctx context.Context) error {
	cfg := s.cfg
	token, tokenFile, err := httpToken(cfg)
	if err != nil {
		return err
	}
	named, err := edge.LoadTokens(cfg.StateDir)
	if err != nil {
		return err
	}
	var oauth *edge.OAuth
	if o := cfg.HTTP.OAuth; o.Issuer != "" {
		oauth = edge.NewOAuth(edge.OAuthOptions{Issuer: o.Issuer, Resource: o.Resource, JWKSURL: o.JWKSURL, Skew: o.ClockSkew.D(), Logger: s.logger})
	}
	s.auth = edge.NewAuth(token, named, oauth)
	var allowed []netip.Prefix
	for _, src := range cfg.HTTP.AllowedSources {
		p, _ := config.ParseSource(src) // validated
		allowed = append(allowed, p)
	}
	s.sources = edge.NewSources(edge.SourceOptions{
		Allowed:     allowed,
		MaxConns:    cfg.HTTP.MaxConnsPerSource,
		Rate:        cfg.HTTP.RatePerSource,
		Burst:       cfg.HTTP.RateBurst,
		MaxFailures: cfg.HTTP.Lockout.MaxFailures,
		Window:      cfg.HTTP.Lockout.Window.D(),
		Duration:    cfg.HTTP.Lockout.Duration.D(),
		OnLock:      s.auditLock,
		OnUnlock:    s.auditUnlock,
		OnEvent:     s.edgeEvent,
		Logger:      s.logger,
	})
	s.w.Relay.SetTierCeiling(edge.RelayCeiling)
	var tlsConfig *tls.Config
	if cfg.HTTP.TLSCertFile != "" {
		if err := s.loadCert(cfg); err != nil {
			return err
		}
		tlsConfig = &tls.Config{
			MinVersion:     tls.VersionTLS12,
			GetCertificate: func(*tls.ClientHelloInfo) (*tls.Certificate, error) { return s.cert.Load(), nil },
		}
	}

	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	host, _, _ := net.SplitHostPort(cfg.HTTP.Addr)
	if !config.IsLoopbackHost(host) {
		s.logger.Warn("listening on a non-loopback address: anyone who can reach it and holds a token controls this host", "addr", ln.Addr().String())
	}
	scheme := "http"
	if tlsConfig != nil {
		scheme = "https"
	}
	url := fmt.Sprintf("%s://%s/mcp", scheme, ln.Addr())
	var metadataURL string
	if oauth != nil {
		// Clients reach warden at the configured resource URL, which
		// may be a proxy's, not at the listener's own address.
		metadataURL = resourceOrigin(cfg.HTTP.OAuth.Resource) + edge.MetadataPath
	}
	fmt.Fprintf(s.stderr, "warden: serving MCP at %s\n", url)
	if tokenFile != "" {
		fmt.Fprintf(s.stderr, "warden: bearer token in %s\n", tokenFile)
		fmt.Fprintf(s.stderr, "warden: connect with: claude mcp add --transport http warden %s --header \"Authorization: Bearer $(cat %s)\"\n", url, tokenFile)
	}
	s.ready()
	h := edge.Handler(s.w.MCP, edge.Options{
		Auth:                s.auth,
		AllowedHosts:        cfg.HTTP.AllowedHosts,
		AllowedOrigins:      cfg.HTTP.AllowedOrigins,
		MaxBodyBytes:        cfg.HTTP.MaxBodyBytes,
		TrustedProxyHeader:  cfg.HTTP.TrustedProxyHeader,
		Sources:             s.sources,
		ResourceMetadataURL: metadataURL,
		OnEvent:             s.edgeEvent,
		Logger:              s.logger,
	})
	actx, acancel := context.WithCancel(ctx)
	defer acancel()
	go func() {
		err := edge.ServeAdmin(actx, edge.AdminSocketPath(cfg.StateDir), edge.Admin{Sources: s.sources, Reload: s.reload, Logger: s.logger})
		if err != nil {
			s.logger.Warn("admin socket unavailable: warden lockout and token reloads will not reach this server", "err", err)
		}
	}()
	return edge.Serve(ctx, ln, h, edge.ServeOptions{
		Grace:   cfg.HTTP.ShutdownGrace.D(),
		Drain:   s.w.Relay.Activity().Drain,
		Abort:   s.w.Relay.Abort,
		Sources: s.sources,
		TLS:     tlsConfig,
		Logger:  s.logger,
	})
}

// resourceOrigin is the scheme://host of a resource URL: RFC 9728
// metadata lives at the origin's /.well-known path.
func resourceOrigin(resource string) string {
	u, err := neturl.Parse(resource)
	if err != nil {
		return resource
	}
	return u.Scheme + "://" + u.Host
}

func (s *serving) loadCert(cfg *config.Config) error {
	c, err := tls.LoadX509KeyPair(cfg.HTTP.TLSCertFile, cfg.HTTP.TLSKeyFile)
	if err != nil {
		return fmt.Errorf("tls: %w", err)
	}
	s.cert.Store(&c)
	return nil
}

func (s *serving) edgeEvent(e edge.Event) {
	if s.metrics != nil {
		s.metrics.Edge(e)
	}
}

// auditLock records a lockout in the audit log: the table is a security
// decision like any refused call.
func (s *serving) auditLock(l edge.Lock) {
	if s.metrics != nil {
		s.metrics.Lockout()
	}
	s.appendAudit(audit.Record{
		Identity: "warden",
		Tool:     "http.lockout",
		Decision: "lockout",
		Reason:   fmt.Sprintf("%d failed authentications within %s", l.Failures, s.cfg.HTTP.Lockout.Window.D()),
		Status:   "ok",
		Extra:    map[string]any{"source": l.Addr, "until": l.Until.UTC().Format(time.RFC3339)},
	})
}

func (s *serving) auditUnlock(addr, why string) {
	s.appendAudit(audit.Record{
		Identity: "warden",
		Tool:     "http.unlock",
		Decision: "unlock",
		Reason:   why,
		Status:   "ok",
		Extra:    map[string]any{"source": addr},
	})
}

func (s *serving) appendAudit(r audit.Record) {
	if err := s.w.Relay.Record(context.Background(), r); err != nil {
		s.logger.Error("audit write failed", "tool", r.Tool, "err", err)
		if s.metrics != nil {
			s.metrics.AuditFailed()
		}
	}
}

// reloadOnHangup reloads on every SIGHUP until ctx ends.
func (s *serving) reloadOnHangup(ctx context.Context) {
	hup := make(chan os.Signal, 1)
	signal.Notify(hup, syscall.SIGHUP)
	defer signal.Stop(hup)
	for {
		select {
		case <-ctx.Done():
			return
		case <-hup:
			_ = s.reload()
		}
	}
}

// reload re-reads the configuration and the named tokens and, only if all
// of it is valid, swaps in the new policy rules, tokens and TLS
// certificate. On any error nothing changes and the error is logged.
func (s *serving) reload() error {
	s.reloadMu.Lock()
	defer s.reloadMu.Unlock()
	err := s.reloadLocked()
	if err != nil {
		s.logger.Error("reload failed: nothing changed, the previous configuration stays in force", "err", err)
		return err
	}
	s.logger.Info("reloaded configuration", "config", s.path)
	return nil
}

func (s *serving) reloadLocked() error {
	next, err := s.load()
	if err != nil {
		return err
	}
	if next.StateDir != s.cfg.StateDir || next.Audit.Path != s.cfg.Audit.Path {
		s.logger.Warn("state_dir and audit.path changes take effect on restart")
		next.StateDir, next.Audit.Path = s.cfg.StateDir, s.cfg.Audit.Path
	}
	var token string
	var named []edge.NamedToken
	if s.auth != nil {
		if token, _, err = httpToken(next); err != nil {
			return err
		}
		if named, err = edge.LoadTokens(next.StateDir); err != nil {
			return err
		}
		if next.HTTP.TLSCertFile != "" {
			if _, err := tls.LoadX509KeyPair(next.HTTP.TLSCertFile, next.HTTP.TLSKeyFile); err != nil {
				return fmt.Errorf("tls: %w", err)
			}
		}
	}
	if err := s.w.Reload(next, s.path); err != nil {
		return err
	}
	if s.auth != nil {
		s.auth.SetTokens(token, named)
		if next.HTTP.TLSCertFile != "" && s.cert.Load() != nil {
			_ = s.loadCert(next)
		}
	}
	return nil
}
