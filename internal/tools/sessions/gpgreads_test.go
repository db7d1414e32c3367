package sessions

import "testing"

// gpg's looks at packets, keys and signatures read the terminal when no
// file is named: the next line typed is theirs, not the shell's.
func TestGpgLooksReadTheTerminalWithoutAFile(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"gpg --list-packets", "gpg --verify", "gpg --show-keys", "gpg2 --list-packets", "gpg --list-packets -",
		"gpg --armor --list-packets", "sudo gpg --list-packets", "gpg --list-packets=x",
	} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("the line after it is followed")
			}
		})
	}
	for _, s := range []string{"gpg --list-packets f.gpg", "gpg --verify f.sig", "gpg --list-keys", "gpg -k", "gpg --show-keys k.asc"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
