package hosts_test

import (
	"context"
	"encoding/json"
	"os"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestAgentProbesMatchSSH holds warden's typed probes on an agent host,
// which the agent answers by reading /proc and /etc files on the far side
// instead of running cat there, to what plain SSH gives on the same
// server: the files' bytes (or cat's own error, where a file is missing)
// through the hosts' Inspect runners, and system_info through the real
// tool group, field for field where the host does not change between
// two calls.
func TestAgentProbesMatchSSH(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("logs in as a user of its own, which needs root")
	}
	srv := sshd.Start(t, sshd.Options{User: suiteUser})
	plain := setupSSH(t, srv)
	ag, ap := setupAgentProvider(t, srv)
	inspect := func(k kind) runner.Runner {
		h, err := k.set.Resolve(context.Background(), k.name)
		if err != nil {
			t.Fatal(err)
		}
		return h.Inspect
	}
	ctx, cancel := context.WithTimeout(confine.With(context.Background(), confine.Admission{Level: confine.Read, Tool: "system_info"}), 120*time.Second)
	defer cancel()
	env := []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "LANG=C"}
	before := ap.NativeReads()
	stable := []string{"/etc/os-release", "/proc/version", "/proc/filesystems", "/proc/cmdline", "/proc/mdstat", "/etc/openwrt_release"}
	for _, f := range stable {
		req := runner.Request{Argv: []string{"cat", f}, Env: env, Timeout: 30 * time.Second}
		want, werr := inspect(plain).Run(ctx, req)
		got, gerr := inspect(ag).Run(ctx, req)
		if werr != nil || gerr != nil {
			t.Fatalf("cat %s: plain SSH %v, agent %v", f, werr, gerr)
		}
		if string(got.Stdout) != string(want.Stdout) || string(got.Stderr) != string(want.Stderr) || got.ExitCode != want.ExitCode || got.Truncated != want.Truncated {
			t.Errorf("cat %s through the agent: exit %d %q %q; plain SSH: exit %d %q %q", f, got.ExitCode, got.Stdout, got.Stderr, want.ExitCode, want.Stdout, want.Stderr)
		}
	}
	if n := ap.NativeReads() - before; n < 4 {
		t.Errorf("the agent read %d of the probes natively, want at least the four files every Linux host has", n)
	}

	// system_info through the tool group on both kinds.
	before = ap.NativeReads()
	info := func(k kind) map[string]any {
		got, text := call(t, serve(t, k), "system_info", map[string]any{"host": k.name})
		if got["hostname"] == nil {
			t.Fatalf("system_info: %s", text)
		}
		return got
	}
	want, got := info(plain), info(ag)
	if n := ap.NativeReads() - before; n < 4 {
		t.Errorf("system_info read %d probes natively through the agent, want os-release, uptime, meminfo and cpuinfo", n)
	}
	for _, field := range []string{"hostname", "os", "kernel", "kernel_release", "arch", "cpu", "mem_total_bytes", "swap_total_bytes", "virtualization", "probes"} {
		if a, b := js(got[field]), js(want[field]); a != b {
			t.Errorf("system_info %s through the agent %s, over plain SSH %s", field, a, b)
		}
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
