// Package server assembles a warden MCP server from a validated Config:
// the policy, the audit log, the relay, the runners and every tool group.
// cmd/warden calls it for serve and exe; end-to-end tests drive the binary.
package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/declare"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/tools/exec"
	"github.com/warden-mcp/warden/internal/tools/files"
	"github.com/warden-mcp/warden/internal/tools/fleet"
	"github.com/warden-mcp/warden/internal/tools/host"
	"github.com/warden-mcp/warden/internal/tools/operator"
	"github.com/warden-mcp/warden/internal/tools/sessions"
	snapshottools "github.com/warden-mcp/warden/internal/tools/snapshot"
)

// Options are what the assembly needs besides the Config.
type Options struct {
	Config    *config.Config
	Version   string
	Transport string
	// Getenv reads warden's own environment, for pass-through variables,
	// HOME and LANG; only cmd/ passes os.Getenv.
	Getenv func(string) string
	// ConfigPath is the file the config came from, if any; commands that
	// name it are denied like warden's state.
	ConfigPath    string
	LocalIdentity string
	Logger        *slog.Logger
	Now           func() time.Time
}

// Warden is an assembled server.
type Warden struct {
	MCP      *mcp.Server
	Relay    *relay.Relay
	audit    *audit.Log
	exports  *exporters
	sessions *session.Registry
	hosts    *hosts.Set
	ssh      *sshhost.Provider
	groups   *fleetGroups
	fleet    *fleet.Fleet
	console  *operatorConsole
	packs    *appliancePacks
	stop     context.CancelFunc
	// opts are kept for reloads, which rebuild the inventory, and conf
	// for the policy rules, which say whether the kernel holds warden's
	// paths.
	opts Options
	conf *confine.Confiner
	// hostsCfg is the config whose inventory names the SSH keys kept from
	// reads (privateKeys); reloads replace it.
	hostsCfg *atomic.Pointer[config.Config]
	// digest is the config digest server_info reports; reloads change it.
	digest *atomic.Pointer[string]
	// started is when warden started: the classifier reads the local
	// scripts changed since, across reloads.
	started time.Time
}

// stateDirWait bounds how long startup waits on the state dir to answer.
const stateDirWait = 10 * time.Second

// makeStateDir makes the state dir, or says it does not answer: one on a
// share whose server is gone (a hard NFS mount) would otherwise hold
// startup forever with nothing said.
func makeStateDir(dir string) error {
	return runner.Answers(context.Background(), nil, "state dir "+dir, stateDirWait, func() error {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return fmt.Errorf("state dir: %w", err)
		}
		return nil
	})
}

