package sessions

import (
	"testing"
)

// A program's name in any quoting is the program: the rules' prefilters
// looked for it in the raw text, so "h\ead -n 1" passed as no reader and
// head took "echo \". eval's words are one line, and "<&2" copies the
// terminal to a command's input.
func TestQuotedNamesEvalAndCopies(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		`h\ead -n 1`, `he''ad -n 1`, `"h"ead -n 1`, `$'\x68ead' -n 1`, `$'\150ead' -n 1`, `'head' -n 1`, `\cat`, `c"a"t`,
		`re\ad x`, `s\ed q`, `g\rep -m1 x`, `\ssh h cat`, `sudo h\ead -n 1`, `e\nv -S'head -n 1'`, `$'env' --sp='head -n 1'`,
		"eval head -n 1", "eval cat", "eval 'cat'", `eval "ls; head -n 1"`, `eval ls\; head -n 1`, "eval read x",
		"ev''al head -n 1", "ls | head -n 1 <&2", "ls | head -n 1 0<&1", "ls | ( cat >/dev/null; head -n 1 <&2 )",
		"ls | read x <&2", "echo | cat <&3",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("%q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{`t\ee -i /dev/null`, `b\c`, `"t"ee --ign f`} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "\x04…", "echo \\", "touch /etc/x"); last.unseen == "" {
				t.Errorf("after Ctrl-C, %q is classified as echo's argument", last.text)
			}
		})
	}
	for _, c := range []string{`a\lias ls=x`, `ali''as ls=x`, `"alias" ls=x`, `$'alias' ls=x`} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "ls"); last.unseen == "" {
				t.Errorf("%q then ls: seen", c)
			}
		})
	}
	for _, c := range []string{"eval ls", "eval echo hi", "ls | head -n 1", "head -n 1 < /etc/hosts", "echo 'it''s'", `echo a\ b`} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q then ls: %s", c, last.unseen)
		}
	}
}

// TestQuotedReaderInATerminal: in a real terminal "h\ead -n 1" is head,
// and "ls | head -n 1 <&2" reads the terminal; no unapproved send may
// make the marker.
func TestQuotedReaderInATerminal(t *testing.T) {
	t.Parallel()
	for _, opener := range []string{`h\ead -n 1`, "eval head -n 1", "ls | head -n 1 <&2"} {
		t.Run(opener, func(t *testing.T) { openerLeavesNoWrite(t, opener, 11) })
	}
}
