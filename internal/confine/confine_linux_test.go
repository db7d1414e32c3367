package confine

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine/confinetest"
	"github.com/warden-mcp/warden/internal/hosts/hoststest"
)

// The kernel suite runs in a child of the test binary, once per way warden
// can run: root with the mount namespace, root with Landlock alone, and an
// unprivileged user. The child is started with a secret in its initial
// environment, as warden would be, and is warden's stand-in: the programs
// it starts are the ones that must not reach it.
const (
	suiteEnv  = "WARDEN_CONFINE_SUITE" // mechanism the child runs with
	baseEnv   = "WARDEN_CONFINE_BASE"  // directory the parent prepared
	enterEnv  = "WARDEN_CONFINE_ENTER" // "entered": the process whose namespaces programs run in
	secretEnv = "WARDEN_CONFINE_SECRET"
	secret    = "s3cr3t-0f-warden-7f1c"
	// privKey stands in for the SSH private key warden authenticates with.
	privKey = "warden-ssh-identity-5be2"
)

func TestKernelSuite(t *testing.T) {
	if os.Getenv(suiteEnv) != "" {
		t.Skip("the parent run starts the suite")
	}
	if _, err := New(Options{}, Required); err != nil {
		if os.Getenv("WARDEN_REQUIRE_LANDLOCK") == "1" {
			t.Fatalf("confinement required but unavailable: %v", err)
		}
		t.Skipf("confinement unavailable here: %v", err)
	}
	if os.Geteuid() != 0 {
		runSuite(t, "landlock", -1)
		return
	}
	for _, c := range []struct {
		name string
		uid  int
	}{{"mountns", 0}, {"landlock", 0}, {"landlock", 65534}, {"entered", 0}} {
		name := c.name
		if c.uid != 0 {
			name = "nonroot-" + name
		}
		// The four runs are processes of their own, each with its own
		// base directory and IPC namespace: they wait side by side.
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runSuite(t, c.name, c.uid)
		})
	}
}

// runSuite prepares a base directory and runs TestSuiteChild as uid (-1:
// as the current user) with mechanism mech.
func runSuite(t *testing.T, mech string, uid int) {
	base, err := os.MkdirTemp("/var/lib", "warden-confine-")
	if err != nil {
		base, err = os.MkdirTemp(os.Getenv("HOME"), "warden-confine-")
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(base, "confine.test")
	copyFile(t, exe, bin)
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	var pid int
	if mech == "entered" {
		// The container shape: warden shares the PID namespace of a host
		// whose mount, UTS, IPC and network namespaces are not its own.
		// There the base directory is also mounted at a second path,
		// which the rules must find to protect warden's state there too.
		alias := base + "-alias"
		if err := os.Mkdir(alias, 0o755); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.Remove(alias) })
		pid = hoststest.Target(t, enteredHostname, map[string]string{base: alias})
	}
	if uid > 0 {
		if err := os.Chown(base, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
	// Another test's fork may still hold the copy open for writing when
	// the child starts (go.dev/issue/22315): then the start is tried again.
	var out []byte
	for try := 0; ; try++ {
		out, err = startSuite(t, bin, mech, uid, base, pid)
		if !errors.Is(err, syscall.ETXTBSY) || try == 20 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		// Only what failed: the whole verbose run is thousands of lines,
		// which a CI log cuts before the failure.
		t.Fatalf("suite as uid %d with %s failed: %v\n%s", uid, mech, err, failures(out))
	}
	if !bytes.Contains(out, []byte("--- PASS: TestSuiteChild")) {
		t.Fatal("the suite did not run")
	}
}

// startSuite runs the copied test binary bin as the suite's child and
// returns its output.
func startSuite(t *testing.T, bin, mech string, uid int, base string, pid int) ([]byte, error) {
	cmd := exec.Command(bin, "-test.run", "^TestSuiteChild$", "-test.v")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", suiteEnv + "=" + mech, baseEnv + "=" + base, secretEnv + "=" + secret}
	if mech == "entered" {
		// setsid: warden leads its own process group there, as in a
		// container. A group led from outside the namespace has no id
		// inside it (getpgrp returns 0), so kill(0) from a program of
		// the fixture, which does not start programs in groups of their
		// own as warden's runners do, would reach this test's group.
		// --ipc: warden's own System V objects and message queues are
		// in the host's IPC namespace too, where the kernel-objects test
		// counts them.
		cmd = exec.Command("nsenter", append([]string{"--target", strconv.Itoa(pid), "--pid", "--ipc", "--", "setsid"}, cmd.Args...)...)
		cmd.Env = append(cmd.Env, suiteEnv+"="+mech, baseEnv+"="+base, secretEnv+"="+secret, enterEnv+"="+strconv.Itoa(pid), "PATH=/usr/local/bin:/usr/bin:/bin")
	}
	if uid >= 0 && mech != "entered" {
		// An IPC namespace of the suite's own: the kernel-objects test
		// counts every System V object and message queue, which other
		// tests running meanwhile make and remove too.
		cmd.SysProcAttr = &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWIPC}
	}
	if uid > 0 {
		if cmd.SysProcAttr == nil {
			cmd.SysProcAttr = &syscall.SysProcAttr{}
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid)}
	}
	// A descriptor warden's own parent left open (fd 3 in the child) holds
	// the secret too: no program warden starts may inherit it.
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	w.WriteString(secret + "\n")
	w.Close()
	defer r.Close()
	cmd.ExtraFiles = []*os.File{r}
	return cmd.CombinedOutput()
}

