package sessions

import "testing"

// Code warden does not read may read the terminal: after python3 -c
// 'input()', "echo \" is its input and "touch x" runs.
func TestUnreadCodeTakesTheNextLine(t *testing.T) {
	leavesNextLinesUnseen(t, []string{
		"python3 -c 'input()'", "python3 s.py", "python3 -m json.tool", "python3.12 -c 'input()'", "perl -e '<STDIN>'",
		"perl s.pl", "ruby -e gets", "node app.js", "node -e 'x'", "php -r 'fgets(STDIN);'", "lua -e 'io.read()'",
		"bash script.sh", "sh ./x.sh arg", "dash -e x.sh", "bash -x s.sh", "sudo python3 s.py", "env python3 -c 'input()'",
		"timeout 60 bash s.sh", "ls; python3 s.py", "true && perl -ne 'print' f", "gawk '{print}' f", "sh -- s.sh",
		"bash -c 'python3 s.py'",
	})
}

func TestReadCodeKeepsTheSessionFollowed(t *testing.T) {
	for _, c := range []string{
		"python3 --version", "node --version", "ruby --version", "bash -c 'echo hi'", "sh -c ls",
		"python3 s.py < /dev/null", "echo x | python3 -c 'input()'", "python3 -c 'print(1)' < /tmp/f", "bash --version",
		"echo python3 s.py", "which python3",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
