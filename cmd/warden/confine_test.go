package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/warden-mcp/warden/internal/confine/confinetest"
)

// requireConfinement skips unless the kernel can confine, or fails when
// WARDEN_REQUIRE_LANDLOCK=1 says it must.
func requireConfinement(t *testing.T, info map[string]any) {
	t.Helper()
	c, _ := info["confinement"].(map[string]any)
	if active, _ := c["active"].(bool); !active {
		if os.Getenv("WARDEN_REQUIRE_LANDLOCK") == "1" {
			t.Fatalf("confinement required but not active: %v", c)
		}
		t.Skipf("confinement not active here: %v", c)
	}
}

// outsideTemp makes a directory the test's user may write that is not a
// temporary directory, so only confinement keeps a call out of it.
func outsideTemp(t *testing.T) string {
	t.Helper()
	return newStateDir(t)
}

func TestConfinementReported(t *testing.T) {
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	c, _ := info["confinement"].(map[string]any)
	mech, _ := c["mechanism"].(string)
	if mech == "" {
		t.Fatalf("server_info has no confinement mechanism: %v", info)
	}
	requireConfinement(t, info)
	if !strings.HasPrefix(mech, "landlock-v") {
		t.Errorf("mechanism = %q, want landlock-vN…", mech)
	}
	_, hosts := callTool(t, s.cs, "hosts_list", nil)
	local, _ := hosts["local"].(map[string]any)
	if local["confinement"] != mech {
		t.Errorf("hosts_list local confinement = %v, want %q", local["confinement"], mech)
	}
}

// hostileRepo makes a git repository whose own config runs a program on
// status, diff and paging that writes a marker and appends to a tracked
// file. It returns the repository and a check that nothing was written.
func hostileRepo(t *testing.T) (repo string, untouched func(t *testing.T)) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo = outsideTemp(t)
	marker := filepath.Join(repo, "pwned")
	gitRun := func(args ...string) {
		t.Helper()
		gitIn(t, repo, repo, args...)
	}
	gitRun("init", "-q")
	gitRun("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "--allow-empty", "-m", "init")
	if err := os.WriteFile(filepath.Join(repo, "f"), []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitRun("add", "f")
	gitRun("-c", "user.email=t@example.com", "-c", "user.name=t", "commit", "-q", "-m", "f")
	os.WriteFile(filepath.Join(repo, "f"), []byte("two\n"), 0o644)
	// A daemon that acts on whatever a client that connects asks, as
	// dockerd and systemd do: the hook asks it too.
	daemon := filepath.Join(repo, "daemon.sock")
	asked := confinetest.Daemon(t, daemon)
	hook := "sh -c 'echo HOOK-RAN >&2; echo pwned > " + marker + "; echo x >> " + filepath.Join(repo, "f") +
		"; python3 -c \"import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])\" " + daemon + "'"
	gitRun("config", "core.fsmonitor", hook)
	gitRun("config", "diff.external", hook)
	gitRun("config", "core.pager", hook)
	before, _ := os.ReadFile(filepath.Join(repo, "f"))
	return repo, func(t *testing.T) {
		t.Helper()
		if _, err := os.Stat(marker); err == nil {
			t.Error("a repository hook run by a read wrote its marker")
		}
		if after, _ := os.ReadFile(filepath.Join(repo, "f")); string(after) != string(before) {
			t.Errorf("a repository hook run by a read changed a file: %q", after)
		}
		if n := asked.Load(); n > 0 {
			t.Errorf("a repository hook run by a read reached a daemon's socket %d times", n)
		}
	}
}

// TestReadonlyRepositoryHooks runs git reads in a hostile repository: the
// hooks start (the classifier cannot know), and nothing they write lands.
func TestReadonlyRepositoryHooks(t *testing.T) {
	repo, untouched := hostileRepo(t)
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	ran := false
	// With a daemon's client in the same command the whole command may
	// make Unix sockets, hooks included: those need approval.
	for _, cmd := range []string{"git status", "git diff", "git -p log -1", "git diff HEAD", "git status --porcelain",
		"docker ps; git status", "git diff && systemctl status x", "git status | cat; timedatectl"} {
		res, got := callTool(t, s.cs, "run_command", map[string]any{"command": cmd, "cwd": repo})
		if got["status"] == "ok" && strings.Contains(text(res), "HOOK-RAN") {
			ran = true
		}
	}
	if !ran {
		t.Log("no hook reported running; the classifier refused every spelling (still safe)")
	}
	untouched(t)
}

// TestDeclarativeToolConfined runs a declarative read tool (exec runner)
// over the hostile repository: the tool's program is confined like
// run_command's.
func TestDeclarativeToolConfined(t *testing.T) {
	repo, untouched := hostileRepo(t)
	tools := writeFile(t, `mcp:
  tools:
    - name: repo_status
      description: git status of a repository
      tier: 0
      params:
        repo: {type: string, description: repository, required: true}
      run:
        command: git -C {{ .repo }} status
`)
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil, "--tools", tools)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	res, got := callTool(t, s.cs, "repo_status", map[string]any{"repo": repo})
	if got["status"] != "ok" || got["runner"] != "exec" {
		t.Fatalf("repo_status: %v %s", got, text(res))
	}
	if !strings.Contains(text(res), "HOOK-RAN") {
		t.Errorf("the repository's hook did not run, so this test shows nothing: %s", text(res))
	}
	untouched(t)
}

