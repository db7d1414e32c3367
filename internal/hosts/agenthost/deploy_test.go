package agenthost

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Every target of the build set is chosen from the `uname -sm` its hosts
// print (and, for 32-bit MIPS, the byte order of /bin/sh), and the build
// chosen is that platform's file of the set with the manifest's digest.
func TestChooseByUname(t *testing.T) {
	dir := t.TempDir()
	sums := map[string]string{}
	var manifest strings.Builder
	for _, plat := range Platforms {
		name := buildName(plat)
		body := []byte("build of " + plat)
		if err := os.WriteFile(filepath.Join(dir, name), body, 0o755); err != nil {
			t.Fatal(err)
		}
		sums[plat] = fmt.Sprintf("%x", sha256.Sum256(body))
		fmt.Fprintf(&manifest, "%s  %s\n", sums[plat], name)
	}
	if err := os.WriteFile(filepath.Join(dir, Manifest), []byte(manifest.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	b := newBuilds(dir, nil)
	covered := map[string]bool{}
	for _, c := range []struct{ uname, order, want string }{
		{"Linux x86_64", "01", "linux/amd64"},
		{"Linux aarch64", "01", "linux/arm64"},
		{"Linux arm64", "", "linux/arm64"},
		{"Linux armv7l", "01", "linux/armv7"},
		{"Linux armv8l", "01", "linux/armv7"},
		{"Linux mips", "02", "linux/mips"},
		{"Linux mips", "01", "linux/mipsle"},
		{"Linux mipsel", "", "linux/mipsle"},
		{"FreeBSD amd64", "01", "freebsd/amd64"},
	} {
		plat, err := platform(c.uname, c.order)
		if err != nil || plat != c.want {
			t.Errorf("platform(%q, %q) = %q, %v; want %q", c.uname, c.order, plat, err, c.want)
			continue
		}
		ch, err := choose(b, probe{platform: plat, cache: "/home/u/.cache/warden/agent"}, "")
		if err != nil {
			t.Errorf("%s: %v", c.uname, err)
			continue
		}
		want := "/home/u/.cache/warden/agent/" + sums[c.want][:16] + "-" + strings.ReplaceAll(c.want, "/", "-") + "/warden"
		if ch.sum != sums[c.want] || ch.remote != want || !ch.upload || !strings.Contains(ch.why, dir) {
			t.Errorf("%s: chose %+v, want %s with digest %s from %s", c.uname, ch, want, sums[c.want], dir)
		}
		covered[plat] = true
	}
	for _, plat := range Platforms {
		if !covered[plat] {
			t.Errorf("no uname case selects %s", plat)
		}
	}
	for _, c := range []struct{ uname, order, why string }{
		{"", "", "uname -sm said"},
		{"Linux", "", "uname -sm said"},
		{"Linux x86_64 extra", "", "uname -sm said"},
		{"Darwin arm64", "", "no agent for Darwin arm64"},
		{"Linux sparc64", "", "no agent for Linux sparc64"},
		{"Linux armv6l", "01", "no agent for Linux armv6l"},
		{"Linux mips", "", "byte order"},
	} {
		if got, err := platform(c.uname, c.order); err == nil || !strings.Contains(err.Error(), c.why) {
			t.Errorf("platform(%q, %q) = %q, %v; want an error saying %q", c.uname, c.order, got, err, c.why)
		}
	}
	// A platform the kernel names but the set does not hold.
	if _, err := choose(b, probe{platform: "linux/386", cache: "/c"}, ""); err == nil || !strings.Contains(err.Error(), "no warden build for linux/386 in the build set "+dir) {
		t.Errorf("choose for linux/386: %v, want no build in the set", err)
	}
}

// A build whose bytes are not the manifest's is never chosen, and the
// reason names both digests; a malformed or missing manifest says so.
func TestManifestChecked(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "warden-linux-arm64"), []byte("tampered"), 0o755)
	os.WriteFile(filepath.Join(dir, Manifest), []byte(strings.Repeat("ab", 32)+"  warden-linux-arm64\n"), 0o644)
	_, err := choose(newBuilds(dir, nil), probe{platform: "linux/arm64", cache: "/c"}, "")
	if !errors.Is(err, errMismatch) || !strings.Contains(err.Error(), strings.Repeat("ab", 32)) || !strings.Contains(err.Error(), "refusing to upload") {
		t.Errorf("a tampered build: %v", err)
	}
	os.WriteFile(filepath.Join(dir, Manifest), []byte("not a digest  warden-linux-arm64\n"), 0o644)
	if _, err := choose(newBuilds(dir, nil), probe{platform: "linux/arm64", cache: "/c"}, ""); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("a malformed manifest: %v", err)
	}
	empty := t.TempDir()
	if _, err := choose(newBuilds(empty, nil), probe{platform: "linux/arm64", cache: "/c"}, ""); err == nil || !strings.Contains(err.Error(), "agent.builds") {
		t.Errorf("no manifest: %v", err)
	}
	// An operator-installed agent is checked against the manifest when
	// it lists the platform, run as installed when it does not, and
	// refused when the manifest cannot be read.
	os.WriteFile(filepath.Join(dir, Manifest), []byte(strings.Repeat("ab", 32)+"  warden-linux-arm64\n"), 0o644)
	b := newBuilds(dir, nil)
	if ch, err := choose(b, probe{platform: "linux/arm64"}, "/opt/warden"); err != nil || ch.sum != strings.Repeat("ab", 32) || ch.upload || ch.remote != "/opt/warden" {
		t.Errorf("agent_path with a manifest entry: %+v %v", ch, err)
	}
	if ch, err := choose(b, probe{platform: "linux/mips"}, "/opt/warden"); err != nil || ch.sum != "" || ch.upload || !strings.Contains(ch.why, "no manifest entry for linux/mips") {
		t.Errorf("agent_path without a manifest entry: %+v %v", ch, err)
	}
	if ch, err := choose(b, probe{platformErr: errors.New("no agent for Linux armv6l")}, "/opt/warden"); err != nil || ch.sum != "" || !strings.Contains(ch.why, "armv6l") {
		t.Errorf("agent_path on a platform without builds: %+v %v", ch, err)
	}
	if _, err := choose(newBuilds(empty, nil), probe{platform: "linux/arm64"}, "/opt/warden"); err == nil || !strings.Contains(err.Error(), "cannot be checked") {
		t.Errorf("agent_path with an unreadable manifest: %v", err)
	}
	if _, err := choose(b, probe{platform: "linux/arm64"}, "opt/warden"); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("a relative agent_path: %v", err)
	}
}

// The start script runs nothing whose digest is not the one given, even
// with a path that a shell would otherwise split or expand.
func TestStartScriptQuoting(t *testing.T) {
	dir := t.TempDir()
	odd := dir + "/it's $(touch " + dir + "/pwned) here"
	script := startScript(odd, strings.Repeat("0", 64))
	out, err := exec.Command("/bin/sh", "-c", script).CombinedOutput()
	if code := exitCode(err); code != checksumExit {
		t.Errorf("exit %d (%s), want %d", code, out, checksumExit)
	}
	if !strings.Contains(string(out), "missing") {
		t.Errorf("stderr %q does not say the binary is missing", out)
	}
	if _, err := exec.Command("test", "-e", dir+"/pwned").CombinedOutput(); err == nil {
		t.Error("the path was expanded by the shell")
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}
