package landlock

import (
	"os"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/declare/sandboxtest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// TestMain makes the test binary the helper, as warden's main does.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == HelperArg {
		os.Exit(Helper(os.Args[2:], os.Stderr))
	}
	os.Exit(m.Run())
}

// helper returns the helper argv prefix, or skips the test with the reason
// Landlock cannot confine here unless WARDEN_REQUIRE_LANDLOCK=1.
func helper(t *testing.T) []string {
	t.Helper()
	err := Available(false)
	if err != nil {
		if os.Getenv("WARDEN_REQUIRE_LANDLOCK") == "1" {
			t.Fatalf("landlock required but unusable: %v", err)
		}
		t.Skipf("landlock unusable here (%v); set WARDEN_REQUIRE_LANDLOCK=1 to fail instead", err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return []string{exe}
}

func testBase() *local.Runner {
	return local.New(local.Options{ProgressEvery: 50 * time.Millisecond, KillGrace: 300 * time.Millisecond})
}

func TestConformance(t *testing.T) {
	h := helper(t)
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		r, err := New(testBase(), h, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, runnertest.Options{KillGrace: 300 * time.Millisecond, ProgressEvery: 50 * time.Millisecond, LargeOutput: 32 << 20})
}

func TestConfinement(t *testing.T) {
	h := helper(t)
	sandboxtest.Run(t, func(t *testing.T, p sandboxtest.Policy) runner.Runner {
		r, err := New(testBase(), h, Options{AllowNetworking: p.Network, ReadFolders: p.ReadFolders, WriteFolders: p.WriteFolders})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, sandboxtest.Options{})
}

// TestHelperFailsClosed proves a helper that cannot restrict runs nothing.
func TestHelperFailsClosed(t *testing.T) {
	h := helper(t)
	res, err := testBase().Run(t.Context(), runner.Request{
		Argv: append(h, HelperArg, "{not json", "--", "/bin/sh", "-c", "echo ran"),
		Env:  []string{"PATH=/usr/bin:/bin"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.ExitCode != 126 || len(res.Stdout) != 0 {
		t.Errorf("exit, stdout = %d, %q; want 126 and nothing run", res.ExitCode, res.Stdout)
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"", "/", "rel", "/a/../b", "/a/"} {
		if _, err := New(testBase(), []string{"/bin/true"}, Options{ReadFolders: []string{p}}); err == nil {
			t.Errorf("New with read folder %q: error = nil, want one", p)
		}
	}
}
