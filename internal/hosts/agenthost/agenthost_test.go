package agenthost_test

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// TestMain lets this test binary be the warden build that is uploaded:
// started as `<binary> agent`, it serves the protocol as `warden agent`.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == agent.Arg {
		os.Exit(agent.Main(context.Background(), os.Args[2:], os.Stdin, os.Stdout, os.Stderr, "test"))
	}
	os.Exit(m.Run())
}

const testUser = "wardentest"

var env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}

// rig is one agent host on a real loopback sshd.
type rig struct {
	srv   *sshd.Server
	set   *hosts.Set
	ap    *agenthost.Provider
	sp    *sshhost.Provider
	cache string // the agents' cache directory on the "remote" side
	work  string // a directory the login user can write
	uid   int
}

// newRig starts sshd and serves host "box" with agent mode; prepare, if
// set, shapes the cache directory before anything is uploaded.
func newRig(t testing.TB, mode string, prepare func(t testing.TB, cache string)) *rig {
	t.Helper()
	return newRigWith(t, mode, prepare, nil)
}

// newRigWith is newRig whose provider options opts may change.
func newRigWith(t testing.TB, mode string, prepare func(t testing.TB, cache string), opts func(*agenthost.Options)) *rig {
	t.Helper()
	return newRigAs(t, testUser, mode, prepare, opts)
}

// newRigAs is newRigWith logging in as login ("" is the user running the
// test, root).
func newRigAs(t testing.TB, login, mode string, prepare func(t testing.TB, cache string), opts func(*agenthost.Options)) *rig {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("the agent host tests log in as a user of their own, which needs root")
	}
	return newRigOn(t, sshd.Start(t, sshd.Options{User: login}), mode, prepare, opts)
}

// newRigOn serves host "box" on srv, an sshd or a dropbear.
func newRigOn(t testing.TB, srv *sshd.Server, mode string, prepare func(t testing.TB, cache string), opts func(*agenthost.Options)) *rig {
	t.Helper()
	u, err := user.Lookup(srv.User)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	r := &rig{srv: srv, uid: uid}
	// Outside the temporary directories, as a home is: a program at the
	// Temp level may write those, and the agent protects its own.
	base, err := os.MkdirTemp("/var/lib", "warden-agenthost-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	os.Chmod(base, 0o755)
	r.cache, r.work = filepath.Join(base, "cache"), filepath.Join(base, "work")
	for _, d := range []string{r.cache, r.work} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if prepare != nil {
		prepare(t, r.cache)
	}
	for _, d := range []string{r.cache, r.work} {
		if err := os.Chown(d, uid, -1); err != nil {
			t.Fatal(err)
		}
	}
	pool, inv, _ := sshpooltest.Server(t, srv, "box")
	// ssh.prestart as warden serves by default.
	sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: pool, Env: env, Prestart: 2 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	o := agenthost.Options{SSH: sp, Modes: map[string]string{"box": mode}, CacheDir: r.cache}
	if opts != nil {
		opts(&o)
	}
	r.ap, err = agenthost.New(o)
	if err != nil {
		t.Fatal(err)
	}
	r.sp = sp
	r.set = hosts.New(r.ap, sp)
	t.Cleanup(func() { r.set.Close() })
	return r
}

func (r *rig) host(t testing.TB) *hosts.Host {
	t.Helper()
	h, err := r.set.Resolve(context.Background(), "box")
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// full is a context admitted as approved work, whose programs may write.
func full() context.Context {
	return confine.With(context.Background(), confine.Admission{Level: confine.Full, Tool: "run_command"})
}

func (r *rig) run(t *testing.T, cmd string) (runner.Result, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(full(), 120*time.Second)
	defer cancel()
	return r.host(t).Runner.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", cmd}, Env: env, Timeout: 100 * time.Second})
}

// agentPID is the process ID of the running agent, found in /proc by its
// path under the cache directory.
func (r *rig) agentPIDs() []int { return pidsOf(r.cache + "/") }

// pidsOf are the live agents whose executable path starts with prefix.
func pidsOf(prefix string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil {
			continue
		}
		argv := strings.Split(string(b), "\x00")
		if len(argv) >= 2 && strings.HasPrefix(argv[0], prefix) && argv[1] == agent.Arg && alive(pid) {
			pids = append(pids, pid)
		}
	}
	return pids
}

func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) is still running", what, pid)
		}
	}
}

func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && strings.HasSuffix(string(b), "\n") {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
	}
}

// startSleeper starts a call that leaves a background sleep in its
// process group and returns the sleep's pid and the call's result.
func (r *rig) startSleeper(t *testing.T, name string) (int, <-chan error) {
	t.Helper()
	pidFile := filepath.Join(r.work, name)
	done := make(chan error, 1)
	go func() {
		_, err := r.run(t, "sleep 300 & echo $! > "+pidFile+"; wait")
		done <- err
	}()
	return readPid(t, pidFile), done
}