// New assembles warden. The caller owns Close.
func New(o Options) (*Warden, error) {
	cfg := o.Config
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Getenv == nil {
		o.Getenv = func(string) string { return "" }
	}
	if err := makeStateDir(cfg.StateDir); err != nil {
		return nil, err
	}
	hostsCfg := new(atomic.Pointer[config.Config])
	hostsCfg.Store(cfg)
	conf, err := newConfiner(cfg, o, hostsCfg)
	if err != nil {
		return nil, err
	}
	started := time.Now()
	pol, err := policy.New(policyRules(cfg, o.ConfigPath, o.Getenv, conf, started))
	if err != nil {
		return nil, fmt.Errorf("policy: %w", err)
	}
	if dir, _ := os.Getwd(); policy.TemporaryDir(dir) {
		o.Logger.Warn("started in a temporary directory: local programs warden does not know, and those that read their directory's code or configuration, are tier 3 there (approval; refused in readonly); start warden elsewhere, or give calls a cwd", "dir", dir)
	}
	var key []byte
	if cfg.Audit.KeyFile != "" {
		if key, err = os.ReadFile(cfg.Audit.KeyFile); err != nil {
			return nil, fmt.Errorf("audit key: %w", err)
		}
	}
	node := cfg.Audit.Node
	if node == "" {
		node, _ = os.Hostname()
	}
	exports, err := newExporters(cfg, o, node)
	if err != nil {
		return nil, err
	}
	log, err := audit.Open(audit.Options{
		Sinks:       exports.sinks(),
		Path:        cfg.Audit.Path,
		RotateBytes: cfg.Audit.RotateBytes,
		Keep:        audit.Keep{Files: cfg.Audit.Keep.Files, MaxAge: cfg.Audit.Keep.MaxAge.D()},
		Sync:        audit.SyncMode(cfg.Audit.Sync),
		Key:         key,
		Node:        node,
		Now:         o.Now,
		Logger:      o.Logger,
	})
	if err != nil {
		return nil, fmt.Errorf("audit log: %w", err)
	}
	exports.start()
	closeAudit := func() {
		log.Close()
		exports.stop()
	}
	mode, _ := policy.ParseMode(cfg.Mode)
	toolModes := map[string]policy.Mode{}
	for name, m := range cfg.Policy.ToolModes {
		toolModes[name], _ = policy.ParseMode(m)
	}
	approval := approvalMechanisms(cfg)
	// One bound for every look at files that may be left waiting on a
	// mount that does not answer (see runner.Looks), and one for
	// classifications: a command that looks no file up (umount -l of
	// that mount) is still classified and run when the looks are all
	// waiting.
	looks := runner.NewLooks(cfg.Exec.MaxWaitingLooks)
	classifyLooks := runner.NewLooks(cfg.Exec.MaxWaitingLooks)
	localRunner := local.New(local.Options{Logger: o.Logger, Confine: conf, Looks: looks})
	// Sandbox runners and the programs that enter other namespaces bring
	// their own confinement and need what the kernel confinement takes.
	bareRunner := local.New(local.Options{Logger: o.Logger, Looks: looks})
	hs, ssh, agents, err := newHosts(cfg, o, localhost.Options{
		Runner:      localRunner,
		Inspect:     inspectRunner{localRunner},
		Bare:        bareRunner,
		Env:         baseEnv(cfg, o.Getenv),
		Confinement: conf.Status().Mechanism,
		Path:        cfg.Exec.Path,
		// With host_namespace: pid1 the confiner joins PID 1's namespaces
		// itself, so the entered host is held by the kernel too.
		Entered:  cfg.HostNamespace == "pid1" && conf.Status().Active,
		Sessions: &session.Local{Confine: conf, Logger: o.Logger, Looks: looks},
		Looks:    looks,
	})
	if err != nil {
		closeAudit()
		return nil, err
	}
	ap, err := newPacks(cfg, o, pol)
	if err != nil {
		closeAudit()
		return nil, err
	}
	digest := &atomic.Pointer[string]{}
	d := cfg.Digest()
	digest.Store(&d)
	srv := mcp.NewServer(&mcp.Implementation{Name: "warden", Title: "warden", Version: o.Version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       o.Logger,
		// Declared up front: the SDK answers prompts/list and
		// resources/list even before any are registered, and a server
		// must declare what it answers.
		Capabilities: &mcp.ServerCapabilities{
			Tools:     &mcp.ToolCapabilities{ListChanged: true},
			Prompts:   &mcp.PromptCapabilities{ListChanged: true},
			Resources: &mcp.ResourceCapabilities{ListChanged: true},
		},
	})
	r := relay.New(srv, relay.Options{
		Policy:              ap.guard,
		Audit:               log,
		Mode:                mode,
		ToolModes:           toolModes,
		HostMode:            hs.Mode,
		HostRoot:            hs.Root,
		HostShell:           hs.Shell,
		Approval:            approval,
		TokenTTL:            cfg.Approval.TokenTTL.D(),
		RefuseWhenAuditDown: cfg.Audit.OnFailure == "refuse",
		MaxArgBytes:         cfg.Audit.MaxArgBytes,
		ClassifyTimeout:     cfg.Policy.ClassifyTimeout.D(),
		Looks:               classifyLooks,
		// A call waits on the audit log as on a file system that does
		// not answer, 10 s at most.
		AuditWait:     min(cfg.Exec.DefaultTimeout.D(), relay.DefaultAuditWait),
		AllowedUsers:  cfg.HTTP.AllowedUsers,
		LocalIdentity: o.LocalIdentity,
		Off:           cfg.DisableTools,
		Now:           o.Now,
		Logger:        o.Logger,
	})
	limits := exec.Limits{
		DefaultTimeout:  cfg.Exec.DefaultTimeout.D(),
		MaxTimeout:      cfg.Exec.MaxTimeout.D(),
		DefaultMaxBytes: cfg.Exec.DefaultMaxBytes,
		MaxBytes:        cfg.Exec.MaxBytes,
		MaxStdinBytes:   cfg.Exec.MaxStdinBytes,
	}
	exec.Register(r, exec.Deps{
		Limits:    limits,
		Env:       baseEnv(cfg, o.Getenv),
		ScriptDir: scriptDir(cfg),
		Hosts:     hs.Resolve,
	})
	snapReach := snapshottools.NewReacher()
	operator.Register(r, operator.Deps{
		Version:   o.Version,
		Transport: o.Transport,
		Started:   o.Now(),
		Now:       o.Now,
		Limits: operator.Limits{
			DefaultTimeoutS: int(limits.DefaultTimeout / time.Second),
			MaxTimeoutS:     int(limits.MaxTimeout / time.Second),
			DefaultMaxBytes: limits.DefaultMaxBytes,
			MaxBytes:        limits.MaxBytes,
			MaxStdinBytes:   limits.MaxStdinBytes,
			MaxBodyBytes:    cfg.HTTP.MaxBodyBytes,
		},
		AuditFiles:      func() ([]string, error) { return audit.Files(cfg.Audit.Path) },
		Confinement:     confinementInfo(conf.Status(), cfg),
		ConfigDigest:    func() string { return *digest.Load() },
		Node:            node,
		AuditExports:    exports.stats,
		SnapshotSources: snapReach.Report,
		Agents:          agents,
		WaitingLooks: func() operator.WaitingLooks {
			return operator.WaitingLooks{Files: looks.Waiting(), Classifications: classifyLooks.Waiting(), Max: cfg.Exec.MaxWaitingLooks}
		},
	})
	// --- snapshot forensics tools (internal/tools/snapshot) ---
	// Registered even with no snapshots: configured, so the agent can find
	// them; sources on inventory hosts are read over the shared SSH pool.
	snapPaths, err := snapshotPaths(cfg, o)
	if err != nil {
		closeAudit()
		return nil, err
	}
	snapHostPaths, snapRemoteDefault, err := remotePaths(cfg, o)
	if err != nil {
		closeAudit()
		return nil, err
	}
	if err := snapshottools.Register(r, snapshottools.Deps{
		Sources: snapshottools.SourcesFrom(cfg.Snapshot),
		Hosts:   hs.Snapshots,
		Paths:   snapPaths,
		Reach:   snapReach,
		// Copies onto inventory hosts, and onto PID 1's tree under
		// host_namespace: pid1, go through the host's files.
		Resolve: hs.Resolve,
		HostPaths: func(name string) *policy.PathPolicy {
			if pp := snapHostPaths[name]; pp != nil {
				return pp
			}
			return snapRemoteDefault
		},
		LocalEntered: cfg.HostNamespace == "pid1",
		Looks:        looks,
		Now:          o.Now,
		Logger:       o.Logger,
	}); err != nil {
		closeAudit()
		return nil, err
	}
	// --- end snapshot forensics tools ---
	// --- declarative tools (internal/declare; owned by the declare work) ---
	if len(cfg.Tools) > 0 {
		set, err := declare.LoadPaths(cfg.Tools)
		if err != nil {
			closeAudit()
			return nil, fmt.Errorf("declarative tools: %w", err)
		}
		for _, w := range set.Warnings {
			o.Logger.Warn("declarative tools", "warning", w)
		}
		declare.Register(r, set, declare.Deps{
			Limits:         limits,
			Env:            baseEnv(cfg, o.Getenv),
			Getenv:         o.Getenv,
			TemplateEnv:    cfg.Exec.EnvPassthrough,
			Local:          localRunner,
			Sandbox:        bareRunner,
			Looks:          looks,
			Hide:           func() []string { return sandboxHidden(cfg, o) },
			Path:           cfg.Exec.Path,
			LandlockHelper: declare.LandlockHelper(),
			DockerHost:     o.Getenv("DOCKER_HOST"),
			ProfileDir:     scriptDir(cfg),
			Logger:         o.Logger,
		})
	}
	// --- end declarative tools ---
	// --- host inspection, host mutation and file tools (internal/tools/host, internal/tools/files) ---
	if err := registerHostTools(r, cfg, o, hs, looks); err != nil {
		closeAudit()
		return nil, err
	}
	// --- end host and file tools ---
	// --- appliance packs (internal/tools/packs) ---
	ap.register(r, hs)
	// --- end appliance packs ---
	// --- interactive sessions (internal/tools/sessions) ---
	reg := session.NewRegistry(session.Options{
		MaxSessions:       cfg.Sessions.Max,
		RingBytes:         cfg.Sessions.RingBytes,
		IdleTimeout:       cfg.Sessions.IdleTimeout.D(),
		MaxLifetime:       cfg.Sessions.MaxLifetime.D(),
		RecordDir:         filepath.Join(cfg.StateDir, "recordings"),
		MaxRecordingBytes: cfg.Sessions.MaxRecordingBytes,
		RecordWait:        min(cfg.Exec.DefaultTimeout.D(), session.DefaultRecordWait),
		Confine:           conf,
		Looks:             looks,
		Now:               o.Now,
		Logger:            o.Logger,
		OnEnd: func(ci session.CloseInfo, reason string) {
			// A session warden ends itself leaves the same record of its
			// recording as one the agent closes.
			if err := r.Record(context.Background(), audit.Record{
				Tool: "session_end", Identity: ci.Owner, Host: "local", Tier: int(policy.TierBenign),
				Decision: string(policy.Allow), Status: "ok", Reason: "session ended: " + reason,
				ExitCode: ci.ExitCode,
				Extra: map[string]any{
					"session_id": ci.ID, "recording": ci.Recording,
					"recording_bytes": ci.RecordingBytes, "recording_sha256": ci.RecordingSHA256,
				},
			}); err != nil {
				o.Logger.Error("audit write failed", "tool", "session_end", "err", err)
			}
		},
	})
	sweep, stop := context.WithCancel(context.Background())
	go reg.Run(sweep)
	sessions.Register(r, sessions.Deps{
		Registry: reg,
		Env:      baseEnv(cfg, o.Getenv),
		Shell:    loginShell(o.Getenv),
		Hosts:    hs.Resolve,
	})
	// --- end interactive sessions ---
	// --- operator console (internal/console, internal/approvals) ---
	oc, err := startConsole(r, cfg, o, reg, log)
	if err != nil {
		stop()
		closeAudit()
		return nil, err
	}
	// --- end operator console ---
	// --- fleet tools (internal/tools/fleet) ---
	fl, groups, err := registerFleet(r, cfg, o, hs, ssh, limits, ap.detected)
	if err != nil {
		oc.close()
		stop()
		closeAudit()
		return nil, err
	}
	// --- end fleet tools ---
	if err := checkSwitchedOff(cfg.DisableTools, r.SwitchedOff()); err != nil {
		fl.Close()
		oc.close()
		stop()
		closeAudit()
		return nil, err
	}
	return &Warden{MCP: srv, Relay: r, audit: log, exports: exports, sessions: reg, hosts: hs, ssh: ssh, groups: groups, fleet: fl, console: oc, packs: ap, stop: stop, opts: o, conf: conf, hostsCfg: hostsCfg, digest: digest, started: started}, nil
}

