// Package sandboxtest owns the confinement suite every sandbox runner must
// pass on top of the runner conformance suite: a folder the tool does not
// allow is unreadable, a write outside the allowed folders does not reach
// the host, allowed folders work, and with networking off a listener on
// the host sees no connection. Each check has a positive control, so a
// runner that confines nothing, or a check that cannot see anything,
// fails.
package sandboxtest

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// Policy is the confinement a sandbox runner is built with for one check.
type Policy struct {
	ReadFolders  []string
	WriteFolders []string
	Network      bool
}

// Options adapt the suite to a runner.
type Options struct {
	// Env is the child's environment; nil means a PATH of the system dirs.
	Env []string
	// ListenAddr is where the host listener binds; "" means 127.0.0.1:0.
	ListenAddr string
	// DialHost is the address the sandbox connects to; "" means 127.0.0.1.
	DialHost string
	// Connect returns a shell script that opens a TCP connection to
	// host:port; nil means busybox nc.
	Connect func(host string, port int) string
	// Dir makes the folders the checks use; nil means t.TempDir.
	Dir func(t *testing.T) string
}

// Run runs the confinement checks against runners made by newRunner.
func Run(t *testing.T, newRunner func(t *testing.T, p Policy) runner.Runner, o Options) {
	if o.Env == nil {
		o.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"}
	}
	if o.Dir == nil {
		o.Dir = func(t *testing.T) string { return t.TempDir() }
	}
	if o.Connect == nil {
		o.Connect = func(host string, port int) string {
			return fmt.Sprintf("busybox nc -w 3 %s %d </dev/null", host, port)
		}
	}
	if o.ListenAddr == "" {
		o.ListenAddr = "127.0.0.1:0"
	}
	if o.DialHost == "" {
		o.DialHost = "127.0.0.1"
	}
	run := func(t *testing.T, r runner.Runner, script string) runner.Result {
		t.Helper()
		res, err := r.Run(t.Context(), runner.Request{Argv: []string{"/bin/sh", "-c", script}, Env: o.Env, Timeout: 30 * time.Second})
		if err != nil {
			t.Fatalf("Run(%q): %v", script, err)
		}
		return res
	}
	secretDir := func(t *testing.T) (dir, secret string) {
		dir = filepath.Join(o.Dir(t), "secret")
		if err := os.Mkdir(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		secret = "warden-secret-" + randomHex()
		if err := os.WriteFile(filepath.Join(dir, "f"), []byte(secret), 0o644); err != nil {
			t.Fatal(err)
		}
		return dir, secret
	}
	t.Run("denied-read", func(t *testing.T) {
		dir, secret := secretDir(t)
		script := fmt.Sprintf("cat %s/f; ls -la %s", dir, dir)
		res := run(t, newRunner(t, Policy{}), script)
		if out := string(res.Stdout) + string(res.Stderr); strings.Contains(out, secret) {
			t.Errorf("the secret of a folder the tool does not allow was read:\n%s", out)
		}
		// Positive control: allowed, the same command reads it.
		res = run(t, newRunner(t, Policy{ReadFolders: []string{dir}}), script)
		if !strings.Contains(string(res.Stdout), secret) {
			t.Errorf("allowed read folder: stdout %q, stderr %q; want the secret", res.Stdout, res.Stderr)
		}
	})
	t.Run("read-only-folder", func(t *testing.T) {
		dir, _ := secretDir(t)
		run(t, newRunner(t, Policy{ReadFolders: []string{dir}}), fmt.Sprintf("echo x > %s/new; rm -f %s/f", dir, dir))
		if _, err := os.Stat(filepath.Join(dir, "new")); err == nil {
			t.Errorf("a file was created in a read-only folder")
		}
		if _, err := os.Stat(filepath.Join(dir, "f")); err != nil {
			t.Errorf("a file was removed from a read-only folder: %v", err)
		}
	})
	t.Run("write-outside", func(t *testing.T) {
		outside := filepath.Join(o.Dir(t), "outside")
		allowed := filepath.Join(o.Dir(t), "allowed")
		for _, d := range []string{outside, allowed} {
			if err := os.Mkdir(d, 0o777); err != nil {
				t.Fatal(err)
			}
		}
		mark := randomHex()
		res := run(t, newRunner(t, Policy{WriteFolders: []string{allowed}}),
			fmt.Sprintf("echo %s > %s/f; echo %s > %s/f", mark, outside, mark, allowed))
		if _, err := os.Stat(filepath.Join(outside, "f")); err == nil {
			t.Errorf("a write outside the allowed folders reached the host")
		}
		// Positive control: the allowed folder was written.
		if b, err := os.ReadFile(filepath.Join(allowed, "f")); err != nil || strings.TrimSpace(string(b)) != mark {
			t.Errorf("allowed write folder: got %q, %v; want %q (stderr %q)", b, err, mark, res.Stderr)
		}
	})
	t.Run("network", func(t *testing.T) {
		ln, err := net.Listen("tcp4", o.ListenAddr)
		if err != nil {
			t.Fatal(err)
		}
		defer ln.Close()
		var conns atomic.Int64
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				conns.Add(1)
				c.Close()
			}
		}()
		port := ln.Addr().(*net.TCPAddr).Port
		script := o.Connect(o.DialHost, port)
		res := run(t, newRunner(t, Policy{}), script)
		time.Sleep(200 * time.Millisecond)
		if n := conns.Load(); n != 0 {
			t.Errorf("networking off: the host listener saw %d connection(s) (stderr %q)", n, res.Stderr)
		}
		// Positive control: with networking allowed the connection arrives.
		res = run(t, newRunner(t, Policy{Network: true}), script)
		deadline := time.Now().Add(5 * time.Second)
		for conns.Load() == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if conns.Load() == 0 {
			t.Errorf("networking allowed: the host listener saw no connection (exit %d, stderr %q); the check cannot see one", res.ExitCode, res.Stderr)
		}
	})
}

func randomHex() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
