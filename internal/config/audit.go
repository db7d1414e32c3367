package config

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
)

// AuditKeep says which rotated audit files are kept: at most Files (the
// newest) and none rotated more than MaxAge ago; 0 does not limit. The
// current file is always kept, and every pruning is itself recorded.
type AuditKeep struct {
	Files  int      `yaml:"files" json:"files"`
	MaxAge Duration `yaml:"max_age" json:"max_age"`
}

// AuditExport is one sink that receives every audit record after it is
// written locally. Sinks never slow a call: each has a bounded queue, and
// records that do not fit are counted as dropped.
type AuditExport struct {
	// Name labels the sink in metrics and server_info; default: its
	// type, network and address.
	Name string `yaml:"name" json:"name"`
	// Type is syslog or otlp (OpenTelemetry logs and spans).
	Type string `yaml:"type" json:"type"`
	// Network is udp, tcp or tls for syslog (TCP and TLS use
	// octet-counting framing, RFC 6587 / RFC 5425).
	Network string `yaml:"network" json:"network"`
	// Protocol is grpc or http for otlp.
	Protocol string `yaml:"protocol" json:"protocol"`
	// Address is host:port of the collector.
	Address string `yaml:"address" json:"address"`
	// Format is a syslog message's body: json (the record as written),
	// cef or leef.
	Format string `yaml:"format" json:"format"`
	// Insecure sends OTLP in plaintext instead of TLS.
	Insecure bool `yaml:"insecure" json:"insecure"`
	// Headers are sent with every OTLP request (e.g. an API key).
	Headers map[string]string `yaml:"headers" json:"headers"`
	// Facility is the syslog facility name; default authpriv.
	Facility string `yaml:"facility" json:"facility"`
	// AppName is the RFC 5424 APP-NAME; default warden.
	AppName string `yaml:"app_name" json:"app_name"`
	// CAFile verifies the collector's certificate (tls); default: the
	// system roots.
	CAFile string `yaml:"ca_file" json:"ca_file"`
	// CertFile and KeyFile are a client certificate for mutual TLS.
	CertFile string `yaml:"cert_file" json:"cert_file"`
	KeyFile  string `yaml:"key_file" json:"key_file"`
	// ServerName overrides the name checked in the collector's
	// certificate; default: the address's host.
	ServerName string `yaml:"server_name" json:"server_name"`
	// Queue bounds the records waiting to be sent; default 4096.
	Queue int `yaml:"queue" json:"queue"`
}

// SyslogFacilities are the facility names audit.export accepts, by code.
var SyslogFacilities = []string{"kern", "user", "mail", "daemon", "auth", "syslog", "lpr", "news",
	"uucp", "cron", "authpriv", "ftp", "ntp", "security", "console", "solaris-cron",
	"local0", "local1", "local2", "local3", "local4", "local5", "local6", "local7"}

// Audit export enums.
var (
	AuditExportTypes     = []string{"syslog", "otlp"}
	AuditExportNetworks  = []string{"udp", "tcp", "tls"}
	AuditExportProtocols = []string{"grpc", "http"}
	AuditExportFormats   = []string{"json", "cef", "leef"}
)

func (c *Config) validateAudit(bad func(key, format string, args ...any)) {
	a := &c.Audit
	if a.Keep.Files < 0 {
		bad("audit.keep.files", "must not be negative")
	}
	if a.Keep.MaxAge < 0 {
		bad("audit.keep.max_age", "must not be negative")
	}
	if len(a.Node) > 255 {
		bad("audit.node", "must be at most 255 characters")
	}
	for _, r := range a.Node {
		if r <= ' ' || r > '~' {
			bad("audit.node", "%q must be printable ASCII without spaces (it is a syslog HOSTNAME)", a.Node)
			break
		}
	}
	names := map[string]bool{}
	for i := range a.Export {
		e := &a.Export[i]
		key := func(k string) string { return fmt.Sprintf("audit.export[%d].%s", i, k) }
		if e.Type == "" {
			e.Type = "syslog"
		}
		syslog := e.Type == "syslog"
		if e.Format == "" && syslog {
			e.Format = "json"
		}
		if e.Facility == "" {
			e.Facility = "authpriv"
		}
		if e.AppName == "" {
			e.AppName = "warden"
		}
		if e.Queue == 0 {
			e.Queue = 4096
		}
		if e.Name == "" {
			e.Name = e.Type + "+" + e.Network + e.Protocol + "://" + e.Address
		}
		if names[e.Name] {
			bad(key("name"), "%q names another sink too", e.Name)
		}
		names[e.Name] = true
		switch e.Type {
		case "syslog":
			if !slices.Contains(AuditExportNetworks, e.Network) {
				bad(key("network"), "%q is not one of udp, tcp, tls", e.Network)
			}
			if !slices.Contains(AuditExportFormats, e.Format) {
				bad(key("format"), "%q is not one of json, cef, leef", e.Format)
			}
			if e.Protocol != "" || e.Insecure || len(e.Headers) > 0 {
				bad(key("protocol"), "protocol, insecure and headers are for type otlp")
			}
			if e.Network != "tls" && (e.CAFile != "" || e.CertFile != "" || e.KeyFile != "" || e.ServerName != "") {
				bad(key("network"), "ca_file, cert_file, key_file and server_name need network tls")
			}
		case "otlp":
			if !slices.Contains(AuditExportProtocols, e.Protocol) {
				bad(key("protocol"), "%q is not one of grpc, http", e.Protocol)
			}
			if e.Network != "" || e.Format != "" {
				bad(key("network"), "network and format are for type syslog")
			}
			if e.Insecure && (e.CAFile != "" || e.CertFile != "" || e.KeyFile != "" || e.ServerName != "") {
				bad(key("insecure"), "ca_file, cert_file, key_file and server_name need TLS, not insecure")
			}
			for k := range e.Headers {
				if k == "" || strings.ContainsAny(k, " :\r\n") {
					bad(key("headers"), "%q is not a header name", k)
				}
			}
		default:
			bad(key("type"), "%q is not one of syslog, otlp", e.Type)
		}
		if !slices.Contains(SyslogFacilities, e.Facility) {
			bad(key("facility"), "%q is not a syslog facility (kern … local7)", e.Facility)
		}
		if len(e.AppName) > 48 {
			bad(key("app_name"), "must be at most 48 characters (RFC 5424)")
		}
		for _, r := range e.AppName {
			if r <= ' ' || r > '~' {
				bad(key("app_name"), "%q must be printable ASCII without spaces", e.AppName)
				break
			}
		}
		if host, port, err := net.SplitHostPort(e.Address); err != nil || host == "" {
			bad(key("address"), "%q is not host:port", e.Address)
		} else if p, err := strconv.Atoi(port); err != nil || p < 1 || p > 65535 {
			bad(key("address"), "port %q is not a number from 1 to 65535", port)
		}
		if e.Queue < 1 || e.Queue > 1<<20 {
			bad(key("queue"), "must be between 1 and %d", 1<<20)
		}
		if (e.CertFile == "") != (e.KeyFile == "") {
			bad(key("cert_file"), "cert_file and key_file must be set together")
		}
	}
}
