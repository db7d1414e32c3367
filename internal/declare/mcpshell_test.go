package declare

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

const mcpshellFixture = "../../testdata/tools/mcpshell/ops.yaml"

// TestMisplacedKeysGetHints: every key MCPShell ignores where it stands is
// refused with where it belongs.
func TestMisplacedKeysGetHints(t *testing.T) {
	data, err := os.ReadFile(mcpshellFixture)
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = Parse("ops.yaml", data)
	if err == nil {
		t.Fatal("the MCPShell file loaded unchanged; want its misplaced keys refused")
	}
	for _, want := range []string{
		"mcp.tools[0].requirements: unknown key: `requirements` belongs under each runner",
		"mcp.tools[0].timeout: unknown key: `timeout` belongs under `run:`",
		"mcp.tools[0].runners: unknown key: `runners` belongs under `run:`",
		"mcp.tools[0].command: unknown key: `command` belongs under `run:`",
		"mcp.tools[1].run.runner: unknown key: `runner` is written `runners: [{name: …}]`",
		"mcp.tools[1].output.format: unknown key: MCPShell ignores `output.format`",
		"mcp.tools[2].run.runners[0].executables: unknown key: `executables` belongs under the runner's `requirements:`",
		"mcp.tools[2].run.runners[0].allow_read_files: unknown key: `allow_read_files` is a runner option",
		"validate --fix",
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("errors lack %q:\n%v", want, err)
		}
	}
}

// TestFixFile: --fix writes a new file next to the original, never over
// it or an earlier fix, and the new file loads with every key in place.
func TestFixFile(t *testing.T) {
	dir := t.TempDir()
	orig, _ := os.ReadFile(mcpshellFixture)
	name := filepath.Join(dir, "ops.yaml")
	if err := os.WriteFile(name, orig, 0o644); err != nil {
		t.Fatal(err)
	}
	path, moves, err := FixFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if path != filepath.Join(dir, "ops.fixed.yaml") || len(moves) < 8 {
		t.Fatalf("FixFile = %s, %d moves %v", path, len(moves), moves)
	}
	if now, _ := os.ReadFile(name); !bytes.Equal(now, orig) {
		t.Error("the original file changed")
	}
	set, err := LoadPaths([]string{path})
	if err != nil {
		t.Fatalf("fixed file does not load: %v", err)
	}
	tools := map[string]*Tool{}
	for _, tl := range set.Tools() {
		tools[tl.Name] = tl
		if err := tl.Validate(); err != nil {
			t.Errorf("%s: %v", tl.Name, err)
		}
	}
	ld := tools["list_dir"]
	if ld == nil || ld.Run.Timeout != 10*time.Second || len(ld.Run.Runners) != 1 || ld.Run.Runners[0].Name != "exec" || strings.Join(ld.Run.Runners[0].Executables, ",") != "ls" {
		t.Errorf("list_dir after fix: %+v", ld)
	}
	sf := tools["show_file"]
	if sf == nil || sf.Run.Runners[0].Name != "bubblewrap" || sf.Run.Runners[0].Executables[0] != "bwrap" || sf.Run.Runners[0].listTmpls["allow_read_files"] == nil {
		t.Errorf("show_file after fix: %+v", sf.Run.Runners[0])
	}
	if set.Files[0].Prompts == nil || set.Files[0].Shell != "bash" {
		t.Errorf("file after fix: %+v", set.Files[0])
	}
	again, _, err := FixFile(name)
	if err != nil || again != filepath.Join(dir, "ops.fixed-2.yaml") {
		t.Errorf("second FixFile = %s, %v; want ops.fixed-2.yaml beside the first", again, err)
	}
	if p, _, err := FixFile(path); err != nil || p != "" {
		t.Errorf("FixFile of a fixed file = %q, %v; want nothing to move", p, err)
	}
}

