package firejail

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/declare/sandboxtest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// firejailPath returns the bwrap program, or skips the test with the reason
// it cannot run here unless WARDEN_REQUIRE_FIREJAIL=1.
func firejailPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("firejail")
	if err == nil {
		// Prove the kernel lets it build namespaces, not only that it is installed.
		err = exec.Command(path, "--quiet", "--noprofile", "--net=none", "--", "/bin/true").Run()
	}
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_FIREJAIL") == "1" {
			t.Fatalf("firejail required but unusable: %v", err)
		}
		t.Skipf("firejail unusable here (%v); set WARDEN_REQUIRE_FIREJAIL=1 to fail instead", err)
	}
	return path
}

func testBase() *local.Runner {
	return local.New(local.Options{ProgressEvery: 50 * time.Millisecond, KillGrace: 300 * time.Millisecond})
}

func TestConformance(t *testing.T) {
	path := firejailPath(t)
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		r, err := New(testBase(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, runnertest.Options{KillGrace: 300 * time.Millisecond, ProgressEvery: 50 * time.Millisecond, LargeOutput: 32 << 20})
}

func TestConfinement(t *testing.T) {
	path := firejailPath(t)
	sandboxtest.Run(t, func(t *testing.T, p sandboxtest.Policy) runner.Runner {
		r, err := New(testBase(), path, Options{AllowNetworking: p.Network, ReadFolders: p.ReadFolders, WriteFolders: p.WriteFolders})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, sandboxtest.Options{})
}

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		// runner.CheckPath's own cases are tested there; these check that
		// firejail applies it and adds its comma rule.
		{"/srv/data", true},
		{"/srv/../etc", false},
		{"/srv/a,b", false},
	} {
		if got := CheckPath(tc.path) == nil; got != tc.ok {
			t.Errorf("CheckPath(%q) ok = %v, want %v", tc.path, got, tc.ok)
		}
	}
	if _, err := New(testBase(), "/usr/bin/firejail", Options{ReadFolders: []string{"/srv/../etc"}}); err == nil {
		t.Errorf("New with an unclean read folder: error = nil, want one")
	}
}

// TestProfileOutsideTemp: a custom profile is written where ProfileDir
// says, not in /tmp, where a benign call of the same user could rewrite
// it before firejail reads it. A stand-in for firejail reports the path
// it was given.
func TestProfileOutsideTemp(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "firejail")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\nfor a; do case $a in --profile=*) echo \"${a#--profile=}\";; esac; done\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	profiles := filepath.Join(dir, "state-scripts")
	r, err := New(testBase(), fake, Options{CustomProfile: "quiet\n", ProfileDir: profiles})
	if err != nil {
		t.Fatal(err)
	}
	res, err := r.Run(context.Background(), runner.Request{Argv: []string{"/bin/true"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); filepath.Dir(got) != profiles {
		t.Errorf("the profile was written to %q, want a file in %s", got, profiles)
	}
}

// TestProfileDirUnusable: when the profile cannot be written, the call
// fails saying so, and firejail is never started without the profile the
// tool asked for.
func TestProfileDirUnusable(t *testing.T) {
	dir := t.TempDir()
	fake := filepath.Join(dir, "firejail")
	marker := filepath.Join(dir, "started")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\ntouch "+marker+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "a-file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := New(testBase(), fake, Options{CustomProfile: "quiet\n", ProfileDir: filepath.Join(file, "scripts")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.Run(context.Background(), runner.Request{Argv: []string{"/bin/true"}})
	if err == nil || !strings.Contains(err.Error(), "firejail: profile:") {
		t.Fatalf("err = %v, want the profile's failure", err)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("firejail was started without its profile")
	}
}
