package sandboxexec

import (
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/declare/sandboxtest"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

func TestProfile(t *testing.T) {
	p, err := Profile(Options{ReadFolders: []string{`/data/a "b"`}, ReadFiles: []string{"/etc/app.conf"}, WriteFolders: []string{"/tmp/out"}, WriteFiles: []string{"/tmp/log"}})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"(deny default)",
		`(allow file-read* (subpath "/data/a \"b\""))`,
		`(allow file-read* (literal "/etc/app.conf"))`,
		`(allow file-read* file-write* (subpath "/tmp/out"))`,
		`(allow file-read* file-write* (literal "/tmp/log"))`,
		"(deny network*)",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("profile lacks %q:\n%s", want, p)
		}
	}
	if strings.Contains(p, "/Users") || strings.Contains(p, "(allow network*)") {
		t.Errorf("default profile allows user folders or networking:\n%s", p)
	}
	p, _ = Profile(Options{AllowNetworking: true, AllowUserFolders: true})
	if !strings.Contains(p, "(allow network*)") || !strings.Contains(p, `(subpath "/Users")`) {
		t.Errorf("networking and user folders not allowed:\n%s", p)
	}
	if p, _ := Profile(Options{CustomProfile: "(version 1)(allow default)"}); p != "(version 1)(allow default)" {
		t.Errorf("custom profile = %q", p)
	}
	for _, bad := range []string{"rel", "/a/../b", "/a\n(allow default)"} {
		if _, err := Profile(Options{ReadFolders: []string{bad}}); err == nil {
			t.Errorf("Profile with read folder %q: error = nil, want one", bad)
		}
	}
}

// TestDarwin runs the suites where sandbox-exec exists (macOS only).
func TestDarwin(t *testing.T) {
	path, err := exec.LookPath("sandbox-exec")
	if runtime.GOOS != "darwin" || err != nil {
		t.Skip("sandbox-exec exists only on macOS")
	}
	base := local.New(local.Options{})
	runnertest.Run(t, func(t *testing.T) runner.Runner {
		r, err := New(base, path, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, runnertest.Options{LargeOutput: 16 << 20})
	sandboxtest.Run(t, func(t *testing.T, p sandboxtest.Policy) runner.Runner {
		r, err := New(base, path, Options{AllowNetworking: p.Network, ReadFolders: p.ReadFolders, WriteFolders: p.WriteFolders})
		if err != nil {
			t.Fatal(err)
		}
		return r
	}, sandboxtest.Options{Connect: func(h string, port int) string { return "nc -w 3 " + h + " " + strconv.Itoa(port) + " </dev/null" }})
}
