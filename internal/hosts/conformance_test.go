package hosts_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/hoststest"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/session"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
	exectools "github.com/warden-mcp/warden/internal/tools/exec"
	"github.com/warden-mcp/warden/internal/tools/files"
	"github.com/warden-mcp/warden/internal/tools/host"
	"github.com/warden-mcp/warden/internal/tools/sessions"
	snapshottools "github.com/warden-mcp/warden/internal/tools/snapshot"
)

// suiteUser logs in to the suite's SSH servers and owns the fixture there,
// so a remote login is an unprivileged user, as on a real host.
const suiteUser = "wardentest"

// kind is one host kind under test: the set that resolves it, the name it
// is called by, and what only that host shows (its host name, the marker
// file in its fixture).
type kind struct {
	set      *hosts.Set
	name     string
	hostname string
	marker   string
	dir      string // the fixture directory as the host sees it
	ssh      *sshhost.Provider
}

// hostKinds are the kinds of host the conformance suites run on, each
// set up on this machine: itself, the container shape, OpenSSH with
// SFTP, OpenSSH through warden's agent, and dropbear without SFTP.
var hostKinds = []struct {
	name  string
	setup func(t *testing.T) kind
}{
	{"local", setupLocal},
	{"entered", setupEntered},
	{"openssh", func(t *testing.T) kind { return setupSSH(t, sshd.Start(t, sshd.Options{User: suiteUser})) }},
	{"agent", func(t *testing.T) kind { return setupAgent(t, sshd.Start(t, sshd.Options{User: suiteUser})) }},
	{"dropbear", func(t *testing.T) kind {
		return setupSSH(t, sshd.StartDropbear(t, sshd.DropbearOptions{User: suiteUser}))
	}},
}

// TestHostConformance runs one suite against every kind of host — this
// machine, this machine's "host" entered into fresh UTS, mount and PID
// namespaces (the container shape), OpenSSH with SFTP, OpenSSH through
// warden's agent on the far side, and dropbear with a
// BusyBox shell and no SFTP — through the real tool groups, each reaching
// its host only through the Set's one Resolve: run_command, the file tools
// (read, list, stat, write under path policy, symlink refusal), a session,
// a host tool and a directory snapshot source.
func TestHostConformance(t *testing.T) {
	for _, k := range hostKinds {
		t.Run(k.name, func(t *testing.T) {
			hk := k.setup(t)
			cs := serve(t, hk)
			suite(t, cs, hk)
		})
	}
}

// fixture makes the tree every host serves: a marker naming the kind, a
// symlink, a symlinked directory and a directory snapshot source, owned by
// owner so an SSH login can write beside it.
func fixture(t *testing.T, marker string, owner int) string {
	t.Helper()
	base, err := os.MkdirTemp("", "warden-hosts-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	dir := filepath.Join(base, "tree")
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.Chmod(base, 0o755))
	must(os.MkdirAll(filepath.Join(dir, "snaps", "daily.2026-11-01", "etc"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "snaps", "daily.2026-11-02", "etc"), 0o755))
	must(os.WriteFile(filepath.Join(dir, "snaps", "daily.2026-11-01", "etc", "motd"), []byte("first\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "snaps", "daily.2026-11-02", "etc", "motd"), []byte("second "+marker+"\n"), 0o644))
	must(os.WriteFile(filepath.Join(dir, "marker"), []byte(marker+"\n"), 0o644))
	must(os.Symlink("marker", filepath.Join(dir, "link")))
	must(os.Symlink(".", filepath.Join(dir, "self")))
	must(filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, owner, -1)
	}))
	return dir
}

func localRunners() localhost.Options {
	run := local.New(local.Options{})
	return localhost.Options{Runner: run, Inspect: run, Bare: run, Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"}}
}

// newSet registers the host kinds the way the server does: this machine,
// then the inventory.
func newSet(t *testing.T, inv *sshpool.Inventory, pool *sshpool.Pool, l localhost.Options) (*hosts.Set, *sshhost.Provider) {
	t.Helper()
	if inv == nil {
		var err error
		if inv, err = sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: t.TempDir(), LocalUser: "root"}); err != nil {
			t.Fatal(err)
		}
		pool = sshpool.New(sshpool.Options{})
	}
	lp, err := localhost.New(l)
	if err != nil {
		t.Fatal(err)
	}
	sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: pool,
		Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C.UTF-8"}})
	if err != nil {
		t.Fatal(err)
	}
	s := hosts.New(lp, sp)
	t.Cleanup(func() { s.Close() })
	return s, sp
}

func setupLocal(t *testing.T) kind {
	name, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	dir := fixture(t, "local", os.Getuid())
	set, _ := newSet(t, nil, nil, localRunners())
	return kind{set: set, name: "local", hostname: name, marker: "local", dir: dir}
}

