package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/runner/landlock"
	"github.com/warden-mcp/warden/internal/server"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// A finding is one line of warden doctor: a status, what was checked,
// what was found, and what it means or what to do.
type finding struct {
	status  string // ok, info, warn, fail
	check   string
	found   string
	explain []string
}

type doctorOpts struct {
	config, url, tokenFile string
	hostTimeout            time.Duration
}

func doctorFlags(fs *flag.FlagSet) *doctorOpts {
	o := &doctorOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (default: WARDEN_CONFIG, else the embedded default)")
	fs.StringVar(&o.url, "url", "", "a running server's MCP `url`, e.g. http://127.0.0.1:8787/mcp: check it runs the config on disk")
	fs.StringVar(&o.tokenFile, "token-file", "", "bearer token `file` for --url (default: WARDEN_TOKEN, http.token, http.token_file, else the state dir's token)")
	fs.DurationVar(&o.hostTimeout, "host-timeout", 5*time.Second, "how long each SSH host and the server at --url may take to answer")
	return o
}

// cmdDoctor checks the machine and the configuration and explains each
// finding. It exits 1 when any check failed, 0 otherwise (warnings too).
func cmdDoctor(ctx context.Context, args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden doctor", flag.ContinueOnError)
	o := doctorFlags(fs)
	rest, code, ok := parseArgs(lookup("doctor"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "doctor", fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	if o.hostTimeout <= 0 || o.hostTimeout > time.Minute {
		usageError(stderr, "doctor", "--host-timeout must be between 1ns and 1m")
		return 2
	}
	path := configPath(o.config, getenv)
	cfg, f := doctorConfig(path, getenv)
	findings := []finding{f}
	if cfg != nil {
		findings = append(findings,
			doctorConfinement(cfg),
			doctorSandboxes(cfg, getenv),
			doctorStateDir(cfg),
			doctorToken(cfg, getenv),
			doctorAudit(cfg),
		)
		findings = append(findings, doctorHosts(ctx, cfg, getenv, o.hostTimeout)...)
		if o.url != "" {
			findings = append(findings, doctorServer(ctx, cfg, path, o, getenv))
		}
	}
	counts := map[string]int{}
	for _, f := range findings {
		counts[f.status]++
		fmt.Fprintf(stdout, "%-5s %-12s %s\n", f.status, f.check, f.found)
		for _, e := range f.explain {
			fmt.Fprintf(stdout, "%-18s %s\n", "", e)
		}
	}
	checks := "checks"
	if len(findings) == 1 {
		checks = "check"
	}
	fmt.Fprintf(stdout, "\n%d %s: %d ok, %d info, %d warnings, %d failed\n", len(findings), checks, counts["ok"], counts["info"], counts["warn"], counts["fail"])
	if counts["fail"] > 0 {
		return 1
	}
	return 0
}

// doctorConfig validates the configuration exactly as config check does.
func doctorConfig(path string, getenv env) (*config.Config, finding) {
	f := finding{status: "ok", check: "config"}
	name := path
	if name == "" {
		name = "the embedded default (no --config, no WARDEN_CONFIG)"
	}
	cfg, err := loadChecked(path, getenv, nil)
	if err == nil {
		if err = assemble(cfg, path, getenv); err != nil {
			err = config.Problems{{File: cfg.File(), Msg: err.Error()}}
		}
	}
	if err != nil {
		f.status, f.found = "fail", name+" is invalid; serve would refuse to start:"
		f.explain = strings.Split(err.Error(), "\n")
		return nil, f
	}
	f.found = fmt.Sprintf("%s is valid, as serve checks it (%s)", name, cfg.Digest())
	return cfg, f
}

func doctorConfinement(cfg *config.Config) finding {
	f := finding{check: "confinement"}
	c, err := confine.New(confine.Options{Protect: []string{cfg.StateDir}}, confine.Auto)
	if err != nil {
		f.status, f.found = "fail", err.Error()
		return f
	}
	st := c.Status()
	switch {
	case st.Active:
		f.status, f.found = "ok", st.Mechanism
		f.explain = []string{"the kernel holds what each local call was admitted as: reads cannot write, benign calls write only to temp dirs, no child reaches warden's state"}
		for _, g := range st.Gaps {
			f.explain = append(f.explain, "gap: "+g)
		}
	case cfg.Confinement == "required":
		f.status, f.found = "fail", "unavailable ("+st.Mechanism+") but confinement: required; serve refuses to start"
	default:
		f.status, f.found = "warn", "unavailable: "+strings.TrimPrefix(st.Mechanism, "none: ")
		f.explain = []string{"local programs run unconfined: only the command classifier stands between a call and the machine",
			"set confinement: required to refuse to serve instead"}
	}
	return f
}

// doctorSandboxes looks for the sandbox runners of declarative tools in
// exec.path, the PATH the tools' runners are looked up in.
func doctorSandboxes(cfg *config.Config, getenv env) finding {
	f := finding{check: "sandboxes"}
	var found, missing []string
	for _, name := range []string{"bwrap", "firejail", "docker"} {
		p, err := lookIn(name, cfg.Exec.Path)
		if err != nil {
			missing = append(missing, name)
			continue
		}
		if name == "docker" {
			p += " (" + dockerDaemon(getenv) + ")"
		}
		found = append(found, name+" "+p)
	}
	if err := landlock.Available(false); err == nil {
		found = append(found, "landlock (warden's own helper)")
	} else {
		missing = append(missing, "landlock ("+err.Error()+")")
	}
	if len(found) == 0 {
		f.status, f.found = "warn", "none found in exec.path"
		f.explain = []string{"declarative tools that need a sandbox are unavailable (warden tools says which); install bubblewrap, firejail or docker"}
	} else {
		f.status, f.found = "ok", strings.Join(found, "; ")
	}
	if len(missing) > 0 {
		f.explain = append(f.explain, "not found: "+strings.Join(missing, ", ")+" (looked in exec.path "+cfg.Exec.Path+")")
	}
	return f
}

// lookIn finds an executable in a PATH-style list.
func lookIn(name, path string) (string, error) {
	for _, dir := range filepath.SplitList(path) {
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", exec.ErrNotFound
}

// dockerDaemon says whether the docker daemon answers on its socket.
func dockerDaemon(getenv env) string {
	sock := "/var/run/docker.sock"
	if h := getenv("DOCKER_HOST"); h != "" {
		s, ok := strings.CutPrefix(h, "unix://")
		if !ok {
			return "daemon at " + h + " not checked"
		}
		sock = s
	}
	c, err := net.DialTimeout("unix", sock, 2*time.Second)
	if err != nil {
		return "daemon not reachable at " + sock
	}
	c.Close()
	return "daemon reachable"
}

func doctorStateDir(cfg *config.Config) finding {
	f := finding{check: "state dir"}
	st, err := os.Stat(cfg.StateDir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		f.status, f.found = "info", cfg.StateDir+" does not exist yet"
		f.explain = []string{"serve creates it with mode 0700 on first start"}
		return f
	case err != nil:
		f.status, f.found = "fail", err.Error()
		return f
	case !st.IsDir():
		f.status, f.found = "fail", cfg.StateDir+" is not a directory"
		return f
	}
	mode := st.Mode().Perm()
	f.found = fmt.Sprintf("%s (mode %04o)", cfg.StateDir, mode)
	if mode&0o077 != 0 {
		f.status = "fail"
		f.explain = []string{"group or others can reach the token, the audit log and recordings; run: chmod 700 " + cfg.StateDir}
		return f
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		f.status = "warn"
		f.explain = []string{fmt.Sprintf("owned by uid %d, but warden runs as uid %d", sys.Uid, os.Getuid())}
		return f
	}
	f.status = "ok"
	return f
}

func doctorToken(cfg *config.Config, getenv env) finding {
	f := finding{check: "token file"}
	if getenv("WARDEN_TOKEN") != "" || cfg.HTTP.Token != "" {
		f.status, f.found = "info", "the HTTP bearer token is configured (WARDEN_TOKEN or http.token); no file is read"
		return f
	}
	file := cfg.HTTP.TokenFile
	if file == "" {
		file = filepath.Join(cfg.StateDir, edge.TokenFile)
	}
	st, err := os.Stat(file)
	switch {
	case errors.Is(err, fs.ErrNotExist) && cfg.HTTP.TokenFile == "":
		f.status, f.found = "info", file+" does not exist yet"
		f.explain = []string{"serve --http generates it with mode 0600 on first start"}
		return f
	case err != nil:
		f.status, f.found = "fail", err.Error()
		return f
	}
	mode := st.Mode().Perm()
	f.found = fmt.Sprintf("%s (mode %04o)", file, mode)
	if mode&0o077 != 0 {
		f.status = "fail"
		f.explain = []string{"others can read the bearer token, which controls this host over HTTP; run: chmod 600 " + file}
		return f
	}
	if t, err := config.ReadTokenFile(file); err != nil || len(t) < config.MinTokenLen {
		f.status = "fail"
		f.explain = []string{fmt.Sprintf("the token must be at least %d characters", config.MinTokenLen)}
		return f
	}
	f.status = "ok"
	return f
}

func doctorAudit(cfg *config.Config) finding {
	f := finding{check: "audit log"}
	files, err := audit.Files(cfg.Audit.Path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		f.status, f.found = "fail", err.Error()
		return f
	}
	if len(files) == 0 {
		f.status, f.found = "info", cfg.Audit.Path+": no records yet"
		return f
	}
	var key []byte
	if cfg.Audit.KeyFile != "" {
		if key, err = os.ReadFile(cfg.Audit.KeyFile); err != nil {
			f.status, f.found = "fail", "audit key: "+err.Error()
			return f
		}
	}
	rep, err := audit.Verify(files, key)
	if err != nil {
		f.status, f.found = "fail", err.Error()
		return f
	}
	if p := rep.Problem; p != nil {
		f.status = "fail"
		f.found = fmt.Sprintf("%s:%d: %s: %s (%d records verified before it)", p.File, p.Line, p.Kind, p.Detail, rep.Records)
		f.explain = []string{"the log was edited, truncated or reordered after it was written; keep a copy and see docs/guide.md (the audit log)"}
		return f
	}
	f.status = "ok"
	f.found = fmt.Sprintf("%s: %d records in %d file(s), chain intact", cfg.Audit.Path, rep.Records, len(rep.Files))
	return f
}

// doctorHosts connects to every inventory host, each bounded by timeout,
// a few at a time, and reports reachability, login and host key. Host
// keys are never added, whatever host_key_policy says.
func doctorHosts(ctx context.Context, cfg *config.Config, getenv env, timeout time.Duration) []finding {
	inv, err := server.Inventory(cfg, getenv)
	if err != nil {
		return []finding{{status: "fail", check: "ssh hosts", found: err.Error()}}
	}
	list := inv.List()
	if len(list) == 0 {
		return []finding{{status: "info", check: "ssh hosts", found: "none in the inventory (hosts: in warden.yaml, or Host entries of ~/.ssh/config)"}}
	}
	pool := sshpool.New(sshpool.Options{AgentSocket: getenv("SSH_AUTH_SOCK"), ConnectTimeout: timeout, KeepAlive: -1})
	defer pool.Close()
	out := make([]finding, len(list))
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	for i, l := range list {
		out[i] = finding{check: "ssh " + l.Name}
		if l.Err != nil {
			out[i].status, out[i].found = "fail", l.Err.Error()
			continue
		}
		wg.Add(1)
		go func(f *finding, t sshpool.Target) {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			t.HostKeyPolicy = sshpool.HostKeyStrict
			cctx, cancel := context.WithTimeout(ctx, timeout+time.Second)
			defer cancel()
			*f = hostFinding(f.check, pool.Check(cctx, t))
		}(&out[i], *l.Target)
	}
	wg.Wait()
	return out
}

func hostFinding(check string, r sshpool.CheckResult) finding {
	f := finding{check: check}
	switch {
	case !r.Reachable:
		f.status, f.found = "fail", r.Addr+" not reachable"
		if r.Err != nil {
			f.explain = []string{r.Err.Error()}
		}
	case r.HostKey == sshpool.HostKeyUnknown || r.HostKey == sshpool.HostKeyChanged:
		f.status, f.found = "fail", fmt.Sprintf("%s reachable, host key %s (%s)", r.Addr, r.HostKey, r.Fingerprint)
		f.explain = []string{r.Err.Error()}
	case !r.AuthOK:
		f.status, f.found = "warn", fmt.Sprintf("%s reachable, host key %s, login refused", r.Addr, r.HostKey)
		if r.Err != nil {
			f.explain = []string{r.Err.Error()}
		}
	default:
		f.status, f.found = "ok", fmt.Sprintf("%s reachable, host key known (%s), login works", r.Addr, r.Fingerprint)
	}
	return f
}

// doctorServer asks a running server for server_info and compares the
// config digest it runs with the file on disk.
func doctorServer(ctx context.Context, cfg *config.Config, path string, o *doctorOpts, getenv env) finding {
	f := finding{check: "server"}
	token, err := doctorBearer(cfg, o, getenv)
	if err != nil {
		f.status, f.found = "fail", err.Error()
		return f
	}
	ctx, cancel := context.WithTimeout(ctx, o.hostTimeout+5*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "warden-doctor", Version: versionString()}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint:   o.url,
		HTTPClient: &http.Client{Transport: bearerAuth{token, http.DefaultTransport}, Timeout: o.hostTimeout + 5*time.Second},
		MaxRetries: -1,
	}, nil)
	if err != nil {
		f.status, f.found = "fail", "cannot connect to "+o.url+": "+err.Error()
		return f
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "server_info", Arguments: map[string]any{}})
	if err != nil {
		f.status, f.found = "fail", "server_info: "+err.Error()
		return f
	}
	var info struct {
		Version      string `json:"version"`
		ConfigDigest string `json:"config_digest"`
	}
	b, _ := json.Marshal(res.StructuredContent)
	_ = json.Unmarshal(b, &info)
	name := path
	if name == "" {
		name = "the embedded default"
	}
	switch info.ConfigDigest {
	case "":
		f.status, f.found = "warn", fmt.Sprintf("%s (warden %s) does not report its config digest", o.url, info.Version)
		f.explain = []string{"it predates warden doctor; restart it with this binary to compare"}
	case cfg.Digest():
		f.status, f.found = "ok", fmt.Sprintf("%s runs %s as on disk (%s)", o.url, name, info.ConfigDigest)
	default:
		f.status, f.found = "fail", fmt.Sprintf("%s runs another config (%s) than %s on disk (%s)", o.url, info.ConfigDigest, name, cfg.Digest())
		f.explain = []string{"the file changed since the server read it: send it SIGHUP to reload (policy rules and hosts) or restart it (every other key)"}
	}
	return f
}

// bearer adds a bearer token to every request.
type bearerAuth struct {
	token string
	base  http.RoundTripper
}

func (b bearerAuth) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

func doctorBearer(cfg *config.Config, o *doctorOpts, getenv env) (string, error) {
	file := o.tokenFile
	switch {
	case file != "":
	case getenv("WARDEN_TOKEN") != "":
		return getenv("WARDEN_TOKEN"), nil
	case cfg.HTTP.Token != "":
		return cfg.HTTP.Token, nil
	case cfg.HTTP.TokenFile != "":
		file = cfg.HTTP.TokenFile
	default:
		file = filepath.Join(cfg.StateDir, edge.TokenFile)
	}
	t, err := config.ReadTokenFile(file)
	if err != nil {
		return "", fmt.Errorf("no bearer token for --url: %w (give --token-file)", err)
	}
	return t, nil
}