// TestSecretsOutOfReach starts warden with a secret in its environment and
// tries to read it, and warden's state, from every mode: as root, and (when
// the test runs as root) as an unprivileged user.
func TestSecretsOutOfReach(t *testing.T) {
	t.Run("root", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("not root")
		}
		secretsOutOfReach(t, func(t *testing.T, env []string, state string) *mcp.ClientSession {
			return startStdio(t, env, state, nil).cs
		})
	})
	t.Run("nonroot", func(t *testing.T) {
		secretsOutOfReach(t, startAsNobody)
	})
}

// asRootAndNobody runs f as two subtests: with warden as root (skipped
// unless the test runs as root) and as another user (nobody true).
func asRootAndNobody(t *testing.T, f func(t *testing.T, nobody bool)) {
	t.Run("root", func(t *testing.T) {
		if os.Geteuid() != 0 {
			t.Skip("not root")
		}
		f(t, false)
	})
	t.Run("nonroot", func(t *testing.T) { f(t, true) })
}

// startConfined starts warden over stdio as root, or as nobody when
// nobody is set (see asRootAndNobody), and requires its programs confined.
func startConfined(t *testing.T, env []string, state string, nobody bool) *mcp.ClientSession {
	t.Helper()
	var cs *mcp.ClientSession
	if nobody {
		cs = startAsNobody(t, env, state)
	} else {
		cs = startStdio(t, env, state, nil).cs
	}
	_, info := callTool(t, cs, "server_info", nil)
	requireConfinement(t, info)
	return cs
}

// startAsNobody starts warden over stdio as user nobody (65534) when the
// test runs as root, or as the test's own user otherwise.
func startAsNobody(t *testing.T, env []string, state string) *mcp.ClientSession {
	t.Helper()
	bin := wardenBin
	cmd := exec.Command(bin, "serve")
	if os.Geteuid() == 0 {
		dir, err := os.MkdirTemp("/var/lib", "warden-e2e-nobody-")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(dir) })
		os.Chmod(dir, 0o755)
		bin = filepath.Join(dir, "warden")
		b, err := os.ReadFile(wardenBin)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(bin, b, 0o755); err != nil {
			t.Fatal(err)
		}
		// The state dir and HOME move where nobody can own them.
		for i, kv := range env {
			if strings.HasPrefix(kv, "WARDEN_STATE_DIR=") || strings.HasPrefix(kv, "HOME=") {
				k, v, _ := strings.Cut(kv, "=")
				nv := filepath.Join(dir, filepath.Base(v))
				if err := os.MkdirAll(nv, 0o700); err != nil {
					t.Fatal(err)
				}
				os.Chown(nv, 65534, 65534)
				env[i] = k + "=" + nv
			}
		}
		cmd = exec.Command(bin, "serve")
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	cmd.Env = env
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect: %v\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	return cs
}

