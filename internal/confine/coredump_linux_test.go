package confine

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// testCores checks that a program below tier 2 starts with a core limit
// of 1 (no pipe dump: the crash handler would write for it, outside every
// confinement), cannot raise it by either call, can still read it, and
// leaves no core when it crashes; an approved program may raise it.
func (f fixture) testCores(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	show := `; python3 -c 'import resource; print("limit", resource.getrlimit(resource.RLIMIT_CORE)[0])'`
	raise := map[string]string{
		// bash's ulimit: glibc's setrlimit, made with prlimit64.
		"ulimit": `ulimit -c unlimited 2>/dev/null` + show,
		// The setrlimit call itself, as static and older programs make it.
		"setrlimit": `python3 -c 'import ctypes, os, resource; nr = {"x86_64": 160, "aarch64": 164}[os.uname().machine]; l = (ctypes.c_ulong * 2)(4096, 4096); ctypes.CDLL(None).syscall(nr, 4, l); print("limit", resource.getrlimit(resource.RLIMIT_CORE)[0])'`,
	}
	for _, level := range []Level{Read, Temp, Full} {
		for call, script := range raise {
			t.Run(string(level)+" "+call, func(t *testing.T) {
				_, out := f.run(t, level, script)
				if !strings.Contains(out, "limit ") {
					t.Fatalf("no limit shown: %s", out)
				}
				raised := !strings.Contains(out, "limit 1\n")
				if raised != (level == Full) {
					t.Errorf("core limit after raising it: %q (raised %v)", out, raised)
				}
			})
		}
	}
	// Reading it, as prlimit(1) does for every limit, stays.
	if _, out := f.run(t, Read, `python3 -c 'import resource; print("core", resource.prlimit(0, resource.RLIMIT_CORE)[0])'`); !strings.Contains(out, "core 1") {
		t.Errorf("a read cannot read its core limit: %s", out)
	}
	// A benign program crashing in a directory it may write leaves no
	// core there, whatever the core pattern's file name.
	dir, err := os.MkdirTemp("/tmp", "warden-cores-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	f.run(t, Temp, "cd "+dir+" && ulimit -c unlimited; sh -c 'kill -SEGV $$'; true")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a crashing benign program left %s", filepath.Join(dir, entries[0].Name()))
	}
}

const coreZeroEnv = "WARDEN_CONFINE_CORE_ZERO"

// TestCoreLimitUnraisable runs TestCoreLimitUnraisableChild as a user who
// cannot raise a hard core limit of 0 to 1 (limitCores fails): warden
// still serves, says a crashing program's core goes to the crash handler
// (a limit of 0 stops a file, not a pipe), and its programs start.
func TestCoreLimitUnraisable(t *testing.T) {
	if os.Getenv(coreZeroEnv) != "" {
		t.Skip("runs in the child")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestCoreLimitUnraisableChild$", "-test.v")
	cmd.Env = append(os.Environ(), coreZeroEnv+"=1")
	if os.Geteuid() == 0 {
		// Root raises any limit: the child runs as nobody, from a copy
		// of the binary nobody can read.
		dir, err := os.MkdirTemp("/var/lib", "warden-core-")
		if err != nil {
			t.Skip(err)
		}
		defer os.RemoveAll(dir)
		os.Chmod(dir, 0o755)
		b, err := os.ReadFile(exe)
		if err != nil {
			t.Fatal(err)
		}
		cmd.Path = filepath.Join(dir, "confine.test")
		if err := os.WriteFile(cmd.Path, b, 0o755); err != nil {
			t.Fatal(err)
		}
		cmd.Dir = dir
		cmd.Env = []string{"PATH=/usr/bin:/bin", coreZeroEnv + "=1", "HOME=" + dir}
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestCoreLimitUnraisableChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestCoreLimitUnraisableChild(t *testing.T) {
	if os.Getenv(coreZeroEnv) == "" {
		t.Skip("started by TestCoreLimitUnraisable")
	}
	if err := unix.Setrlimit(unix.RLIMIT_CORE, &unix.Rlimit{}); err != nil {
		t.Fatal(err)
	}
	c, err := New(Options{}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(c.Status().Gaps, func(g string) bool { return strings.Contains(g, "crash handler") }) {
		t.Errorf("gaps %q do not say where a crashing program's core goes", c.Status().Gaps)
	}
	f := fixture{c: c, target: t.TempDir()}
	if code, out := f.run(t, Read, "ulimit -c"); code != 0 || out != "0\n" {
		t.Errorf("a program did not start with the limit warden had: exit %d: %s", code, out)
	}
}