// fixedTools loads the fixture after Fix.
func fixedTools(t *testing.T) map[string]*Tool {
	t.Helper()
	data, _ := os.ReadFile(mcpshellFixture)
	fixed, _, err := Fix(data)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err := Parse("ops.yaml", fixed)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*Tool{}
	for _, tl := range f.Tools {
		out[tl.Name] = tl
	}
	return out
}

// run prepares and runs one call through the real exec runner.
func run(t *testing.T, d *Deps, tl *Tool, args map[string]any) (string, error) {
	t.Helper()
	c := d.Choose(tl)
	if c.Reason != "" {
		t.Fatalf("%s unavailable: %s", tl.Name, c.Reason)
	}
	p, err := d.Prepare(context.Background(), c, args)
	if err != nil {
		return "", err
	}
	res, err := p.Runner.Run(context.Background(), runner.Request{Argv: p.Argv, Env: p.Env, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatalf("run %s: %v", tl.Name, err)
	}
	if res.ExitCode != 0 {
		t.Fatalf("%s: exit %d, stderr %s (command %q)", tl.Name, res.ExitCode, res.Stderr, p.Command)
	}
	return string(res.Stdout), nil
}

// TestSprigAndMissingKeys: Sprig's title, quote, dict and toJson work; a
// key that is no parameter renders empty.
func TestSprigAndMissingKeys(t *testing.T) {
	out, err := run(t, testDeps(), fixedTools(t)["greet_user"], map[string]any{"name": "ada o'neil $(id)"})
	if err != nil {
		t.Fatal(err)
	}
	want := "Hello, Ada O'Neil $(Id)\nADA O'NEIL $(ID)\n[]\n{\"name\":\"ada o'neil $(id)\"}\n"
	if out != want {
		t.Errorf("output %q, want %q", out, want)
	}
}

func TestStrictTemplates(t *testing.T) {
	yml := "mcp:\n  run:\n    strict_templates: true\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo {{ .nickname }}\n"
	f, _, err := Parse("s.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Tools[0].Validate(); err == nil || !strings.Contains(err.Error(), "nickname") {
		t.Errorf("strict: Validate = %v, want the missing key named", err)
	}
	f, _, _ = Parse("s.yaml", []byte(strings.Replace(yml, "true", "false", 1)))
	if err := f.Tools[0].Validate(); err != nil {
		t.Errorf("not strict: Validate = %v", err)
	}
}

func TestHermeticFunctionsOnly(t *testing.T) {
	for text, want := range map[string]string{
		`{{ expandenv "$HOME" }}`: `use env "NAME"`,
		`{{ now }}`:               "hermetic",
		`{{ randAlpha 3 }}`:       "hermetic",
	} {
		if _, err := ParseTemplate("t", text, true); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: error %v, want %q", text, err, want)
		}
	}
	tm, err := ParseTemplate("t", `printf %s {{ repeat 100000000 "xx" }}`, true)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tm.Render(nil, Env{}); err == nil {
		t.Error("repeat of 200 MB rendered")
	}
}

