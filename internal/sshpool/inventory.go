package sshpool

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ErrUnknownTarget is returned by Resolve for a name that is neither a
// warden host nor a Host alias in ssh_config.
var ErrUnknownTarget = errors.New("host not in inventory")

// HostKeyPolicy says what to do with a host key that known_hosts does not
// list.
type HostKeyPolicy string

const (
	// HostKeyStrict refuses unknown hosts. It is the default.
	HostKeyStrict HostKeyPolicy = "strict"
	// HostKeyAcceptNew trusts an unknown host's key on first connection and
	// appends it to the host's first known_hosts file. A key that changes
	// later is still refused.
	HostKeyAcceptNew HostKeyPolicy = "accept-new"
)

// DefaultShell is the remote shell used for commands when a host names
// none.
const DefaultShell = "/bin/sh"

// maxJumpDepth bounds ProxyJump chains, including jumps of jumps.
const maxJumpDepth = 8

// HostEntry is one host in warden's own inventory, as the config package
// reads it from warden.yaml. Empty fields fall back to what ssh_config says
// for Name.
type HostEntry struct {
	Name          string
	Address       string
	Port          int
	User          string
	IdentityFiles []string
	// ProxyJump is a comma-separated chain of [user@]host[:port] hops,
	// each an inventory name or an address, as in ssh_config.
	ProxyJump      string
	KnownHostsFile string
	Groups, Tags   []string
	// Mode is the policy mode for this host; opaque to sshpool.
	Mode string
	// Shell is the absolute path of the remote shell used for commands;
	// empty means DefaultShell.
	Shell string
	// HostKeyPolicy is "strict" (the default) or "accept-new".
	HostKeyPolicy string
	// Agent is whether warden runs its agent there (off, auto,
	// required); opaque to sshpool.
	Agent string
	// AgentPath is an operator-installed agent binary on the host, run
	// as is instead of an uploaded build; opaque to sshpool.
	AgentPath string
}

// Target is a resolved host: everything needed to dial it and run on it.
type Target struct {
	// Name is the inventory name or alias the target was resolved from.
	Name string
	// Source is "warden" for a warden.yaml host, "ssh_config" otherwise.
	Source         string
	Host           string
	Port           int
	User           string
	IdentityFiles  []string
	IdentitiesOnly bool
	// KnownHostsFiles are read to verify the host key, and only they;
	// accept-new appends to the first. None means every key is unknown.
	KnownHostsFiles []string
	HostKeyPolicy   HostKeyPolicy
	// ConnectTimeout bounds the TCP connect and handshake; zero means
	// the pool's default.
	ConnectTimeout time.Duration
	// Jump is the ProxyJump chain, dialled in order: Jump[0] directly,
	// each next hop and finally the target through the one before.
	Jump  []Target
	Shell string
	Mode  string
	Agent string `json:",omitempty"`
	// AgentPath is the operator-installed agent on the host, if any.
	AgentPath string `json:",omitempty"`
	Groups    []string
	Tags      []string
}

// Addr returns host:port as dialled.
func (t Target) Addr() string { return net.JoinHostPort(t.Host, strconv.Itoa(t.Port)) }

// Key names the connection the pool keeps for t. Two targets share a
// connection only when everything that decides whom warden trusts and who
// logs in is the same: user, address and port, the known_hosts files and
// the host key policy, the identity files and IdentitiesOnly, and the same
// of every jump hop. Two aliases of one address that read different
// known_hosts files (or log in with other keys) never share one, so a
// connection verified against one alias's file is never handed to an
// alias whose file would refuse the server. The key reads
// user@host:port[ via hops] for logs, then a digest of the rest.
func (t Target) Key() string {
	k := t.User + "@" + t.Addr()
	if len(t.Jump) > 0 {
		hops := make([]string, len(t.Jump))
		for i, j := range t.Jump {
			hops[i] = j.User + "@" + j.Addr()
		}
		k += " via " + strings.Join(hops, ",")
	}
	h := sha256.New()
	t.writeTrust(h)
	return k + " #" + hex.EncodeToString(h.Sum(nil)[:16])
}

