package declare

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// TestEnvThroughFunctions: env's value passed through any template
// function (upper, b64enc, trunc, replace, index, a variable or with's dot
// piped on, a range over its characters, a comparison in an if) was a new
// text the renderer could not tell from any other, so it went onto the
// command line — every local process's to read — instead of becoming a
// reference to the variable. Only the value as it is may be used; every
// other use is refused when the file loads, in run.command as in a docker
// prepare_command.
func TestEnvThroughFunctions(t *testing.T) {
	for _, cmd := range []string{
		`printf %s {{ env "K" | upper }}`,
		`printf %s {{ env "K" | lower }}`,
		`printf %s {{ env "K" | b64enc }}`,
		`printf %s {{ env "K" | b32enc }}`,
		`printf %s {{ env "K" | trunc 6 }}`,
		`printf %s {{ env "K" | substr 0 5 }}`,
		`printf %s {{ env "K" | replace "x" "y" }}`,
		`printf %s {{ env "K" | sha256sum }}`,
		`printf %s {{ env "K" | title }}`,
		`printf %s {{ env "K" | swapcase }}`,
		`printf %s {{ env "K" | abbrev 9 }}`,
		`printf %s {{ env "K" | wrap 4 }}`,
		`printf %s {{ env "K" | quote | upper }}`,
		`printf %s {{ upper (env "K") }}`,
		`printf %s {{ (env "K") | upper }}`,
		`printf %s {{ index (env "K") 0 }}`,
		`printf %s {{ printf "%s" (env "K") | upper }}`,
		`printf %s "{{ env "K" | upper }}"`,
		`printf %s '{{ env "K" | lower }}'`,
		"cat <<E\n{{ env \"K\" | b64enc }}\nE",
		`{{ $x := env "K" }}printf %s {{ $x | upper }}`,
		`{{ $x := env "K" }}{{ $y := $x | lower }}printf %s {{ $y }}`,
		`{{ $x := "a" }}{{ $x = env "K" | upper }}printf %s {{ $x }}`,
		`{{ with env "K" }}printf %s {{ . | upper }}{{ end }}`,
		`{{ with $k := env "K" }}printf %s {{ $k | b64enc }}{{ end }}`,
		`{{ with env "K" | upper }}printf %s {{ . }}{{ end }}`,
		`printf %s {{ range splitList "" (env "K") }}{{ . }}{{ end }}`,
		`{{ range $i, $c := splitList "" (env "K") }}printf %s {{ $c }};{{ end }}`,
		`printf %s {{ if eq (env "K") "Sekr3tValue-xyz" }}yes{{ end }}`,
		`printf %s {{ if hasPrefix "Sek" (env "K") }}yes{{ end }}`,
		`{{ $x := env "K" }}printf %s {{ if contains "3t" $x }}yes{{ end }}`,
		`printf %s {{ len (env "K") }}`,
		`printf %s {{ env "K" | sha1sum | trunc 8 }}`,
	} {
		for _, where := range []string{"command", "prepare"} {
			t.Run(where+"/"+cmd, func(t *testing.T) {
				run := "        command: " + quoteYAML(cmd) + "\n        env: [K]\n"
				if where == "prepare" {
					run = "        command: echo ok\n        env: [K]\n        runners: [{name: docker, options: {image: alpine, prepare_command: " + quoteYAML(cmd) + "}}]\n"
				}
				yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n" + run
				f, _, err := Parse("e.yaml", []byte(yml))
				if err != nil {
					if !strings.Contains(err.Error(), "env's value") {
						t.Errorf("refused for another reason: %v", err)
					}
					return
				}
				d := testDeps()
				d.Getenv = func(k string) string { return map[string]string{"K": "Sekr3tValue-xyz"}[k] }
				c := d.Choose(f.Tools[0])
				if c.Reason != "" {
					t.Errorf("loaded; runner unavailable here (%s), but the template should not have loaded", c.Reason)
					return
				}
				p, err := d.Prepare(context.Background(), c, map[string]any{})
				if err != nil {
					t.Errorf("loaded and refused only at the call: %v", err)
					return
				}
				t.Errorf("loaded and rendered: argv %q", p.Argv)
			})
		}
	}
}

// TestEnvAsItIs: the forms that print env's value as it is still make a
// reference to the variable, the value in the program's environment.
func TestEnvAsItIs(t *testing.T) {
	const key = "Sekr3tValue-xyz"
	for _, cmd := range []string{
		`printf %s {{ env "K" }}`,
		`printf %s {{ (env "K") }}`,
		`printf %s {{ env "K" | quote }}`,
		`printf %s {{ quote (env "K") }}`,
		`printf %s "{{ env "K" | squote }}"`,
		`printf %s {{ env "K" | default "none" }}`,
		`{{ $k := env "K" }}printf %s {{ $k }} {{ $k | quote }}`,
		`{{ with env "K" }}printf %s {{ . }}{{ else }}echo unset{{ end }}`,
		`{{ with $k := env "K" }}printf %s {{ $k }}{{ end }}`,
		`{{ if env "K" }}printf %s {{ env "K" }}{{ end }}`,
		`printf %s {{ env (printf "%s" "K") }}`,
		`{{ range list "a" "b" }}printf %s {{ . | upper }};{{ end }}printf %s {{ env "K" }}`,
	} {
		t.Run(cmd, func(t *testing.T) {
			yml := "mcp:\n  tools:\n    - name: t\n      description: d\n      run:\n        command: " + quoteYAML(cmd) + "\n        env: [K]\n"
			f, _, err := Parse("e.yaml", []byte(yml))
			if err != nil {
				t.Fatal(err)
			}
			if err := f.Tools[0].Validate(); err != nil {
				t.Fatal(err)
			}
			d := testDeps()
			d.Getenv = func(k string) string { return map[string]string{"K": key}[k] }
			p, err := d.Prepare(context.Background(), d.Choose(f.Tools[0]), map[string]any{})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(strings.Join(p.Argv, " "), "Sekr3t") || !slices.Contains(p.Env, "K="+key) {
				t.Errorf("argv %q env %q: want a reference", p.Argv, p.Env)
			}
		})
	}
}
