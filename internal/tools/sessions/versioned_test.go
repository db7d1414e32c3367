package sessions

import "testing"

// An interpreter or client under a versioned name reads the lines typed
// next in its own language as its plain name does: after python3.12, a
// line is Python, not the shell's.
func TestVersionedReadersEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"python3.12", "python3.11 -i", "/usr/bin/python3.12", "python2.7", "pypy3.10", "perl5.36", "perl5.36.0 -d s.pl",
		"lua5.4", "lua5.1", "luajit-2.1", "php8.2", "php8.2 -a", "ruby3.1", "tclsh8.6", "wish8.6", "guile3.0",
		"env python3.12", "sudo python3.12", "sh -c python3.12", "vim9", "mysql8", "psql15",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "ls"); last.unseen == "" {
				t.Errorf("a line after it is read as the shell's: %q", last.text)
			}
		})
	}
	for _, c := range []string{"python3.12 -c 'print(1)' < /dev/null", "echo python3.12", "python3.12 --version < /dev/null", "ls /usr/lib/python3.12"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
