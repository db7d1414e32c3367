package server

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/tools/operator"
)

// newConfiner builds the kernel confinement of local programs: warden's
// own paths out of every child's reach, the SSH keys of hostsCfg's
// inventory out of reads' reach, the staged scripts readable, and the
// operator's confine block for approved programs. With confinement
// required it fails when the kernel cannot hold it; with auto it warns.
func newConfiner(cfg *config.Config, o Options, hostsCfg *atomic.Pointer[config.Config]) (*confine.Confiner, error) {
	approved := confineProfile(cfg.Confine.Writable, cfg.Confine.Network)
	tools := map[string]confine.Profile{}
	for name, t := range cfg.Confine.Tools {
		tools[name] = confineProfile(t.Writable, t.Network)
	}
	enter := 0
	if cfg.HostNamespace == "pid1" {
		enter = 1
	}
	c, err := confine.New(confine.Options{
		Enter:   enter,
		Protect: ownPaths(cfg, o.ConfigPath),
		// Rotated audit files beside an audit log kept outside the state
		// dir, and copies of the config, token and key files beside them.
		Protected: func() []string {
			files, _ := audit.Files(cfg.Audit.Path)
			return append(files, secretCopies(cfg, o.ConfigPath)...)
		},
		Growing:  growingDirs(cfg),
		Private:  func() []string { return privateKeys(hostsCfg.Load(), o) },
		Approved: approved,
		Tools:    tools,
		Logger:   o.Logger,
	}, confine.Requirement(cfg.Confinement))
	if err != nil {
		return nil, err
	}
	st := c.Status()
	if !st.Active {
		o.Logger.Warn("local programs run UNCONFINED: only the command classifier stands between a call and the machine; set confinement: required to refuse to serve instead", "reason", st.Mechanism)
	} else {
		o.Logger.Info("local programs confined", "mechanism", st.Mechanism, "gaps", st.Gaps)
	}
	return c, nil
}

func confineProfile(writable []string, network *bool) confine.Profile {
	return confine.Profile{Writable: writable, NoNetwork: network != nil && !*network}
}

// ownPaths are warden's own files: state dir (token, audit log,
// recordings, approvals), audit log, config file, token and key files,
// the client keys warden presents to its audit collectors (a child
// holding one could send records as warden), and the declarative tool
// files and directories, configuration like the config file that may hold
// what the operator gave a tool (run.env NAME=VALUE, a key).
func ownPaths(cfg *config.Config, configPath string) []string {
	var out []string
	paths := slices.Concat([]string{cfg.StateDir, cfg.Audit.Path}, secretFiles(cfg, configPath), cfg.Tools)
	for _, p := range paths {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		out = append(out, p)
	}
	return out
}

// sandboxHidden is what the declarative tools' sandbox runners keep out of
// their sandboxes: what the kernel confinement keeps from every other
// child — warden's own paths, the copies of its secret files, the audit
// log's rotated files and the SSH keys warden logs in with — since those
// runners run outside it.
func sandboxHidden(cfg *config.Config, o Options) []string {
	out := append(ownPaths(cfg, o.ConfigPath), secretCopies(cfg, o.ConfigPath)...)
	if files, err := audit.Files(cfg.Audit.Path); err == nil {
		out = append(out, files...)
	}
	return append(out, privateKeys(cfg, o)...)
}

// growingDirs are the directories outside the state dir that warden adds
// its own files to: the audit log's, where rotation creates files.
func growingDirs(cfg *config.Config) []string {
	if cfg.Audit.Path == "" {
		return nil
	}
	dir, err := filepath.Abs(filepath.Dir(cfg.Audit.Path))
	state, serr := filepath.Abs(cfg.StateDir)
	if err != nil || serr != nil || dir == state || strings.HasPrefix(dir, state+"/") {
		return nil
	}
	return []string{dir}
}

