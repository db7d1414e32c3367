package agenthost_test

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
)

// ownBuildName is this machine's file name in a build set; the test
// binary stands in for warden's build (see TestMain).
func ownBuildName() string {
	arch := runtime.GOARCH
	if arch == "arm" {
		arch = "armv7"
	}
	return "warden-" + runtime.GOOS + "-" + arch
}

// buildSet makes a build set directory holding files (name → contents;
// "self" is this test binary) and a manifest of sums (name → digest; ""
// is the file's real digest).
func buildSet(t *testing.T, files map[string]string, sums map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for name, body := range files {
		b := []byte(body)
		if body == "self" {
			if b, err = os.ReadFile(exe); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var m strings.Builder
	for name, sum := range sums {
		if sum == "" {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			sum = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		fmt.Fprintf(&m, "%s  %s\n", sum, name)
	}
	if err := os.WriteFile(filepath.Join(dir, agenthost.Manifest), []byte(m.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// cacheEmpty fails t if anything was uploaded to the rig's cache.
func (r *rig) cacheEmpty(t *testing.T) {
	t.Helper()
	if m, _ := filepath.Glob(filepath.Join(r.cache, "*")); len(m) != 0 {
		t.Errorf("uploaded: %v, want nothing", m)
	}
}

// The build of the set for the host's `uname -sm` is the one uploaded and
// started, and hosts_list says where it came from.
func TestBuildSetUploaded(t *testing.T) {
	name := ownBuildName()
	dir := buildSet(t, map[string]string{name: "self", "warden-linux-mipsle": "other"}, map[string]string{name: "", "warden-linux-mipsle": ""})
	r := newRigWith(t, agenthost.Required, nil, func(o *agenthost.Options) { o.BuildDir = dir })
	if res, err := r.run(t, "echo hi"); err != nil || string(res.Stdout) != "hi\n" {
		t.Fatalf("run: %+v %v", res, err)
	}
	if got, want := fileSum(t, r.cachedBinary(t)), fileSum(t, filepath.Join(dir, name)); got != want {
		t.Errorf("the cached agent is %s, the set's build %s", got, want)
	}
	h := r.host(t)
	if want := "uploaded from the build set " + dir; !strings.Contains(h.Confinement, want) || !strings.Contains(h.Confinement, r.cachedBinary(t)) {
		t.Errorf("confinement %q does not name the path in use and %q", h.Confinement, want)
	}
}

// A host whose platform the set has no build for falls back under auto,
// saying why, and is refused under required; a build whose bytes are not
// the manifest's is never uploaded.
func TestBuildSetNoMatch(t *testing.T) {
	self := runtime.GOOS + "/" + strings.TrimPrefix(ownBuildName(), "warden-"+runtime.GOOS+"-")
	other := buildSet(t, map[string]string{"warden-linux-mipsle": "other"}, map[string]string{"warden-linux-mipsle": ""})
	tampered := buildSet(t, map[string]string{ownBuildName(): "self"}, map[string]string{ownBuildName(): strings.Repeat("0", 64)})
	for _, c := range []struct {
		name, dir, reason string
	}{
		{"no build", other, "no warden build for " + self + " in the build set " + other},
		{"tampered", tampered, "refusing to upload"},
	} {
		t.Run(c.name+"/auto", func(t *testing.T) {
			r := newRigWith(t, agenthost.Auto, nil, func(o *agenthost.Options) { o.BuildDir = c.dir })
			if res, err := r.run(t, "echo plain"); err != nil || string(res.Stdout) != "plain\n" {
				t.Fatalf("run under auto: %+v %v", res, err)
			}
			if h := r.host(t); !strings.Contains(h.Confinement, "plain SSH") || !strings.Contains(h.Confinement, c.reason) {
				t.Errorf("confinement %q does not say it fell back because %q", h.Confinement, c.reason)
			}
			r.cacheEmpty(t)
		})
		t.Run(c.name+"/required", func(t *testing.T) {
			r := newRigWith(t, agenthost.Required, nil, func(o *agenthost.Options) { o.BuildDir = c.dir })
			if _, err := r.run(t, "echo never"); err == nil || !strings.Contains(err.Error(), c.reason) {
				t.Fatalf("run under required: %v, want %q", err, c.reason)
			}
			if h := r.host(t); h.Kind != hosts.KindAgent {
				t.Errorf("the host is served as %s", h.Kind)
			}
			r.cacheEmpty(t)
		})
	}
}

// An operator-installed agent (hosts[].agent_path) is run where it is,
// never replaced or uploaded beside; its digest is checked when the
// build set's manifest lists the host's platform, and a different binary
// is refused.
func TestAgentPath(t *testing.T) {
	name := ownBuildName()
	for _, c := range []struct {
		name   string
		sums   map[string]string // nil: no build set
		why    string            // in hosts_list's confinement
		refuse string
	}{
		{"unchecked", nil, "agent_path, run as installed (no manifest entry", ""},
		{"checked", map[string]string{name: ""}, "agent_path, checked against", ""},
		{"mismatch", map[string]string{name: strings.Repeat("1", 64)}, "", "not the build warden holds"},
	} {
		t.Run(c.name, func(t *testing.T) {
			// Outside the temporary directories, which are private to
			// the test's user.
			base, err := os.MkdirTemp("/var/lib", "warden-agent-path-")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.RemoveAll(base) })
			os.Chmod(base, 0o755)
			installed := filepath.Join(base, "warden")
			exe, _ := os.Executable()
			b, err := os.ReadFile(exe)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(installed, b, 0o755); err != nil {
				t.Fatal(err)
			}
			var dir string
			if c.sums != nil {
				dir = buildSet(t, map[string]string{name: "self"}, c.sums)
			}
			r := newRigWith(t, agenthost.Required, nil, func(o *agenthost.Options) {
				o.BuildDir = dir
				o.Paths = map[string]string{"box": installed}
			})
			res, err := r.run(t, "echo installed")
			if c.refuse != "" {
				if err == nil || !strings.Contains(err.Error(), c.refuse) || !strings.Contains(err.Error(), installed) {
					t.Fatalf("run with a mismatched agent_path: %+v %v, want %q", res, err, c.refuse)
				}
			} else {
				if err != nil || string(res.Stdout) != "installed\n" {
					t.Fatalf("run: %+v %v", res, err)
				}
				if h := r.host(t); !strings.Contains(h.Confinement, installed+": "+c.why) {
					t.Errorf("confinement %q does not say %s is in use because %q", h.Confinement, installed, c.why)
				}
				if pids := pidsOf(installed); len(pids) != 1 {
					t.Errorf("agents running from %s: %v, want one", installed, pids)
				}
			}
			r.cacheEmpty(t)
			if got := fileSum(t, installed); got != fmt.Sprintf("%x", sha256.Sum256(b)) {
				t.Error("the operator-installed agent was replaced")
			}
			r.set.Close()
		})
	}
}
