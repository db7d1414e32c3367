package sessions

import "testing"

// A coprocess runs in the background as "&" does: one whose input is the
// terminal reads it out of Ctrl-C's reach (fg gives it the next line), so
// it ends the model for good. Bash runs the word after coproc before a
// redirection as the command, which the parser took for a name.
func TestCoprocReadersEndTheModel(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"coproc cat </dev/tty", "coproc head -n 1 <&2", "coproc read x </dev/stderr", "coproc cat 0<&1",
		"coproc X { cat </dev/tty; }", "coproc { read -r y </dev/tty; }", "coproc sed q /dev/tty",
		"coproc tee -i x </dev/tty", "coproc dd bs=1 count=1 </dev/tty", "ls; coproc cat </dev/tty",
		"coproc reset </dev/tty", "coproc zsh </dev/tty", "coproc stty kill q </dev/tty", "coproc bash +m </dev/null",
	} {
		t.Run(s, func(t *testing.T) {
			_, last := typeAll(tty, s)
			if last.unseen == "" && last.next.rekeyed == "" {
				t.Errorf("not held: adrift %q", last.next.adrift)
			}
		})
	}
}

// A coprocess that reads no terminal keeps the model.
func TestCoprocOfAReadStaysFollowed(t *testing.T) {
	t.Parallel()
	for _, s := range []string{"coproc ls >/dev/null", "coproc date </dev/null", "coproc x { ls; }", "coproc sort </etc/hosts"} {
		t.Run(s, func(t *testing.T) {
			if _, last := typeAll(tty, s, "ls -l"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
