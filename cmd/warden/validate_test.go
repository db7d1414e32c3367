package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestValidateFixCLI: a tool file written in MCPShell's style is refused
// with where each key belongs; validate --fix writes the moved keys to a
// new file (never over one), prints its path and validates it; the new
// file serves its tools through warden exe, where a hostile value runs
// nothing.
func TestValidateFixCLI(t *testing.T) {
	env, _ := wardenEnv(t)
	dir := t.TempDir()
	orig, err := os.ReadFile(fixture("mcpshell/ops.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	name := filepath.Join(dir, "ops.yaml")
	if err := os.WriteFile(name, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runWarden(t, env, "validate", name)
	if code != 1 || !strings.Contains(errOut, "mcp.tools[0].runners: unknown key: `runners` belongs under `run:`") || !strings.Contains(errOut, "validate --fix") {
		t.Fatalf("validate MCPShell file: exit %d\n%s", code, errOut)
	}
	out, errOut, code := runWarden(t, env, "validate", "--fix", name)
	fixed := filepath.Join(dir, "ops.fixed.yaml")
	if code != 0 || !strings.Contains(out, name+": wrote "+fixed) || !strings.Contains(out, fixed+": ok (3 tools, 1 prompts)") || !strings.Contains(errOut, "moved line 27: runners → mcp.tools[0].run.runners") {
		t.Fatalf("validate --fix: exit %d\n%s\n%s", code, out, errOut)
	}
	if !strings.Contains(errOut, "hint: ") || !strings.Contains(errOut, "split: true") {
		t.Errorf("validate --fix: no split hint for args:\n%s", errOut)
	}
	if now, _ := os.ReadFile(name); !bytes.Equal(now, orig) {
		t.Error("validate --fix changed the original file")
	}
	out, _, code = runWarden(t, env, "validate", "--fix", name)
	if code != 0 || !strings.Contains(out, "wrote "+filepath.Join(dir, "ops.fixed-2.yaml")) {
		t.Errorf("second validate --fix: exit %d\n%s", code, out)
	}
	out, errOut, code = runWarden(t, env, "exe", "--tools", fixed, "greet_user", "name=ada lovelace")
	if code != 0 || !strings.Contains(out, "Hello, Ada Lovelace") || !strings.Contains(out, "ADA LOVELACE") {
		t.Errorf("exe greet_user: exit %d\n%s\n%s", code, out, errOut)
	}
	marker := filepath.Join(dir, "marker")
	for _, v := range []string{"$(touch " + marker + ")", "`touch " + marker + "`", "x'; touch " + marker + "; '", "a\ntouch " + marker} {
		runWarden(t, env, "exe", "--tools", fixed, "greet_user", "name="+v)
		runWarden(t, env, "exe", "--tools", fixed, "list_dir", "path=/"+v, "args=-d "+v)
		if _, err := os.Stat(marker); err == nil {
			t.Fatalf("value %q ran a command", v)
		}
	}
}

// TestValidateRejectsShellSyntax: a command that is not valid shell fails
// validate (it used to pass and turn every call into an approval request).
func TestValidateRejectsShellSyntax(t *testing.T) {
	env, _ := wardenEnv(t)
	name := filepath.Join(t.TempDir(), "bad.yaml")
	yml := "mcp:\n  tools:\n    - name: broken\n      description: an if without fi\n      params:\n        x: {type: string}\n      run:\n        command: if true; then echo {{ .x }}\n"
	if err := os.WriteFile(name, []byte(yml), 0o644); err != nil {
		t.Fatal(err)
	}
	_, errOut, code := runWarden(t, env, "validate", name)
	if code != 1 || !strings.Contains(errOut, "tool broken: run.command: not valid sh syntax") {
		t.Errorf("validate: exit %d\n%s", code, errOut)
	}
}
