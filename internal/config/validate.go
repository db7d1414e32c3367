package config

import (
	"fmt"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/warden-mcp/warden/internal/shellword"
)

// MinTokenLen is the shortest bearer token warden accepts from an operator.
const MinTokenLen = 16

// CeilingMaxBytes is the hard output ceiling no configuration can raise.
const CeilingMaxBytes = 2 << 20

// Env applies WARDEN_* overrides; getenv is os.Getenv in production. Besides
// the names DESIGN.md fixes it reads WARDEN_HTTP (listen address),
// WARDEN_CONFINEMENT, WARDEN_HOST_NAMESPACE and WARDEN_MANAGEMENT_SOURCES
// (comma-separated).
func (c *Config) Env(getenv func(string) string) {
	set := func(name, key string, field *string) {
		if v := getenv(name); v != "" {
			*field = v
			c.SetBy(key, name)
		}
	}
	set("WARDEN_MODE", "mode", &c.Mode)
	set("WARDEN_STATE_DIR", "state_dir", &c.StateDir)
	set("WARDEN_TOKEN", "http.token", &c.HTTP.Token)
	set("WARDEN_HTTP", "http.addr", &c.HTTP.Addr)
	set("WARDEN_CONFINEMENT", "confinement", &c.Confinement)
	// For the container shape, where a file is less handy than -e.
	set("WARDEN_HOST_NAMESPACE", "host_namespace", &c.HostNamespace)
	for _, src := range strings.Split(getenv("WARDEN_MANAGEMENT_SOURCES"), ",") {
		if src = strings.TrimSpace(src); src != "" {
			c.SetBy(fmt.Sprintf("firewall.management_sources[%d]", len(c.Firewall.ManagementSources)), "WARDEN_MANAGEMENT_SOURCES")
			c.Firewall.ManagementSources = append(c.Firewall.ManagementSources, src)
		}
	}
}

// ParsePrefix reads an address or a CIDR as a prefix (an address is a
// prefix of its full length).
func ParsePrefix(s string) (netip.Prefix, error) {
	if p, err := netip.ParsePrefix(s); err == nil {
		return p.Masked(), nil
	}
	a, err := netip.ParseAddr(s)
	if err != nil {
		return netip.Prefix{}, err
	}
	return netip.PrefixFrom(a, a.BitLen()), nil
}

// Finish fills defaults that depend on the environment (the state dir) and
// validates everything. home and xdgState come from the caller so that this
// package never reads the environment itself.
func (c *Config) Finish(home, xdgState string) error {
	if c.StateDir == "" {
		switch {
		case xdgState != "":
			c.StateDir = filepath.Join(xdgState, "warden")
		case home != "":
			c.StateDir = filepath.Join(home, ".local", "state", "warden")
		default:
			return Problems{c.Problem("state_dir", "cannot default without HOME; set WARDEN_STATE_DIR")}
		}
	}
	if c.Audit.Path == "" {
		c.Audit.Path = filepath.Join(c.StateDir, "audit.jsonl")
	}
	return c.Validate()
}

// Validate reports every invalid value at once (Problems), each naming its
// key and, where the value came from a file, its line.
// packToolRe is the form of a pack tool's name.
var packToolRe = regexp.MustCompile(`^[a-z][a-z0-9_]{0,47}$`)

