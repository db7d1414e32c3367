package policy

import "testing"

// TestSpellBraceEmptyFields: bash drops the empty field an unquoted brace
// alternative leaves ({awk,} is the one word awk), so the words after it
// keep their places: the program text of awk and sed is still the first
// operand. A quoted empty alternative ({a,""}) stays a field.
func TestSpellBraceEmptyFields(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"{awk,} print >", `{awk,} 'BEGIN { print > "/srv/out" }'`, TierMutate, false},
		{"awk {,} print >", `awk {,} 'BEGIN { print > "/srv/out" }'`, TierMutate, false},
		{"{,,awk} system", `{,,awk} 'BEGIN { system("sysupgrade") }'`, TierDestructive, false},
		{"{awk,} system", `{awk,} 'BEGIN { system("sysupgrade") }'`, TierDestructive, false},
		{"{sed,} w", `{sed,} -n 'w /srv/out' in`, TierMutate, false},
		{"sed {,} w", `sed {,} -n 'w /srv/out' in`, TierMutate, false},
		{"sed {-n,} w", `sed {-n,} 'w /srv/out' in`, TierMutate, false},
		{"sed {,}{,} e", `sed {,}{,} 'e sysupgrade' in`, TierDestructive, false},
		{"sed x{,}", `{se,}d{,} -n 'w /srv/out' in`, TierMutate, false},
		{"{mawk,} print >", `{mawk,} -v f=/srv/out 'BEGIN { print > f }'`, TierMutate, false},
		{"{sed,} in a pipeline", `echo x | {sed,} 'w /srv/out'`, TierMutate, false},
		{"{awk,} in a loop", `for i in 1; do {awk,} 'BEGIN { print > "/srv/out" }'; done`, TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"{ls,} stays a read", "{ls,} -l", TierRead},
		{"quoted empty alternative is sed's script", `sed {,""} -n 'w /srv/out' in`, TierRead},
		{"{awk,} print", `{awk,} '{ print }' in`, TierRead},
	})
}

// TestSpellCoprocWords: the parser takes words of "coproc CMD ARGS" that
// look like assignments (dd of=FILE) for assignments, and leading
// assignments (coproc A=1 CMD) for the command name; bash runs CMD with
// those words as its arguments and environment.
func TestSpellCoprocWords(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"coproc dd of=disk", "coproc dd if=/dev/zero of=/dev/sda", TierDestructive, true},
		{"coproc dd of=file", "coproc dd of=/srv/out status=none </dev/null; wait", TierMutate, false},
		{"coproc dd of= after options", "coproc dd bs=1M count=1 of=/srv/out", TierMutate, false},
		{"coproc A=1 prog", "coproc A=1 sysupgrade", TierDestructive, false},
		{"coproc A=1 B+=2 prog", "coproc A=1 B+=2 dd of=/srv/out", TierMutate, false},
		{"coproc env prog", "coproc env A=1 sysupgrade", TierDestructive, false},
		{"coproc in a loop", "for i in 1; do coproc dd of=/srv/out; done", TierMutate, false},
		{"coproc in a function", "f() { coproc dd of=/srv/out; }; f", TierMutate, false},
		{"coproc in bash -c", "bash -c 'coproc dd of=/srv/out'", TierMutate, false},
		{"coproc make var", "coproc make SHELL=/srv/sh", TierMutate, false},
		{"coproc PATH= prog", "coproc PATH=/srv/bin ls", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"coproc ls", "coproc ls -l", TierRead},
		{"coproc named compound", "coproc c { ls; }", TierRead},
	})
}

// TestSpellGlobPositionals: an argument of sh -c with glob characters is
// the names it matches, not its text, so "$0" or "$@" in the payload is
// not known: sh -c '"$0"' ./sysupgr* runs whatever the glob finds.
func TestSpellGlobPositionals(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"sh -c \"$0\" glob", `sh -c '"$0"' ./jffs2*t`, TierDestructive, false},
		{"bash -c \"$1\" glob", `bash -c '"$1"' _ ./firs*t`, TierDestructive, false},
		{"bash -c \"$@\" glob", `bash -c '"$@"' _ ./jffs2*t`, TierDestructive, false},
		{"sh -c exec \"$@\" class", `sh -c 'exec "$@"' _ [s]ynopoweroff`, TierDestructive, false},
		{"sh -c \"$0\" \"$@\" class", `sh -c '"$0" "$@"' ./[[:alpha:]]ysupgrade`, TierDestructive, false},
		{"dash -c \"$0\" question", `dash -c '"$0"' /usr/sbin/reboo?`, TierDestructive, false},
		{"sh -c x=$0", `sh -c 'x="$0"; "$x"' /sbin/sysupgr*`, TierDestructive, false},
		{"sh -c \"$1\" write", `sh -c 'tee "$1"' _ /etc/pass*`, TierMutate, false},
		{"find -exec sh -c glob", `find . -maxdepth 0 -exec sh -c '"$0"' ./jffs2*t \;`, TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"sh -c echo \"$0\" glob", `sh -c 'echo "$0"' *.log`, TierRead},
		{"sh -c \"$0\" literal", `sh -c '"$0" -l' ls`, TierRead},
	})
}