// privateKeys are the SSH private keys warden may authenticate with that
// exist: each inventory host's identity files (its jump hosts' too) and
// ssh's default keys in ~/.ssh, which warden offers when nothing names
// one, the copies of each beside it (keyCopies), and the ssh-agent socket
// warden uses. Code a read runs unseen (a repository's hook) could
// otherwise take a key, or have the agent sign, and log in to any of
// warden's hosts past its policy.
func privateKeys(cfg *config.Config, o Options) []string {
	var keys []string
	if home := o.Getenv("HOME"); home != "" && home != "/" {
		for _, n := range []string{"id_ed25519", "id_ecdsa", "id_rsa", "id_ed25519_sk", "id_ecdsa_sk", "id_dsa"} {
			keys = append(keys, filepath.Join(home, ".ssh", n))
		}
	}
	// An inventory that does not resolve fails the server's start later,
	// with its own error.
	if inv, err := newInventory(cfg, o); err == nil {
		for _, l := range inv.List() {
			if l.Target == nil {
				continue
			}
			keys = append(keys, l.Target.IdentityFiles...)
			for _, j := range l.Target.Jump {
				keys = append(keys, j.IdentityFiles...)
			}
		}
	}
	var out []string
	for _, k := range keys {
		if fi, err := os.Stat(k); err == nil && fi.Mode().IsRegular() {
			out = append(out, k)
			out = append(out, keyCopies(k)...)
		}
	}
	if sock := o.Getenv("SSH_AUTH_SOCK"); filepath.IsAbs(sock) {
		if fi, err := os.Stat(sock); err == nil && fi.Mode().Type() == os.ModeSocket {
			out = append(out, sock)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// keyCopies are the copies of private key k beside it (besidePatterns):
// id_ed25519.bak, id_rsa~, old_id_rsa hold the key. Public keys and
// certificates (.pub) hold nothing secret and stay readable.
func keyCopies(k string) []string {
	var out []string
	for _, pat := range besidePatterns(k) {
		found, _ := filepath.Glob(pat)
		for _, f := range found {
			if fi, err := os.Stat(f); err == nil && fi.Mode().IsRegular() && !strings.HasSuffix(f, ".pub") && f != k {
				out = append(out, f)
			}
		}
	}
	return out
}

// fileOwnPaths are the paths the file tools refuse: warden's own (see
// ownPaths) and what warden runs or trusts that its children may still
// need to read, so the kernel does not hide it from them: the script
// staging dir (a body swapped there before the interpreter opens it would
// run unclassified), warden's executable (re-executed as the landlock
// helper and uploaded as the remote agent), the agent builds, the SSH
// identity, known_hosts and ssh_config files, and the appliance pack
// files (policy read at the next reload).
func fileOwnPaths(cfg *config.Config, o Options) []string {
	paths := append(ownPaths(cfg, o.ConfigPath), scriptDir(cfg), cfg.Agent.Builds, cfg.SSH.KnownHosts)
	if exe, err := os.Executable(); err == nil {
		paths = append(paths, exe)
	}
	if c := cfg.SSH.Config; c != "none" {
		paths = append(paths, c)
	}
	if home := o.Getenv("HOME"); home != "" && home != "/" {
		if cfg.SSH.Config == "" {
			paths = append(paths, filepath.Join(home, ".ssh", "config"))
		}
		if cfg.SSH.KnownHosts == "" {
			paths = append(paths, filepath.Join(home, ".ssh", "known_hosts"))
		}
	}
	for _, h := range cfg.Hosts {
		paths = append(paths, h.KnownHosts)
		paths = append(paths, h.IdentityFiles...)
	}
	paths = append(paths, cfg.Packs.Files...)
	var out []string
	home := o.Getenv("HOME")
	for _, p := range paths {
		switch {
		case p == "":
			continue
		case strings.HasPrefix(p, "~/") && home != "":
			p = filepath.Join(home, p[2:])
		case strings.HasPrefix(p, "~"):
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			out = append(out, abs)
		}
	}
	return out
}

// enteredOwnPaths adds to own (warden's paths in its own mount namespace)
// where PID 1's namespaces hold them, when warden works there
// (host_namespace: pid1): the file and snapshot tools read the host's tree
// as warden itself, and a state dir on a volume is the host's
// /var/lib/docker/volumes/…/_data there, which the kernel masks for every
// program and these tools must refuse too.
func enteredOwnPaths(cfg *config.Config, o Options, own []string) []string {
	if cfg.HostNamespace != "pid1" {
		return own
	}
	found, err := confine.HostPaths(1, own)
	if err != nil {
		o.Logger.Warn("cannot find warden's files in PID 1's namespaces; the file tools refuse them only by their own paths", "err", err)
		return own
	}
	out := append([]string(nil), own...)
	for _, p := range found {
		if p != "/" {
			out = append(out, p)
		}
	}
	return out
}

// enteredOwnPatterns is enteredOwnPaths for the patterns of ownPatterns:
// each pattern's directory where PID 1's namespaces hold it.
func enteredOwnPatterns(cfg *config.Config, o Options, pats []string) []string {
	if cfg.HostNamespace != "pid1" {
		return pats
	}
	out := append([]string(nil), pats...)
	for _, p := range pats {
		found, err := confine.HostPaths(1, []string{filepath.Dir(p)})
		if err != nil {
			continue // enteredOwnPaths has said so
		}
		for _, d := range found {
			if d != "/" {
				out = append(out, filepath.Join(d, filepath.Base(p)))
			}
		}
	}
	return out
}

// ownPatterns are warden's own files named by pattern: the copies of its
// secret files beside them (copyPatterns), and the audit log's head, lock
// and rotated files beside it, which lie outside the state dir when
// audit.path does. Each is given as configured and, when the log's
// directory is reached through a symlink, resolved.
func ownPatterns(cfg *config.Config, configPath string) []string {
	out := copyPatterns(cfg, configPath)
	if cfg.Audit.Path == "" {
		return out
	}
	p, err := filepath.Abs(cfg.Audit.Path)
	if err != nil {
		p = cfg.Audit.Path
	}
	out = append(out, audit.OwnPatterns(p)...)
	if dir, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil && dir != filepath.Dir(p) {
		out = append(out, audit.OwnPatterns(filepath.Join(dir, filepath.Base(p)))...)
	}
	return out
}

// secretFiles are warden's own files that hold secrets: the config file,
// the token file, the audit key, the TLS key and the audit collectors'
// client keys.
func secretFiles(cfg *config.Config, configPath string) []string {
	files := []string{configPath, cfg.HTTP.TokenFile, cfg.Audit.KeyFile, cfg.HTTP.TLSKeyFile}
	for _, e := range cfg.Audit.Export {
		files = append(files, e.KeyFile)
	}
	return files
}

// copyPatterns name the copies of warden's secret files and its
// declarative tool files (which may hold what the operator gave a tool)
// beside them (besidePatterns).
func copyPatterns(cfg *config.Config, configPath string) []string {
	var out []string
	for _, f := range slices.Concat(secretFiles(cfg, configPath), cfg.Tools) {
		out = append(out, besidePatterns(f)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// besidePatterns name the copies of file f, which hold what it holds:
// every name in its directory that contains its own — editors' backups
// and swap files (warden.yaml~, .warden.yaml.swp, #warden.yaml#), an
// operator's copies (tls.key.bak, warden.yaml.2026-12-01,
// old-warden.yaml), a package manager's (warden.yaml.dpkg-old) — beside
// the file as named and, when it or its directory is a symlink, beside
// the file it resolves to. The file itself matches too.
func besidePatterns(f string) []string {
	if f == "" {
		return nil
	}
	p, err := filepath.Abs(f)
	if err != nil {
		return nil
	}
	var out []string
	names := []string{p}
	if r, err := filepath.EvalSymlinks(p); err == nil && r != p {
		names = append(names, r)
	}
	for _, n := range names {
		dirs := []string{filepath.Dir(n)}
		if d, err := filepath.EvalSymlinks(dirs[0]); err == nil && d != dirs[0] {
			dirs = append(dirs, d)
		}
		for _, d := range dirs {
			out = append(out, filepath.Join(policy.EscapeGlob(d), "*"+policy.EscapeGlob(filepath.Base(n))+"*"))
		}
	}
	return out
}

// secretCopies are the files and directories copyPatterns name as they
// are now.
func secretCopies(cfg *config.Config, configPath string) []string {
	var out []string
	for _, pat := range copyPatterns(cfg, configPath) {
		found, _ := filepath.Glob(pat)
		out = append(out, found...)
	}
	return out
}

// scriptDir is where run_script stages script bodies for the interpreter
// to read, and sandbox runners their profiles for their program: beside
// the state dir, since no child may read inside it, and outside the
// temporary directories, which benign calls may write.
func scriptDir(cfg *config.Config) string {
	return filepath.Join(filepath.Dir(cfg.StateDir), filepath.Base(cfg.StateDir)+"-scripts")
}

// confinementInfo is server_info's account of st.
func confinementInfo(st confine.Status, cfg *config.Config) operator.Confinement {
	ci := operator.Confinement{Mechanism: st.Mechanism, Active: st.Active, Required: cfg.Confinement == string(confine.Required), Gaps: append([]string(nil), st.Gaps...)}
	if cfg.HostNamespace == "pid1" && !st.Active {
		ci.Gaps = append(ci.Gaps, "everything on local runs entered into PID 1's namespaces (host_namespace: pid1): commands, sessions and host tools there are held by the classifier only")
	}
	if !st.Active {
		ci.Warning = fmt.Sprintf("local programs run unconfined (%s): only the command classifier holds what a call was admitted as", st.Mechanism)
	}
	return ci
}

// inspectRunner runs the typed probes warden builds itself (host tools,
// snapshot sources): a call admitted as a read runs them at
// confine.Inspect, read-only but keeping the capabilities inspection needs.
type inspectRunner struct{ runner.Runner }

func (r inspectRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if a, _ := confine.From(ctx); a.Level == confine.Read {
		ctx = confine.WithLevel(ctx, confine.Inspect)
	}
	return r.Runner.Run(ctx, req)
}
