package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// goTypeName matches what Go decoders say about types: config.Exec, !!str,
// "unmarshal", int64.
var goTypeName = regexp.MustCompile(`\b(config|time|yaml)\.[A-Z]|!!|unmarshal|\bint(8|16|32|64)?\b|\bstruct\b`)

// TestConfigCheckRefusesWhatServeRefuses: for each config serve refuses at
// startup, config check exits 1 naming the same problem (key and line),
// and serve names it too. Before, config check passed all of these.
func TestConfigCheckRefusesWhatServeRefuses(t *testing.T) {
	dir := t.TempDir()
	badTools := filepath.Join(dir, "tools.yaml")
	if err := os.WriteFile(badTools, []byte("mcp:\n  tools:\n    - name: t\n      bogus: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, yml string
		want      string // the problem's line in both outputs
	}{
		{"deny regex", "policy:\n  deny:\n    - 'rm (-rf'\n",
			`:3: policy.deny[0]: "rm (-rf" is not a regular expression: missing closing ): ` + "`rm (-rf`"},
		{"allow regex", "policy:\n  allow: ['ok', '[z-a]']\n",
			`:2: policy.allow[1]: "[z-a]" is not a regular expression: invalid character class range: ` + "`z-a`"},
		{"missing tools path", "tools:\n  - /nonexistent/warden-tools\n",
			`:2: tools[0]: /nonexistent/warden-tools: no such file or directory`},
		{"tools that do not load", "tools: [" + badTools + "]\n",
			`:1: tools: the declarative tools do not load:`},
		{"missing audit key", "audit:\n  key_file: /nonexistent/audit.key\n",
			`:2: audit.key_file: cannot be read: /nonexistent/audit.key: no such file or directory`},
		{"group of an unknown host", "groups:\n  - name: web\n    hosts: [ghost]\n",
			`: groups.web: member "ghost": resolve "ghost": host not in inventory`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			env, _ := wardenEnv(t)
			path := writeFile(t, tc.yml)
			want := path + tc.want
			_, errOut, code := runBin(t, env, "config", "check", path)
			if code != 1 || !strings.Contains(errOut, want) {
				t.Errorf("config check: exit %d, want 1 and %q in:\n%s", code, want, errOut)
			}
			_, errOut, code = runBin(t, env, "serve", "--config", path)
			if code != 1 || !strings.Contains(errOut, tc.want) {
				t.Errorf("serve: exit %d, want 1 and %q in:\n%s", code, tc.want, errOut)
			}
		})
	}
}

// TestConfigProblemsAllAtOnce: one run names every problem of a file —
// its shape, its values and what only starting a server finds — each
// with file, line and dotted key, in line order, without Go type names.
func TestConfigProblemsAllAtOnce(t *testing.T) {
	env, _ := wardenEnv(t)
	path := writeFile(t, `mode: yolo
polcy: {}
policy:
  deny: ["rm (-rf"]
exec:
  default_timeout: 5 minutes
tools: [/nonexistent/warden-tools]
hosts:
  - name: a
  - name: b
  - name: c
    port: 99999
`)
	_, errOut, code := runBin(t, env, "config", "check", path)
	want := "warden: invalid configuration (6 problems):\n" + strings.Join([]string{
		path + `:1: mode: "yolo" is not one of readonly, guarded, open`,
		path + `:2: polcy: unknown key; did you mean "policy"?`,
		path + `:4: policy.deny[0]: "rm (-rf" is not a regular expression: missing closing ): ` + "`rm (-rf`",
		path + `:6: exec.default_timeout: "5 minutes" is not a duration; write a number with a unit, like 60s, 5m or 1h30m`,
		path + `:7: tools[0]: /nonexistent/warden-tools: no such file or directory`,
		path + `:12: hosts[2].port: 99999 is not a port from 1 to 65535 (0 or unset: 22, or ssh_config's)`,
	}, "\n") + "\n"
	if code != 1 || errOut != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s", code, errOut, want)
	}
	if m := goTypeName.FindString(errOut); m != "" {
		t.Errorf("output names a Go type (%q):\n%s", m, errOut)
	}
}

// TestConfigValueFromFlagOrEnvironment: a bad value set by a flag or a
// variable is blamed on it, not on a line of the file.
func TestConfigValueFromFlagOrEnvironment(t *testing.T) {
	env, _ := wardenEnv(t, "WARDEN_MODE=root")
	path := writeFile(t, "mode: open\n")
	_, errOut, code := runBin(t, env, "serve", "--config", path, "--http", "0.0.0.0:1", "--tools", "/nonexistent/t.yaml")
	for _, want := range []string{
		`mode: "root" is not one of readonly, guarded, open (set by WARDEN_MODE)`,
		`http.addr: "0.0.0.0:1" is not a loopback address; set http.allow_non_loopback (or --allow-non-loopback) to expose warden beyond this machine (set by --http)`,
		`tools[0]: /nonexistent/t.yaml: no such file or directory (set by --tools)`,
	} {
		if code != 1 || !strings.Contains(errOut, want+"\n") {
			t.Errorf("exit %d; stderr lacks %q:\n%s", code, want, errOut)
		}
	}
}
