// Package config owns warden's configuration: the warden.yaml schema, its
// strict loading, the embedded default, environment and flag overrides, and
// validation. A Config is validated once at the boundary and read-only after.
package config

import (
	_ "embed"
	"errors"
	"fmt"
	"os"
	"reflect"
	"time"

	"go.yaml.in/yaml/v3"
)

// Default is the embedded configuration used when no file is given.
//
//go:embed default.yaml
var Default []byte

// Config is the whole of warden's configuration.
type Config struct {
	// Mode is the global policy mode: readonly, guarded or open.
	Mode string `yaml:"mode" json:"mode"`
	// StateDir holds the generated token, the audit log and recordings.
	StateDir string   `yaml:"state_dir" json:"state_dir"`
	HTTP     HTTP     `yaml:"http" json:"http"`
	Exec     Exec     `yaml:"exec" json:"exec"`
	Policy   Policy   `yaml:"policy" json:"policy"`
	Approval Approval `yaml:"approval" json:"approval"`
	Console  Console  `yaml:"console" json:"console"`
	Audit    Audit    `yaml:"audit" json:"audit"`
	Sessions Sessions `yaml:"sessions" json:"sessions"`
	Hosts    []Host   `yaml:"hosts" json:"hosts"`
	Groups   []Group  `yaml:"groups" json:"groups"`
	SSH      SSH      `yaml:"ssh" json:"ssh"`
	// Agent configures warden's agent on the hosts that opt in to it
	// (hosts[].agent).
	Agent Agent    `yaml:"agent" json:"agent"`
	Tools []string `yaml:"tools" json:"tools"`
	// DisableTools are tools not offered at all: absent from tools/list
	// and refused by name (any built-in, pack or declarative tool).
	DisableTools []string   `yaml:"disable_tools" json:"disable_tools"`
	Snapshot     []Snapshot `yaml:"snapshots" json:"snapshots"`
	Metrics      Metrics    `yaml:"metrics" json:"metrics"`
	// IdleExit shuts warden down after this long without a call; 0 = never.
	IdleExit Duration `yaml:"idle_exit" json:"idle_exit"`
	Files    Files    `yaml:"files" json:"files"`
	Firewall Firewall `yaml:"firewall" json:"firewall"`
	Packs    Packs    `yaml:"packs" json:"packs"`
	// HostNamespace "pid1" makes "local" the host of a privileged pid:host
	// container: commands, sessions and host tools enter PID 1's
	// namespaces, files are read under /proc/1/root; "" is this machine.
	HostNamespace string `yaml:"host_namespace" json:"host_namespace"`
	// Confinement is "auto" (confine local programs where the kernel
	// allows, warn where it does not) or "required" (refuse to serve
	// without confinement).
	Confinement string `yaml:"confinement" json:"confinement"`
	// Confine narrows what approved (tier 2 and 3) local programs may do.
	Confine Confine `yaml:"confine" json:"confine"`

	// origin is where the values came from, for problems found later.
	origin *origin
}

// Confine narrows approved local programs, which are otherwise unconfined
// but for warden's own state.
type Confine struct {
	// Writable, when set, is the only paths approved programs may write
	// (the temporary directories stay writable).
	Writable []string `yaml:"writable" json:"writable"`
	// Network false denies approved programs TCP connect and bind.
	Network *bool `yaml:"network" json:"network"`
	// Tools replaces the block above for the named tools.
	Tools map[string]ConfineTool `yaml:"tools" json:"tools"`
}

// ConfineTool is the confine block of one tool.
type ConfineTool struct {
	Writable []string `yaml:"writable" json:"writable"`
	Network  *bool    `yaml:"network" json:"network"`
}

// Packs are the operator's appliance packs (internal/tools/packs): files
// that add a pack or replace a built-in one of the same name, and tools
// switched off. The packs themselves are checked where they are loaded.
type Packs struct {
	Files   []string `yaml:"files" json:"files"`
	Disable []string `yaml:"disable" json:"disable"`
}