// TestSpellGlobEchoOutput: echo and printf print the names a glob
// argument matches, not its text, so what they write to a pipe or a
// substitution is not known: echo ./sysupgr* | xargs env runs the match.
func TestSpellGlobEchoOutput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"echo glob | xargs env", `echo ./jffs2*t | xargs env`, TierDestructive, false},
		{"echo glob | xargs timeout", `echo ./jffs2*t | xargs timeout 5`, TierDestructive, false},
		{"echo glob | xargs sh -c $0", `echo ./jffs2*t | xargs sh -c '"$0"'`, TierDestructive, false},
		{"printf glob | xargs -0", `printf '%s\0' ./synopo*f | xargs -0 sh -c '"$@"' _`, TierDestructive, false},
		{"printf class | xargs -I", `printf '%s\n' [s]ynopoweroff | xargs -I{} sh -c '"$0"' {}`, TierDestructive, false},
		{"echo question | xargs -I{} {}", `echo ./firstboo? | xargs -I{} {}`, TierDestructive, false},
		// The pattern stands for the names it matches, as nice
		// /usr/sbin/reboo? reads it: denied.
		{"echo glob | xargs nice", `echo /usr/sbin/reboo? | xargs nice`, TierDestructive, true},
		{"quoted $(echo glob)", `"$(echo ./jffs2*t)"`, TierDestructive, false},
		{"echo glob | xargs tee", `echo /etc/pass* | xargs tee`, TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"echo glob | xargs echo", `echo ./*.log | xargs`, TierRead},
		{"echo literal | xargs env", `echo ls | xargs env`, TierRead},
	})
}

// TestSpellHistoryComputedOptions: history's options write (-w, -a),
// read (-r, -n) or add entries (-s); one computed at run time ("$@" in a
// function, $x) may be any of them. So for the other builtins whose
// arguments alone change what later commands run: hash (-p) and alias
// (NAME=VALUE).
func TestSpellHistoryComputedOptions(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"function \"$@\"", `f() { history "$@"; }; f -w /srv/out`, TierDestructive, false},
		{"function \"$1\"", `f() { history "$1" /srv/out; }; f -w`, TierDestructive, false},
		{"sourced function", `source /dev/stdin <<< 'f() { history "$@"; }; f -a /srv/out'`, TierDestructive, false},
		{"bash -c function", `bash -c 'f() { history "$@"; }; f -w /srv/out'`, TierDestructive, false},
		{"eval function", `eval 'f() { history "$@"; }; f -w /srv/out'`, TierDestructive, false},
		{"$x", `history $x`, TierDestructive, false},
		{"$(cat)", `history $(cat /tmp/opts)`, TierDestructive, false},
		{"read option", `read -r o; history "$o" /srv/out`, TierDestructive, false},
		{"hash $x", `hash $x; ls`, TierDestructive, false},
		{"hash in a function", `f() { hash "$@"; }; f -p /srv/evil ls; ls`, TierDestructive, false},
		{"hash $(cat)", `hash $(cat /tmp/opts) ls`, TierDestructive, false},
		{"alias $x", `alias $x`, TierDestructive, false},
		{"alias quoted $x", `alias "$x"`, TierDestructive, false},
		{"alias in a function", `f() { alias "$@"; }; f ls=sysupgrade`, TierDestructive, false},
		{"alias $(cat)", `alias "$(cat /tmp/a)"`, TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"history", "history", TierRead},
		{"history 10", "history 10", TierRead},
		{"hash", "hash", TierRead},
		{"hash -r", "hash -r", TierRead},
		{"alias lists", "alias", TierRead},
	})
}