// writeTrust writes what Key covers, each field length-prefixed so that no
// two different targets write the same bytes.
func (t Target) writeTrust(w io.Writer) {
	field := func(s string) { fmt.Fprintf(w, "%d:%s;", len(s), s) }
	list := func(l []string) {
		field(strconv.Itoa(len(l)))
		for _, s := range l {
			field(s)
		}
	}
	field(t.User)
	field(t.Host)
	field(strconv.Itoa(t.Port))
	field(string(t.HostKeyPolicy))
	list(t.KnownHostsFiles)
	list(t.IdentityFiles)
	field(strconv.FormatBool(t.IdentitiesOnly))
	field(strconv.Itoa(len(t.Jump)))
	for _, j := range t.Jump {
		j.writeTrust(w)
	}
}

// hop returns the i-th jump as a target of its own, reached through the
// hops before it.
func (t Target) hop(i int) Target {
	h := t.Jump[i]
	h.Jump = t.Jump[:i]
	return h
}

// InventoryOptions says where the inventory comes from. cmd/warden fills it
// from the environment; nothing here reads the environment itself.
type InventoryOptions struct {
	// SSHConfig is the user's ssh_config, usually ~/.ssh/config. Empty or
	// missing means none.
	SSHConfig string
	// HomeDir expands "~" and %d and locates default keys and
	// known_hosts.
	HomeDir string
	// LocalUser is the remote login when nothing names one, and %u.
	LocalUser string
	// Hosts is warden's own inventory.
	Hosts []HostEntry
	// KnownHosts, when set, are the known_hosts files of every host that
	// names none of its own in Hosts (ssh.known_hosts in warden.yaml). They
	// replace ~/.ssh/known_hosts and ssh_config's UserKnownHostsFile: the
	// operator's file is the whole of what warden trusts.
	KnownHosts []string
}

// Inventory resolves host names to Targets from warden's hosts and the
// user's ssh_config. Every host is resolved once, when the inventory is
// built (a reload builds a new one), so Resolve is a map lookup whatever
// the inventory's size and List costs what copying the result costs. It
// is read-only after NewInventory and safe for concurrent use.
type Inventory struct {
	// names are warden's hosts, then ssh_config aliases: List's order.
	names    []string
	resolved map[string]resolution
	groups   map[string][]string
}

// resolution is one host's Target, or why it has none.
type resolution struct {
	target Target
	err    error
}

// NewInventory reads the ssh_config file, checks warden's entries and
// resolves every host.
func NewInventory(opts InventoryOptions) (*Inventory, error) {
	cfg, err := readSSHConfig(opts.SSHConfig)
	if err != nil {
		return nil, err
	}
	r := resolver{opts: opts, cfg: cfg, entries: map[string]HostEntry{}, hosts: map[string]hostConfig{}, seen: map[string]bool{}}
	inv := &Inventory{resolved: map[string]resolution{}, groups: map[string][]string{}}
	for _, e := range opts.Hosts {
		if err := ValidateAlias(e.Name); err != nil {
			return nil, fmt.Errorf("inventory: %w", err)
		}
		if _, dup := r.entries[e.Name]; dup {
			return nil, fmt.Errorf("inventory: host %q listed twice", e.Name)
		}
		r.entries[e.Name] = e
		inv.names = append(inv.names, e.Name)
		for _, g := range e.Groups {
			// A host that names a group twice is in it once.
			if l := inv.groups[g]; len(l) == 0 || l[len(l)-1] != e.Name {
				inv.groups[g] = append(l, e.Name)
			}
		}
	}
	// Check every warden entry now, so a bad config fails at startup.
	for _, e := range opts.Hosts {
		t, err := r.top(e.Name, &e)
		if err != nil {
			return nil, fmt.Errorf("inventory: %w", err)
		}
		inv.resolved[e.Name] = resolution{target: t}
	}
	for _, a := range cfg.aliases() {
		if _, warden := r.entries[a]; warden || ValidateAlias(a) != nil {
			continue
		}
		t, err := r.top(a, nil)
		inv.resolved[a] = resolution{target: t, err: err}
		inv.names = append(inv.names, a)
	}
	return inv, nil
}