func secretsOutOfReach(t *testing.T, start func(*testing.T, []string, string) *mcp.ClientSession) {
	const secret = "canary-9c2f-env-secret"
	const argCanary = "canary-77ab-in-the-audit-log"
	for _, mode := range []string{"readonly", "guarded", "open"} {
		t.Run(mode, func(t *testing.T) {
			env, _ := wardenEnv(t, "WARDEN_MODE="+mode, "WARDEN_TOKEN="+secret+"-0123456789", "AWS_SECRET_ACCESS_KEY="+secret)
			cs := start(t, env, "")
			s := struct{ cs *mcp.ClientSession }{cs}
			var state string
			for _, kv := range env {
				if v, ok := strings.CutPrefix(kv, "WARDEN_STATE_DIR="); ok {
					state = v
				}
			}
			_, info := callTool(t, s.cs, "server_info", nil)
			requireConfinement(t, info)
			canary := argCanary + "-" + mode
			callTool(t, s.cs, "run_command", map[string]any{"command": "echo " + canary})
			parent, name := filepath.Dir(state), filepath.Base(state)
			tries := []string{
				"cat /proc/$PPID/environ",
				"tr '\\0' '\\n' < /proc/$PPID/environ",
				"ps eww",
				"ps e -p $PPID",
				"cat /proc/*/environ",
				"dd if=/proc/$PPID/mem bs=4096 count=64 skip=16 2>/dev/null | tr -cd '[:print:]'",
				"cat /proc/$PPID/fd/* 2>/dev/null",
				"grep -ra canary /proc/$PPID/ 2>/dev/null",
				"cat " + parent + "/" + name[:4] + "*/audit.jsonl",
				"cd " + parent + " && cat ./" + name + "/audit.jsonl",
				"cat " + parent + "//" + name + "/./audit.jsonl",
				"find " + parent + " -name 'audit*' -exec cat {} +",
				"grep -r canary " + parent,
			}
			for _, cmd := range tries {
				res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": cmd})
				out := text(res)
				if strings.Contains(out, secret) || strings.Contains(out, canary) {
					t.Errorf("%s in %s mode reached warden's secrets:\n%s", cmd, mode, out)
				}
			}
			// The kernel holds warden's files, so a recursive read of a
			// directory far above them is the read it looks like: it runs,
			// in every mode, and finds nothing of warden's.
			far := "find /var -maxdepth 4 -type f -size -64k -exec grep -l canary {} +"
			if !strings.HasPrefix(state, "/var/lib/") {
				far = "grep -r canary " + filepath.Dir(parent)
			}
			res, got := callTool(t, s.cs, "run_command", map[string]any{"command": far})
			if got["status"] == "denied" || got["status"] == "approval_required" {
				t.Errorf("%s in %s mode was not run: %v", far, mode, got)
			}
			if out := text(res); strings.Contains(out, secret) || strings.Contains(out, canary) {
				t.Errorf("%s in %s mode reached warden's secrets:\n%s", far, mode, out)
			}
			// A relative path from a working directory inside the state
			// dir: the classifier resolves it against cwd and refuses.
			res, got = callTool(t, s.cs, "run_command", map[string]any{"command": "cat audit.jsonl", "cwd": state})
			if got["status"] != "denied" || strings.Contains(text(res), canary) {
				t.Errorf("cat audit.jsonl with cwd in the state dir, %s mode: %v", mode, got)
			}
		})
	}
}

