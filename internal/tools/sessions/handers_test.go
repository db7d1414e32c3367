package sessions

import (
	"testing"
)

// find's -exec command gets find's input, and xargs -o reopens the
// terminal for what it runs: a reader there takes "echo \" and the touch
// typed next runs alone.
func TestProgramsHandedTheTerminal(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		`find . -maxdepth 0 -exec head -n 1 \;`, `find . -exec cat \;`, `find . -execdir read x \;`, `find . -exec ./tool {} \;`,
		`find . -execdir nslookup \;`, `find . -exec sh -c 'head -n 1' \;`, `find . -exec env -u X head -n 1 \;`,
		`find / -maxdepth 0 -ok true \;`, `sudo find . -exec head -n 1 {} \; -quit`,
		"xargs -o head -n 1 < /dev/null", "ls | xargs -o head -n 1", "ls | xargs --open-tty cat", "ls | xargs -0o cat",
		"ls | xargs --open cat", "echo x | xargs -o -n1 read", "echo a | xargs -p echo", "ls | xargs --interactive echo",
		"ls | xargs --inter echo", "ls | xargs -0p echo", "xargs -p echo < /dev/null",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{
		`find . -exec cat {} +`, `find . -name x -exec ls -l {} \;`, `find . -type f -exec grep -l x {} +`,
		"find /var/log -mtime +7", "ls | xargs ls -l", "ls | xargs -n1 echo", `find . -exec stat {} \;`,
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestProgramsHandedTheTerminalInATerminal: in a real terminal, head run
// by find -exec or xargs -o takes "echo \"; no unapproved send may make
// the marker.
func TestProgramsHandedTheTerminalInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{`find / -maxdepth 0 -exec head -n 1 \;`, "echo | xargs -o head -n 1", "echo a | xargs -p true"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 13) })
	}
}

// The rules that look past a command's first word (survivors, language
// readers, askers, unread code) read find's -exec commands too.
func TestFindExecForEveryRule(t *testing.T) {
	t.Parallel()
	for _, c := range []string{`find . -exec tee -i /dev/null \;`, `find . -execdir bc \;`, `find . -exec setsid cat \;`} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "\x04…", "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("after Ctrl-C, %q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{`find . -exec python3 \;`, `find . -exec mysql \;`, `find . -ok vi {} \;`, `find . -exec stty kill x \;`} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen == "" {
				t.Errorf("%q, Ctrl-C, ls: seen", c)
			}
		})
	}
	for _, c := range []string{"find / -name python3", "find / -name vim -o -name bash", `find . -exec ls \; -name vim`} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}
