package sessions

import "testing"

// A debugger reads its own commands from the terminal once it has run
// the ones it is given, and the program it runs gets the terminal in
// batch mode too: no line typed after one is the shell's until Ctrl-C
// (and, since Ctrl-C stops only the program it runs, a check that the
// shell has the terminal back, held.go).
func TestDebuggersTakeTheTerminal(t *testing.T) {
	t.Parallel()
	interactive := []string{
		"gdb ./a.out", "gdb -ex run ./a.out", "gdb -x /tmp/cmds ./a.out", "gdb -b 9600 ./a.out", "gdb -p 1234",
		"gdb --pid=1234", "gdb -q -ex 'run' --args sh", "gdb -iex 'set confirm off' ./a", "gdb --eval-command=run ./a",
		"gdb --ex run ./a", "gdb -command=/tmp/c ./a", "gdb -ex -batch ./a", "gdb -x -batch ./a", "gdb --args ./a -batch",
		"gdb -tui ./a", "sudo gdb -p 1", "env TERM=dumb gdb -ex r ./a", "timeout 60 gdb -ex r ./a", "gdb-multiarch -ex r ./a",
		"lldb ./a.out", "lldb -o run -- ./a.out", "lldb -s /tmp/c ./a", "lldb --one-line run ./a", "lldb -O 'settings' ./a",
		"lldb -p 1234", "lldb -o -b ./a", "lldb -- ./a -b", "lldb-18 -o run ./a", "/usr/bin/gdb -ex r ./a",
		"cgdb ./a.out", "pdb3 s.py", "pdb s.py", "jdb -attach 8000", "jdb Main",
	}
	batch := []string{
		"gdb -batch -ex run --args head -n 1", "gdb -batch -ex run --args cat", "gdb --batch -ex r --args ./prog",
		"gdb -batch-silent -ex run --args cat", "gdb -batch -ex run ./a.out", "gdb -batch -x /tmp/c ./a", "gdb -q -batch -ex r ./a",
		"sudo gdb -batch -ex r ./a", "lldb -b -o run -- head -n 1", "lldb --batch -o r -- cat", "lldb -batch -o r ./a",
		"lldb -b -o r ./a.out", "gdb -batch -p 1234 -ex 'call system(\"cat\")'",
	}
	leavesNextLinesUnseen(t, append(append([]string{}, interactive...), batch...))
	for _, c := range interactive {
		t.Run("for good/"+c, func(t *testing.T) {
			if _, last := typeAll(tty, c); last.next.rekeyed == "" {
				t.Error("a debugger at its prompt is taken to end with Ctrl-C")
			}
		})
	}
	// Asked for their version or usage, or only named, they read nothing.
	for _, c := range []string{
		"gdb --version", "gdb -v", "gdb --help", "gdb --configuration", "lldb --version", "lldb -v", "lldb --help",
		"echo gdb -ex run", "man gdb", "which lldb", "type gdb", "apt-cache show gdb", "grep -c gdb /etc/passwd",
		"top -b -n 1", "top -bn1 | head", "command -v gdb",
	} {
		t.Run("quiet/"+c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
