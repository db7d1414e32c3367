package agenthost

import (
	"os/exec"
	"strings"
	"testing"
)

func TestPlatform(t *testing.T) {
	for uname, want := range map[string]string{
		"Linux x86_64": "linux/amd64", "Linux aarch64": "linux/arm64", "Linux armv7l": "linux/arm",
		"Linux mips": "linux/mips", "Linux mipsel": "linux/mipsle", "FreeBSD amd64": "freebsd/amd64",
	} {
		if got, err := platform(uname); got != want || err != nil {
			t.Errorf("platform(%q) = %q, %v; want %q", uname, got, err, want)
		}
	}
	for _, bad := range []string{"", "Linux", "Darwin arm64", "Linux sparc64", "Linux x86_64 extra"} {
		if got, err := platform(bad); err == nil {
			t.Errorf("platform(%q) = %q, want an error", bad, got)
		}
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
