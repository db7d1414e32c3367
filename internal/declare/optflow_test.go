package declare

import (
	"path/filepath"
	"testing"
)

// TestValuesThroughVariablesAreNoOptions: a value the template assigns
// to a variable reaches a program's arguments wherever the variable is
// expanded, so `x={{ .v }}; grep "$x" f` lets "-f/etc/passwd" be grep's
// option as surely as `grep {{ .v }} f`; and an unquoted expansion splits
// the value into words, of which any may start with '-'. Each such call
// is refused, naming the parameter.
func TestValuesThroughVariablesAreNoOptions(t *testing.T) {
	dir := t.TempDir()
	marker := filepath.Join(dir, "marker")
	str := "{v: {type: string}}"
	for _, c := range []struct{ cmd, v string }{
		{"x={{ .v }}; grep \"$x\" /etc/hostname", "-f/etc/passwd"},
		{"x={{ .v }}; grep $x /etc/hostname", "-f/etc/passwd"},
		{"x=\"{{ .v }}\"; sort \"${x}\" /etc/hostname", "-o" + marker},
		{"x='{{ .v }}'\nsort ${x} /etc/hostname", "-o" + marker},
		{"export X={{ .v }}; sort \"$X\" /etc/hostname", "-o" + marker},
		{"declare -r X={{ .v }}; sort \"$X\" /etc/hostname", "-o" + marker},
		{"f() { local x={{ .v }}; sort \"$x\" /etc/hostname; }; f", "-o" + marker},
		{"x+={{ .v }}; sort \"$x\" /etc/hostname", "-o" + marker},
		{"for f in {{ .v }}; do sort \"$f\" /etc/hostname; done", "-o" + marker},
		{"a=({{ .v }}); sort \"${a[@]}\" /etc/hostname", "-o" + marker},
		{"a=(/etc/hostname {{ .v }}); sort \"${a[@]}\"", "-o" + marker},
		{"a[1]={{ .v }}; sort \"${a[1]}\" /etc/hostname", "-o" + marker},
		{"x=$(printf %s {{ .v }}); sort \"$x\" /etc/hostname", "-o" + marker},
		{"x=\"$(printf %s {{ .v | quote }})\"; sort \"$x\" /etc/hostname", "-o" + marker},
		{"x=ab{{ .v }}; sort $x /etc/hostname", "c -o" + marker},
		{"x={{ .v }}; sort a$x /etc/hostname", "b -o" + marker},
		{"x={{ .v }}; sort ${x:-/etc/hostname} /etc/hostname", "-o" + marker},
		{"x={{ .v }}; y=$x; sort \"$y\" /etc/hostname", "-o" + marker},
		{"set -- {{ .v }}; sort \"$1\" /etc/hostname", "-o" + marker},
		{"set -- {{ .v }}; sort \"$@\" /etc/hostname", "-o" + marker},
		{"read -r x <<< {{ .v }}; sort \"$x\" /etc/hostname", "-o" + marker},
		{"printf -v x %s {{ .v }}; sort \"$x\" /etc/hostname", "-o" + marker},
		{"x={{ .v }}; sort \"${y:-$x}\" /etc/hostname", "-o" + marker},
		{"x={{ .v }}; sort \"$(echo \"$x\")\" /etc/hostname", "-o" + marker},
	} {
		t.Run(c.cmd+"/"+c.v, func(t *testing.T) {
			wantOptionRefused(t, testDeps(), optTool(t, c.cmd, str), c.v, marker)
		})
	}
}

// TestValuesThroughVariablesWhereAllowed: the same flows where the value
// is no option of the program.
func TestValuesThroughVariablesWhereAllowed(t *testing.T) {
	str := "{v: {type: string}}"
	for _, c := range []struct {
		cmd, params string
		v           any
		want        string
	}{
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
		t.Run(c.cmd, func(t *testing.T) {
			tl := optTool(t, c.cmd, c.params)
			out, err := run(t, testDeps(), tl, map[string]any{"v": c.v})
			if err != nil {
				t.Fatal(err)
			}
			if out != c.want {
				t.Errorf("output %q, want %q", out, c.want)
			}
		})
	}
}