// failures is a verbose test run's output without the lines of what ran
// and passed.
func failures(out []byte) string {
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(out), "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "=== ") || strings.HasPrefix(l, "--- PASS") || strings.HasPrefix(l, "--- SKIP") {
			continue
		}
		b.WriteString(line)
	}
	return b.String()
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o755); err != nil {
		t.Fatal(err)
	}
}

// fixture is the child's view: warden's state dir with a token, and a
// directory the user may write (by permissions) that is not temporary.
type fixture struct {
	c      *Confiner
	state  string
	target string
	key    string // an SSH private key warden authenticates with
	enter  int    // the process whose namespaces programs run in, or 0
}

func TestSuiteChild(t *testing.T) {
	mech := os.Getenv(suiteEnv)
	if mech == "" {
		t.Skip("started by TestKernelSuite")
	}
	if err := HideProcess(); err != nil {
		t.Fatal(err)
	}
	base := os.Getenv(baseEnv)
	f := fixture{state: filepath.Join(base, "state"), target: filepath.Join(base, "target"), key: filepath.Join(base, "home", ".ssh", "id_ed25519")}
	for _, d := range []string{f.state, f.target, filepath.Dir(f.key)} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(f.state, "token"), []byte(secret+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f.key, []byte(privKey+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	enter, _ := strconv.Atoi(os.Getenv(enterEnv))
	// An ssh-agent's socket, held like the key.
	agent := filepath.Join(filepath.Dir(f.key), "agent.sock")
	confinetest.Agent(t, agent, privKey)
	c, err := New(Options{Protect: []string{f.state}, Private: func() []string { return []string{f.key, agent} }, Enter: enter}, Required)
	if err != nil {
		t.Fatal(err)
	}
	if mech == "landlock" {
		c.mountNS = false
	} else if !c.mountNS {
		t.Fatalf("mount namespace unavailable as root: %s", c.Status().Mechanism)
	}
	f.c, f.enter = c, enter
	t.Logf("uid %d, %s, mount namespace %v", os.Geteuid(), c.Status().Mechanism, c.mountNS)
	devs := makeDevices(t, enter)
	t.Run("writes", f.testWrites)
	t.Run("temp", f.testTemp)
	t.Run("setid", f.testSetID)
	t.Run("state", f.testState)
	t.Run("private keys", f.testPrivate)
	t.Run("above state", f.testAbove)
	t.Run("process", f.testProcess)
	t.Run("leftovers", f.testLeftovers)
	t.Run("zombies", f.testZombies)
	t.Run("pinned bpf maps", f.testPinnedMaps)
	t.Run("line disciplines", f.testLineDisciplines)
	t.Run("freeze", f.testFreeze)
	t.Run("perf", f.testPerf)
	t.Run("user namespaces", f.testUserNamespaces)
	t.Run("rebuild", f.testRebuild)
	t.Run("devices", func(t *testing.T) { f.testDevices(t, devs) })
	t.Run("abstract sockets", f.testAbstract)
	t.Run("daemon sockets", f.testDaemons)
	t.Run("core dumps", f.testCores)
	t.Run("socket families", f.testFamilies)
	t.Run("ports", f.testPorts)
	t.Run("cgroups", f.testCgroups)
	t.Run("futex", f.testFutex)
	t.Run("terminals", f.testTerminals)
	t.Run("input devices", f.testInputs)
	t.Run("acts", f.testActs)
	t.Run("inspect capabilities", f.testInspectCaps)
	t.Run("locked memory", f.testLockedMemory)
	t.Run("kmsg", f.testKmsg)
	t.Run("others' temporary files", f.testOthersTemp)
	t.Run("loop devices", f.testLoop)
	if mech != "landlock" || os.Geteuid() != 0 {
		// As root, the mount namespace's run has the same seccomp
		// rules for these objects.
		t.Run("kernel objects", f.testObjects)
	}
	if enter == 0 { // the programs would see another /proc
		t.Run("other processes", f.testForeign)
	}
	if enter > 0 {
		t.Run("entered", f.testEntered)
	}
}

// run starts script with sh at level and returns its exit code and output.
func (f fixture) run(t *testing.T, level Level, script string) (int, string) {
	t.Helper()
	return f.runAs(t, Admission{Level: level}, script)
}

// runAs is run with a whole admission.
func (f fixture) runAs(t *testing.T, a Admission, script string) (int, string) {
	t.Helper()
	level := a.Level
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", script)
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "T=" + f.target, "S=" + f.state, "HOME=/"}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	// A process the program left behind (a CLONE_PARENT child is this
	// process's) may hold the output open: fail, never hang the suite.
	cmd.WaitDelay = 10 * time.Second
	release, err := f.c.Start(With(ctx, a), cmd.Start)
	if err != nil {
		f.diagnose(t, level)
		t.Fatalf("start: %v", err)
	}
	err = cmd.Wait()
	release()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("wait: %v", err)
	}
	return code, out.String()
}