// Listing is one inventory host as hosts_list shows it.
type Listing struct {
	Name string
	// Target is the resolved host; nil when Err says why it cannot be.
	Target *Target
	Err    error
}

// List returns warden's hosts, then ssh_config aliases, each resolved.
func (inv *Inventory) List() []Listing {
	out := make([]Listing, 0, len(inv.names))
	for _, n := range inv.names {
		r := inv.resolved[n]
		l := Listing{Name: n, Err: r.err}
		if r.err == nil {
			t := r.target.clone()
			l.Target = &t
		}
		out = append(out, l)
	}
	return out
}

// Group returns the names of warden's hosts in group, in inventory order.
func (inv *Inventory) Group(group string) []string {
	return slices.Clone(inv.groups[group])
}

// Resolve turns an agent-supplied host name into a Target. Only warden
// hosts and ssh_config Host aliases resolve; an arbitrary address does
// not, so the inventory is the allowlist of reachable hosts.
func (inv *Inventory) Resolve(name string) (Target, error) {
	if err := ValidateAlias(name); err != nil {
		return Target{}, fmt.Errorf("resolve: %w", err)
	}
	r, ok := inv.resolved[name]
	if !ok {
		return Target{}, fmt.Errorf("resolve %q: %w (warden hosts and ~/.ssh/config Host aliases are)", name, ErrUnknownTarget)
	}
	if r.err != nil {
		return Target{}, r.err
	}
	return r.target.clone(), nil
}

// clone copies t deeply: callers own what Resolve and List return, and
// the inventory's copy stays as it was resolved.
func (t Target) clone() Target {
	t.IdentityFiles = slices.Clone(t.IdentityFiles)
	t.KnownHostsFiles = slices.Clone(t.KnownHostsFiles)
	t.Groups = slices.Clone(t.Groups)
	t.Tags = slices.Clone(t.Tags)
	if t.Jump != nil {
		jump := make([]Target, len(t.Jump))
		for i, j := range t.Jump {
			jump[i] = j.clone()
		}
		t.Jump = jump
	}
	return t
}

// resolver resolves the hosts of one inventory while it is built.
type resolver struct {
	opts    InventoryOptions
	cfg     *sshConfig
	entries map[string]HostEntry
	// hosts caches what ssh_config says per name: jump hops are asked
	// about again and again.
	hosts map[string]hostConfig
	seen  map[string]bool
}

// top resolves an inventory host, entry nil for an ssh_config alias.
func (r *resolver) top(name string, entry *HostEntry) (Target, error) {
	t, err := r.resolve(name, entry, 0)
	if err != nil {
		return Target{}, fmt.Errorf("resolve %q: %w", name, err)
	}
	return t, nil
}

func (r *resolver) host(alias string) hostConfig {
	h, ok := r.hosts[alias]
	if !ok {
		h = r.cfg.host(alias)
		r.hosts[alias] = h
	}
	return h
}

func (r *resolver) get(alias, key string) string { return r.host(alias).get(key) }

func (r *resolver) getAll(alias, key string) []string { return r.host(alias).getAll(key) }

