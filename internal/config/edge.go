package config

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"strings"
	"time"
)

// validateEdge checks the keys of the HTTP edge: TLS, source controls,
// the lockout table, OAuth and the metrics listener.
func (c *Config) validateEdge(bad func(key, format string, args ...any)) {
	h := c.HTTP
	if (h.TLSCertFile == "") != (h.TLSKeyFile == "") {
		bad("http.tls_cert_file", "tls_cert_file and tls_key_file must be set together")
	}
	if h.ShutdownGrace <= 0 {
		bad("http.shutdown_grace", "must be positive")
	}
	for i, s := range h.AllowedSources {
		if _, err := ParseSource(s); err != nil {
			bad(fmt.Sprintf("http.allowed_sources[%d]", i), "%q is not an address or CIDR", s)
		}
	}
	if h.MaxConnsPerSource < 1 {
		bad("http.max_conns_per_source", "must be at least 1")
	}
	if h.RatePerSource < 0 {
		bad("http.rate_per_source", "must not be negative (0 = no cap)")
	}
	if h.RatePerSource > 0 && h.RateBurst < 1 {
		bad("http.rate_burst", "must be at least 1 when rate_per_source is set")
	}
	if h.Lockout.MaxFailures < 1 {
		bad("http.lockout.max_failures", "must be at least 1")
	}
	if h.Lockout.Window <= 0 {
		bad("http.lockout.window", "must be positive")
	}
	if h.Lockout.Duration <= 0 {
		bad("http.lockout.duration", "must be positive")
	}
	if o := h.OAuth; o.Issuer != "" || o.Resource != "" || o.JWKSURL != "" {
		if err := checkURL(o.Issuer); err != "" {
			bad("http.oauth.issuer", "%s", err)
		}
		if err := checkURL(o.Resource); err != "" {
			bad("http.oauth.resource", "%s", err)
		}
		if o.JWKSURL != "" {
			if err := checkURL(o.JWKSURL); err != "" {
				bad("http.oauth.jwks_url", "%s", err)
			}
		}
		if o.ClockSkew < 0 || o.ClockSkew.D() > 5*time.Minute {
			bad("http.oauth.clock_skew", "must be between 0s and 5m")
		}
	}
	if a := c.Metrics.Addr; a != "" {
		host, _, err := net.SplitHostPort(a)
		if err != nil {
			bad("metrics.addr", "%q is not host:port", a)
		} else if !IsLoopbackHost(host) {
			bad("metrics.addr", "%q is not a loopback address; metrics are served on loopback only", a)
		}
	}
}

// checkURL reports what is wrong with an OAuth URL: it must be absolute,
// and https unless it names a loopback host (a local test issuer).
func checkURL(s string) string {
	if s == "" {
		return "must be set when OAuth is configured"
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" {
		return "\"" + s + "\" is not an absolute URL"
	}
	switch {
	case u.Scheme == "https":
	case u.Scheme == "http" && IsLoopbackHost(u.Hostname()):
	default:
		return "\"" + s + "\" must be https (http only for a loopback host)"
	}
	if u.Fragment != "" || u.User != nil {
		return "\"" + s + "\" must not carry a fragment or user info"
	}
	return ""
}

// ParseSource parses an address or CIDR of http.allowed_sources; a bare
// address is a single-address prefix.
func ParseSource(s string) (netip.Prefix, error) {
	s = strings.TrimSpace(s)
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	a = a.Unmap()
	return netip.PrefixFrom(a, a.BitLen()), nil
}
