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

// TestReleaseScript runs scripts/release for two of its targets: each is
// really cross-compiled (an ELF for that machine and byte order, static,
// -trimpath, the version stamped), the manifest lists each with its
// digest, and a target outside the set is refused naming all of them.
func TestReleaseScript(t *testing.T) {
	// Two cold cross-builds of warden take minutes on a busy machine:
	// overlap them with the package's serial sshd tests.
	t.Parallel()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go toolchain on PATH")
	}
	out := t.TempDir()
	tree := treeState(t)
	cmd := exec.Command(scriptPath(t), "-o", out, "-v", "v0.0.0-test", "linux/arm64", "linux/mipsle")
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/release: %v\n%s", err, b)
	}
	for _, c := range []struct {
		name    string
		machine elf.Machine
		order   string
	}{
		{"warden-linux-arm64", elf.EM_AARCH64, "LittleEndian"},
		{"warden-linux-mipsle", elf.EM_MIPS, "LittleEndian"},
	} {
		p := filepath.Join(out, c.name)
		f, err := elf.Open(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if f.Machine != c.machine || f.ByteOrder.String() != c.order {
			t.Errorf("%s is %v %v, want %v %s", c.name, f.Machine, f.ByteOrder, c.machine, c.order)
		}
		if f.Section(".interp") != nil {
			t.Errorf("%s is dynamically linked", c.name)
		}
		f.Close()
		bi, err := buildinfo.ReadFile(p)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		settings := map[string]string{}
		for _, s := range bi.Settings {
			settings[s.Key] = s.Value
		}
		if settings["-trimpath"] != "true" || settings["CGO_ENABLED"] != "0" {
			t.Errorf("%s built with %v", c.name, settings)
		}
		// -trimpath keeps -ldflags out of the build info; the stamped
		// version is in the binary's data.
		if b, err := os.ReadFile(p); err != nil || !bytes.Contains(b, []byte("v0.0.0-test")) {
			t.Errorf("%s does not carry the version v0.0.0-test (%v)", c.name, err)
		}
		if c.name == "warden-linux-mipsle" && settings["GOMIPS"] != "softfloat" {
			t.Errorf("%s: GOMIPS %q, want softfloat", c.name, settings["GOMIPS"])
		}
	}
	f, err := os.Open(filepath.Join(out, agenthost.Manifest))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		sum, name, _ := strings.Cut(sc.Text(), "  ")
		listed[name] = sum
	}
	for _, name := range []string{"warden-linux-arm64", "warden-linux-mipsle"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprintf("%x", sha256.Sum256(b)); listed[name] != got {
			t.Errorf("%s lists %s as %q, its digest is %s", agenthost.Manifest, name, listed[name], got)
		}
	}
	if len(listed) != 2 {
		t.Errorf("%s lists %v, want the two builds", agenthost.Manifest, listed)
	}
	// Reproducible: the same commit and version give the same bytes.
	again := t.TempDir()
	if b, err := exec.Command(scriptPath(t), "-o", again, "-v", "v0.0.0-test", "linux/mipsle").CombinedOutput(); err != nil {
		t.Fatalf("scripts/release again: %v\n%s", err, b)
	}
	if a, b := fileSum(t, filepath.Join(out, "warden-linux-mipsle")), fileSum(t, filepath.Join(again, "warden-linux-mipsle")); a != b {
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