func (c *Config) Validate() error {
	var probs Problems
	bad := func(key, format string, args ...any) {
		probs = append(probs, c.Problem(key, format, args...))
	}
	switch c.Mode {
	case "readonly", "guarded", "open":
	default:
		bad("mode", "%q is not one of readonly, guarded, open", c.Mode)
	}
	if c.HTTP.Addr != "" {
		host, port, err := net.SplitHostPort(c.HTTP.Addr)
		if err != nil {
			bad("http.addr", "%q is not host:port", c.HTTP.Addr)
		} else {
			if p, err := strconv.Atoi(port); err != nil || p < 0 || p > 65535 {
				bad("http.addr", "port %q is not a number from 0 to 65535", port)
			}
			if !IsLoopbackHost(host) && !c.HTTP.AllowNonLoopback {
				bad("http.addr", "%q is not a loopback address; set http.allow_non_loopback (or --allow-non-loopback) to expose warden beyond this machine", c.HTTP.Addr)
			}
		}
	}
	if t := c.HTTP.Token; t != "" && len(t) < MinTokenLen {
		bad("http.token", "a configured token must be at least %d characters (got %d)", MinTokenLen, len(t))
	}
	c.validateEdge(bad)
	for i, f := range c.Packs.Files {
		if strings.TrimSpace(f) == "" {
			bad(fmt.Sprintf("packs.files[%d]", i), "is empty")
		}
	}
	for i, n := range c.Packs.Disable {
		if !packToolRe.MatchString(n) {
			bad(fmt.Sprintf("packs.disable[%d]", i), "%q is not a tool name", n)
		}
	}
	if c.HTTP.MaxBodyBytes <= 0 || c.HTTP.MaxBodyBytes > 64<<20 {
		bad("http.max_body_bytes", "must be between 1 and %d", 64<<20)
	}
	if c.Exec.DefaultTimeout <= 0 {
		bad("exec.default_timeout", "must be positive")
	}
	if c.Exec.MaxTimeout < c.Exec.DefaultTimeout {
		bad("exec.max_timeout", "must be at least exec.default_timeout (%s)", c.Exec.DefaultTimeout.D())
	}
	if c.Exec.MaxBytes <= 0 || c.Exec.MaxBytes > CeilingMaxBytes {
		bad("exec.max_bytes", "must be between 1 and %d (the hard ceiling)", CeilingMaxBytes)
	}
	if c.Exec.DefaultMaxBytes <= 0 || c.Exec.DefaultMaxBytes > c.Exec.MaxBytes {
		bad("exec.default_max_bytes", "must be between 1 and exec.max_bytes (%d)", c.Exec.MaxBytes)
	}
	if c.Exec.MaxStdinBytes <= 0 || c.Exec.MaxStdinBytes > 16<<20 {
		bad("exec.max_stdin_bytes", "must be between 1 and %d", 16<<20)
	}
	if c.Exec.MaxWaitingLooks <= 0 || c.Exec.MaxWaitingLooks > 4096 {
		bad("exec.max_waiting_looks", "must be between 1 and 4096 (each waiting look holds a thread; Go ends a process past 10,000)")
	}
	for i, name := range c.Exec.EnvPassthrough {
		if !shellword.ValidName(name) {
			bad(fmt.Sprintf("exec.env_passthrough[%d]", i), "%q is not a valid variable name", name)
		}
	}
	switch c.Confinement {
	case "auto", "required":
	default:
		bad("confinement", "%q is not one of auto, required", c.Confinement)
	}
	checkWritable := func(key string, paths []string) {
		for i, p := range paths {
			if !filepath.IsAbs(p) || filepath.Clean(p) == "/" {
				bad(fmt.Sprintf("%s[%d]", key, i), "%q must be an absolute path other than /", p)
			}
		}
	}
	checkWritable("confine.writable", c.Confine.Writable)
	for tool, t := range c.Confine.Tools {
		checkWritable("confine.tools."+tool+".writable", t.Writable)
	}
	for tool, m := range c.Policy.ToolModes {
		switch m {
		case "readonly", "guarded", "open":
		default:
			bad("policy.tool_modes."+tool, "%q is not one of readonly, guarded, open", m)
		}
	}
	if d := c.Policy.ClassifyTimeout.D(); d < time.Second || d > 5*time.Minute {
		bad("policy.classify_timeout", "must be between 1s and 5m")
	}
	c.validateApproval(bad)
	switch c.Audit.Sync {
	case "none", "always", "group":
	default:
		bad("audit.sync", "%q is not one of none, always, group", c.Audit.Sync)
	}
	switch c.Audit.OnFailure {
	case "refuse", "continue":
	default:
		bad("audit.on_failure", "%q is not one of refuse, continue", c.Audit.OnFailure)
	}
	if c.Audit.MaxArgBytes < 64 {
		bad("audit.max_arg_bytes", "must be at least 64")
	}
	c.validateAudit(bad)
	if c.Sessions.Max < 1 {
		bad("sessions.max", "must be at least 1")
	}
	if c.Sessions.RingBytes < 1024 {
		bad("sessions.ring_bytes", "must be at least 1024")
	}
	for i, src := range c.Firewall.ManagementSources {
		if _, err := ParsePrefix(src); err != nil {
			bad(fmt.Sprintf("firewall.management_sources[%d]", i), "%q is not an address or CIDR", src)
		}
	}
	if !shellword.ValidName(c.Firewall.NFTTable) {
		bad("firewall.nft_table", "%q must be letters, digits and _", c.Firewall.NFTTable)
	}
	if c.HostNamespace != "" && c.HostNamespace != "pid1" {
		bad("host_namespace", "%q is not \"\" or pid1", c.HostNamespace)
	}
	for i, root := range c.Files.AllowRoots {
		if !filepath.IsAbs(root) {
			bad(fmt.Sprintf("files.allow_roots[%d]", i), "%q must be an absolute path", root)
		}
	}
	for i, d := range c.Files.Deny {
		if !filepath.IsAbs(d) {
			bad(fmt.Sprintf("files.deny[%d]", i), "%q must be an absolute path pattern", d)
		}
	}
	if c.IdleExit < 0 {
		bad("idle_exit", "must not be negative")
	}
	for i, n := range c.DisableTools {
		if n == "" || strings.ContainsAny(n, " \t\r\n") {
			bad(fmt.Sprintf("disable_tools[%d]", i), "%q is not a tool name", n)
		}
	}
	seen := map[string]bool{}
	if c.Agent.Builds != "" && !filepath.IsAbs(c.Agent.Builds) {
		bad("agent.builds", "%q is not an absolute path", c.Agent.Builds)
	}
	for i, h := range c.Hosts {
		key := fmt.Sprintf("hosts[%d]", i)
		if h.Name == "" || h.Name == "local" || strings.HasPrefix(h.Name, "-") || strings.ContainsAny(h.Name, " \t\r\n;|&$`'\"\\<>(){}*?[]!#~") {
			bad(key+".name", "%q is not a valid host name (no leading '-', spaces or shell characters; 'local' is reserved)", h.Name)
		}
		if seen[h.Name] {
			bad(key+".name", "duplicate host %q", h.Name)
		}
		seen[h.Name] = true
		if h.Port < 0 || h.Port > 65535 {
			bad(key+".port", "%d is not a port from 1 to 65535 (0 or unset: 22, or ssh_config's)", h.Port)
		}
		if h.Shell != "" && !filepath.IsAbs(h.Shell) {
			bad(key+".shell", "%q must be an absolute path", h.Shell)
		}
		if h.Mode != "" && h.Mode != "readonly" && h.Mode != "guarded" && h.Mode != "open" {
			bad(key+".mode", "%q is not one of readonly, guarded, open", h.Mode)
		}
		if h.HostKeyPolicy != "" && h.HostKeyPolicy != "strict" && h.HostKeyPolicy != "accept-new" {
			bad(key+".host_key_policy", "%q is not one of strict, accept-new", h.HostKeyPolicy)
		}
		if h.Agent != "" && h.Agent != "off" && h.Agent != "auto" && h.Agent != "required" {
			bad(key+".agent", "%q is not one of off, auto, required", h.Agent)
		}
		if h.AgentPath != "" && (!strings.HasPrefix(h.AgentPath, "/") || strings.ContainsAny(h.AgentPath, "\x00\n")) {
			bad(key+".agent_path", "%q is not an absolute path", h.AgentPath)
		}
		for j, d := range h.Deny {
			if _, err := regexp.Compile(d); err != nil {
				bad(fmt.Sprintf("%s.deny[%d]", key, j), "%q is not a regular expression: %v", d, err)
			}
		}
		if h.FilesTransport != "" && h.FilesTransport != "auto" && h.FilesTransport != "sftp" && h.FilesTransport != "exec" {
			bad(key+".files_transport", "%q is not one of auto, sftp, exec", h.FilesTransport)
		}
		if h.Files != nil {
			for j, p := range h.Files.AllowRoots {
				if !strings.HasPrefix(p, "/") {
					bad(fmt.Sprintf("%s.files.allow_roots[%d]", key, j), "%q is not an absolute path", p)
				}
			}
			for j, p := range h.Files.Deny {
				if !strings.HasPrefix(p, "/") {
					bad(fmt.Sprintf("%s.files.deny[%d]", key, j), "%q is not an absolute path", p)
				}
			}
		}
	}
	if c.SSH.Prestart < 0 {
		bad("ssh.prestart", "must not be negative")
	}
	if c.SSH.Forwards.Max < 1 || c.SSH.Forwards.Max > 1024 {
		bad("ssh.forwards.max", "must be between 1 and 1024")
	}
	groups := map[string]bool{}
	for i, g := range c.Groups {
		key := fmt.Sprintf("groups[%d]", i)
		switch {
		case g.Name == "" || g.Name == "local" || strings.HasPrefix(g.Name, "-") || strings.ContainsAny(g.Name, " \t\r\n;|&$`'\"\\<>(){}*?[]!#~,@"):
			bad(key+".name", "%q is not a valid group name (no leading '-', spaces or shell characters; 'local' is reserved)", g.Name)
		case seen[g.Name]:
			bad(key+".name", "group %q has the name of a host", g.Name)
		case groups[g.Name]:
			bad(key+".name", "duplicate group %q", g.Name)
		}
		groups[g.Name] = true
		if len(g.Hosts) == 0 {
			bad(key+".hosts", "group %q has no hosts", g.Name)
		}
		for j, m := range g.Hosts {
			if m == "" || m == "local" || strings.HasPrefix(m, "-") {
				bad(fmt.Sprintf("%s.hosts[%d]", key, j), "%q is not a host name", m)
			}
		}
	}
	if len(probs) == 0 {
		return nil
	}
	return probs
}

// IsLoopbackHost reports whether host is a loopback IP or "localhost".
func IsLoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// Masked returns the effective configuration as YAML with secrets replaced.
func (c *Config) Masked() ([]byte, error) {
	cp := *c
	if cp.HTTP.Token != "" {
		cp.HTTP.Token = "********"
	}
	return yaml.Marshal(&cp)
}

// ReadTokenFile reads a bearer token file, trimming one trailing newline.
func ReadTokenFile(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("read token file: %w", err)
	}
	return strings.TrimRight(string(b), "\r\n"), nil
}
