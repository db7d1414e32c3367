package declare

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/runner/local"
)

const fixtures = "../../testdata/tools"

func TestLoadFixtures(t *testing.T) {
	set, err := LoadPaths([]string{filepath.Join(fixtures, "basic.yaml"), filepath.Join(fixtures, "sandboxed.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if got := len(set.Tools()); got != 14 {
		t.Errorf("tools = %d, want 14", got)
	}
	if len(set.Warnings) != 1 || !strings.Contains(set.Warnings[0], "raw") || !strings.Contains(set.Warnings[0], "basic.yaml:62") {
		t.Errorf("warnings = %q, want one about the raw parameter at basic.yaml:62", set.Warnings)
	}
	p := set.Files[0].Prompts
	if p == nil || p.Name != "basic_helper" || len(p.System) != 1 || len(p.User) != 1 {
		t.Errorf("prompts = %+v", p)
	}
	for _, tool := range set.Tools() {
		if err := tool.Validate(); err != nil {
			t.Errorf("%s: %v", tool.Name, err)
		}
	}
}

// TestStrictness checks every fixture under bad/ fails naming file, line
// and key.
func TestStrictness(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{"unknown_key.yaml", "unknown_key.yaml:5: mcp.tools[0].comand: unknown key"},
		{"unknown_runner.yaml", `unknown_runner.yaml:8: mcp.tools[0].run.runners[0].name: unknown runner "chroot"`},
		{"unknown_option.yaml", "unknown_option.yaml:10: mcp.tools[0].run.runners[0].options.allow_netwrking: unknown key"},
		{"duplicate.yaml", `duplicate.yaml:6: mcp.tools[1].name: tool "t" is already defined at line 3`},
		{"bad_cel.yaml", "bad_cel.yaml:8: mcp.tools[0].constraints[0]: cel:"},
		{"bad_default.yaml", "bad_default.yaml:6: mcp.tools[0].params.n.default: must be an integer"},
	} {
		_, err := LoadPaths([]string{filepath.Join(fixtures, "bad", tc.file)})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want one containing %q", tc.file, err, tc.want)
		}
	}
	// The same tool name in two files.
	_, err := LoadPaths([]string{filepath.Join(fixtures, "basic.yaml"), filepath.Join(fixtures, "basic.yaml")})
	if err == nil || !strings.Contains(err.Error(), `tool "greet" is already defined at`) {
		t.Errorf("duplicate across files: error = %v", err)
	}
}

func TestParseErrors(t *testing.T) {
	for name, tc := range map[string]struct{ yaml, want string }{
		"no mcp":           {"prompts: {user: [x]}\n", "missing the mcp section"},
		"no tools":         {"mcp: {tools: []}\n", "mcp.tools: must be a non-empty list"},
		"bad type":         {"mcp:\n  tools:\n    - name: t\n      description: d\n      params: {x: {type: float}}\n      run: {command: echo}\n", "params.x.type: must be one of"},
		"bad name":         {"mcp:\n  tools:\n    - name: 'a b'\n      description: d\n      run: {command: echo}\n", "tool name \"a b\""},
		"reserved param":   {"mcp:\n  tools:\n    - name: t\n      description: d\n      params: {approval_token: {}}\n      run: {command: echo}\n", "params.approval_token"},
		"bad timeout":      {"mcp:\n  tools:\n    - name: t\n      description: d\n      run: {command: echo, timeout: soon}\n", "run.timeout: must be a positive duration"},
		"bad tier":         {"mcp:\n  tools:\n    - name: t\n      description: d\n      tier: 7\n      run: {command: echo}\n", "tier: must be 0, 1, 2 or 3"},
		"raw integer":      {"mcp:\n  tools:\n    - name: t\n      description: d\n      params: {n: {type: integer, raw: true}}\n      run: {command: echo}\n", "applies to string parameters only"},
		"bad env":          {"mcp:\n  tools:\n    - name: t\n      description: d\n      run: {command: echo, env: ['A B']}\n", "is not a variable name"},
		"option type":      {"mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo\n        runners: [{name: bubblewrap, options: {allow_networking: 'yes'}}]\n", "allow_networking: must be true or false"},
		"docker option":    {"mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo\n        runners: [{name: docker, options: {image: a, privileged: true}}]\n", "options.privileged: unknown key"},
		"not bool cel":     {"mcp:\n  tools:\n    - name: t\n      description: d\n      params: {n: {type: integer}}\n      constraints: ['n + 1']\n      run: {command: echo}\n", "want bool"},
		"define":           {"mcp:\n  tools:\n    - name: t\n      description: d\n      run: {command: '{{ define \"x\" }}{{ end }}'}\n", "define and block"},
		"required+default": {"mcp:\n  tools:\n    - name: t\n      description: d\n      params: {n: {required: true, default: x}}\n      run: {command: echo}\n", "cannot have a default"},
	} {
		_, _, err := Parse("f.yaml", []byte(tc.yaml))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error = %v, want one containing %q", name, err, tc.want)
		}
	}
}

