package audit

import (
	"strings"
	"testing"
)

// shaped is a command template whose SEC is replaced by each secret shape
// in turn, and text that must survive redaction.
type shaped struct {
	in   string
	keep []string
}

// checkShapes runs every template with the secret shapes the leaks were
// probed with: letters and digits, a short word, punctuation, and a
// quoted secret holding a space (quoted with the quote the template does
// not already use around SEC).
func checkShapes(t *testing.T, tests []shaped) {
	t.Helper()
	for _, tt := range tests {
		before := tt.in[:strings.Index(tt.in, "SEC")]
		quoted := `"S3c w0rdZ"`
		if strings.Count(before, `"`)%2 == 1 {
			quoted = `'S3c w0rdZ'`
		}
		for _, shape := range []string{"Zq9abcdef", "hunter2", "P4ss-w0rd!", quoted} {
			in := strings.ReplaceAll(tt.in, "SEC", shape)
			got := Redact(in)
			for _, leak := range strings.Fields(strings.Trim(shape, `"'`)) {
				if strings.Contains(got, leak) {
					t.Errorf("Redact(%q) = %q: still contains %q", in, got, leak)
				}
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("Redact(%q) = %q: lost %q", in, got, k)
				}
			}
		}
	}
}

// TestRedactSpelledStdinReaders: a program that reads a secret on its
// input is known however bash spells its name (a path, a backslash that
// skips aliases, quotes inside the name), under a wrapper, and inside a
// compound command or group that the pipe feeds.
func TestRedactSpelledStdinReaders(t *testing.T) {
	checkShapes(t, []shaped{
		{"echo SEC | /usr/bin/kinit bob", []string{"/usr/bin/kinit bob"}},
		{"echo SEC | \\kinit bob", []string{"\\kinit bob"}},
		{"echo SEC | k\\init bob", []string{"k\\init bob"}},
		{"echo SEC | ki'ni't bob", []string{"ki'ni't bob"}},
		{"echo SEC | \"/usr/bin/kinit\" bob", []string{"kinit\" bob"}},
		{"echo SEC | ./kinit bob", []string{"./kinit bob"}},
		{"echo SEC | ~/bin/kinit bob", []string{"~/bin/kinit bob"}},
		{"echo SEC | \"$HOME\"/bin/kinit bob", []string{"/bin/kinit bob"}},
		{"printf '%s\\n' SEC | /usr/sbin/chpasswd", []string{"/usr/sbin/chpasswd"}},
		{"echo SEC | sudo /usr/sbin/chpasswd", []string{"sudo /usr/sbin/chpasswd"}},
		{"echo SEC | sudo \\chpasswd", []string{"sudo \\chpasswd"}},
		{"echo SEC | env -i /usr/bin/kinit bob", []string{"env -i /usr/bin/kinit"}},
		{"echo SEC | /usr/bin/sudo -S id", []string{"-S id"}},
		{"echo SEC | \\sudo -S id", []string{"-S id"}},
		{"echo SEC | sudo /usr/bin/env -i /usr/bin/kinit bob", []string{"kinit bob"}},
		{"/usr/bin/kinit bob <<< SEC", []string{"/usr/bin/kinit bob <<<"}},
		{"\\kinit bob <<< SEC", []string{"\\kinit bob <<<"}},
		{"sh -c '/usr/bin/kinit bob <<< SEC'", []string{"/usr/bin/kinit bob <<<"}},
		{"echo SEC | if true; then kinit bob; fi", []string{"then kinit bob; fi"}},
		{"echo SEC | if true; then /usr/bin/kinit bob; fi", []string{"kinit bob; fi"}},
		{"printf '%s\\n' SEC | if [ -x /usr/bin/kinit ]; then kinit bob; else true; fi", []string{"then kinit bob"}},
		{"echo SEC | while true; do kinit bob; done", []string{"do kinit bob; done"}},
		{"echo SEC | until false; do kinit bob; break; done", []string{"do kinit bob"}},
		{"echo SEC | for x in 1; do kinit bob; done", []string{"do kinit bob"}},
		{"echo SEC | case x in x) kinit bob;; esac", []string{"x) kinit bob;; esac"}},
		{"echo SEC | { true; kinit bob; }", []string{"kinit bob; }"}},
		{"echo SEC | case x in (x) kinit bob;; esac", []string{"(x) kinit bob;; esac"}},
		{"echo SEC | case $1 in a|b) true;; (*) /usr/bin/kinit bob;; esac", []string{"kinit bob;; esac"}},
	})
}

// TestRedactSpelledOptionPrograms: the program-specific option rules
// know their program however its name is spelled too.
func TestRedactSpelledOptionPrograms(t *testing.T) {
	checkShapes(t, []shaped{
		{"/usr/bin/sshpass -p SEC ssh h", []string{"ssh h"}},
		{"\\sshpass -p SEC ssh h", []string{"ssh h"}},
		{"\"/usr/bin/sshpass\" -p SEC ssh h", []string{"ssh h"}},
		{"ssh\\pass -p SEC ssh h", []string{"ssh h"}},
		{"'mysql' -u root -pSEC", []string{"-u root"}},
		{"my's'ql -u root -pSEC", []string{"-u root"}},
		{"\\curl -u a:SEC http://h", []string{"http://h"}},
		{"c\\url -u a:SEC http://h", []string{"http://h"}},
		{"/usr/bin/curl -u a:SEC http://h", []string{"http://h"}},
		{"sudo /usr/bin/sshpass -p SEC ssh h", []string{"ssh h"}},
	})
}

// TestRedactSpelledNamesKeepOthers: spelled paths that name no secret
// reader keep what the pipe feeds them.
func TestRedactSpelledNamesKeepOthers(t *testing.T) {
	checkSpellings(t, []spelling{
		{"echo hello | /usr/bin/grep h", nil, []string{"echo hello | /usr/bin/grep h"}},
		{"echo hello | \\cat", nil, []string{"echo hello | \\cat"}},
		{"echo hello | if true; then grep h; fi", nil, []string{"echo hello | if"}},
		{"if true; then echo hello; fi; kinit bob", nil, []string{"echo hello"}},
		{"PATH=/usr/bin/kinit ls; echo hello", nil, []string{"echo hello"}},
	})
}
