package sessions

import (
	"testing"
)

// A reader's long option that takes its value in the next word, whole or
// abbreviated, leaves no file: "head --lines 1" reads the terminal, takes
// "echo \", and the touch typed next runs alone.
func TestReaderLongOptionValues(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"head --lines 1", "head --li 1", "head --l 1", "head --bytes 4", "head --by 4", "head -q --lines 1",
		"grep --max-count 1 e", "grep --max 1 e", "grep --m 1 e", "grep --after-context 1 -m1 e", "grep --context 1 -m1 e",
		"grep --regexp e --max-count 1", "egrep --max-count 1 e", "fgrep --max-c 1 e", "grep --label x -m1 e",
		"sed --line-length 5 q", "sed --line-l 5 q", "sed --expression q", "sed --exp q",
		"awk --assign x=1 'NR==1{exit}'", "awk --field-separator , 'NR==1{exit}'", "gawk --field-sep , 'NR==1{exit}'",
		"awk --source 'NR==1{exit}'", "awk --file -", "sed --file -", "grep --file - x",
		"tail --lines 1", "cut --delimiter , -f1", "sort --key 1", "uniq --skip-fields 1", "xargs --max-args 1 echo",
		"sudo head --lines 1", "ls; head --lines 1", "sh -c 'head --lines 1'",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{
		"head --lines 1 /etc/hosts", "head --li 5 /etc/hosts", "grep --max-count 1 x /etc/hosts", "grep --count x /etc/hosts",
		"grep --files-with-matches x /etc/hosts", "sed --expression q /etc/hosts", "tail --lines 5 /var/log/syslog",
		"sort --key 1 /etc/hosts", "cut --delimiter : -f1 /etc/passwd", "awk --field-separator : '{print $1}' /etc/passwd",
		"grep --invert-match x /etc/hosts", "grep --line-number x /etc/hosts", "tail --follow=name --lines 5 /var/log/x",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestReaderLongOptionInATerminal: head --lines 1 and grep --max-count 1
// in a real terminal take "echo \" and exit; no unapproved send may make
// the marker.
func TestReaderLongOptionInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"head --lines 1", "head --li 1", "grep --max-count 1 e"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 7) })
	}
}
