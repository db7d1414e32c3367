package declare

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestEnvRefsOffCommandLine: what a command reads of warden's environment
// reaches its program through the program's environment, never its argv
// (every local user's to read), while the policy reads the command as it
// will run, value included. A quoted here-document, which expands
// nothing, keeps the value; a name run.env also sets from a template is
// refused, since the command would read that value instead.
func TestEnvRefsOffCommandLine(t *testing.T) {
	const key = "s3cr3t 'x' $(id)"
	for _, tc := range []struct {
		name, cmd string
		inArgv    bool
		refused   bool
	}{
		{"arg", `printf %s {{ env "K" }}`, false, false},
		{"double", `printf %s "a{{ env "K" }}b"`, false, false},
		{"single", `printf %s 'a{{ env "K" }}b'`, false, false},
		{"heredoc", "cat <<E\n{{ env \"K\" }}\nE", false, false},
		{"quote", `printf %s {{ env "K" | quote }}`, false, false},
		{"squote", `printf %s "{{ env "K" | squote }}"`, false, false},
		{"quoted heredoc", "cat <<'E'\n{{ env \"K\" }}\nE", true, false},
		{"templated run.env", `printf %s {{ env "K" }}`, false, true},
		// Printed inside another text, the value cannot be a reference:
		// refused rather than put on the command line.
		{"quote with another word", `printf %s {{ quote (env "K") "x" }}`, false, true},
		{"squote with another word", `printf %s {{ squote "x" (env "K") }}`, false, true},
		{"printf", `printf %s {{ printf "k=%s" (env "K") }}`, false, true},
		{"cat", `printf %s {{ cat "k" (env "K") }}`, false, true},
		{"list", `printf %s {{ list (env "K") "x" | join "," }}`, false, true},
		{"variable", `{{ $k := env "K" }}printf %s {{ print "k=" $k }}`, false, true},
		{"quote of printf", `printf %s {{ printf "--key=%s" (env "K") | quote }}`, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			env := "        env: [K]\n"
			if tc.refused {
				env = "        env: [\"K={{ .p }}\"]\n      params:\n        p: {type: string}\n"
			}
			yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: " + quoteYAML(tc.cmd) + "\n" + env
			f, _, err := Parse("e.yaml", []byte(yml))
			if err != nil {
				// A value made of env's inside another text is refused
				// when the file loads (envtaint.go), before any call.
				if tc.refused && strings.Contains(err.Error(), "env's value may only be printed") {
					return
				}
				t.Fatal(err)
			}
			d := testDeps()
			d.TemplateEnv = []string{"K"}
			d.Getenv = func(k string) string { return map[string]string{"K": key}[k] }
			p, err := d.Prepare(context.Background(), d.Choose(f.Tools[0]), map[string]any{"p": "other"})
			if tc.refused {
				if err == nil || !strings.Contains(err.Error(), "run.env") && !strings.Contains(err.Error(), "inside another text") {
					t.Fatalf("err = %v, want refused", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			argv := strings.Join(p.Argv, " ")
			if strings.Contains(argv, "s3cr3t") != tc.inArgv {
				t.Errorf("argv %q: key in it %v, want %v", argv, !tc.inArgv, tc.inArgv)
			}
			if !tc.inArgv && !slices.Contains(p.Env, "K="+key) {
				t.Errorf("env %q lacks K", p.Env)
			}
			if !strings.Contains(p.Policy.Command, "s3cr3t") {
				t.Errorf("the policy reads %q, not the command as it runs", p.Policy.Command)
			}
		})
	}
}

func quoteYAML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s) + `"`
}

// TestPrefixReadsNoEnv: output.prefix is put before the output the agent
// reads, so env "NAME" there handed the agent a value of warden's
// environment (an API key the tool's run.env lists for its command). It
// is refused at validate, and at the call.
func TestPrefixReadsNoEnv(t *testing.T) {
	for _, prefix := range []string{
		`key {{ env "K" }}`,
		`{{ env "K" | quote }}`,
		`{{ printf "%s" (env "K") | b64enc }}`,
		`{{ if env "K" }}set{{ end }}`,
		`{{ $k := env "K" }}{{ len $k }}`,
		`{{ env "K" | trunc 4 }}`,
	} {
		t.Run(prefix, func(t *testing.T) {
			yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: echo ok\n        env: [K]\n      output:\n        prefix: " + quoteYAML(prefix) + "\n"
			f, _, err := Parse("e.yaml", []byte(yml))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Tools[0].Validate(); err == nil || !strings.Contains(err.Error(), "shown to the agent") {
				t.Errorf("validate: err = %v, want env refused", err)
			}
			d := testDeps()
			d.Getenv = func(k string) string { return map[string]string{"K": "k3y-51ab"}[k] }
			p, err := d.Prepare(context.Background(), d.Choose(f.Tools[0]), map[string]any{})
			if err == nil {
				t.Errorf("call: prefix %q rendered, want env refused", p.Prefix)
			}
		})
	}
	// A prefix of parameters and literals renders.
	yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      params: {dir: {type: string}}\n      run:\n        command: echo ok\n      output:\n        prefix: \"Disk usage of {{ .dir }}:\"\n"
	f, _, err := Parse("e.yaml", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	d := testDeps()
	p, err := d.Prepare(context.Background(), d.Choose(f.Tools[0]), map[string]any{"dir": "/srv"})
	if err != nil || p.Prefix != "Disk usage of /srv:" {
		t.Errorf("prefix = %q, %v", p.Prefix, err)
	}
}
