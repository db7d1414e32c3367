package sessions

import "testing"

// A program asked for its version or usage prints it and exits: it reads
// nothing typed, so the session stays followed.
func TestVersionsAndUsageReadNothing(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"python3 -V", "python3 --version", "python -V", "python3.12 -V", "python3 -VV", "python3 -h", "python3 --help",
		"/usr/bin/python3 -V", "pypy3 -V", "perl -v", "perl -V", "perl --version", "ruby -v", "ruby --version", "node -v",
		"node --version", "nodejs -v", "php -v", "lua -v", "lua5.4 -v", "deno --version", "julia --version",
		"env python3 -V", "sudo -n python3 -V", "sh -c 'python3 -V'", "python3 -V; ls", "python3 -V && echo ok",
		"vim --version", "nano --version", "emacs --help", "mysql --version", "psql --version", "sqlite3 --version",
		"gdb --version", "watch --version", "htop --version", "ed --version", "irb --version",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "ls", "echo x\x7fy"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
	// Verbose or interactive still starts the REPL, and tclsh takes an
	// option as its script's.
	for _, c := range []string{"python3 -v", "python3 -i -V", "python3", "tclsh -h", "perl -d -e 1", "vim f", "mysql"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen == "" {
			t.Errorf("%q: a line after it is read as the shell's", c)
		}
	}
}

// A script's own --version or -h is the script's: the interpreter runs it.
func TestScriptArgumentsAreTheScripts(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"python3 s.py --version", "python3 s.py -V", "python3 s.py -h", "python3 s.py --help", "perl s.pl -v",
		"ruby s.rb --version", "node app.js -v", "python3 -c 'input()' --version", "python3 -m http.server --help",
		"perl -e '<STDIN>' -v", "php s.php --help", "lua s.lua -v", "python3 -- s.py -V", "gdb --args prog --version",
	})
}