// Files is the path policy of the file tools.
type Files struct {
	// AllowRoots are the absolute roots file tools may touch; empty = /.
	AllowRoots []string `yaml:"allow_roots" json:"allow_roots"`
	// Deny are absolute path patterns added to the built-in denials.
	Deny []string `yaml:"deny" json:"deny"`
	// ReplaceDefaults makes Deny replace the built-in denials (logged
	// loudly); warden's own paths stay denied regardless.
	ReplaceDefaults bool `yaml:"replace_defaults" json:"replace_defaults"`
}

// Firewall configures firewall_block and firewall_unblock.
type Firewall struct {
	// ManagementSources are addresses or CIDRs the operator manages hosts
	// from; the lock-out guard refuses to block them.
	ManagementSources []string `yaml:"management_sources" json:"management_sources"`
	// NFTTable names warden's block list in every backend: the inet
	// nftables table, the iptables chain and ipsets NAME_v4/NAME_v6, and
	// the PF table.
	NFTTable string `yaml:"nft_table" json:"nft_table"`
}

// HTTP configures the streamable HTTP transport.
type HTTP struct {
	// Addr is where to listen, e.g. 127.0.0.1:8787; empty means stdio.
	Addr string `yaml:"addr" json:"addr"`
	// AllowNonLoopback must be set to bind anything but loopback.
	AllowNonLoopback bool `yaml:"allow_non_loopback" json:"allow_non_loopback"`
	// Token is the bearer token; prefer WARDEN_TOKEN or TokenFile.
	Token     string `yaml:"token" json:"token"`
	TokenFile string `yaml:"token_file" json:"token_file"`
	// AllowedHosts are Host header values accepted besides loopback names.
	AllowedHosts []string `yaml:"allowed_hosts" json:"allowed_hosts"`
	// AllowedOrigins are browser origins accepted besides none at all.
	AllowedOrigins []string `yaml:"allowed_origins" json:"allowed_origins"`
	MaxBodyBytes   int64    `yaml:"max_body_bytes" json:"max_body_bytes"`
	// TrustedProxyHeader names an identity header honoured only from loopback.
	TrustedProxyHeader string `yaml:"trusted_proxy_header" json:"trusted_proxy_header"`
	// AllowedUsers, when set, is the only identities admitted.
	AllowedUsers []string `yaml:"allowed_users" json:"allowed_users"`
	// TLSCertFile and TLSKeyFile, both set, serve HTTPS.
	TLSCertFile string `yaml:"tls_cert_file" json:"tls_cert_file"`
	TLSKeyFile  string `yaml:"tls_key_file" json:"tls_key_file"`
	// ShutdownGrace is how long calls in flight may finish after SIGTERM.
	ShutdownGrace Duration `yaml:"shutdown_grace" json:"shutdown_grace"`
	// AllowedSources, when set, is the only client addresses or CIDRs
	// whose connections are accepted.
	AllowedSources []string `yaml:"allowed_sources" json:"allowed_sources"`
	// MaxConnsPerSource caps concurrent connections from one address.
	MaxConnsPerSource int `yaml:"max_conns_per_source" json:"max_conns_per_source"`
	// RatePerSource caps requests per second from one address (with
	// RateBurst); 0 means no rate cap.
	RatePerSource float64 `yaml:"rate_per_source" json:"rate_per_source"`
	RateBurst     int     `yaml:"rate_burst" json:"rate_burst"`
	Lockout       Lockout `yaml:"lockout" json:"lockout"`
	OAuth         OAuth   `yaml:"oauth" json:"oauth"`
}

// Lockout is the brute-force table: more than MaxFailures failed
// authentications from one address within Window lock it out for Duration.
type Lockout struct {
	MaxFailures int      `yaml:"max_failures" json:"max_failures"`
	Window      Duration `yaml:"window" json:"window"`
	Duration    Duration `yaml:"duration" json:"duration"`
}