// resolve builds the target for alias, layering entry (if any) over
// ssh_config.
func (r *resolver) resolve(alias string, entry *HostEntry, depth int) (Target, error) {
	if depth > maxJumpDepth {
		return Target{}, fmt.Errorf("ProxyJump chain deeper than %d", maxJumpDepth)
	}
	if r.seen[alias] {
		return Target{}, fmt.Errorf("ProxyJump loop through %q", alias)
	}
	r.seen[alias] = true
	defer delete(r.seen, alias)

	if entry == nil {
		entry = &HostEntry{}
	}
	t := Target{Name: alias, Source: "ssh_config"}
	if entry.Name != "" {
		t.Source = "warden"
	}
	t.Host = entry.Address
	if t.Host == "" {
		t.Host = r.get(alias, "HostName")
		t.Host = strings.ReplaceAll(t.Host, "%h", alias)
	}
	if t.Host == "" {
		t.Host = alias
	}
	if err := ValidateHost(t.Host); err != nil {
		return Target{}, err
	}
	t.Port = entry.Port
	if t.Port == 0 {
		if p := r.get(alias, "Port"); p != "" {
			n, err := strconv.Atoi(p)
			if err != nil {
				return Target{}, fmt.Errorf("port %q: not a number", p)
			}
			t.Port = n
		}
	}
	if t.Port == 0 {
		t.Port = 22
	}
	if t.Port < 1 || t.Port > 65535 {
		return Target{}, fmt.Errorf("port %d out of range", t.Port)
	}
	t.User = entry.User
	if t.User == "" {
		t.User = r.get(alias, "User")
	}
	if t.User == "" {
		t.User = r.opts.LocalUser
	}
	if err := ValidateUser(t.User); err != nil {
		return Target{}, err
	}
	tokens := r.tokens(alias, t)

	idFiles := entry.IdentityFiles
	if len(idFiles) == 0 {
		idFiles = r.getAll(alias, "IdentityFile")
	}
	if len(idFiles) == 0 {
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
			idFiles = append(idFiles, filepath.Join(r.opts.HomeDir, ".ssh", n))
		}
	}
	for _, f := range idFiles {
		p, err := expandPath(f, tokens)
		if err != nil {
			return Target{}, fmt.Errorf("IdentityFile: %w", err)
		}
		t.IdentityFiles = append(t.IdentityFiles, p)
	}
	t.IdentitiesOnly = strings.EqualFold(r.get(alias, "IdentitiesOnly"), "yes")

	// One source of trust, the most specific: the host's own file, else
	// warden's ssh.known_hosts, else ssh_config, else ~/.ssh/known_hosts.
	var known []string
	switch {
	case entry.KnownHostsFile != "":
		known = []string{entry.KnownHostsFile}
	case len(r.opts.KnownHosts) > 0:
		known = r.opts.KnownHosts
	case r.get(alias, "UserKnownHostsFile") != "":
		known = strings.Fields(r.get(alias, "UserKnownHostsFile"))
	default:
		known = []string{filepath.Join(r.opts.HomeDir, ".ssh", "known_hosts")}
	}
	for _, f := range known {
		if f == "none" || f == "/dev/null" {
			continue
		}
		p, err := expandPath(f, tokens)
		if err != nil {
			return Target{}, fmt.Errorf("known hosts file: %w", err)
		}
		t.KnownHostsFiles = append(t.KnownHostsFiles, p)
	}

	switch HostKeyPolicy(entry.HostKeyPolicy) {
	case "", HostKeyStrict:
		t.HostKeyPolicy = HostKeyStrict
	case HostKeyAcceptNew:
		t.HostKeyPolicy = HostKeyAcceptNew
	default:
		return Target{}, fmt.Errorf("host key policy %q: want %q or %q", entry.HostKeyPolicy, HostKeyStrict, HostKeyAcceptNew)
	}

	if v := r.get(alias, "ConnectTimeout"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return Target{}, fmt.Errorf("ConnectTimeout %q: not a number of seconds", v)
		}
		t.ConnectTimeout = time.Duration(n) * time.Second
	}

	t.Shell = entry.Shell
	if t.Shell == "" {
		t.Shell = DefaultShell
	}
	if err := validateShell(t.Shell); err != nil {
		return Target{}, err
	}
	t.Mode = entry.Mode
	t.Agent = entry.Agent
	t.AgentPath = entry.AgentPath
	t.Groups = slices.Clone(entry.Groups)
	t.Tags = slices.Clone(entry.Tags)

	jump := entry.ProxyJump
	if jump == "" {
		jump = r.get(alias, "ProxyJump")
	}
	if jump != "" && jump != "none" {
		hops, err := r.jumps(jump, depth)
		if err != nil {
			return Target{}, err
		}
		t.Jump = hops
	}
	return t, nil
}

