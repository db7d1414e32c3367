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
	if !strings.Contains(errOut, "hint: ") || !strings.Contains(errOut, "params.args: split into words") {
		t.Errorf("validate --fix: no hint that args is split:\n%s", errOut)
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

// TestMCPShellArgs: a tool file written as MCPShell's docs write
// `{{ .command }} {{ .args }}` loads unchanged and, through the binary,
// splits args into words as MCPShell's shell did — quotes group, a
// backslash escapes — while nothing in a word runs or expands; an array
// parameter makes each element one word, never split again.
func TestMCPShellArgs(t *testing.T) {
	env, _ := wardenEnv(t)
	dir := t.TempDir()
	file := fixture("mcpshell/args.yaml")
	out, errOut, code := runWarden(t, env, "validate", file)
	if code != 0 || !strings.Contains(out, "ok (2 tools") || !strings.Contains(errOut, "params.args: split into words") {
		t.Fatalf("validate: exit %d\n%s\n%s", code, out, errOut)
	}
	marker := filepath.Join(dir, "marker")
	for args, want := range map[string]string{
		"[%s] -l  'a b' c\\ d":                 "[-l][a b][c d]",
		`[%s] "x y" $HOME *`:                   "[x y][$HOME][*]",
		"[%s] $(touch " + marker + ")":         "[$(touch][" + marker + ")]",
		"[%s] `touch " + marker + "`;id":       "[`touch][" + marker + "`;id]",
		"[%s] '; touch " + marker + "; echo '": "[; touch " + marker + "; echo ]",
		"[%s]":                                 "[]",
	} {
		out, errOut, code := runWarden(t, env, "exe", "--tools", file, "safe_command", "command=printf", "args="+args)
		out, _, _ = strings.Cut(out, "\n[exit_code 0")
		if code != 0 || out != want {
			t.Errorf("args=%q: exit %d, %q; want %q\n%s", args, code, out, want, errOut)
		}
	}
	out, errOut, code = runWarden(t, env, "exe", "--tools", file, "print_words", "words=a b", "words=", "words=$(touch "+marker+")", "words='q'")
	out, _, _ = strings.Cut(out, "\n[exit_code 0")
	if want := "[a b][][$(touch " + marker + ")]['q']"; code != 0 || out != want {
		t.Errorf("print_words: exit %d, %q; want %q\n%s", code, out, want, errOut)
	}
	if _, _, code := runWarden(t, env, "exe", "--tools", file, "safe_command", "command=rm", "args=-rf "+dir); code == 0 {
		t.Error("a command outside the constraint ran")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a value ran a command")
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatal("rm ran")
	}
}