// TestSessionStartedWithoutApprovalIsReadOnly types an admitted write into
// a session started without approval: the operator's allow rule admits
// the typed command, and the kernel still refuses it, whatever the line
// discipline does to it on the way.
func TestSessionStartedWithoutApprovalIsReadOnly(t *testing.T) {
	dir := outsideTemp(t)
	cfg := writeFile(t, "policy:\n  allow: ['^touch .*', '^echo .*', '^tou$']\n")
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_CONFIG="+cfg, "SHELL=/bin/sh")
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)

	sh := startSession(t, s.cs, nil)
	for i, line := range []string{
		"touch " + dir + "/a",
		"echo x > " + dir + "/b",
		"touch " + dir + "/c; echo done-c",
	} {
		got := sh.send(line + "\n")
		if got["status"] != "ok" {
			t.Fatalf("send %d: the allow rule did not admit %q: %v", i, line, got)
		}
	}
	// Erase characters and a line split over sends assemble the same
	// admitted write; the kernel refuses it all the same.
	for i, piece := range []struct {
		data  string
		enter bool
	}{
		{"cat " + dir + "/d" + strings.Repeat("\x7f", len("cat "+dir+"/d")) + "touch " + dir + "/d", true},
		{"tou", false},
		{"ch " + dir + "/e", true},
		{"echo hi\x15touch " + dir + "/f", true},
	} {
		_, got := callTool(t, s.cs, "session_send", map[string]any{"session_id": sh.id, "data": piece.data, "enter": piece.enter})
		if got["status"] != "ok" {
			t.Fatalf("edited send %d was not admitted: %v", i, got)
		}
	}
	// A daemon's client typed into it (a read the classifier admits)
	// cannot ask the daemon either: the daemon would write for it.
	daemon := filepath.Join(outsideTemp(t), "daemon.sock")
	asked := confinetest.Daemon(t, daemon)
	dockerCLI, _ := exec.LookPath("docker")
	if dockerCLI != "" {
		if got := sh.send("docker -H unix://" + daemon + " version\n"); got["status"] != "ok" {
			t.Fatalf("a docker read was not admitted: %v", got)
		}
	}
	// Nor can a shell started after a client, which would give the lines
	// typed into it the client's socket: that start needs approval.
	if dockerCLI != "" {
		res, got := callTool(t, s.cs, "session_start", map[string]any{"command": "systemctl --version; exec sh"})
		if id, ok := got["session_id"].(string); ok && !res.IsError {
			after := &sess{t: t, cs: s.cs, id: id}
			after.send("docker -H unix://" + daemon + " version; echo sh''ell-asked\n")
			after.readUntil("shell-asked")
		}
	}
	sh.send("echo fin''ished\n")
	sh.readUntil("finished")
	time.Sleep(200 * time.Millisecond)
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a session started without approval wrote %d files", len(entries))
	}
	if n := asked.Load(); n > 0 {
		t.Errorf("a session started without approval reached a daemon's socket %d times", n)
	}

	// The same lines in a session started writable (approved by open
	// mode here) land: the refusal above is the confinement, not the shell.
	env2, state2 := wardenEnv(t, "WARDEN_MODE=open", "SHELL=/bin/sh")
	s2 := startStdio(t, env2, state2, nil)
	w := startSession(t, s2.cs, map[string]any{"writable": true})
	w.send("touch " + dir + "/w; echo made-w\n")
	w.readUntil("made-w")
	if _, err := os.Stat(filepath.Join(dir, "w")); err != nil {
		t.Errorf("a writable session could not write: %v", err)
	}
	if dockerCLI != "" {
		// The typed line echoes back; only the output says ask-ed.
		w.send("docker -H unix://" + daemon + " version; echo ask''ed\n")
		w.readUntil("asked")
		if asked.Load() == 0 {
			t.Error("a writable session could not reach a daemon's socket")
		}
	}
}

