package confine

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

const noLandlockEnv = "WARDEN_CONFINE_NO_LANDLOCK"

// TestWithoutLandlock runs TestNoLandlockChild in a process whose
// landlock_create_ruleset fails with ENOSYS, as on a kernel without
// Landlock: Required refuses, Auto reports none and still starts programs.
func TestWithoutLandlock(t *testing.T) {
	if os.Getenv(noLandlockEnv) != "" {
		t.Skip("runs in the child")
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	var out []byte
	err = onThread(func() error {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return err
		}
		a := arches[runtime.GOARCH]
		f := filter{}
		f.stmt(bpfLdW, offArch)
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 1, Jf: 0, K: a.audit})
		f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
		f.stmt(bpfLdW, offNr)
		f = append(f, unix.SockFilter{Code: bpfJeq, Jt: 0, Jf: 1, K: unix.SYS_LANDLOCK_CREATE_RULESET})
		f.stmt(bpfRet, unix.SECCOMP_RET_ERRNO|uint32(unix.ENOSYS))
		f.stmt(bpfRet, unix.SECCOMP_RET_ALLOW)
		if err := f.install(); err != nil {
			return err
		}
		cmd := exec.Command(exe, "-test.run", "^TestNoLandlockChild$", "-test.v")
		cmd.Env = append(os.Environ(), noLandlockEnv+"=1")
		var err error
		out, err = cmd.CombinedOutput()
		return err
	})
	if _, ok := arches[runtime.GOARCH]; !ok {
		t.Skip("no seccomp table for this architecture")
	}
	if err != nil || !strings.Contains(string(out), "--- PASS: TestNoLandlockChild") {
		t.Fatalf("child: %v\n%s", err, out)
	}
}

func TestNoLandlockChild(t *testing.T) {
	if os.Getenv(noLandlockEnv) == "" {
		t.Skip("started by TestWithoutLandlock")
	}
	if _, err := New(Options{}, Required); err == nil || !strings.Contains(err.Error(), "required but unavailable") {
		t.Fatalf("New(Required) = %v, want a refusal", err)
	}
	c, err := New(Options{}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	st := c.Status()
	if st.Active || !strings.HasPrefix(st.Mechanism, "none: landlock is not enabled") {
		t.Fatalf("status = %+v, want none", st)
	}
	f := fixture{c: c, target: t.TempDir()}
	if code, out := f.run(t, Read, "echo ran"); code != 0 || out != "ran\n" {
		t.Fatalf("auto without Landlock did not run the program: exit %d: %s", code, out)
	}
}
