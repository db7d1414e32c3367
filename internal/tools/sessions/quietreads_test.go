package sessions

import "testing"

// Programs taken to leave the terminal alone that read their input in
// some uses: shasum with no file (its algorithm's value is no file),
// tree --fromfile, ack -x and --files-from, aureport --stdin. The line typed next is
// theirs, not the shell's.
func TestQuietProgramsThatReadTheTerminal(t *testing.T) {
	for _, s := range []string{
		"shasum", "shasum -a 256", "shasum -a256", "shasum --algorithm 256", "shasum --al 256", "shasum -b -a 1",
		"sudo shasum", "/usr/bin/shasum -a 512",
		"tree --fromfile", "tree --fromfile .", "tree -a --fromtabfile",
		"ack -x pat", "ack -ix pat", "ack --files-from=- pat", "ack --files-f=- pat", "ack --files-from /dev/stdin pat",
		"aureport --stdin", "aureport --std", "aureport -i --stdin",
	} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("the line after it is followed")
			}
		})
	}
	for _, s := range []string{"shasum f", "shasum -a 256 f", "tree", "tree -L 2 /etc", "ack pat", "ack -i pat .", "aureport", "aureport -i", "aureport --summary"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
