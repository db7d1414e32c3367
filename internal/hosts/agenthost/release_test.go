package agenthost_test

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"debug/buildinfo"
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/hosts/agenthost"
)

// scriptPath is scripts/release of this checkout.
func scriptPath(t *testing.T) string {
	t.Helper()
	p, err := filepath.Abs("../../../scripts/release")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal(err)
	}
	return p
}

// treeState digests the checkout's commit and uncommitted changes, so a
// test can tell whether the sources changed under it.
func treeState(t *testing.T) string {
	t.Helper()
	head, err := exec.Command("git", "-C", "../../..", "rev-parse", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	diff, err := exec.Command("git", "-C", "../../..", "diff", "HEAD").Output()
	if err != nil {
		return "unknown"
	}
	untracked, _ := exec.Command("git", "-C", "../../..", "status", "--porcelain").Output()
	return fmt.Sprintf("%s %x %x", head, sha256.Sum256(diff), sha256.Sum256(untracked))
}

// TestReleaseScript runs scripts/release for one of its targets, the
// most foreign (32-bit, soft-float MIPS): it is really cross-compiled (an
// ELF for that machine and byte order, static, -trimpath, the version
// stamped, GOMIPS=softfloat), reproducibly; the manifest lists it with its
// digest beside a build an earlier run left in the directory; and a target
// outside the set is refused naming all of them. One cold cross-build of
// warden is minutes of CPU on the test machine, so one is built, not two.
func TestReleaseScript(t *testing.T) {
	// A cold cross-build takes minutes on a busy machine: overlap it with
	// the package's serial sshd tests.
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain on PATH")
	}
	out := t.TempDir()
	// An earlier run's build for another target stays in the manifest.
	earlier := filepath.Join(out, "warden-linux-arm64")
	if err := os.WriteFile(earlier, []byte("an earlier run's build\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	tree := treeState(t)
	const name = "warden-linux-mipsle"
	cmd := exec.Command(scriptPath(t), "-o", out, "-v", "v0.0.0-test", "linux/mipsle")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, b)
	}
	p := filepath.Join(out, name)
	f, err := elf.Open(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if f.Machine != elf.EM_MIPS || f.ByteOrder.String() != "LittleEndian" || f.Class != elf.ELFCLASS32 {
		t.Errorf("%s is %v %v %v, want 32-bit little-endian MIPS", name, f.Machine, f.ByteOrder, f.Class)
	}
	if f.Section(".interp") != nil {
		t.Errorf("%s is dynamically linked", name)
	}
	f.Close()
	bi, err := buildinfo.ReadFile(p)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	settings := map[string]string{}
	for _, s := range bi.Settings {
		settings[s.Key] = s.Value
	}
	if settings["-trimpath"] != "true" || settings["CGO_ENABLED"] != "0" || settings["GOMIPS"] != "softfloat" {
		t.Errorf("%s built with %v", name, settings)
	}
	// -trimpath keeps -ldflags out of the build info; the stamped
	// version is in the binary's data.
	if b, err := os.ReadFile(p); err != nil || !bytes.Contains(b, []byte("v0.0.0-test")) {
		t.Errorf("%s does not carry the version v0.0.0-test (%v)", name, err)
	}
	mf, err := os.Open(filepath.Join(out, agenthost.Manifest))
	if err != nil {
		t.Fatal(err)
	}
	defer mf.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(mf)
	for sc.Scan() {
		sum, name, _ := strings.Cut(sc.Text(), "  ")
		listed[name] = sum
	}
	for _, p := range []string{p, earlier} {
		if got, name := fileSum(t, p), filepath.Base(p); listed[name] != got {
			t.Errorf("%s lists %s as %q, its digest is %s", agenthost.Manifest, name, listed[name], got)
		}
	}
	if len(listed) != 2 {
		t.Errorf("%s lists %v, want the new build and the earlier one", agenthost.Manifest, listed)
	}
	// Reproducible: the same commit and version give the same bytes.
	again := t.TempDir()
	if b, err := exec.Command(scriptPath(t), "-o", again, "-v", "v0.0.0-test", "linux/mipsle").CombinedOutput(); err != nil {
		t.Fatalf("scripts/release again: %v\n%s", err, b)
	}
	if a, b := fileSum(t, p), fileSum(t, filepath.Join(again, name)); a != b {
		if treeState(t) != tree {
			t.Logf("the working tree changed between the two builds; their bytes are not compared")
		} else {
			t.Errorf("two builds of linux/mipsle differ: %s, %s", a, b)
		}
	}
	b, err := exec.Command(scriptPath(t), "-o", t.TempDir(), "linux/sparc64").CombinedOutput()
	if err == nil {
		t.Fatal("a target outside the set was built")
	}
	for _, plat := range agenthost.Platforms {
		if !strings.Contains(string(b), plat) {
			t.Errorf("the refusal %q does not name %s", b, plat)
		}
	}
}