// setupEntered makes the target of the container shape: PID 1 of a new
// PID namespace with its own host name and a mount namespace where another
// tree is bound over the fixture directory; "local" then enters it.
func setupEntered(t *testing.T) kind {
	outside := fixture(t, "not the target's", 0)
	inside := fixture(t, "entered", 0)
	// The target bind-mounts the "entered" tree over the outside one: at
	// the same path, warden's namespaces and the target's see different
	// files.
	pid := hoststest.Target(t, "entered-target", map[string]string{inside: outside})
	l := localRunners()
	l.EnterPID = pid
	set, _ := newSet(t, nil, nil, l)
	return kind{set: set, name: "local", hostname: "entered-target", marker: "entered", dir: outside}
}

func setupSSH(t *testing.T, srv *sshd.Server) kind {
	u, err := user.Lookup(suiteUser)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	name, err := os.Hostname()
	if err != nil {
		t.Fatal(err)
	}
	pool, inv, _ := sshpooltest.Server(t, srv, "box")
	dir := fixture(t, "ssh", uid)
	set, sp := newSet(t, inv, pool, localRunners())
	return kind{set: set, name: "box", hostname: name, marker: "ssh", dir: dir, ssh: sp}
}

type discard struct{}

func (discard) Append(_ context.Context, r audit.Record) (audit.Record, error) { return r, nil }
func (discard) Healthy() (bool, string)                                        { return true, "" }

// serve registers the tool groups with the Set's Resolve as their only way
// to a host, under the real classifier in open mode, and connects a client.
func serve(t *testing.T, k kind) *mcp.ClientSession {
	t.Helper()
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "hosts-suite", Version: "1"}, nil)
	r := relay.New(srv, relay.Options{Policy: pol, Audit: discard{}, Mode: policy.Open})
	limits := exectools.Limits{DefaultTimeout: 30 * time.Second, MaxTimeout: 30 * time.Second, DefaultMaxBytes: 1 << 16, MaxBytes: 1 << 16, MaxStdinBytes: 1 << 16}
	exectools.Register(r, exectools.Deps{Limits: limits, ScriptDir: t.TempDir(), Hosts: k.set.Resolve})
	paths, err := policy.NewPathPolicy(policy.PathRules{Allow: []string{k.dir}})
	if err != nil {
		t.Fatal(err)
	}
	files.Register(r, files.Deps{Paths: paths, Hosts: k.set.Resolve, HostPaths: func(string) *policy.PathPolicy { return paths }})
	reg := session.NewRegistry(session.Options{MaxSessions: 4, RingBytes: 1 << 16, IdleTimeout: time.Minute, MaxLifetime: 5 * time.Minute})
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reg.Shutdown(ctx)
	})
	sessions.Register(r, sessions.Deps{Registry: reg, Shell: "/bin/sh", Env: []string{"PATH=/usr/bin:/bin", "LANG=C.UTF-8"}, Hosts: k.set.Resolve})
	host.Register(r, host.Deps{Hosts: k.set.Resolve, Env: []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}})
	src := snapshottools.Source{SourceConfig: engine.SourceConfig{Name: "tree", Kind: "dir", Path: filepath.Join(k.dir, "snaps"),
		Pattern: "daily.*", TimeFormat: "2006-01-02"}, Host: k.name}
	if err := snapshottools.Register(r, snapshottools.Deps{Sources: []snapshottools.Source{src}, Hosts: k.set.Snapshots}); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "suite", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its structured result and text.
func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	got := map[string]any{}
	if res.StructuredContent != nil {
		b, _ := json.Marshal(res.StructuredContent)
		json.Unmarshal(b, &got)
	}
	return got, text.String()
}

