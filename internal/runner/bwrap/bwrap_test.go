package bwrap

import (
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/declare/sandboxtest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// bwrapPath returns the bwrap program, or skips the test with the reason
// it cannot run here unless WARDEN_REQUIRE_BWRAP=1.
func bwrapPath(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("bwrap")
	if err == nil {
		// Prove the kernel lets it build namespaces, not only that it is installed.
		err = exec.Command(path, "--unshare-all", "--ro-bind", "/", "/", "true").Run()
	}
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_BWRAP") == "1" {
			t.Fatalf("bubblewrap required but unusable: %v", err)
		}
		t.Skipf("bubblewrap unusable here (%v); set WARDEN_REQUIRE_BWRAP=1 to fail instead", err)
	}
	return path
}

func testBase() *local.Runner {
	return local.New(local.Options{ProgressEvery: 50 * time.Millisecond, KillGrace: 300 * time.Millisecond})
}

func TestConformance(t *testing.T) {
	path := bwrapPath(t)
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		r, err := New(testBase(), path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, runnertest.Options{KillGrace: 300 * time.Millisecond, ProgressEvery: 50 * time.Millisecond, LargeOutput: 32 << 20,
		// bwrap does not forward SIGTERM and dies of it; --die-with-parent
		// then SIGKILLs the sandbox, which the suite checks is gone.
		TermIgnoredExit: 128 + 15})
}

func TestConfinement(t *testing.T) {
	path := bwrapPath(t)
	sandboxtest.Run(t, func(t *testing.T, p sandboxtest.Policy) runner.Runner {
		r, err := New(testBase(), path, Options{AllowNetworking: p.Network, ReadFolders: p.ReadFolders, WriteFolders: p.WriteFolders})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, sandboxtest.Options{})
}

func TestUncleanFolderRefused(t *testing.T) {
	if _, err := New(testBase(), "/usr/bin/bwrap", Options{ReadFolders: []string{"/srv/../etc"}}); err == nil {
		t.Errorf("New with an unclean read folder: error = nil, want one")
	}
}