// TestEnvFromOperatorList: env reads names the operator lists
// (exec.env_passthrough → Deps.TemplateEnv) as well as run.env, and
// nothing else.
func TestEnvFromOperatorList(t *testing.T) {
	yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: printf '%s' {{ env \"WARDEN_T_OPERATOR\" }}\n"
	f, _, err := Parse("e.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	if h := f.Tools[0].Hints(); len(h) != 1 || !strings.Contains(h[0], "exec.env_passthrough") {
		t.Errorf("hints = %v", h)
	}
	d := testDeps()
	d.Getenv = func(k string) string { return map[string]string{"WARDEN_T_OPERATOR": "v$(id)"}[k] }
	if _, err := run(t, d, f.Tools[0], nil); err == nil || !strings.Contains(err.Error(), "exec.env_passthrough") {
		t.Errorf("unlisted env: %v, want refused", err)
	}
	d.TemplateEnv = []string{"WARDEN_T_OPERATOR"}
	out, err := run(t, d, f.Tools[0], nil)
	if err != nil || out != "v$(id)" {
		t.Errorf("listed env = %q, %v", out, err)
	}
}

// TestSplitArgs: a split parameter becomes several words, as MCPShell's
// {{ .args }} did, and nothing in it runs.
func TestSplitArgs(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      params:\n        args: {type: string, split: true}\n      run:\n        command: printf '[%s]' {{ .args }} end\n"
	f, _, err := Parse("s.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	for v, want := range map[string]string{
		"-l -a":                      "[-l][-a][end]",
		`"a b" 'c d' e\ f`:           "[a b][c d][e f][end]",
		"":                           "[end]",
		"$(touch " + marker + ")":    "[$(touch][" + marker + ")][end]",
		"`touch " + marker + "`;x|y": "[`touch][" + marker + "`;x|y][end]",
		"'; touch " + marker + "; '": "[; touch " + marker + "; ][end]",
		"a\ntouch " + marker:         "[a][touch][" + marker + "][end]",
	} {
		out, err := run(t, testDeps(), f.Tools[0], map[string]any{"args": v})
		if err != nil || out != want {
			t.Errorf("args %q: %q, %v; want %q", v, out, err, want)
		}
	}
	if _, err := run(t, testDeps(), f.Tools[0], map[string]any{"args": "'open"}); err == nil {
		t.Error("unterminated quote: no error")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("a split value ran a command")
	}
	ld := fixedTools(t)["list_dir"]
	if hints := ld.Hints(); !ld.Params[1].Split || len(hints) != 1 || !strings.Contains(hints[0], "split: false") {
		t.Errorf("list_dir: args split %v, hints = %v; want args split by its name and the hint saying so", ld.Params[1].Split, hints)
	}
}

// TestArgsSplitByName: a string parameter named as an argument list
// (args, flags, extra_args, …) used as {{ .args }} is split as MCPShell's
// shell split it, without `split: true`; `split: false` keeps it one word;
// other names stay one word.
func TestArgsSplitByName(t *testing.T) {
	yml := `mcp:
  tools:
    - name: t
      description: d
      params:
        args: {type: string}
        extra_args: {type: string}
        path: {type: string}
        options: {type: string, split: false}
      run:
        command: printf '[%s]' {{ .args }} {{ .extra_args }} {{ .path }} {{ .options }}
`
	f, _, err := Parse("n.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	out, err := run(t, testDeps(), f.Tools[0], map[string]any{"args": "-l  'a b'", "extra_args": "x y", "path": "p q", "options": "o p"})
	if want := "[-l][a b][x][y][p q][o p]"; err != nil || out != want {
		t.Errorf("got %q, %v; want %q", out, err, want)
	}
	if _, _, err := Parse("n.yaml", []byte(strings.Replace(yml, "args: {type: string}", "args: {type: integer, split: true}", 1))); err == nil || !strings.Contains(err.Error(), "split") {
		t.Errorf("split on an integer: %v", err)
	}
}

// TestArrayParam: an array parameter (a warden extension) prints each
// element as exactly one shell word, quoted, whatever it holds: never
// split again, never expanded, an empty element stays an empty argument;
// CEL sees a list of strings, and the schema says array of strings.
func TestArrayParam(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	yml := `mcp:
  tools:
    - name: t
      description: d
      params:
        args: {type: array, description: arguments, default: ["-n", "1"]}
      constraints:
        - "args.size() <= 8 && args.all(a, a != '--evil')"
      run:
        command: printf '[%s]' {{ .args }} end; echo " {{ .args }}"
`
	f, _, err := Parse("a.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	tl := f.Tools[0]
	if err := tl.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		args any
		want string
	}{
		{[]any{"-l", "a b", "", "'q'", "$(touch " + marker + ")", "*", "x;y|z", "a\nb"}, "[-l][a b][]['q'][$(touch " + marker + ")][*][x;y|z][a\nb][end] -l a b  'q' $(touch " + marker + ") * x;y|z a\nb\n"},
		{[]any{}, "[end] \n"},
		{nil, "[-n][1][end] -n 1\n"},
	} {
		args := map[string]any{}
		if c.args != nil {
			args["args"] = c.args
		}
		out, err := run(t, testDeps(), tl, args)
		if err != nil || out != c.want {
			t.Errorf("args %q: %q, %v; want %q", c.args, out, err, c.want)
		}
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an array element ran a command")
	}
	for _, bad := range []any{"-l", []any{"a", 1.0}, []any{"--evil"}} {
		if _, err := run(t, testDeps(), tl, map[string]any{"args": bad}); err == nil {
			t.Errorf("args %v: accepted", bad)
		}
	}
	s, _ := json.Marshal(tl.InputSchema().Properties["args"])
	if !strings.Contains(string(s), `"type":"array"`) || !strings.Contains(string(s), `"items":{"type":"string"}`) {
		t.Errorf("schema = %s", s)
	}
	for _, y := range []string{"{type: array, split: true}", "{type: array, raw: true}", "{type: array, default: x}"} {
		if _, _, err := Parse("a.yaml", []byte(strings.Replace(yml, `{type: array, description: arguments, default: ["-n", "1"]}`, y, 1))); err == nil {
			t.Errorf("%s: accepted", y)
		}
	}
}

// TestValidateParsesShell: a command that is not valid shell fails
// validate, and a value where it cannot be quoted is refused with why.
func TestValidateParsesShell(t *testing.T) {
	for cmd, want := range map[string]string{
		`echo "unclosed {{ .v }}`:        "not valid bash syntax",
		`if true; then echo {{ .v }}`:    "not valid bash syntax",
		`echo $(( {{ .v }} + 1 ))`:       "declare the parameter type: integer",
		"echo `echo {{ .v }}`":           "use $(…)",
		`echo ok # {{ .v }}`:             "comment",
		`X=1; echo ${X:{{ .v }}}`:        "type: integer",
		`echo ${ {{- .v -}} }`:           "variable name",
		`[[ {{ .v }} -eq 1 ]] && echo y`: "compared with -eq",
		`[[ -v {{ .v }} ]] && echo y`:    "[[ -v ]]",
		`. {{ .v }}`:                     "script",
		`source /etc/{{ .v }}`:           "script",
		`a[{{ .v }}]=1`:                  "array index",
		`declare -n r={{ .v }}; echo $r`: "nameref",
		`declare {{ .v }}`:               "variable name",
	} {
		yml := "mcp:\n  run:\n    shell: /bin/bash\n  tools:\n    - name: t\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: '" + strings.ReplaceAll(cmd, "'", "''") + "'\n"
		f, _, err := Parse("v.yaml", []byte(yml))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if err := f.Tools[0].Validate(); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: Validate = %v, want %q", cmd, err, want)
		}
	}
}

// TestCallTimeSinks: where bash reads a value as code or as a variable
// name (eval, sh -c, read, arithmetic through a variable), validate says
// which values a call refuses, and a call refuses them before anything
// runs; a plain value runs.
func TestCallTimeSinks(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	for cmd, tc := range map[string]struct{ hint, ok, okOut string }{
		`eval printf "'[%s]'" {{ .v }}`:                   {"given to eval", "abc", "[abc]"},
		`bash -c {{ .v }}`:                                {"command string of bash -c", "true", ""},
		`read {{ .v }} <<< x; printf '[%s]' "$abc"`:       {"variable name for read", "abc", "[x]"},
		`X="{{ .v }}"; Y=$(echo "$X"); echo $(( Y + 1 ))`: {"assigned to Y", "41", "42\n"},
		`declare -i n; n={{ .v }}; echo $n`:               {"assigned to n", "7", "7\n"},
		`printf -v {{ .v }} '%s' x; printf '[%s]' "$abc"`: {"printf -v", "abc", "[x]"},
	} {
		yml := "mcp:\n  run:\n    shell: /bin/bash\n  tools:\n    - name: t\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: '" + strings.ReplaceAll(cmd, "'", "''") + "'\n"
		f, _, err := Parse("c.yaml", []byte(yml))
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		tl := f.Tools[0]
		if err := tl.Validate(); err != nil {
			t.Errorf("%s: Validate: %v", cmd, err)
			continue
		}
		if h := strings.Join(tl.Hints(), "\n"); !strings.Contains(h, tc.hint) || !strings.Contains(h, "are refused") {
			t.Errorf("%s: hints %q, want %q", cmd, h, tc.hint)
		}
		for i, v := range []string{"a[$(touch " + marker + ")]", "`touch " + marker + "`", "x; touch " + marker} {
			d := testDeps()
			p, err := d.Prepare(context.Background(), d.Choose(tl), map[string]any{"v": v})
			switch {
			case err == nil && i < 2:
				t.Errorf("%s: value %q prepared, want refused", cmd, v)
			case err == nil:
				// Only shell code needs an inert value; as a name or
				// arithmetic this one fails in bash without running.
				p.Runner.Run(context.Background(), runner.Request{Argv: p.Argv, Env: p.Env, Timeout: 20 * time.Second})
			case !strings.Contains(err.Error(), "refused"):
				t.Errorf("%s: value %q: %v, want refused", cmd, v, err)
			}
			if _, err := os.Stat(marker); err == nil {
				t.Fatalf("%s: value %q ran a command", cmd, v)
			}
		}
		if out, err := run(t, testDeps(), tl, map[string]any{"v": tc.ok}); err != nil || out != tc.okOut {
			t.Errorf("%s: value %q: %q, %v; want %q", cmd, tc.ok, out, err, tc.okOut)
		}
	}
}

// TestCountIsNotTheValue: a variable that holds a command's count of the
// value, not the value, may go into arithmetic: a regex with [ runs.
func TestCountIsNotTheValue(t *testing.T) {
	yml := "mcp:\n  run:\n    shell: /bin/bash\n  tools:\n    - name: t\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: 'N=$(printf \"a1\\n\" | grep -c \"{{ .v }}\"); echo $(( N + 1 ))'\n"
	f, _, err := Parse("n.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	if h := f.Tools[0].Hints(); len(h) != 0 {
		t.Errorf("hints = %v, want none", h)
	}
	if out, err := run(t, testDeps(), f.Tools[0], map[string]any{"v": "a[0-9]"}); err != nil || out != "2\n" {
		t.Errorf("count = %q, %v", out, err)
	}
}

func TestUnknownKeyDidYouMean(t *testing.T) {
	yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo\n        runners: [{name: bubblewrap, options: {allow_netwrking: true}}]\n"
	_, _, err := Parse("u.yaml", []byte(yml))
	want := `u.yaml:7: mcp.tools[0].run.runners[0].options.allow_netwrking: unknown key; did you mean "allow_networking"? MCPShell ignores it, so it never took effect`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v, want %q", err, want)
	}
}

// TestFixLeavesConflicts: a key whose destination is already set stays
// where it is, and Fix says so.
func TestFixLeavesConflicts(t *testing.T) {
	yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      timeout: 5s\n      run:\n        timeout: 10s\n        command: echo\n"
	out, moves, err := Fix([]byte(yml))
	if err != nil || len(moves) != 1 || !strings.Contains(moves[0], "timeout left in place") || string(out) != yml {
		t.Fatalf("Fix = %v, %v", moves, err)
	}
	if _, _, err := Parse("c.yaml", out); err == nil || !strings.Contains(err.Error(), "`timeout` belongs under `run:`") {
		t.Errorf("conflict after Fix: %v", err)
	}
}