func suite(t *testing.T, cs *mcp.ClientSession, k kind) {
	marker := filepath.Join(k.dir, "marker")
	t.Run("run", func(t *testing.T) {
		got, text := call(t, cs, "run_command", map[string]any{"host": k.name, "command": "cat " + marker + "; echo err >&2; exit 3"})
		if got["stdout"] != k.marker+"\n" || got["stderr"] != "err\n" || got["exit_code"] != float64(3) {
			t.Errorf("run_command: %v %s", got, text)
		}
	})
	t.Run("files", func(t *testing.T) {
		got, text := call(t, cs, "read_file", map[string]any{"host": k.name, "path": marker})
		if got["content"] != k.marker+"\n" {
			t.Errorf("read_file: %v %s", got, text)
		}
		got, text = call(t, cs, "list_dir", map[string]any{"host": k.name, "path": k.dir})
		names := map[string]bool{}
		if es, ok := got["entries"].([]any); ok {
			for _, e := range es {
				if m, ok := e.(map[string]any); ok {
					names[fmt.Sprint(m["name"])] = true
				}
			}
		}
		if !names["marker"] || !names["link"] || !names["snaps"] {
			t.Errorf("list_dir: %v %s", got, text)
		}
		got, text = call(t, cs, "stat_file", map[string]any{"host": k.name, "path": filepath.Join(k.dir, "link")})
		if got["symlink"] != true || got["resolved_path"] != marker {
			t.Errorf("stat_file of the link: %v %s", got, text)
		}
		// Following a link is the resolver's choice, checked against the
		// policy; a path whose resolution leaves the policy is refused.
		got, text = call(t, cs, "read_file", map[string]any{"host": k.name, "path": "/etc/passwd"})
		if got["status"] == "ok" || got["content"] != nil {
			t.Errorf("read_file outside the path policy: %v %s", got, text)
		}
		newFile := filepath.Join(k.dir, "written")
		got, text = call(t, cs, "write_file", map[string]any{"host": k.name, "path": newFile, "content": "new\n"})
		if got["status"] != "ok" {
			t.Fatalf("write_file: %v %s", got, text)
		}
		got, text = call(t, cs, "run_command", map[string]any{"host": k.name, "command": "cat " + newFile})
		if got["stdout"] != "new\n" {
			t.Errorf("the written file, read back by a command on the host: %v %s", got, text)
		}
		got, text = call(t, cs, "write_file", map[string]any{"host": k.name, "path": "/etc/warden-suite-marker", "content": "x"})
		if got["status"] == "ok" {
			t.Errorf("write_file outside the path policy: %v %s", got, text)
		}
		if _, err := os.Stat("/etc/warden-suite-marker"); err == nil {
			os.Remove("/etc/warden-suite-marker")
			t.Error("a write outside the path policy created its file")
		}
	})
	t.Run("session", func(t *testing.T) {
		got, text := call(t, cs, "session_start", map[string]any{"host": k.name, "command": "uname -n; cat " + marker + "; sleep 30", "pty": false})
		id, _ := got["session_id"].(string)
		if id == "" {
			t.Fatalf("session_start: %v %s", got, text)
		}
		defer call(t, cs, "session_close", map[string]any{"session_id": id})
		var seen strings.Builder
		for deadline := time.Now().Add(90 * time.Second); !strings.Contains(seen.String(), k.marker+"\n") && time.Now().Before(deadline); {
			got, _ := call(t, cs, "session_read", map[string]any{"session_id": id, "wait_s": 1})
			seen.WriteString(fmt.Sprint(got["data"]))
		}
		if s := seen.String(); !strings.Contains(s, k.hostname+"\n") || !strings.Contains(s, k.marker+"\n") {
			t.Errorf("session output %q, want %s and %s", s, k.hostname, k.marker)
		}
	})
	t.Run("host_tool", func(t *testing.T) {
		got, text := call(t, cs, "system_info", map[string]any{"host": k.name})
		if got["hostname"] != k.hostname {
			t.Errorf("system_info: hostname %v, want %s (%s)", got["hostname"], k.hostname, text)
		}
	})
	t.Run("snapshot", func(t *testing.T) {
		got, text := call(t, cs, "snapshot_list", map[string]any{"dataset": "tree"})
		if n, _ := got["total"].(float64); n != 2 {
			t.Fatalf("snapshot_list: %v %s", got, text)
		}
		got, text = call(t, cs, "snapshot_read_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc/motd"})
		if got["content"] != "second "+k.marker+"\n" {
			t.Errorf("snapshot_read_file: %v %s", got, text)
		}
	})
}

// TestReloadReachesEveryGroup reloads the inventory under a served set of
// tool groups: "box" moves to a port nothing listens on, and every group —
// commands, files, sessions, host tools and a snapshot source configured
// at startup — now fails to reach it, where before the reload each worked.
func TestReloadReachesEveryGroup(t *testing.T) {
	srv := sshd.Start(t, sshd.Options{User: suiteUser})
	k := setupSSH(t, srv)
	cs := serve(t, k)
	calls := []struct {
		tool string
		args map[string]any
	}{
		{"run_command", map[string]any{"host": "box", "command": "true"}},
		{"read_file", map[string]any{"host": "box", "path": filepath.Join(k.dir, "marker")}},
		{"system_info", map[string]any{"host": "box"}},
		{"snapshot_list", map[string]any{"dataset": "tree"}},
	}
	for _, c := range calls {
		if got, text := call(t, cs, c.tool, c.args); got["status"] == "error" || strings.Contains(text, "connect") {
			t.Fatalf("%s before the reload: %v %s", c.tool, got, text)
		}
	}
	moved, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: t.TempDir(), LocalUser: suiteUser, Hosts: []sshpool.HostEntry{{
		Name: "box", Address: "127.0.0.1", Port: 1, User: suiteUser, IdentityFiles: []string{srv.UserKey.Path},
	}}})
	if err != nil {
		t.Fatal(err)
	}
	k.ssh.Reload(moved, nil)
	for _, c := range calls {
		got, text := call(t, cs, c.tool, c.args)
		if !strings.Contains(text, "127.0.0.1:1") && !strings.Contains(fmt.Sprint(got), "127.0.0.1:1") {
			t.Errorf("%s after the reload did not go to the moved host: %v %s", c.tool, got, text)
		}
	}
}