// snapshot describes the target directory (confinetest.Snapshot).
func (f fixture) snapshot(t *testing.T) string {
	t.Helper()
	s, err := confinetest.Snapshot(f.target)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func (f fixture) reset(t *testing.T) {
	t.Helper()
	os.RemoveAll(f.target)
	if err := os.MkdirAll(filepath.Join(f.target, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(f.target, "existing"), []byte("original\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(filepath.Join(f.target, "existing"), old, old)
}

func (f fixture) testWrites(t *testing.T) {
	for _, level := range []Level{Read, Temp, Inspect} {
		for _, w := range confinetest.Writes() {
			t.Run(string(level)+"/"+w.Name, func(t *testing.T) {
				if level == Temp && confinetest.Metadata(w.Name) && !f.c.mountNS {
					t.Skip("a known gap without a mount namespace (Status.Gaps)")
				}
				f.reset(t)
				before := f.snapshot(t)
				_, out := f.run(t, level, w.Script)
				if after := f.snapshot(t); after != before {
					t.Errorf("%s at %s changed the file system:\nbefore:\n%s\nafter:\n%s\noutput: %s", w.Script, level, before, after, out)
				}
			})
		}
	}
	// The control: approved, each write lands, so each case above tests
	// the kernel and not a script that fails on its own.
	for _, w := range confinetest.Writes() {
		t.Run("full/"+w.Name, func(t *testing.T) {
			if f.c.mountNS && confinetest.AcrossMounts(w.Name) {
				t.Skip("a hard link cannot cross the mount that pins the target's directory")
			}
			f.reset(t)
			before := f.snapshot(t)
			if _, out := f.run(t, Full, w.Script); f.snapshot(t) == before {
				t.Errorf("%s changed nothing even when approved: %s", w.Script, out)
			}
		})
	}
	t.Run("full writes", func(t *testing.T) {
		f.reset(t)
		if code, out := f.run(t, Full, `echo x > $T/new && rm $T/existing`); code != 0 {
			t.Fatalf("an approved write failed: exit %d: %s", code, out)
		}
		if _, err := os.Stat(filepath.Join(f.target, "new")); err != nil {
			t.Errorf("approved write did not land: %v", err)
		}
	})
}

func (f fixture) testTemp(t *testing.T) {
	name := fmt.Sprintf("/tmp/warden-confine-%d", os.Getpid())
	defer os.RemoveAll(name)
	if code, _ := f.run(t, Read, "mkdir "+name); code == 0 {
		t.Error("a read made a directory in /tmp")
	}
	if code, out := f.run(t, Temp, "mkdir "+name+" && echo x > "+name+"/f && mv "+name+"/f "+name+"/g && cat "+name+"/g"); code != 0 || out != "x\n" {
		t.Errorf("a benign call could not use /tmp: exit %d: %s", code, out)
	}
	for _, level := range []Level{Read, Temp, Inspect} {
		if code, out := f.run(t, level, "echo x > /dev/null && cat /etc/passwd >/dev/null && ls / >/dev/null"); code != 0 {
			t.Errorf("%s: reading and writing /dev/null failed: exit %d: %s", level, code, out)
		}
	}
}

// testRebuild shows a file created beside warden's state after the rules
// were built is readable by the next read: the rules are rebuilt when a
// directory they enumerated changes.
func (f fixture) testRebuild(t *testing.T) {
	if code, out := f.run(t, Read, "true"); code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	late := filepath.Join(filepath.Dir(f.state), "late")
	if err := os.WriteFile(late, []byte("late\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(late)
	if code, out := f.run(t, Read, "cat "+late); code != 0 || out != "late\n" {
		t.Errorf("a file made after the rules were built is unreadable: exit %d: %s", code, out)
	}
}

// TestConcurrentStartsWhileRulesChange starts programs at every level from
// many goroutines while a directory the rules enumerated keeps changing,
// so workers are retired and rebuilt under load: every program runs, each
// at its own level.
func TestConcurrentStartsWhileRulesChange(t *testing.T) {
	parent := t.TempDir()
	c, err := New(Options{Protect: []string{filepath.Join(parent, "state")}}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		t.Skipf("confinement unavailable: %s", c.Status().Mechanism)
	}
	os.Mkdir(filepath.Join(parent, "state"), 0o700)
	stop := make(chan struct{})
	churned := make(chan struct{})
	go func() {
		defer close(churned)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			os.WriteFile(filepath.Join(parent, fmt.Sprintf("f%d", i%8)), nil, 0o600)
			os.Remove(filepath.Join(parent, fmt.Sprintf("f%d", (i+4)%8)))
			time.Sleep(time.Millisecond)
		}
	}()
	levels := []Level{Read, Temp, Inspect, Full}
	errs := make(chan error, 64)
	for g := range 16 {
		go func() {
			level := levels[g%len(levels)]
			for range 10 {
				cmd := exec.Command("/bin/sh", "-c", "echo x > /dev/null; echo ok")
				var out bytes.Buffer
				cmd.Stdout = &out
				release, err := c.Start(With(context.Background(), Admission{Level: level}), cmd.Start)
				if err != nil {
					errs <- err
					return
				}
				err = cmd.Wait()
				release()
				if err != nil || out.String() != "ok\n" {
					errs <- fmt.Errorf("%s: %q %v", level, out.String(), err)
					return
				}
			}
			errs <- nil
		}()
	}
	for range 16 {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
	close(stop)
	<-churned
}

// TestProtectedFilesAppearingLater protects a file that appears after the
// rules were built (a rotated audit log beside one kept outside the state
// dir): the next program cannot read it.
func TestProtectedFilesAppearingLater(t *testing.T) {
	dir := t.TempDir()
	rotated := filepath.Join(dir, "audit-2026.jsonl")
	var listed []string
	c, err := New(Options{Protect: []string{filepath.Join(dir, "audit.jsonl")}, Protected: func() []string { return listed }}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		t.Skipf("confinement unavailable: %s", c.Status().Mechanism)
	}
	f := fixture{c: c, target: dir}
	f.run(t, Read, "true")
	if err := os.WriteFile(rotated, []byte("rotated-record\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	listed = []string{rotated}
	for _, level := range []Level{Read, Temp, Full} {
		if _, out := f.run(t, level, "cat "+rotated); strings.Contains(out, "rotated-record") {
			t.Errorf("%s read a rotated audit file that appeared after the rules were built", level)
		}
	}
}

// TestApprovedProfile narrows approved programs as the operator's confine
// block says: writes only under the writable paths and the temporary
// directories, no TCP; the per-tool block replaces the global one.
func TestApprovedProfile(t *testing.T) {
	allowed, other := markerDirs(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	c, err := New(Options{
		Approved: Profile{Writable: []string{allowed}, NoNetwork: true},
		Tools:    map[string]Profile{"free": {}},
	}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		t.Skipf("confinement unavailable: %s", c.Status().Mechanism)
	}
	connect := fmt.Sprintf(`python3 -c 'import socket; socket.create_connection(("127.0.0.1", %d), 5)' && echo connected`, port)
	daemons := false
	run := func(tool, script string) (int, string) {
		cmd := exec.Command("/bin/sh", "-c", script)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		release, err := c.Start(With(context.Background(), Admission{Level: Full, Tool: tool, Daemons: daemons}), cmd.Start)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Wait()
		release()
		return cmd.ProcessState.ExitCode(), out.String()
	}
	if code, out := run("run_command", "echo x > "+allowed+"/a"); code != 0 {
		t.Errorf("write under a writable path refused: %s", out)
	}
	run("run_command", "echo x > "+other+"/b")
	if _, err := os.Stat(filepath.Join(other, "b")); err == nil {
		t.Error("an approved program wrote outside confine.writable")
	}
	if _, out := run("run_command", connect); strings.Contains(out, "connected") {
		t.Error("an approved program connected with network: false")
	}
	// A daemon would write past confine.writable for it: its socket is
	// reached only by a command that runs a daemon's client.
	sock := filepath.Join(allowed, "daemon.sock")
	confinetest.Daemon(t, sock)
	ask := `python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).connect(sys.argv[1])' ` + sock + ` && echo asked`
	if _, out := run("run_command", ask); strings.Contains(out, "asked") {
		t.Error("an approved program under confine.writable reached a daemon's socket")
	}
	// Nor through an io_uring ring, whose socket and connect operations
	// the filter never sees.
	uring := `python3 -c 'import ctypes; l = ctypes.CDLL(None); print("ring", l.syscall(425, 8, ctypes.create_string_buffer(120)) >= 0)'`
	if _, out := run("run_command", uring); !strings.Contains(out, "ring False") {
		t.Errorf("an approved program under confine.writable made an io_uring ring: %s", out)
	}
	daemons = true
	if _, out := run("run_command", ask); !strings.Contains(out, "asked") {
		t.Errorf("a daemon's client under confine.writable could not reach its socket: %s", out)
	}
	daemons = false
	// The per-tool block replaces the global one: unconfined but for state.
	if code, out := run("free", "echo x > "+other+"/c && "+connect+" && "+ask+" && "+uring); code != 0 || !strings.Contains(out, "asked") || !strings.Contains(out, "ring True") {
		t.Errorf("the tool's own block did not apply: exit %d: %s", code, out)
	}
}

// markerDirs makes two directories outside the temporary ones.
func markerDirs(t *testing.T) (string, string) {
	t.Helper()
	var dirs []string
	for range 2 {
		d, err := os.MkdirTemp("/var/lib", "warden-confine-profile-")
		if err != nil {
			t.Skipf("no directory outside the temporary ones: %v", err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dirs = append(dirs, d)
	}
	return dirs[0], dirs[1]
}

// TestProtectedTooDeep fails closed: rules that cannot stop above a
// protected path far down the tree start nothing.
func TestProtectedTooDeep(t *testing.T) {
	deep := filepath.Join(t.TempDir(), strings.Repeat("d/", maxWalkDepth+2), "state")
	if err := os.MkdirAll(deep, 0o700); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{Protect: []string{deep}}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		t.Skipf("confinement unavailable: %s", c.Status().Mechanism)
	}
	ran := false
	_, err = c.Start(With(context.Background(), Admission{Level: Read}), func() error { ran = true; return nil })
	if err == nil || ran {
		t.Fatalf("Start = %v, ran %v; want a refusal and nothing started", err, ran)
	}
}

func TestReleaseAtLeast(t *testing.T) {
	for rel, want := range map[string]bool{
		"6.1.0-27-amd64": true, "5.5.0": true, "5.10.0-32-arm64": true, "5.4.0-216-generic": false,
		"4.4.302+": false, "5.15.167.4-microsoft-standard-WSL2": true, "10.0": true, "": false, "x.y": false,
	} {
		if got := releaseAtLeast(rel, 5, 5); got != want {
			t.Errorf("releaseAtLeast(%q, 5, 5) = %v, want %v", rel, got, want)
		}
	}
}

// enteredHostname names the host of the container shape in the suite.
const enteredHostname = "warden-entered-host"

// testEntered shows programs run in the entered host's namespaces, and
// that warden's state is out of reach there at a path warden's own
// namespace does not have: the host mounts the base directory a second
// time, at base-alias.
func (f fixture) testEntered(t *testing.T) {
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		if code, out := f.run(t, level, "hostname"); code != 0 || out != enteredHostname+"\n" {
			t.Errorf("%s: hostname %q (exit %d), want the entered host's", level, out, code)
		}
	}
	alias := filepath.Dir(f.state) + "-alias"
	// The control: approved, a write through the alias lands, so the
	// alias is there and the refusals below are the rules'.
	f.reset(t)
	if code, out := f.run(t, Full, "echo x > "+alias+"/target/new"); code != 0 {
		t.Fatalf("an approved write through the host's second mount failed: exit %d: %s", code, out)
	}
	if _, err := os.Stat(filepath.Join(f.target, "new")); err != nil {
		t.Fatalf("the host's second mount is not the base directory: %v", err)
	}
	for _, level := range []Level{Read, Temp, Inspect} {
		f.reset(t)
		f.run(t, level, "echo x > "+alias+"/target/new; rm -f "+alias+"/target/existing")
		if _, err := os.Stat(filepath.Join(f.target, "new")); err == nil {
			t.Errorf("%s wrote through the host's second mount", level)
		}
		if _, err := os.Stat(filepath.Join(f.target, "existing")); err != nil {
			t.Errorf("%s removed a file through the host's second mount", level)
		}
	}
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for _, script := range []string{"cat " + alias + "/state/token", "ls -la " + alias + "/state", "grep -r . " + alias, "echo x > " + alias + "/state/token"} {
			if _, out := f.run(t, level, script); strings.Contains(out, secret) || strings.Contains(out, "token") && strings.HasPrefix(script, "ls") {
				t.Errorf("%s at %s reached warden's state through the host's second mount: %s", script, level, out)
			}
		}
		if b, err := os.ReadFile(filepath.Join(f.state, "token")); err != nil || string(b) != secret+"\n" {
			t.Fatalf("the token changed at %s: %q, %v", level, b, err)
		}
	}
}
