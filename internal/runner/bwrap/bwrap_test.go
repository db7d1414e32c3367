package bwrap

import (
	"os"
	"os/exec"
	"strconv"
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
		Skip: map[string]string{"timeout-kill": "bwrap does not forward signals and dies of the SIGTERM itself, so the exit code is 143; TestTermIgnored proves the command is still killed"}})
}

// TestTermIgnored proves a command that ignores SIGTERM, and what it
// started, is gone after a timeout: --die-with-parent SIGKILLs the sandbox
// when bwrap dies.
func TestTermIgnored(t *testing.T) {
	r, err := New(testBase(), bwrapPath(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	marker := "warden-bwrap-term-" + strconv.Itoa(os.Getpid())
	script := `trap "" TERM; /bin/sh -c 'sleep 1000; :' ` + marker + ` & sleep 1000`
	res, err := r.Run(t.Context(), runner.Request{Argv: []string{"/bin/sh", "-c", script}, Env: []string{"PATH=/usr/bin:/bin"}, Timeout: 500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if !res.TimedOut || res.ExitCode == 0 {
		t.Errorf("TimedOut, exit = %v, %d; want true, non-zero", res.TimedOut, res.ExitCode)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !runnertest.LocalProcessGone(marker) {
		if time.Now().After(deadline) {
			t.Fatalf("process %s still running after the timeout", marker)
		}
		time.Sleep(20 * time.Millisecond)
	}
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