// OAuth makes warden an OAuth 2.1 resource server for JWT access tokens.
type OAuth struct {
	// Issuer is the authorization server's issuer URL; empty = OAuth off.
	Issuer string `yaml:"issuer" json:"issuer"`
	// Resource is this server's resource URL (the audience tokens must
	// name, RFC 8707), e.g. https://nas.example.ts.net/mcp.
	Resource string `yaml:"resource" json:"resource"`
	// JWKSURL defaults to the jwks_uri of the issuer's metadata.
	JWKSURL string `yaml:"jwks_url" json:"jwks_url"`
	// ClockSkew tolerates clocks this far apart on exp and nbf.
	ClockSkew Duration `yaml:"clock_skew" json:"clock_skew"`
}

// Metrics configures the Prometheus listener.
type Metrics struct {
	// Addr is a loopback host:port serving /metrics; empty = off.
	Addr string `yaml:"addr" json:"addr"`
}

// Exec bounds command execution.
type Exec struct {
	DefaultTimeout  Duration `yaml:"default_timeout" json:"default_timeout"`
	MaxTimeout      Duration `yaml:"max_timeout" json:"max_timeout"`
	DefaultMaxBytes int      `yaml:"default_max_bytes" json:"default_max_bytes"`
	MaxBytes        int      `yaml:"max_bytes" json:"max_bytes"`
	// Path is the PATH given to every child.
	Path string `yaml:"path" json:"path"`
	// EnvPassthrough names variables copied from warden's environment.
	EnvPassthrough []string `yaml:"env_passthrough" json:"env_passthrough"`
	MaxStdinBytes  int      `yaml:"max_stdin_bytes" json:"max_stdin_bytes"`
	// MaxWaitingLooks bounds the looks at files, and the classifications
	// that look files up, that wait at once (runner.Looks).
	MaxWaitingLooks int `yaml:"max_waiting_looks" json:"max_waiting_looks"`
}

// Policy holds operator rules; they add to the built-in deny list.
type Policy struct {
	Deny      []string          `yaml:"deny" json:"deny"`
	Allow     []string          `yaml:"allow" json:"allow"`
	DenyHosts []string          `yaml:"deny_hosts" json:"deny_hosts"`
	ToolModes map[string]string `yaml:"tool_modes" json:"tool_modes"`
	// ClassifyTimeout bounds the classification of one call; a call not
	// classified in time is refused.
	ClassifyTimeout Duration `yaml:"classify_timeout" json:"classify_timeout"`
}

// Audit configures the hash-chained audit log.
type Audit struct {
	// Path defaults to $WARDEN_STATE_DIR/audit.jsonl.
	Path        string `yaml:"path" json:"path"`
	RotateBytes int64  `yaml:"rotate_bytes" json:"rotate_bytes"`
	// Sync is none, always or group.
	Sync    string `yaml:"sync" json:"sync"`
	KeyFile string `yaml:"key_file" json:"key_file"`
	// OnFailure is refuse (tier >= 2 calls refused while the log is
	// unwritable) or continue.
	OnFailure   string `yaml:"on_failure" json:"on_failure"`
	MaxArgBytes int    `yaml:"max_arg_bytes" json:"max_arg_bytes"`
	// Node names this warden in every record and export; default: the
	// host name.
	Node string `yaml:"node" json:"node"`
	// Keep prunes rotated files; see AuditKeep.
	Keep AuditKeep `yaml:"keep" json:"keep"`
	// Export ships every record, after it is written locally, to each sink.
	Export []AuditExport `yaml:"export" json:"export"`
}

// Sessions bounds interactive sessions.
type Sessions struct {
	Max               int      `yaml:"max" json:"max"`
	RingBytes         int      `yaml:"ring_bytes" json:"ring_bytes"`
	IdleTimeout       Duration `yaml:"idle_timeout" json:"idle_timeout"`
	MaxLifetime       Duration `yaml:"max_lifetime" json:"max_lifetime"`
	MaxRecordingBytes int64    `yaml:"max_recording_bytes" json:"max_recording_bytes"`
}

