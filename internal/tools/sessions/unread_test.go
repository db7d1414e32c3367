package sessions

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
)

// Code warden does not read may read the terminal: after python3 -c
// 'input()', "echo \" is its input and "touch x" runs.
func TestUnreadCodeTakesTheNextLine(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"python3 -c 'input()'", "python3 s.py", "python3 -m json.tool", "python3.12 -c 'input()'", "perl -e '<STDIN>'",
		"perl s.pl", "ruby -e gets", "node app.js", "node -e 'x'", "php -r 'fgets(STDIN);'", "lua -e 'io.read()'",
		"bash script.sh", "sh ./x.sh arg", "dash -e x.sh", "bash -x s.sh", "sudo python3 s.py", "env python3 -c 'input()'",
		"timeout 60 bash s.sh", "ls; python3 s.py", "true && perl -ne 'print' f", "gawk '{print}' f", "sh -- s.sh",
		"bash -c 'python3 s.py'",
	})
}

func TestReadCodeKeepsTheSessionFollowed(t *testing.T) {
	t.Parallel()
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

// TestSedRunsCommands: GNU sed's e command and s///e flag run a shell
// command with sed's input, the terminal, whatever file sed reads:
// after "sed '1e head -n 1' f" (approved: policy asks for it), head takes
// "echo \" and the touch typed next runs alone.
func TestSedRunsCommands(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"sed '1e head -n1' /etc/hostname", "sed e /etc/hostname", "sed 's/x/head -n1/e' /etc/hostname", "sed -e '$e head -n1' f",
		"sed '/x/e head' f", "sed -n '1!e' f", "sed 's|a|b|ge' f", "sed -f s.sed f", "sed -ne 'e' f", "sed -e1e f",
		"sed -nEe 's/a/b/pe' f", "sed --expression='1e x' f", "sed --file=s.sed f", "sudo sed 1e f", "gsed e f",
		"sed -n 'p;e' f", "sed '1{e\n}' f", "sed 's/a/b/;2e' f",
	})
	for _, c := range []string{
		"sed -ne '/x/p' f", "sed 's/test/x/' f", "sed -n '/err/p' f", "sed 's/e/f/g' f", "sed '/^e/d' f",
		"sed -i 's/enable/disable/' f", "sed -n 1p f", "sed 'y/abc/efg/' f", "sed -E 's/(e)+/x/' f", "sed -i.bak 's/a/b/' f",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// TestSedRunsCommandsInATerminal: with sed's e approved, the head it runs
// takes "echo \" from the terminal; no unapproved send may make the marker.
func TestSedRunsCommandsInATerminal(t *testing.T) {
	t.Parallel()
	if out, err := exec.Command("sed", "--version").CombinedOutput(); err != nil || !strings.Contains(string(out), "GNU") {
		t.Skip("no GNU sed")
	}
	rg := newRig(t, policy.Guarded)
	id, marker := rg.opened("sed '1e head -n 1' /etc/hostname")
	time.Sleep(300 * time.Millisecond)
	rg.splitWrite(id, marker, 300*time.Millisecond, 14)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an unapproved send ran touch after sed's e")
	}
}
