package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestConfigCopiesOutOfReach: copies of the config file beside it hold
// what it holds — an editor's backup and swap file, an operator's .bak, a
// dated copy made while warden runs — and are warden's own like the file:
// no child reads them, in any mode or spelling, nor do the file tools,
// also when the config is named by a symlink. A file beside them whose
// name is not the config's stays readable.
func TestConfigCopiesOutOfReach(t *testing.T) {
	const secret = "canary-71c2-config-copy"
	dir := outsideTemp(t)
	cfg := filepath.Join(dir, "warden.yaml")
	body := "exec:\n  default_timeout: 10s\n# " + secret + "\n"
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("warden.yaml", body)
	before := []string{write("warden.yaml.bak", body), write(".warden.yaml.swp", body), write("#warden.yaml#", body)}
	control := write("notes.txt", "control-readable\n")
	// The config as a symlink named elsewhere: copies beside the link and
	// beside the file it resolves to.
	elsewhere := outsideTemp(t)
	link := filepath.Join(elsewhere, "live.yaml")
	if err := os.Symlink(cfg, link); err != nil {
		t.Fatal(err)
	}
	linkCopy := filepath.Join(elsewhere, "live.yaml.orig")
	if err := os.WriteFile(linkCopy, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, mode := range []string{"readonly", "open", "linked"} {
		t.Run(mode, func(t *testing.T) {
			named, m := cfg, mode
			if mode == "linked" {
				named, m = link, "readonly"
				before = append(before, linkCopy)
			}
			env, state := wardenEnv(t, "WARDEN_MODE="+m, "WARDEN_CONFIG="+named)
			s := startStdio(t, env, state, nil)
			_, info := callTool(t, s.cs, "server_info", nil)
			requireConfinement(t, info)
			// A copy made once warden runs.
			copies := append(before, write("old-warden.yaml."+mode, body))
			for _, p := range copies {
				res, got := callTool(t, s.cs, "read_file", map[string]any{"path": p})
				if got["status"] == "ok" || strings.Contains(text(res), secret) {
					t.Errorf("read_file %s: %v %s", p, got, text(res))
				}
				for _, cmd := range []string{"cat " + p, "cat " + dir + "/*", "grep -r canary " + dir, hidden("cat " + p)} {
					res, _ := callApproved(t, s.cs, "run_command", map[string]any{"command": cmd})
					if strings.Contains(text(res), secret) {
						t.Errorf("%s in %s mode read %s:\n%s", cmd, mode, p, text(res))
					}
				}
			}
			if res, _ := callTool(t, s.cs, "run_command", map[string]any{"command": "cat " + control}); !strings.Contains(text(res), "control-readable") {
				t.Errorf("control: a file beside the config named otherwise was not readable: %s", text(res))
			}
		})
	}
}

// TestConfigCopiesOutOfReachNonRoot: a warden running as nobody (Landlock
// without a mount namespace) keeps the copies from its children too, a
// copy made while it runs included, though the child's user owns them.
func TestConfigCopiesOutOfReachNonRoot(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to start warden as nobody; TestConfigCopiesOutOfReach runs as this user")
	}
	const secret = "canary-0f3a-config-copy"
	dir, err := os.MkdirTemp("/var/lib", "warden-e2e-cfg-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	write := func(name, content string) string {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chown(p, 65534, 65534); err != nil {
			t.Fatal(err)
		}
		return p
	}
	if err := os.Chown(dir, 65534, 65534); err != nil {
		t.Fatal(err)
	}
	body := "exec:\n  default_timeout: 10s\n# " + secret + "\n"
	cfg := write("warden.yaml", body)
	// Names the text rule on the config's path (warden\.yaml after the
	// directory) does not match, so the kernel is what refuses them.
	copies := []string{write(".warden.yaml.swp", body)}
	control := write("notes.txt", "control-readable\n")
	env, state := wardenEnv(t, "WARDEN_MODE=readonly", "WARDEN_CONFIG="+cfg)
	cs := startAsNobody(t, env, state)
	_, info := callTool(t, cs, "server_info", nil)
	requireConfinement(t, info)
	copies = append(copies, write("old-warden.yaml", body))
	for _, p := range copies {
		for _, cmd := range []string{"cat " + p, "cat " + dir + "/*"} {
			if res, _ := callTool(t, cs, "run_command", map[string]any{"command": cmd}); strings.Contains(text(res), secret) {
				t.Errorf("%s as nobody read %s:\n%s", cmd, p, text(res))
			}
		}
	}
	if res, _ := callTool(t, cs, "run_command", map[string]any{"command": "cat " + control}); !strings.Contains(text(res), "control-readable") {
		t.Errorf("control: a file beside the config named otherwise was not readable: %s", text(res))
	}
}
