package audit

import (
	"strings"
	"testing"
)

// TestRedactSeparatorSpellings: a ';', '|' or '&' that bash reads as a
// byte of a word, not between commands, does not end the command that
// feeds a reader: inside a $'…' string (however long), escaped with a
// backslash, or in a quoted part joined to the next ("a"';'"b").
func TestRedactSeparatorSpellings(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, sep := range []string{";", "|", "&", "&&"} {
		esc := "\\" + strings.Join(strings.Split(sep, ""), "\\")
		for _, c := range []string{
			"printf $'x" + sep + " y\\nbob:" + pw + "\\n' | chpasswd",
			"printf $'x" + sep + " y\\nbob:" + pw + "\\n" + strings.Repeat("lorem ", 1000) + "' | chpasswd",
			"echo $'a" + sep + "b\\nbob:" + pw + "' | sudo chpasswd",
			"echo a" + esc + "b bob:" + pw + " | chpasswd",
			"printf '%s\\n' x" + esc + "y bob:" + pw + " | chpasswd",
			"echo \"a\"'" + sep + "'\"b\" bob:" + pw + " | chpasswd",
			"printf '%s\\n' 'a'\"" + sep + "\"'b' bob:" + pw + " | chpasswd",
		} {
			cases = append(cases, detourCase{"local", c, []string{"chpasswd"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	cases = append(cases,
		// Kept: real separators still end commands, and a backslash in
		// '…' escapes nothing.
		detourCase{"kept", `find /srv -name '*.tmp' -exec rm {} \; ; ls -la /srv`, []string{`-exec rm {} \; ; ls -la /srv`}},
		detourCase{"kept", `echo 'a\'; uptime`, []string{`echo 'a\'; uptime`}},
		detourCase{"kept", `printf $'a\tb\n'; df -h`, []string{"df -h"}},
		detourCase{"kept", `echo "x"';'"y" > /tmp/f; cat /tmp/f`, []string{"cat /tmp/f"}},
	)
	checkSubtests(t, pw, cases)
}
