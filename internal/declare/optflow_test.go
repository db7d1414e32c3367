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
