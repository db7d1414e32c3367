package sessions

import "testing"

// A later stage of a pipeline reads the pipe, but one that opens the
// terminal itself reads what is typed: after "echo x | head -n 1 <
// /dev/tty", head takes "echo \" and "touch x" runs.
func TestPipedStagesThatOpenTheTerminal(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"echo x | head -n 1 < /dev/tty", "true | read x < /dev/tty", "ls | cat /dev/tty", "ls | cat - /dev/tty",
		"echo | dd bs=1 count=1 if=/dev/tty", "echo | head -c 2 < /dev/tty", "ls | sort | head -n 1 </dev/tty",
		"echo | read -n 1 x < /dev/stdin", "echo | sed q /dev/tty", "echo | grep -m1 x /dev/pts/0",
		"echo | sh -c 'head -n 1 < /dev/tty'", "echo | sudo true", "ls | python3 -c 'input()' < /dev/tty",
		"ls |& head -n 1 0</dev/tty", "echo | tee -i /dev/null < /dev/tty",
	})
	// A language reader on the far side of a pipe that reads the terminal.
	for _, c := range []string{"echo | python3 < /dev/tty", "ls | mysql < /dev/tty", "echo | sqlite3 db < /dev/tty"} {
		if _, last := typeAll(tty, c, "ls"); last.unseen == "" {
			t.Errorf("%q: a line after it is read as the shell's", c)
		}
	}
}

func TestPipedStagesReadThePipe(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"ls | cat", "ls | head -n 1", "ls | grep x", "ls | echo /dev/tty", "ls | ls -l /dev/tty", "cat f | sort | uniq -c",
		"echo x | read y", "ls | sed q", "ls | dd bs=1 count=1", "ps | python3 -c 'import sys; print(sys.stdin.read())'",
		"echo | python3", "ls | mysql",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
