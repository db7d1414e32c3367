package sessions

import "testing"

// "-" among a program's files is its input: after "cat - /etc/hosts" the
// line "echo \" goes to cat, and "touch x" runs alone.
func TestDashAmongFilesReadsTheTerminal(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"cat - /etc/hosts", "cat /etc/hosts -", "cat -- -", "cat -n /etc/hosts - /etc/passwd", "tac /etc/hosts -",
		"sed p - /etc/hosts", "sed -n p /etc/hosts -", "sed -e p /etc/hosts -", "grep x /etc/hosts -", "grep -e x - /etc/hosts",
		"grep -f - /etc/hosts", "grep --file=- /etc/hosts", "grep --file - /etc/hosts", "awk 1 - /etc/hosts", "awk -f - /etc/hosts",
		"sort - /etc/hosts", "sort -u /etc/hosts -", "uniq - /tmp/out", "wc -l - /etc/hosts", "sha256sum /etc/hosts -",
		"md5sum -- /etc/hosts -", "paste /etc/hosts -", "head -n 3 /etc/hosts -", "tail -n 1 /etc/hosts -", "jq . /etc/x.json -",
		"cut -f1 /etc/hosts -", "nl /etc/hosts -", "od -c /etc/hosts -", "base64 -", "diff /etc/hosts -", "comm - /etc/hosts",
		"sudo cat - /etc/shadow", "env LANG=C sort - f", "ls; cat - f", "timeout 5 cat - f",
	})
}

// "-" as an option's value, or as grep's pattern, names no input.
func TestDashAsAValueStaysFollowed(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"grep - /etc/hosts", "grep -- - /etc/hosts", "cut -d - -f1 /etc/hosts", "awk -F - '{print $1}' /etc/hosts",
		"sort -t - -k2 /etc/hosts", "paste -d - /etc/hosts /etc/hosts", "cat /etc/hosts /etc/passwd", "sed -n p /etc/hosts",
		"diff /etc/hosts /etc/passwd", "echo - | cat - /etc/hosts",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
