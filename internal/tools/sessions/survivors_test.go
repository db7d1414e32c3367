package sessions

import "testing"

// A reader that outlives Ctrl-C keeps reading what is typed after it, and
// the programs after it in its list read on: after "tee -i /dev/null;
// head -n 1", Ctrl-C and Ctrl-D, head takes "echo \" and "touch x" runs.
func TestSurvivorsOfCtrlCEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"tee -i /dev/null; head -n 1", "tee -i", "tee --ignore-interrupts /dev/null", "tee -ai /dev/null", "tee -a -i f",
		"bc", "bc -q", "bc -l", "dc", "bc f.bc", "setsid -w head -n 1", "setsid head -n 1", "setsid -w cat",
		"env tee -i /dev/null", "sudo tee -i /dev/null", "sh -c 'tee -i /dev/null; head -n 1'", "ls; bc -q",
		"timeout 60 bc", "true && setsid -w read x", "(tee -i /dev/null; cat)",
		// In the background, Ctrl-C does not reach it, and fg gives it
		// the next line.
		"head -n 1 &", "cat &", "read x &", "sudo true &", "python3 s.py &", "(sleep 1; head -n 1) &",
		"ls; head -n 1 & ls", "{ read -n 1 x; } &", "ssh -o BatchMode=yes h cat &",
		"sleep 1 & head -n 1 &",
	} {
		t.Run(c, func(t *testing.T) {
			_, last := typeAll(tty, c, "\x03…", "\x04…", "echo \\", "touch /etc/x")
			if last.unseen == "" {
				t.Errorf("after Ctrl-C and Ctrl-D, %q is classified as echo's argument", last.text)
			}
			if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen == "" {
				t.Error("a line after Ctrl-C is seen")
			}
		})
	}
}

func TestReadersEndedByCtrlC(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"tee /tmp/x", "tee -a /tmp/x", "ls | tee -i /tmp/x", "echo 1+1 | bc", "bc < /tmp/f", "tee -i f < /dev/null",
		"echo tee -i", "grep bc /etc/x", "cat; head -n 1", "sleep 10 &", "head -n 1 < /etc/hosts &", "ls &",
		"python3 s.py < /dev/null > log 2>&1 &", "tail -f /var/log/syslog &", "echo a & echo b",
	} {
		if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
