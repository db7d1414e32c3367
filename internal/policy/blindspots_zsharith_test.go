package policy

import "testing"

// TestBlindSpotZshArithmeticCounts: zsh evaluates as arithmetic numbers
// that bash reads as plain integers — the count of exit, return, break,
// continue, shift and repeat, the arguments printf and print -f give a
// numeric conversion or a '*' width, and what is assigned to a float
// (typeset -F, -E) — so a value not known at parse time there runs the
// $(…) in a subscript (V='path[$(touch M)]'), as in (( V )). Each case
// was checked in zsh 5.9.
func TestBlindSpotZshArithmeticCounts(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"zsh -c 'exit $V'",
		"zsh -c 'exit V'",
		"zsh -c 'read -r x; exit $x'",
		"zsh -c 'return \"$1\"' _ x",
		"zsh -c 'for i in 1; do break $V; done'",
		"zsh -c 'for i in 1; do continue $V; done'",
		"zsh -c 'shift $V'",
		"zsh -c 'set -- a b; shift V'",
		"zsh -c 'shift -p $V'",
		"zsh -c 'shift $V argv'",
		"zsh -c 'repeat V :'",
		"zsh -c 'repeat $V echo hi'",
		"zsh -c 'printf \"%d\" $V'",
		"zsh -c 'printf \"%s %x\" a $V'",
		"zsh -c 'printf \"%.*s\" $V x'",
		"zsh -c 'printf \"%*s\" \"$V\" x'",
		"zsh -c 'printf \"%e\" $V'",
		"zsh -c 'printf \"%g\" \"$(cat /tmp/v)\"'",
		"zsh -c 'printf \"%d %d\" 1 2 3 $V'",
		"zsh -c 'printf %2\\$d 1 $V'",
		"zsh -c 'printf -v x \"%i\" $V'",
		"zsh -c 'print -f \"%d\" $V'",
		"zsh -c 'print -f\"%g\" $V'",
		"zsh -c 'print -rf \"%d\\n\" -- $V'",
		"zsh -c 'typeset -F n=$V'",
		"zsh -c 'typeset -E n=$V'",
		"zsh -c 'typeset -F2 n=$V'",
		"zsh -c 'typeset -F n; n=$V'",
		"zsh -c 'local -E n=$V'",
		"zsh -c 'f() { local -F n=$1; }; f $V'",
	))
	runExactHosts(t, p, []exactCase{
		{"exit", "zsh -c 'exit'", TierRead},
		{"exit status", "zsh -c 'exit 3'", TierRead},
		{"exit last status", "zsh -c 'false; exit $?'", TierRead},
		{"shift", "zsh -c 'shift 2'", TierRead},
		{"shift argv", "zsh -c 'shift argv'", TierRead},
		{"printf string", "zsh -c 'printf \"%s\\n\" $V'", TierRead},
		{"printf string and number", "zsh -c 'printf \"%s=%d\\n\" $V 3'", TierRead},
		{"printf char", "zsh -c 'printf \"%c\" $V'", TierRead},
		{"print", "zsh -c 'print -r -- $V'", TierRead},
		{"repeat", "zsh -c 'repeat 3 echo hi'", TierRead},
		{"float literal", "zsh -c 'typeset -F n=1.5'", TierRead},
		{"bash exit", "bash -c 'exit $V'", TierRead},
		{"bash shift", "shift \"$1\"", TierRead},
		{"bash printf", "printf '%d\\n' \"$1\"", TierRead},
	})
}

// TestBlindSpotZshIntegerSpecials: zsh keeps more of its own parameters
// integers than bash (HISTSIZE, SAVEHIST, LINES, COLUMNS, SHLVL, ERRNO,
// KEYTIMEOUT, LISTMAX, GID, EGID, TRY_BLOCK_ERROR, …) and evaluates what
// is assigned to one as arithmetic, however it is assigned. In bash they
// are plain strings.
func TestBlindSpotZshIntegerSpecials(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"zsh -c 'HISTSIZE=$V'",
		"zsh -c 'SAVEHIST=$V'",
		"zsh -c 'KEYTIMEOUT=$V'",
		"zsh -c 'LISTMAX=$V'",
		"zsh -c 'COLUMNS=$V'",
		"zsh -c 'LINES=$V'",
		"zsh -c 'SHLVL=$V'",
		"zsh -c 'ERRNO=$V'",
		"zsh -c 'TRY_BLOCK_ERROR=$V'",
		"zsh -c 'TRY_BLOCK_INTERRUPT=$V'",
		"zsh -c 'GID=$V'",
		"zsh -c 'EGID=$V'",
		"zsh -c 'read -r x; HISTSIZE=$x'",
		"zsh -c 'export SAVEHIST=$V'",
		"zsh -c 'typeset LINES=$V'",
		"zsh -c 'for COLUMNS in $V; do :; done'",
		"zsh -c 'read -r LINES'",
		"zsh -c 'printf -v SHLVL %s $V'",
	))
	runExactHosts(t, p, []exactCase{
		{"literal", "zsh -c 'HISTSIZE=1000'", TierRead},
		{"bash history size", "HISTSIZE=$V", TierRead},
		{"bash columns", "COLUMNS=$(tput cols); echo $COLUMNS", TierRead},
	})
}