// Host is one entry of warden's own inventory.
type Host struct {
	Name          string   `yaml:"name" json:"name"`
	Address       string   `yaml:"address" json:"address"`
	Port          int      `yaml:"port" json:"port"`
	User          string   `yaml:"user" json:"user"`
	IdentityFiles []string `yaml:"identity_files" json:"identity_files"`
	ProxyJump     string   `yaml:"proxy_jump" json:"proxy_jump"`
	KnownHosts    string   `yaml:"known_hosts" json:"known_hosts"`
	Groups        []string `yaml:"groups" json:"groups"`
	Tags          []string `yaml:"tags" json:"tags"`
	Mode          string   `yaml:"mode" json:"mode"`
	Shell         string   `yaml:"shell" json:"shell"`
	HostKeyPolicy string   `yaml:"host_key_policy" json:"host_key_policy"`
	// Files is the path policy of the file tools on this host; unset
	// means the top-level files: rules. warden's own paths are refused on
	// every host, since an inventory host may be this machine.
	Files *Files `yaml:"files" json:"files,omitempty"`
	// FilesTransport is how the file tools and snapshot sources reach the
	// host's files: auto (SFTP when the server offers it, else the exec
	// channel), sftp or exec. Empty means auto.
	FilesTransport string `yaml:"files_transport" json:"files_transport,omitempty"`
	// Agent is whether warden runs its agent on the host over the
	// connection (see docs/remote-hosts.md): off (the default), auto
	// (the agent where it can run, plain SSH where it cannot, saying why)
	// or required (the agent or a clear error).
	Agent string `yaml:"agent" json:"agent,omitempty"`
	// AgentPath is an agent the operator installed on the host (an
	// absolute path there), run as is instead of uploading a build; its
	// SHA-256 is checked when agent.builds' manifest lists the host's
	// platform.
	AgentPath string `yaml:"agent_path" json:"agent_path,omitempty"`
	// Deny are regexes as policy.deny that apply to calls on this host
	// only (a router's "service restart_wan", a NAS's "synopkg
	// uninstall"): added to the global rules and an appliance pack's.
	Deny []string `yaml:"deny" json:"deny,omitempty"`
}

// Agent configures warden's agent on remote hosts.
type Agent struct {
	// Builds is the release artifact set scripts/release makes: a
	// directory of warden-<os>-<arch> builds and their SHA256SUMS. Empty
	// means warden's own executable, for hosts of its own platform only.
	Builds string `yaml:"builds" json:"builds,omitempty"`
}

// Group names a set of hosts.
type Group struct {
	Name  string   `yaml:"name" json:"name"`
	Hosts []string `yaml:"hosts" json:"hosts"`
}

// SSH configures connections to remote hosts.
type SSH struct {
	// Config is the ssh_config file read for the inventory; "" = ~/.ssh/config,
	// "none" = none.
	Config         string   `yaml:"config" json:"config"`
	KnownHosts     string   `yaml:"known_hosts" json:"known_hosts"`
	ConnectTimeout Duration `yaml:"connect_timeout" json:"connect_timeout"`
	Keepalive      Duration `yaml:"keepalive" json:"keepalive"`
	IdleTimeout    Duration `yaml:"idle_timeout" json:"idle_timeout"`
	MaxConns       int      `yaml:"max_conns" json:"max_conns"`
	// Prestart is how long a session started ahead of a host's next
	// command waits for it; 0 starts none.
	Prestart Duration `yaml:"prestart" json:"prestart"`
	Forwards Forwards `yaml:"forwards" json:"forwards"`
}

// Forwards bounds the port forwards forward_open may keep.
type Forwards struct {
	// Max is how many forwards may be open at once.
	Max int `yaml:"max" json:"max"`
	// AllowNonLoopback lets a forward listen on an address other than
	// loopback (here for L and D, on the remote host for R).
	AllowNonLoopback bool `yaml:"allow_non_loopback" json:"allow_non_loopback"`
}

