package audit

import "testing"

// TestRedactEscapedLineStarts: in the text an echo or printf writes, a \n
// (or \r, \t) escape ends a line (or a field), so the word after it starts
// there instead of joining the escape's letter (printf 'a\nset -x TOKEN …'
// is "set", not "nset"), and a line it starts is read as one.
func TestRedactEscapedLineStarts(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"fish", "printf 'a\\nset -x API_TOKEN " + pw + "\\n' >> ~/.config/fish/config.fish", []string{"printf 'a\\nset -x API_TOKEN"}},
		{"fish", "printf '# x\\nset -gx GITHUB_TOKEN " + pw + "\\n' > ~/.config/fish/conf.d/t.fish", []string{"# x\\nset -gx GITHUB_TOKEN"}},
		{"fish", "echo -e 'set -x PATH /opt\\nset -Ux VAULT_TOKEN " + pw + "' >> config.fish", []string{"set -x PATH /opt\\nset -Ux VAULT_TOKEN"}},
		{"fish", "printf \"a\\r\\nset -x DB_PASSWORD " + pw + "\" >> config.fish", []string{"set -x DB_PASSWORD"}},
		// Kept: the escaped words that are no secret, an escaped
		// backslash before n.
		{"kept", "printf 'a\\nset -x PATH $PATH /opt/bin\\n' >> config.fish", []string{"a\\nset -x PATH $PATH /opt/bin\\n"}},
		{"kept", "printf 'C:\\\\new set -x done' > x.txt", []string{"C:\\\\new set -x done"}},
		{"kept", "echo 'line1\\nline2\\tcol' > notes.txt", []string{"line1\\nline2\\tcol"}},
	})
}