func TestAgentServesAndCloses(t *testing.T) {
	r := newRig(t, agenthost.Required, nil)
	res, err := r.run(t, "echo hi; id -un")
	if err != nil || string(res.Stdout) != "hi\n"+testUser+"\n" {
		t.Fatalf("run: %+v %v", res, err)
	}
	h := r.host(t)
	if h.Kind != hosts.KindAgent || h.FilesTransport() != "agent" || !strings.HasPrefix(h.Confinement, "agent test (pid ") {
		t.Errorf("host after the first call: kind %s, files %q, confinement %q", h.Kind, h.FilesTransport(), h.Confinement)
	}
	pids := r.agentPIDs()
	if len(pids) != 1 {
		t.Fatalf("agents running: %v, want one", pids)
	}
	// The uploaded build is the one warden holds.
	if got, want := fileSum(t, r.cachedBinary(t)), selfSum(t); got != want {
		t.Errorf("the cached agent's digest %s, want %s", got, want)
	}
	r.set.Close()
	waitGone(t, "the agent after warden closed it", pids[0])
}

func (r *rig) cachedBinary(t *testing.T) string {
	t.Helper()
	m, _ := filepath.Glob(filepath.Join(r.cache, "*", "warden"))
	if len(m) != 1 {
		t.Fatalf("cached builds: %v, want one", m)
	}
	return m[0]
}

func fileSum(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%x", sha256.Sum256(b))
}

func selfSum(t *testing.T) string {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return fileSum(t, exe)
}