// TestApprovedWorkBesideWardenFiles keeps warden's config in etc/warden,
// as an operator keeps it in /etc/warden: an approved call edits, adds,
// moves and removes the files and directories of etc beside it as it
// would unconfined (given a mount namespace, which root has), while the
// config stays out of reach.
func TestApprovedWorkBesideWardenFiles(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("without a mount namespace the directories above warden's files take no new entries (docs/security.md)")
	}
	etc := filepath.Join(outsideTemp(t), "etc")
	if err := os.MkdirAll(filepath.Join(etc, "warden"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(etc, "warden", "warden.yaml")
	if err := os.WriteFile(cfg, []byte("# canary-77d0-config\nmode: open\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(etc, "hosts"), []byte("127.0.0.1 old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	cmd := "sed -i s/old/new/ " + etc + "/hosts && mkdir " + etc + "/nginx && echo x > " + etc + "/nginx/site && mv " + etc + "/nginx " + etc + "/nginx.old && rm -r " + etc + "/nginx.old && cat " + etc + "/hosts"
	res, got := callApproved(t, s.cs, "run_command", map[string]any{"command": cmd})
	if got["status"] != "ok" || !strings.Contains(text(res), "127.0.0.1 new") {
		t.Errorf("an approved call could not work in the directory above warden's config: %v %s", got, text(res))
	}
	for _, c := range []string{"cat " + cfg, "mv " + etc + "/warden " + etc + "/w2 && cat " + etc + "/w2/warden.yaml"} {
		res, _ := callApproved(t, s.cs, "run_command", map[string]any{"command": c})
		if strings.Contains(text(res), "canary-77d0") {
			t.Errorf("%s read warden's config: %s", c, text(res))
		}
	}
	if b, err := os.ReadFile(cfg); err != nil || !strings.Contains(string(b), "canary-77d0") {
		t.Errorf("warden's config changed: %q, %v", b, err)
	}
}

// TestHiddenCodeKeepsOffKernelObjects: a repository's hook, run by a read
// in readonly mode, tries to remove System V shared memory, a semaphore
// and a message queue, and to clear and unlink a key ring: objects that
// are not files, so only the seccomp rules below tier 2 hold them.
func TestHiddenCodeKeepsOffKernelObjects(t *testing.T) {
	if _, err := exec.LookPath("ipcmk"); err != nil {
		t.Skip("ipcmk not installed")
	}
	repo, _ := hostileRepo(t)
	ipc := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
		if err != nil {
			t.Fatalf("%v: %v: %s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	var ids []string
	for _, kind := range []string{"-M 4096", "-S 1", "-Q"} {
		out := ipc(append([]string{"ipcmk"}, strings.Fields(kind)...)...)
		id := out[strings.LastIndexByte(out, ' ')+1:]
		ids = append(ids, id)
		flag := strings.ToLower(kind[:2])
		t.Cleanup(func() { exec.Command("ipcrm", flag, id).Run() })
	}
	hook := fmt.Sprintf("echo HOOK-RAN >&2; ipcrm -m %s; ipcrm -s %s; ipcrm -q %s", ids[0], ids[1], ids[2])
	ring := ""
	if _, err := exec.LookPath("keyctl"); err == nil {
		if out, err := exec.Command("keyctl", "newring", fmt.Sprintf("warden-e2e-%d", os.Getpid()), "@u").Output(); err == nil {
			ring = strings.TrimSpace(string(out))
			ipc("keyctl", "add", "user", "k", "v", ring)
			t.Cleanup(func() { exec.Command("keyctl", "unlink", ring, "@u").Run() })
			hook += fmt.Sprintf("; keyctl clear %s; keyctl unlink %s @u", ring, ring)
		}
	}
	cmd := exec.Command("git", "-C", repo, "config", "core.fsmonitor", "sh -c '"+hook+"' >&2")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v: %s", err, out)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "git status", "cwd": repo})
	if got["status"] != "ok" || !strings.Contains(text(res), "HOOK-RAN") {
		t.Fatalf("the repository's hook did not run: %v %s", got, text(res))
	}
	for i, kind := range []string{"shm", "sem", "msg"} {
		if !ipcExists(t, kind, ids[i]) {
			t.Errorf("a read's hidden code removed %s %s: %s", kind, ids[i], text(res))
		}
	}
	if ring != "" {
		if out := ipc("keyctl", "rlist", ring); out == "" {
			t.Errorf("a read's hidden code cleared a key ring: %s", text(res))
		}
	}
}

// ipcExists reports whether /proc/sysvipc lists a System V object of kind
// (shm, sem, msg) with id (ipcs -i exits 0 for a missing one).
func ipcExists(t *testing.T, kind, id string) bool {
	t.Helper()
	b, err := os.ReadFile("/proc/sysvipc/" + kind)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[1] == id {
			return true
		}
	}
	return false
}

// TestReadonlyDaemonClients checks that a read whose program asks a daemon
// over its socket (docker ps) still reaches it in readonly mode, while
// the hooks above, started by git, do not.
func TestReadonlyDaemonClients(t *testing.T) {
	if _, err := exec.LookPath("docker"); err != nil {
		t.Skip("the docker CLI is not installed")
	}
	daemon := filepath.Join(outsideTemp(t), "daemon.sock")
	asked := confinetest.Daemon(t, daemon)
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", nil)
	requireConfinement(t, info)
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "docker -H unix://" + daemon + " version"})
	if got["status"] == "denied" {
		t.Fatalf("readonly refused a docker read: %s", text(res))
	}
	if asked.Load() == 0 {
		t.Errorf("docker, admitted as a read, could not reach the daemon's socket: %s", text(res))
	}
}

// gitIn runs git in repo with HOME home and no system config, as a
// test's author with a name and address for commits.
func gitIn(t *testing.T, home, repo string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "GIT_CONFIG_NOSYSTEM=1"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}