func testDeps() *Deps {
	return &Deps{Local: local.New(local.Options{}), Path: "/usr/local/bin:/usr/bin:/bin", Env: []string{"PATH=/usr/bin:/bin"}}
}

func loadTool(t *testing.T, name string) *Tool {
	t.Helper()
	set, err := LoadPaths([]string{filepath.Join(fixtures, "basic.yaml"), filepath.Join(fixtures, "sandboxed.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range set.Tools() {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("no tool %s", name)
	return nil
}

func TestPrepare(t *testing.T) {
	d := testDeps()
	d.Getenv = func(k string) string {
		return map[string]string{"WARDEN_FIXTURE_VAR": "passed", "WARDEN_FIXTURE_UNLISTED": "leak"}[k]
	}
	c := d.Choose(loadTool(t, "count"))
	// Constraint failure names the expression.
	_, err := d.Prepare(context.Background(), c, map[string]any{"n": float64(99)})
	if !errors.Is(err, ErrConstraint) || !strings.Contains(err.Error(), "n >= 1 && n <= 50") {
		t.Errorf("n=99: error = %v, want the failing constraint named", err)
	}
	if _, err := d.Prepare(context.Background(), c, map[string]any{"n": 1.5}); err == nil {
		t.Errorf("n=1.5: error = nil, want not an integer")
	}
	p, err := d.Prepare(context.Background(), c, map[string]any{"n": float64(2)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.Command, "seq 1 2") || p.Prefix != "count for n:" || p.Timeout.String() != "10s" {
		t.Errorf("prepared = %+v", p)
	}
	env := strings.Join(p.Env, "\n")
	if !strings.Contains(env, "WARDEN_FIXTURE_VAR=passed") || !strings.Contains(env, "FIXED=label-n") || strings.Contains(env, "leak") {
		t.Errorf("child env = %q; want the listed and templated names only", p.Env)
	}
	if p.Policy.Command != p.Command || p.Policy.Env["FIXED"] != "label-n" {
		t.Errorf("policy input = %+v; want the rendered command and run.env", p.Policy)
	}
}

func TestChoose(t *testing.T) {
	d := testDeps()
	if c := d.Choose(loadTool(t, "mac_only")); c.Reason == "" || !strings.Contains(c.Reason, "needs os darwin") {
		t.Errorf("mac_only: reason = %q, want unavailable (needs os darwin)", c.Reason)
	}
	if c := d.Choose(loadTool(t, "fallback")); c.Reason != "" || c.Runner.Name != "exec" {
		t.Errorf("fallback: runner = %v, reason %q; want exec", c.Runner, c.Reason)
	}
	d.GOOS = "darwin"
	if c := d.Choose(loadTool(t, "bwrap_cat")); c.Reason == "" {
		t.Errorf("bwrap_cat on darwin: available, want unavailable")
	}
	d.GOOS = ""
	d.LandlockHelper = nil
	if c := d.Choose(loadTool(t, "landlock_echo")); !strings.Contains(c.Reason, "helper") {
		t.Errorf("landlock without helper: reason = %q", c.Reason)
	}
}

// TestTemplatedPaths proves a templated folder option must render to a
// clean absolute path.
func TestTemplatedPaths(t *testing.T) {
	d := testDeps()
	c := d.Choose(loadTool(t, "bwrap_cat"))
	if c.Reason != "" {
		t.Skipf("bubblewrap unavailable: %s", c.Reason)
	}
	for _, dir := range []string{"/etc/../root", "/", "/srv/"} {
		if _, err := d.Prepare(context.Background(), c, map[string]any{"dir": dir, "file": "x"}); err == nil || !strings.Contains(err.Error(), "allow_read_folders") {
			t.Errorf("dir %q: error = %v, want allow_read_folders refused", dir, err)
		}
	}
	if _, err := d.Prepare(context.Background(), c, map[string]any{"dir": "/srv", "file": "x"}); err != nil {
		t.Errorf("dir /srv: %v", err)
	}
}
