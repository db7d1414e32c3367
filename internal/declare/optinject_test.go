package declare

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// optTool parses one tool with command cmd and the parameters params
// (YAML flow mapping).
func optTool(t *testing.T, cmd, params string) *Tool {
	t.Helper()
	y := "mcp:\n  run:\n    shell: /bin/bash\n  tools:\n    - name: t\n      description: d\n      params: " + params + "\n      run:\n        command: " + quoteYAML(cmd) + "\n        timeout: 10s\n"
	f, _, err := Parse("o.yaml", []byte(y))
	if err != nil {
		t.Fatal(err)
	}
	return f.Tools[0]
}

// TestValuesAreNoOptions: a value that starts an argument word of a
// program, quoted or not, is read by the program as an option when it
// starts with '-' (or '+' for a pager), so the agent chose what the
// program does: grep's pattern read /etc/shadow as patterns, tar's path
// ran --checkpoint-action=exec=…, find's directory ran -exec, git's URL
// ran --upload-pack, ssh's host ran -oProxyCommand, sort's file wrote
// -o, less's file ran +!cmd. Such a call is now refused, naming the
// parameter; where the command still ran, the test says what it did.
func TestValuesAreNoOptions(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	touch := "touch " + marker
	str := "{v: {type: string}}"
	for _, c := range []struct{ cmd, params, v string }{
		{"grep {{ .v }} /etc/hostname", str, "-f/etc/passwd"},
		{"grep {{ .v }} /etc/hostname", str, "--file=/etc/passwd"},
		{"grep -r {{ .v }} " + dir, str, "--include=*"},
		{"grep -i \"{{ .v }}\" /etc/hostname", str, "-f/etc/passwd"},
		{"grep '{{ .v }}' /etc/hostname", str, "-f/etc/passwd"},
		{"grep {{ .v | quote }} /etc/hostname", str, "-f/etc/passwd"},
		{"grep {{ .v | trim }} /etc/hostname", str, "  -f/etc/passwd"},
		{"grep {{ printf \"%s\" .v }} /etc/hostname", str, "-f/etc/passwd"},
		{"grep {{ .v | lower }} /etc/hostname", str, "-F/etc/passwd"},
		{"echo \"$(grep -c {{ .v }} /etc/hostname)\"", str, "-f/etc/passwd"},
		{"cd " + dir + " && tar -cf x.tar {{ .v }}", str, "--checkpoint=1"},
		{"cd " + dir + " && tar -cf x.tar /etc/hostname {{ .v }}", str, "--checkpoint-action=exec=" + touch},
		{"cd " + dir + " && tar -cf x.tar {{ .v }} /etc/hostname", str, "--to-command=" + touch},
		{"find {{ .v }} -maxdepth 0", str, "-exec"},
		{"find " + dir + " {{ .v }} -maxdepth 0", str, "-fprint"},
		{"git ls-remote {{ .v }} x", str, "--upload-pack=" + touch},
		{"timeout 5 ssh {{ .v }} true", str, "-oProxyCommand=" + touch},
		{"ssh -T {{ .v }} true", str, "-F/etc/passwd"},
		{"curl {{ .v }} http://127.0.0.1:9", str, "-o/tmp/x"},
		{"curl -s {{ .v }}", str, "--config=/etc/passwd"},
		{"sort {{ .v }} /etc/hostname", str, "-o" + marker},
		{"sort /etc/hostname {{ .v }}", str, "--compress-program=sh"},
		{"rsync {{ .v }} /tmp/d", str, "-e sh -c 'touch x'"},
		{"less {{ .v }}", str, "+!" + touch},
		{"vim {{ .v }}", str, "+!id"},
		{"du {{ .v }}", "{v: {type: array}}", "--files0-from=/etc/shadow"},
		{"du {{ .v }}", "{v: {type: array}}", "-x"},
		{"ls -l {{ .v }}", str, "-R"},
		{"sh -c {{ .v }}", str, "-x"},
		{"xargs {{ .v }} < /dev/null", str, "-a/etc/passwd"},
		{"sort {{ .v }} /etc/hostname", "{v: {type: string, default: '-r'}}", "-o" + marker},
	} {
		t.Run(c.cmd+"/"+c.v, func(t *testing.T) {
			tl := optTool(t, c.cmd, c.params)
			d := testDeps()
			var arg any = c.v
			if strings.Contains(c.params, "array") {
				arg = []any{"/srv", c.v}
			}
			m := marker
			if strings.HasPrefix(c.cmd, "less") {
				m = "" // less waits for a terminal
			}
			wantOptionRefused(t, d, tl, arg, m)
		})
	}
}

// wantOptionRefused fails unless the call with v as parameter v is
// refused for an option; where it was not and marker is set, it runs the
// command and says whether the program made the marker.
func wantOptionRefused(t *testing.T, d *Deps, tl *Tool, v any, marker string) {
	t.Helper()
	p, err := d.Prepare(context.Background(), d.Choose(tl), map[string]any{"v": v})
	if err != nil {
		if !strings.Contains(err.Error(), "parameter v") || !strings.Contains(err.Error(), "option") {
			t.Errorf("refused for another reason: %v", err)
		}
		return
	}
	ran := ""
	if marker != "" && strings.Contains(fmt.Sprint(v), marker) {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		p.Runner.Run(ctx, runner.Request{Argv: p.Argv, Env: p.Env, Timeout: 10 * time.Second})
		if os.Remove(marker) == nil {
			ran = " and the program ran (or wrote) what the value said"
		}
	}
	t.Errorf("rendered %q%s", p.Command, ran)
}