// jumps resolves a ProxyJump chain. As in OpenSSH, the first hop's own
// ProxyJump applies; later hops are reached through the chain instead.
func (r *resolver) jumps(spec string, depth int) ([]Target, error) {
	var out []Target
	for i, hop := range strings.Split(spec, ",") {
		user, host, port, err := parseHop(strings.TrimSpace(hop))
		if err != nil {
			return nil, fmt.Errorf("ProxyJump %q: %w", hop, err)
		}
		var entry *HostEntry
		if e, ok := r.entries[host]; ok {
			entry = &e
		}
		t, err := r.resolve(host, entry, depth+1)
		if err != nil {
			return nil, fmt.Errorf("ProxyJump %q: %w", hop, err)
		}
		if user != "" {
			t.User = user
		}
		if port != 0 {
			t.Port = port
		}
		if i == 0 {
			out = append(out, t.Jump...)
		}
		t.Jump = nil
		out = append(out, t)
	}
	return out, nil
}

// parseHop splits one ProxyJump hop: [user@]host[:port] or
// ssh://[user@]host[:port].
func parseHop(hop string) (user, host string, port int, err error) {
	hop = strings.TrimPrefix(hop, "ssh://")
	if i := strings.LastIndexByte(hop, '@'); i >= 0 {
		user, hop = hop[:i], hop[i+1:]
		if err := ValidateUser(user); err != nil {
			return "", "", 0, err
		}
	}
	host = hop
	if h, p, splitErr := net.SplitHostPort(hop); splitErr == nil {
		n, convErr := strconv.Atoi(p)
		if convErr != nil || n < 1 || n > 65535 {
			return "", "", 0, fmt.Errorf("port %q out of range", p)
		}
		host, port = h, n
	}
	if err := ValidateHost(host); err != nil {
		return "", "", 0, err
	}
	return user, host, port, nil
}

func validateShell(shell string) error {
	if !strings.HasPrefix(shell, "/") {
		return fmt.Errorf("shell %q: want an absolute path", shell)
	}
	for _, r := range shell {
		if !(r < 0x80 && (r == '/' || r == '.' || r == '_' || r == '-' || r == '+' ||
			(r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9'))) {
			return fmt.Errorf("shell %q: contains %s: %w", printable(shell), describeRune(r), ErrInvalidName)
		}
	}
	return nil
}

// tokens are the ssh_config percent tokens sshpool expands in paths.
func (r *resolver) tokens(alias string, t Target) map[byte]string {
	return map[byte]string{
		'd': r.opts.HomeDir,
		'u': r.opts.LocalUser,
		'h': t.Host,
		'n': alias,
		'p': strconv.Itoa(t.Port),
		'r': t.User,
		'%': "%",
	}
}

// expandPath expands a leading "~" and percent tokens in an ssh_config
// path; an unknown token is an error rather than a literal.
func expandPath(p string, tokens map[byte]string) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		p = tokens['d'] + p[1:]
	}
	if !strings.Contains(p, "%") {
		return p, nil
	}
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		if p[i] != '%' {
			b.WriteByte(p[i])
			continue
		}
		if i+1 >= len(p) {
			return "", fmt.Errorf("%q ends in a lone %%", p)
		}
		v, ok := tokens[p[i+1]]
		if !ok {
			return "", fmt.Errorf("%q: token %%%c not supported", p, p[i+1])
		}
		b.WriteString(v)
		i++
	}
	return b.String(), nil
}