// checkSwitchedOff refuses a disable_tools name that matched no tool: a
// typo must not leave on a tool the operator meant to switch off.
func checkSwitchedOff(want, off []string) error {
	got := map[string]bool{}
	for _, n := range off {
		got[n] = true
	}
	var bad []string
	for _, n := range want {
		if !got[n] {
			bad = append(bad, n)
		}
	}
	if len(bad) > 0 {
		return fmt.Errorf("disable_tools: %s: no such tool (warden tools lists them)", strings.Join(bad, ", "))
	}
	return nil
}

// Close ends every session (killing what they run) and closes the audit log.
func (w *Warden) Close() error {
	w.console.close()
	w.stop()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	err := w.sessions.Shutdown(ctx)
	err = errors.Join(err, w.fleet.Close(), w.hosts.Close(), w.audit.Close())
	w.exports.stop()
	return err
}

// remoteEnv is the base environment for a remote host: warden's own HOME
// means nothing there, so the remote login's is kept.
func remoteEnv(base []string) []string {
	env := make([]string, 0, len(base))
	for _, kv := range base {
		if !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return env
}

// loginShell is the shell a session runs when given no command: warden's
// user's SHELL when it is an absolute path to a shell of the sh family,
// whose lines the session's policy reads as that shell will. Another
// shell (zsh, fish, csh, …) reads typed lines in a language warden does
// not classify, which would hold every line of every session for approval,
// so sessions then run /bin/bash where there is one, else /bin/sh; an agent
// that wants it anyway names it as the session's command.
func loginShell(getenv func(string) string) string {
	sh := getenv("SHELL")
	if filepath.IsAbs(sh) && policy.ShellLanguage(filepath.Base(sh)) {
		return sh
	}
	if sh != "" {
		if _, err := os.Stat("/bin/bash"); err == nil {
			return "/bin/bash"
		}
	}
	return "/bin/sh"
}

// policyRules are the classifier's rules: the operator's, with warden's own
// paths (state dir, audit log, config, token and key files) denied as text
// by selfDeny and, in every spelling a shell resolves, by Protect, which
// names the copies beside the config, token and key files too. Home and
// the working directory are those of the local commands warden starts.
// The kernel holds those paths when conf is active, in warden's own
// namespaces or, with host_namespace: pid1, in PID 1's. Local scripts
// changed since warden started are read (policy.Rules.Since).
func policyRules(cfg *config.Config, configPath string, getenv func(string) string, conf *confine.Confiner, started time.Time) policy.Rules {
	dir, _ := os.Getwd()
	return policy.Rules{Deny: selfDeny(cfg, configPath), Allow: cfg.Policy.Allow, DenyHosts: cfg.Policy.DenyHosts,
		Protect: append(ownPaths(cfg, configPath), secretCopies(cfg, configPath)...), Home: getenv("HOME"), Dir: dir,
		KernelHolds: conf.Status().Active, Path: cfg.Exec.Path, Since: started}
}

// selfDeny adds to the operator's deny rules one rule per path of warden's
// own (state dir, audit log, config file), so the agent cannot rewrite its
// rules, read the bearer token or edit the audit log through a shell. It is
// a backstop over the command text; the modes are the real boundary.
func selfDeny(cfg *config.Config, configPath string) []string {
	deny := append([]string(nil), cfg.Policy.Deny...)
	for _, p := range []string{cfg.StateDir, cfg.Audit.Path, configPath} {
		if p == "" {
			continue
		}
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		deny = append(deny, regexp.QuoteMeta(p))
	}
	return deny
}

// baseEnv is the fixed environment of every child: PATH, HOME, LANG, TERM
// and the configured pass-through names — never warden's whole environment.
func baseEnv(cfg *config.Config, getenv func(string) string) []string {
	home := getenv("HOME")
	if home == "" {
		home = "/"
	}
	lang := getenv("LANG")
	if lang == "" {
		lang = "C.UTF-8"
	}
	env := []string{"PATH=" + cfg.Exec.Path, "HOME=" + home, "LANG=" + lang, "TERM=dumb"}
	for _, name := range cfg.Exec.EnvPassthrough {
		if v := getenv(name); v != "" {
			env = append(env, name+"="+v)
		}
	}
	return env
}

const instructions = `warden runs commands and inspects hosts for you under a policy.
Read-only work runs at once. Calls that change things may return status
"approval_required" with an approval_token: show the call to the user and, once
approved, re-issue the identical call with that approval_token. Others wait, with
progress, for an operator's answer: do not re-issue them. Calls with
status "denied" must not be retried in another spelling. Output is capped; see
"truncated". Use server_info to see the mode and limits, and the operating_guide
prompt for how warden works.`

// registerHostTools adds the host and file tool groups.
func registerHostTools(r *relay.Relay, cfg *config.Config, o Options, hs *hosts.Set, looks *runner.Looks) error {
	var mgmt []netip.Prefix
	for _, src := range cfg.Firewall.ManagementSources {
		p, err := config.ParsePrefix(src)
		if err != nil {
			return fmt.Errorf("firewall.management_sources: %q: %w", src, err)
		}
		mgmt = append(mgmt, p)
	}
	env := baseEnv(cfg, o.Getenv)
	if v := o.Getenv("DOCKER_HOST"); v != "" {
		env = append(env, "DOCKER_HOST="+v)
	}
	host.Register(r, host.Deps{
		Env:        env,
		Wait:       cfg.Exec.DefaultTimeout.D(),
		Management: mgmt,
		NFTTable:   cfg.Firewall.NFTTable,
		Hosts:      hs.Resolve,
	})
	if cfg.Files.ReplaceDefaults {
		o.Logger.Warn("files.replace_defaults: the built-in file denials (secrets, /dev, /sys) are replaced by files.deny", "deny", cfg.Files.Deny)
	}
	paths, err := policy.NewPathPolicy(policy.PathRules{
		Allow:           cfg.Files.AllowRoots,
		Deny:            cfg.Files.Deny,
		ReplaceDefaults: cfg.Files.ReplaceDefaults,
		Home:            o.Getenv("HOME"),
		Protect:         enteredOwnPaths(cfg, o, files.ProtectPaths(fileOwnPaths(cfg, o)...)),
		ProtectPatterns: enteredOwnPatterns(cfg, o, ownPatterns(cfg, o.ConfigPath)),
	})
	if err != nil {
		return fmt.Errorf("path policy: %w", err)
	}
	byHost, remoteDefault, err := remotePaths(cfg, o)
	if err != nil {
		return err
	}
	files.Register(r, files.Deps{
		Paths:  paths,
		Limits: files.Limits{Wait: cfg.Exec.DefaultTimeout.D()},
		Hosts:  hs.Resolve,
		Looks:  looks,
		HostPaths: func(name string) *policy.PathPolicy {
			if pp := byHost[name]; pp != nil {
				return pp
			}
			return remoteDefault
		},
	})
	return nil
}