// Snapshot is one snapshot source for the forensics tools.
type Snapshot struct {
	Name       string `yaml:"name" json:"name"`
	Kind       string `yaml:"kind" json:"kind"`
	Path       string `yaml:"path" json:"path"`
	Pattern    string `yaml:"pattern" json:"pattern"`
	TimeFormat string `yaml:"time_format" json:"time_format"`
	Dataset    string `yaml:"dataset" json:"dataset"`
	Host       string `yaml:"host" json:"host"`
	// Live is the live data compared as the snapshot "@live"; zfs and
	// snapper sources default to their mountpoint or subvolume.
	Live string `yaml:"live" json:"live"`
	// Restore opts the dataset in to restore_file and restore_dir; off
	// unless enabled.
	Restore SnapshotRestore `yaml:"restore" json:"restore"`
}

// SnapshotRestore is one dataset's opt-in to the restore tools: with
// Enabled, restores may write below the Allow directories, which must lie
// inside the dataset's live data.
type SnapshotRestore struct {
	Enabled bool     `yaml:"enabled" json:"enabled"`
	Allow   []string `yaml:"allow" json:"allow"`
}

// Duration is a time.Duration written as "60s" or "5m" in YAML.
type Duration time.Duration

// UnmarshalYAML parses a Go duration string.
func (d *Duration) UnmarshalYAML(n *yaml.Node) error {
	var s string
	if err := n.Decode(&s); err != nil {
		return fmt.Errorf("line %d: duration must be a string like \"60s\"", n.Line)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return fmt.Errorf("line %d: %w", n.Line, err)
	}
	*d = Duration(v)
	return nil
}

// MarshalYAML writes the duration as a string.
func (d Duration) MarshalYAML() (any, error) { return time.Duration(d).String(), nil }

// MarshalText writes the duration as a string (for JSON output).
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// D returns the value as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }

// Parse decodes YAML strictly on top of the embedded default. Every
// problem is reported at once (Problems), each with its file, line and
// dotted key path: unknown keys with the closest known one, values of the
// wrong kind, durations and numbers that do not parse.
func Parse(name string, data []byte) (*Config, error) {
	c, probs, err := parse(name, data)
	if err != nil {
		return nil, err
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return c, nil
}

// parse decodes what it can: entries with problems are reported and left
// at their defaults, so that the rest can still be validated.
func parse(name string, data []byte) (*Config, Problems, error) {
	c := &Config{}
	if err := yaml.Unmarshal(Default, c); err != nil {
		return nil, nil, fmt.Errorf("embedded default: %w", err)
	}
	c.origin = &origin{lines: map[string]int{}, digest: Digest(Default)}
	if data == nil {
		return c, nil, nil
	}
	c.origin.file, c.origin.digest = name, Digest(data)
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return c, Problems{syntaxProblem(name, err)}, nil
	}
	if len(doc.Content) == 0 {
		return c, nil, nil
	}
	k := &checker{file: name, lines: c.origin.lines}
	if !k.walk(doc.Content[0], reflect.TypeFor[Config](), "") {
		return c, k.probs, nil
	}
	if err := doc.Decode(c); err != nil {
		k.probs = append(k.probs, syntaxProblem(name, err))
	}
	return c, k.probs, nil
}

// Load reads and strictly parses a config file; an empty path means the
// embedded default alone.
func Load(path string) (*Config, error) {
	if path == "" {
		return Parse("default", nil)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return Parse(path, data)
}

// Read is how warden reads its configuration: the file at path (or the
// embedded default), then the WARDEN_* environment, then apply (flag
// values, which should call SetBy), then defaults and validation. Every
// problem — of the file's shape and of its values — is reported together
// as Problems; with them Read returns the configuration as far as it
// decoded, so that a caller may check it further and report all at once.
// It must not be used for anything else.
func Read(path string, getenv func(string) string, apply func(*Config)) (*Config, error) {
	var data []byte
	if path != "" {
		var err error
		if data, err = os.ReadFile(path); err != nil {
			return nil, fmt.Errorf("read config: %w", err)
		}
	}
	c, probs, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	c.Env(getenv)
	if apply != nil {
		apply(c)
	}
	if err := c.Finish(getenv("HOME"), getenv("XDG_STATE_HOME")); err != nil {
		var more Problems
		if !errors.As(err, &more) {
			return nil, err
		}
		probs = append(probs, more...)
	}
	if len(probs) > 0 {
		return c, probs.Sorted()
	}
	return c, nil
}
