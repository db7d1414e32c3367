package export

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// SDID is the RFC 5424 structured-data ID of warden's parameters. 32473 is
// the private enterprise number reserved for documentation (RFC 5612).
const SDID = "warden@32473"

// Syslog configures an RFC 5424 sender.
type Syslog struct {
	Network  string // udp, tcp or tls
	Address  string // host:port
	Format   string // json, cef or leef
	Facility int    // 0-23
	AppName  string
	ProcID   string // default: this process's pid
	Version  string // warden's version, for CEF and LEEF headers
	TLS      *tls.Config
}

// Facility returns the code of a facility name (kern … local7).
func Facility(name string) (int, error) {
	i := slices.Index(facilities, name)
	if i < 0 {
		return 0, fmt.Errorf("unknown syslog facility %q", name)
	}
	return i, nil
}

var facilities = []string{"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console", "solaris-cron",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"}

// TLSConfig builds the client TLS config of a syslog or OTLP sink: roots from
// caFile (system roots when empty), an optional client certificate, and
// the server name to check (the address's host when empty).
func TLSConfig(address, caFile, certFile, keyFile, serverName string) (*tls.Config, error) {
	c := &tls.Config{MinVersion: tls.VersionTLS12, ServerName: serverName}
	if c.ServerName == "" {
		host, _, err := net.SplitHostPort(address)
		if err != nil {
			return nil, fmt.Errorf("tls: server name from address: %w", err)
		}
		c.ServerName = host
	}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, fmt.Errorf("tls ca_file: %w", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("tls ca_file: no certificate in %s", caFile)
		}
		c.RootCAs = pool
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, fmt.Errorf("tls cert_file/key_file: %w", err)
		}
		c.Certificates = []tls.Certificate{cert}
	}
	return c, nil
}

// Dial returns the DialFunc of s.
func (s Syslog) Dial() DialFunc {
	return func(ctx context.Context) (io.WriteCloser, error) {
		d := net.Dialer{Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
		switch s.Network {
		case "udp", "tcp":
			return d.DialContext(ctx, s.Network, s.Address)
		case "tls":
			td := tls.Dialer{NetDialer: &d, Config: s.TLS}
			return td.DialContext(ctx, "tcp", s.Address)
		}
		return nil, fmt.Errorf("syslog: unknown network %q", s.Network)
	}
}

// Encoder returns the EncodeFunc of s: an RFC 5424 message, octet-counted
// over TCP and TLS, bare over UDP.
func (s Syslog) Encoder() (EncodeFunc, error) {
	var body func(dst []byte, r audit.Record, line []byte) []byte
	switch s.Format {
	case "json", "":
		body = func(dst []byte, _ audit.Record, line []byte) []byte { return append(dst, line...) }
	case "cef":
		body = func(dst []byte, r audit.Record, _ []byte) []byte { return AppendCEF(dst, r, s.Version) }
	case "leef":
		body = func(dst []byte, r audit.Record, _ []byte) []byte { return AppendLEEF(dst, r, s.Version) }
	default:
		return nil, fmt.Errorf("syslog: unknown format %q", s.Format)
	}
	if s.Facility < 0 || s.Facility > 23 {
		return nil, fmt.Errorf("syslog: facility %d out of range", s.Facility)
	}
	procID := s.ProcID
	if procID == "" {
		procID = strconv.Itoa(os.Getpid())
	}
	app := s.AppName
	if app == "" {
		app = "warden"
	}
	framed := s.Network != "udp"
	var msg []byte
	return func(dst []byte, r audit.Record, line []byte) []byte {
		msg = appendMessage(msg[:0], s.Facility, app, procID, r, line, body)
		if framed {
			dst = strconv.AppendInt(dst, int64(len(msg)), 10)
			dst = append(dst, ' ')
		}
		return append(dst, msg...)
	}, nil
}

// Severity of a record: warning for refusals and failures, notice for
// approvals and warden's own attestations, informational otherwise.
func Severity(r audit.Record) int {
	switch {
	case r.Decision == "denied" || r.Decision == "invalid" || r.Decision == "lockout" ||
		r.Status == "error" || r.Status == "timeout":
		return 4
	case r.Decision == "approval_required" || r.Decision == "approved" || r.Tool == "warden.audit":
		return 5
	}
	return 6
}

// appendMessage appends one RFC 5424 message:
//
//	<PRI>1 TIMESTAMP HOSTNAME APP-NAME PROCID MSGID [warden@32473 …] MSG
func appendMessage(dst []byte, facility int, app, procID string, r audit.Record, line []byte,
	body func([]byte, audit.Record, []byte) []byte) []byte {
	dst = append(dst, '<')
	dst = strconv.AppendInt(dst, int64(facility*8+Severity(r)), 10)
	dst = append(dst, ">1 "...)
	dst = r.TS.UTC().AppendFormat(dst, "2006-01-02T15:04:05.000000Z")
	dst = append(dst, ' ')
	dst = appendHeaderField(dst, r.Node, 255)
	dst = append(dst, ' ')
	dst = appendHeaderField(dst, app, 48)
	dst = append(dst, ' ')
	dst = appendHeaderField(dst, procID, 128)
	dst = append(dst, " audit ["...)
	dst = append(dst, SDID...)
	dst = appendParam(dst, "seq", strconv.FormatUint(r.Seq, 10))
	dst = appendParam(dst, "hash", r.Hash)
	dst = appendParam(dst, "prev", r.Prev)
	dst = appendParam(dst, "id", r.ID)
	dst = appendParam(dst, "tool", r.Tool)
	dst = appendParam(dst, "decision", r.Decision)
	dst = appendParam(dst, "status", r.Status)
	dst = append(dst, "] "...)
	return body(dst, r, line)
}

// appendHeaderField appends a header field: printable ASCII without
// spaces, at most n bytes, "-" when empty.
func appendHeaderField(dst []byte, v string, n int) []byte {
	if v == "" {
		return append(dst, '-')
	}
	for i := 0; i < len(v) && i < n; i++ {
		c := v[i]
		if c <= ' ' || c > '~' {
			c = '_'
		}
		dst = append(dst, c)
	}
	return dst
}

// appendParam appends ` name="value"` with '"', '\' and ']' escaped.
func appendParam(dst []byte, name, v string) []byte {
	if v == "" {
		return dst
	}
	dst = append(dst, ' ')
	dst = append(dst, name...)
	dst = append(dst, `="`...)
	for i := 0; i < len(v); i++ {
		if c := v[i]; c == '"' || c == '\\' || c == ']' {
			dst = append(dst, '\\')
		}
		dst = append(dst, v[i])
	}
	return append(dst, '"')
}
