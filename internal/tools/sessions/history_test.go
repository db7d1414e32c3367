package sessions

import (
	"os/exec"
	"strings"
	"testing"
)

// bash leaves "$!" and "${!name}" to the parser only where a character
// stands before the '$' (and, for "${!", a '}' after it on the line): a
// line that starts with "$!", or a "${!" left open, is expanded from the
// history. So after the harmless "echo 'x' touch /tmp/m", the lines
// "x=\" and "$!echo:1*" run "x=$'x' touch /tmp/m".
var historyAtLineStart = [][]string{
	{"echo 'x' touch /tmp/m", "x=\\", "$!echo:1*"},
	{"echo hi", "$!!"},
	{"echo hi", "$!-1"},
	{"echo hi", "$!echo"},
	{"echo hi", "$!?hi?"},
	{"echo hi", "$!#"},
	{"echo hi", "$!:0"},
	{"echo hi", "$!$"},
	{"echo hi", "$!*"},
	{"echo hi", "$!^"},
	{"echo hi", "x=\\", "$!!:s/hi/ho/"},
	{"echo hi", `echo "a`, `$!!"`},
	{"echo hi", "echo $(", "$!echo", ")"},
	{"echo hi", "echo ${!echo"},
	{"echo hi", "x=${!ec"},
	{"echo hi", "echo ${!e:1*"},
	{"echo hi", "echo ${!x", "}"},
	{"echo hi", ": ${!!:0 \\", "}"},
	{"echo hi", "echo a; \\", "$!echo:1"},
}

func TestHistoryAtLineStart(t *testing.T) {
	t.Parallel()
	for _, sends := range historyAtLineStart {
		t.Run(strings.Join(sends, "⏎"), func(t *testing.T) {
			_, last := typeAll(tty, sends...)
			if !strings.Contains(last.unseen, "history") {
				t.Errorf("unseen %q; text %q", last.unseen, last.text)
			}
		})
	}
}

// TestHistoryAtLineStartInBash checks the table against bash itself: a
// script of the sends run with history expansion on does not do what it
// does with it off.
func TestHistoryAtLineStartInBash(t *testing.T) {
	t.Parallel()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	run := func(h string, sends []string) string {
		cmd := exec.Command(bash, "--norc", "--noprofile")
		cmd.Stdin = strings.NewReader("set -o history " + h + "\n" + strings.Join(sends, "\n") + "\n")
		cmd.Dir = t.TempDir()
		out, _ := cmd.CombinedOutput()
		return string(out)
	}
	for _, sends := range historyAtLineStart {
		if on, off := run("-H", sends), run("+H", sends); on == off {
			t.Errorf("%q: bash did not expand it: %q", sends, on)
		}
	}
}

// The parameters $! and ${!name} stay text where bash keeps them.
func TestBangParametersStayText(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"kill $!", "wait $!", "a=$!", "echo $! $!", "echo ${!a*}", "echo ${!x}; ls", "x=${!y}", "echo \"$!\"",
		"echo ${#x} $!", "(( $! > 0 ))",
	} {
		if _, last := typeAll(tty, s); last.unseen != "" {
			t.Errorf("%q: %s", s, last.unseen)
		}
	}
}