// TestOptionsWhereAllowed: values that start with '-' where the template
// or the parameter says they are no option of the program, or may be,
// printed there or reaching there through a variable.
func TestOptionsWhereAllowed(t *testing.T) {
	str := "{v: {type: string}}"
	for _, c := range []struct {
		cmd, params string
		v           any
		want        string
	}{
		{"grep -c -- {{ .v }} /dev/null || true", str, "-f/etc/passwd", "0\n"},
		{"grep -c --regexp={{ .v }} /dev/null || true", str, "-f/etc/passwd", "0\n"},
		{"grep -c -e{{ .v }} /dev/null || true", str, "-v", "0\n"},
		{"printf '[%s]' {{ .v }}", str, "-rf /", "[-rf /]"},
		{"printf '[%s]' \"{{ .v }}\" {{ .v | quote }}", str, "-n", "[-n][-n]"},
		{"printf '[%s]' x{{ .v }}", str, "-v", "[x-v]"},
		{"echo {{ .v }}", str, "-x y", "-x y\n"},
		{"[ {{ .v }} = -n ] && echo same", str, "-n", "same\n"},
		{"read -r -p {{ .v }} X < /dev/null; printf '[%s]' {{ .v }}", str, "-rf", "[-rf]"},
		{"sh -c 'printf \"[%s]\" \"$1\"' sh {{ .v }}", str, "-x", "[-x]"},
		{"bash -o pipefail -c 'printf \"[%s]\" \"$1\"' sh {{ .v }}", str, "-x", "[-x]"},
		{"printf '[%s]' {{ .v }}", str, "-", "[-]"},
		{"printf '[%s]' \"$(cat -- {{ .v }} 2>&1 || true)\" >/dev/null; echo ok", str, "-x", "ok\n"},
		{"echo {{ .n }}", "{n: {type: integer}}", int64(-5), "-5\n"},
		{"head -n {{ .n }} /etc/hostname > /dev/null; echo ok", "{n: {type: integer}}", int64(-1), "ok\n"},
		{"printf '[%s]' {{ .flags }}", "{flags: {type: string}}", "-l -a", "[-l][-a]"},
		{"printf '%s' x; ls {{ .v }} /dev/null", "{v: {type: string, option: true}}", "-d", "x/dev/null\n"},
		{"ls {{ .v }} /dev/null", "{v: {type: string, split: true}}", "-d", "/dev/null\n"},
		{"ls {{ .args }}", "{args: {type: array}}", []any{"-d", "/dev/null"}, "/dev/null\n"},
		{"ls {{ .v }}", "{v: {type: array}}", []any{"--", "/dev/null"}, "/dev/null\n"},
		{"ls {{ .v }} /dev/null", "{v: {type: string, default: '-d'}}", nil, "/dev/null\n"},
		{"ls {{ .v }} /dev/null", "{v: {type: string, default: '-d'}}", "-d", "/dev/null\n"},
		{"ls {{ .v | default \"-d\" }} /dev/null", str, "", "/dev/null\n"},
		// Through a variable (optflow.go).
		{"x={{ .v }}; grep -c -- \"$x\" /dev/null || true", str, "-f/etc/passwd", "0\n"},
		{"x={{ .v }}; grep -c -e\"$x\" /dev/null || true", str, "-v", "0\n"},
		{"x={{ .v }}; echo \"$x\"", str, "-n x", "-n x\n"},
		{"x={{ .v }}; printf '[%s]' \"$x\" $x", str, "-a -b", "[-a -b][-a][-b]"},
		{"x={{ .v }}; [ \"$x\" = -n ] && echo same", str, "-n", "same\n"},
		{"x={{ .v }}; printf '%s\\n' \"${#x}\"", str, "-rf", "3\n"},
		{"x={{ .v }}; ls \"$x\" 2>&1 | wc -l", str, "/nonexistent", "1\n"},
		{"x=ab{{ .v }}; ls \"$x\" 2>&1 | wc -l", str, "-l", "1\n"},
		{"x={{ .v }}; ls $x", "{v: {type: string, option: true}}", "-d /dev/null", "/dev/null\n"},
		{"for f in {{ .v }}; do printf '[%s]' \"$f\"; done", str, "-x", "[-x]"},
		{"y={{ .v }}; x=/dev/null; ls \"$x\"", str, "-R", "/dev/null\n"},
	} {
		t.Run(fmt.Sprintf("%s/%v", c.cmd, c.v), func(t *testing.T) {
			tl := optTool(t, c.cmd, c.params)
			args := map[string]any{}
			if c.v != nil {
				name := "v"
				for _, n := range []string{"n", "flags", "args"} {
					if strings.HasPrefix(c.params, "{"+n+":") {
						name = n
					}
				}
				args[name] = c.v
			}
			out, err := run(t, testDeps(), tl, args)
			if err != nil {
				t.Fatal(err)
			}
			if out != c.want {
				t.Errorf("output %q, want %q", out, c.want)
			}
		})
	}
}
