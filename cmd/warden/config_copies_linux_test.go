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
// no child reads them, in any mode or spelling, nor do the file tools. A
// file beside them whose name is not the config's stays readable.
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
	for _, mode := range []string{"readonly", "open"} {
		t.Run(mode, func(t *testing.T) {
			env, state := wardenEnv(t, "WARDEN_MODE="+mode, "WARDEN_CONFIG="+cfg)
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
