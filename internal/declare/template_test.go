package declare

import (
	"os/exec"
	"strings"
	"testing"
	"unicode/utf8"
)

// hostile are values that break out of naive interpolation.
var hostile = []string{
	"plain",
	"",
	"'; id; '",
	"$(id)",
	"`id`",
	"a\nid\nb",
	"a\rb",
	`"; id; "`,
	`\`,
	`\'`,
	"$HOME ${HOME} $((1+1))",
	"-rf /",
	"*",
	"a b;$(id)|&>x<y",
	"'\"'\"'",
	"!!",
	"#comment",
	"\t\v",
	"\u00e9\u4e16",
}

// TestQuotingRoundTrip renders each hostile value into every quoting
// context and runs the result with /bin/sh: the program must receive the
// value verbatim. Without quoting, the shell would run id or split words.
func TestQuotingRoundTrip(t *testing.T) {
	contexts := map[string]string{
		"bare":           `printf '%s' {{ .v }}`,
		"double":         `printf '%s' "{{ .v }}"`,
		"single":         `printf '%s' '{{ .v }}'`,
		"concat":         `printf '%s' x{{ .v }}y`,
		"subst":          `printf '%s' "$(printf '%s' {{ .v }})"`,
		"subst-double":   `printf '%s' "$(printf '%s' "{{ .v }}")"`,
		"pipeline-func":  `printf '%s' {{ .v | upper | lower }}`,
		"after-comment":  "# a comment\nprintf '%s' {{ .v }}",
		"brace-default":  `unset X; printf '%s' "${X:-{{ .v }}}"`,
		"brace-bare":     `unset X; IFS=; printf '%s' ${X:-{{ .v }}}`,
		"brace-pattern":  `X=ab{{ .v }}cd; printf '%s' "${X#ab{{ .v }}}"`,
		"heredoc":        "cat <<EOF\n{{ .v }}\nEOF",
		"heredoc-quoted": "cat <<'EOF'\n{{ .v }}\nEOF",
		"heredoc-dash":   "cat <<-EOF\n\t{{ .v }}\n\tEOF",
		"assign":         `X={{ .v }}; printf '%s' "$X"`,
		"case-in-subst":  `printf '%s' "$(case x in x) printf '%s' {{ .v }};; esac)"`,
		"paren-in-subst": `printf '%s' "$( (printf '%s' {{ .v }}) )"`,
		"quote-func":     `printf '%s' {{ .v | quote }}`,
		"squote-double":  `printf '%s' "{{ squote .v }}"`,
	}
	for name, text := range contexts {
		tm, err := ParseTemplate(name, text, true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, v := range hostile {
			cmd, err := tm.Render(map[string]any{"v": v}, Env{})
			if err != nil {
				t.Errorf("%s: Render(%q): %v", name, v, err)
				continue
			}
			out, err := exec.Command("/bin/sh", "-c", cmd).Output()
			if err != nil {
				t.Errorf("%s: %q: sh -c %q: %v", name, v, cmd, err)
				continue
			}
			want := v
			if strings.HasPrefix(name, "heredoc") {
				want = v + "\n"
				if name == "heredoc-dash" {
					want = strings.TrimLeft(v, "\t") + "\n"
				}
				if name == "heredoc-quoted" && strings.HasSuffix(v, "\\") {
					want = v + "\n"
				}
			}
			if name == "brace-pattern" {
				want = "cd"
			}
			switch name {
			case "concat":
				want = "x" + v + "y"
			case "subst", "subst-double":
				want = strings.TrimRight(v, "\n")
			case "pipeline-func":
				want = strings.ToLower(strings.ToUpper(v))
			}
			if string(out) != want {
				t.Errorf("%s: value %q arrived as %q (command %q)", name, v, out, cmd)
			}
		}
	}
}

// TestQuotingRefused proves a value landing where warden cannot know the
// quoting is an error, never inserted.
func TestQuotingRefused(t *testing.T) {
	for name, text := range map[string]string{
		"backticks":    "echo `echo {{ .v }}`",
		"arith":        "echo $(( {{ .v }} + 1 ))",
		"arith-cmd":    "(( {{ .v }} > 1 )) && echo y",
		"slice-offset": "X=abc; echo ${X:{{ .v }}}",
		"comment":      "echo hi # {{ .v }}",
		"var-name":     "echo ${{ \"{\" }}{{ .v }}}",
		"func-name":    "{{ .v }}() { echo; }",
		"for-name":     "for {{ .v }} in a; do echo; done",
	} {
		tm, err := ParseTemplateOptions(name, text, TemplateOptions{Shell: true, ShellPath: "/bin/bash"})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if cmd, err := tm.Render(map[string]any{"v": "$(id)"}, Env{}); err == nil {
			t.Errorf("%s: rendered %q, want an error", name, cmd)
		}
	}
}

func TestTemplateValues(t *testing.T) {
	tm, err := ParseTemplateOptions("t", `x {{ .i }} {{ .f }} {{ .b }} {{ .r }} {{ if .b }}yes{{ end }} {{ default "d" .e }}`, TemplateOptions{Shell: true, Raw: map[string]bool{"r": true}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := tm.Render(map[string]any{"i": int64(-3), "f": 2.5, "b": true, "r": "-la", "e": ""}, Env{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "x -3 2.5 true -la yes 'd'"; got != want {
		t.Errorf("Render = %q, want %q", got, want)
	}
}

func TestTemplateEnv(t *testing.T) {
	tm, err := ParseTemplate("t", `{{ env "HOME" }}`, false)
	if err != nil {
		t.Fatal(err)
	}
	getenv := func(string) string { return "/home/op" }
	if _, err := tm.Render(nil, Env{Getenv: getenv}); err == nil {
		t.Errorf("env of an unlisted name: error = nil, want one")
	}
	got, err := tm.Render(nil, Env{Allowed: map[string]bool{"HOME": true}, Getenv: getenv})
	if err != nil || got != "/home/op" {
		t.Errorf("env of a listed name = %q, %v; want /home/op", got, err)
	}
}

func TestTemplateParseRefusals(t *testing.T) {
	for _, text := range []string{`{{ define "x" }}a{{ end }}`, `{{ template "x" }}`, "a\x00b", "{{ .v "} {
		if _, err := ParseTemplate("t", text, true); err == nil {
			t.Errorf("ParseTemplate(%q): error = nil, want one", text)
		}
	}
}

func FuzzQuoting(f *testing.F) {
	for _, v := range hostile {
		f.Add(v)
	}
	tm, err := ParseTemplate("t", `unset X; printf '%s|' {{ .v }} "{{ .v }}" '{{ .v }}' "${X:-{{ .v }}}"`, true)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsRune(v, 0) || !utf8.ValidString(v) {
			if _, err := tm.Render(map[string]any{"v": v}, Env{}); err == nil {
				t.Fatalf("value %q rendered", v)
			}
			return
		}
		cmd, err := tm.Render(map[string]any{"v": v}, Env{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command("/bin/sh", "-c", cmd).Output()
		if err != nil {
			t.Fatalf("sh -c %q: %v", cmd, err)
		}
		if want := v + "|" + v + "|" + v + "|" + v + "|"; string(out) != want {
			t.Fatalf("value %q arrived as %q", v, out)
		}
	})
}

// BenchmarkRenderShell renders a typical multi-line command with five
// values: the template, the parse with sentinels, the quoting and the
// verifying parse.
func BenchmarkRenderShell(b *testing.B) {
	tm, err := ParseTemplateOptions("b", `NS="{{ .ns }}"
if [ -n "$NS" ]; then
  kubectl get pods -n "$NS" -l {{ .label }} -o {{ .format }}
else
  kubectl get pods -A | grep -F "{{ .filter }}" || true
fi
cat <<EOF
done for ${NS:-{{ .ns }}}
EOF`, TemplateOptions{Shell: true, ShellPath: "/bin/bash"})
	if err != nil {
		b.Fatal(err)
	}
	vals := map[string]any{"ns": "kube-system", "label": "app=web", "format": "wide", "filter": "$(id)"}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tm.Render(vals, Env{}); err != nil {
			b.Fatal(err)
		}
	}
}
