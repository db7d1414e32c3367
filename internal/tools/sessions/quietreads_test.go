package sessions

import (
	"os/exec"
	"strings"
	"testing"
)

// Programs taken to leave the terminal alone that read their input in
// some uses: shasum with no file (its algorithm's value is no file),
// tree --fromfile, ack -x and --files-from, aureport --stdin, tput -S. The line typed next is
// theirs, not the shell's.
func TestQuietProgramsThatReadTheTerminal(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"shasum", "shasum -a 256", "shasum -a256", "shasum --algorithm 256", "shasum --al 256", "shasum -b -a 1",
		"sudo shasum", "/usr/bin/shasum -a 512",
		"tree --fromfile", "tree --fromfile .", "tree -a --fromtabfile",
		"ack -x pat", "ack -ix pat", "ack --files-from=- pat", "ack --files-f=- pat", "ack --files-from /dev/stdin pat",
		"aureport --stdin", "aureport --std", "aureport -i --stdin",
		"tput -S", "tput -xS", "tput -S -T xterm", "tput -Txterm -S", "sudo tput -S",
	} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("the line after it is followed")
			}
		})
	}
	for _, s := range []string{"shasum f", "shasum -a 256 f", "tree", "tree -L 2 /etc", "ack pat", "ack -i pat .", "aureport", "aureport -i", "aureport --summary",
		"tput cols", "tput -T xterm cols", "tput smkx", "clear"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}

// TestQuietProgramsThatReadTheTerminalInATerminal: given "echo \\" and the
// touch after it, such a program takes the first and the shell would run
// the second alone; no unapproved send may make the marker.
func TestQuietProgramsThatReadTheTerminalInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{"tput -S", "shasum -a 256", "gpg --list-packets"} {
		if _, err := exec.LookPath(strings.Fields(opener)[0]); err != nil {
			continue
		}
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 14) })
	}
}