// Killing the agent mid-call fails the call clearly; the next call
// starts a new agent, which kills what the dead one left running.
func TestKillAgentMidCall(t *testing.T) {
	r := newRig(t, agenthost.Required, nil)
	sleeper, done := r.startSleeper(t, "pid")
	pids := r.agentPIDs()
	if len(pids) != 1 {
		t.Fatalf("agents running: %v", pids)
	}
	if err := exec.Command("kill", "-KILL", strconv.Itoa(pids[0])).Run(); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-done:
		if !errors.Is(err, agent.ErrGone) {
			t.Errorf("the call under a killed agent: %v, want ErrGone", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the call under a killed agent did not return")
	}
	res, err := r.run(t, "echo next")
	if err != nil || string(res.Stdout) != "next\n" {
		t.Fatalf("the next call: %+v %v", res, err)
	}
	waitGone(t, "the dead agent's command", sleeper)
	waitGone(t, "the killed agent", pids[0])
}

// Killing sshd mid-call ends the agent's channel: the agent kills its
// commands and exits, the call fails clearly, and once sshd is back the
// next call works.
func TestKillSSHDMidCall(t *testing.T) {
	r := newRig(t, agenthost.Required, nil)
	sleeper, done := r.startSleeper(t, "pid")
	pids := r.agentPIDs()
	if len(pids) != 1 {
		t.Fatalf("agents running: %v", pids)
	}
	// The agent's parent and grandparent are sshd's per-connection
	// processes.
	for pid, i := pids[0], 0; i < 2; i++ {
		pid = ppid(pid)
		if pid <= 1 {
			break
		}
		exec.Command("kill", "-KILL", strconv.Itoa(pid)).Run()
	}
	select {
	case err := <-done:
		if err == nil {
			t.Error("the call under a killed sshd succeeded")
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the call under a killed sshd did not return")
	}
	waitGone(t, "the agent whose sshd died", pids[0])
	waitGone(t, "the orphaned agent's command", sleeper)
	r.srv.Restart(t)
	res, err := r.run(t, "echo next")
	if err != nil || string(res.Stdout) != "next\n" {
		t.Fatalf("the next call: %+v %v", res, err)
	}
}

func ppid(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	p, _ := strconv.Atoi(f[1])
	return p
}

// A cached binary that is not the build warden holds is never started:
// warden uploads the build again and starts that.
func TestCorruptBinaryReuploaded(t *testing.T) {
	r := newRig(t, agenthost.Required, nil)
	if _, err := r.run(t, "true"); err != nil {
		t.Fatal(err)
	}
	cached := r.cachedBinary(t)
	old := r.agentPIDs()
	r.ap.Close() // the agents only; the pool stays

	for _, pid := range old {
		waitGone(t, "the closed agent", pid)
	}
	marker := filepath.Join(r.work, "corrupt-ran")
	if err := os.WriteFile(cached, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	res, err := r.run(t, "echo again")
	if err != nil || string(res.Stdout) != "again\n" {
		t.Fatalf("a call after corruption: %+v %v", res, err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the corrupted binary was started")
	}
	if got, want := fileSum(t, cached), selfSum(t); got != want {
		t.Errorf("the cache holds %s after the re-upload, want %s", got, want)
	}
}

// mountCache mounts a tmpfs with opts over the cache directory.
func mountCache(opts string) func(t testing.TB, cache string) {
	return func(t testing.TB, cache string) {
		t.Helper()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", opts, "tmpfs", cache).CombinedOutput(); err != nil {
			t.Skipf("mount tmpfs: %v: %s", err, out)
		}
		t.Cleanup(func() { exec.Command("umount", "-l", cache).Run() })
	}
}

// Where the agent cannot run — a noexec cache, a full disk — auto serves
// the host over plain SSH and says why; required fails with the reason.
func TestCannotRun(t *testing.T) {
	for _, c := range []struct {
		name, opts, reason string
	}{
		{"noexec", "noexec,mode=755", "Permission denied"},
		{"disk full", "size=64k,mode=755", "No space left on device"},
	} {
		t.Run(c.name+"/auto", func(t *testing.T) {
			r := newRig(t, agenthost.Auto, mountCache(c.opts))
			res, err := r.run(t, "echo fallback")
			if err != nil || string(res.Stdout) != "fallback\n" {
				t.Fatalf("run under auto: %+v %v", res, err)
			}
			h := r.host(t)
			if !strings.Contains(h.Confinement, "plain SSH") || !strings.Contains(h.Confinement, c.reason) {
				t.Errorf("confinement %q does not say the host fell back, and why (%s)", h.Confinement, c.reason)
			}
			if h.FilesTransport() == "agent" {
				t.Error("files say agent on a host that fell back")
			}
			if pids := r.agentPIDs(); len(pids) != 0 {
				t.Errorf("agents running after a fallback: %v", pids)
			}
		})
		t.Run(c.name+"/required", func(t *testing.T) {
			r := newRig(t, agenthost.Required, mountCache(c.opts))
			_, err := r.run(t, "echo never")
			if err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("run under required: %v, want an error naming %q", err, c.reason)
			}
			if pids := r.agentPIDs(); len(pids) != 0 {
				t.Errorf("agents running after a failed start: %v", pids)
			}
		})
	}
}

// The agent mode travels with the inventory (hosts[].agent), so a reload
// that swaps the inventory changes it; resolving never dials.
func TestModeFromInventory(t *testing.T) {
	inv := func(mode string) *sshpool.Inventory {
		i, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: t.TempDir(), LocalUser: "root", Hosts: []sshpool.HostEntry{
			{Name: "box", Address: "192.0.2.1", Agent: mode},
			{Name: "plain", Address: "192.0.2.2"},
		}})
		if err != nil {
			t.Fatal(err)
		}
		return i
	}
	sp, err := sshhost.New(sshhost.Options{Inventory: inv(agenthost.Required), Pool: sshpool.New(sshpool.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := agenthost.New(agenthost.Options{SSH: sp})
	if err != nil {
		t.Fatal(err)
	}
	set := hosts.New(ap, sp)
	defer set.Close()
	kind := func(name string) hosts.Kind {
		h, err := set.Resolve(context.Background(), name)
		if err != nil {
			t.Fatal(err)
		}
		return h.Kind
	}
	if k := kind("box"); k != hosts.KindAgent {
		t.Errorf("box with agent: required resolves to %s", k)
	}
	if k := kind("plain"); k != hosts.KindSSH {
		t.Errorf("plain without agent resolves to %s", k)
	}
	if _, err := set.Resolve(context.Background(), "nowhere"); err == nil {
		t.Error("an unknown host resolved")
	}
	sp.Reload(inv(agenthost.Off), nil)
	if k := kind("box"); k != hosts.KindSSH {
		t.Errorf("box after a reload to agent: off resolves to %s", k)
	}
}

// A reload that turns a host's agent off ends the agent running there.
func TestReloadOffEndsAgent(t *testing.T) {
	r := newRig(t, agenthost.Required, nil)
	if _, err := r.run(t, "true"); err != nil {
		t.Fatal(err)
	}
	pids := r.agentPIDs()
	if len(pids) != 1 {
		t.Fatalf("agents running: %v", pids)
	}
	r.ap.SetModes(map[string]string{"box": agenthost.Off})
	if h := r.host(t); h.Kind != hosts.KindSSH {
		t.Errorf("box after agent: off resolves to %s", h.Kind)
	}
	waitGone(t, "the agent of a host turned off", pids[0])
	if res, err := r.run(t, "echo plain"); err != nil || string(res.Stdout) != "plain\n" {
		t.Errorf("a call over plain SSH: %+v %v", res, err)
	}
}
