package declare

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestHostileValuesNeverRun renders hostile values into every shell
// context a template can place them and runs each command through the
// real exec runner under sh and bash: no value ever runs a command (the
// marker file is never created), and where the context keeps a value
// whole it arrives verbatim.
func TestHostileValuesNeverRun(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	touch := "touch " + marker
	values := []string{
		"$(" + touch + ")",
		"`" + touch + "`",
		"'; " + touch + "; '",
		`"; ` + touch + `; "`,
		"a\n" + touch + "\nb",
		"}; " + touch + "; #",
		"x'\"'\"'$(" + touch + ")",
		`\`,
		"EOF\n" + touch + "\nEOF",
		"${IFS}$((1+1))$HOME",
		"-rf /;" + touch + "|" + touch + "&",
	}
	// Each context prints the value between [ and ].
	contexts := map[string]string{
		"bare":            `printf '[%s]' {{ .v }}`,
		"double":          `printf '[%s]' "{{ .v }}"`,
		"single":          `printf '[%s]' '{{ .v }}'`,
		"ansi-c":          `printf '[%s]' $'\x41{{ .v }}'`,
		"subst":           `printf '[%s]' "$(printf '%s' {{ .v }}; printf .)"`,
		"subst-case":      `printf '[%s]' "$(case x in x) printf '%s' "{{ .v }}";; esac; printf .)"`,
		"brace-dq":        `unset X; printf '[%s]' "${X:-{{ .v }}}"`,
		"brace-bare":      `unset X; IFS=; printf '[%s]' ${X:-{{ .v }}}`,
		"brace-pattern":   `X=a{{ .v }}b; printf '[%s]' "${X#a{{ .v }}}"`,
		"heredoc":         "cat <<EOF | tr '\\n' '|'\n[{{ .v }}]\nEOF",
		"heredoc-quoted":  "cat <<'EOF' | tr '\\n' '|'\n[{{ .v }}]\nEOF",
		"assign":          `X={{ .v }}; printf '[%s]' "$X"`,
		"export":          `export X={{ .v }}; printf '[%s]' "$X"`,
		"shell-c-arg":     `sh -c 'printf "[%s]" "$1"' sh {{ .v }}`,
		"read-prompt":     `read -p {{ .v }} X < /dev/null; printf '[%s]' {{ .v }}`,
		"arith-untouched": `X={{ .v }}; N=2; echo $((N - 2)) >/dev/null; printf '[%s]' "$X"`,
		"redirect":        `printf '[%s]' ok > ` + dir + `/{{ .v | sha256sum }}; cat ` + dir + `/{{ .v | sha256sum }}`,
	}
	for _, shell := range []string{"/bin/sh", "/bin/bash"} {
		for name, cmd := range contexts {
			if name == "ansi-c" && shell == "/bin/sh" {
				continue // dash has no $'…'
			}
			yml := "mcp:\n  run:\n    shell: " + shell + "\n  tools:\n    - name: t\n      description: d\n      params:\n        v: {type: string}\n      run:\n        command: |-\n          " + strings.ReplaceAll(cmd, "\n", "\n          ") + "\n"
			f, _, err := Parse(name+".yaml", []byte(yml))
			if err != nil {
				t.Fatalf("%s %s: %v", shell, name, err)
			}
			if err := f.Tools[0].Validate(); err != nil {
				t.Errorf("%s %s: Validate: %v", shell, name, err)
				continue
			}
			for _, v := range values {
				d := testDeps()
				c := d.Choose(f.Tools[0])
				out, err := runCommand(t, d, c, v)
				if os.Remove(marker) == nil {
					t.Fatalf("%s %s: value %q ran a command (output %q)", shell, name, v, out)
				}
				if err != nil {
					// The one refusal expected: a value that would end a
					// here-document early.
					if !strings.HasPrefix(name, "heredoc") || !strings.Contains(err.Error(), "structure") {
						t.Errorf("%s %s: value %q: %v", shell, name, v, err)
					}
					continue
				}
				want := "[" + v + "]"
				switch name {
				case "ansi-c":
					want = "[A" + v + "]"
				case "subst", "subst-case":
					want = "[" + v + ".]"
				case "brace-pattern":
					want = "[b]"
				case "heredoc", "heredoc-quoted":
					want = "[" + strings.ReplaceAll(v, "\n", "|") + "]|"
				case "redirect":
					want = "[ok]"
				}
				if out != want {
					t.Errorf("%s %s: value %q arrived as %q, want %q", shell, name, v, out, want)
				}
			}
		}
	}
}

func runCommand(t *testing.T, d *Deps, c Choice, v string) (string, error) {
	t.Helper()
	return run(t, d, c.Tool, map[string]any{"v": v})
}

// TestArithmeticSinksRunCode is the control for the refusals: with the
// value single-quoted, as any other argument, bash still runs the $(…)
// in these places, so quoting cannot be the answer there.
func TestArithmeticSinksRunCode(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no bash")
	}
	marker := filepath.Join(t.TempDir(), "marker")
	v := single("a[$(touch " + marker + ")]")
	for _, cmd := range []string{
		"[[ " + v + " -eq 1 ]]",
		"X=" + v + "; echo $(( X + 1 ))",
		"read " + v + " <<< x",
		"printf -v " + v + " x",
		"declare -i n; n=" + v,
	} {
		out, _ := runBash(cmd)
		if _, err := os.Stat(marker); err != nil {
			t.Errorf("bash did not run the subscript of %q (%s); the refusal may be unnecessary", cmd, out)
		}
		os.Remove(marker)
	}
}

func runBash(cmd string) (string, error) {
	out, err := exec.Command("/bin/bash", "-c", cmd).CombinedOutput()
	return string(out), err
}
