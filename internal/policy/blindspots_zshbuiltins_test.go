package policy

import "testing"

// TestBlindSpotZshBuiltins: zsh's builtins and reserved words that bash
// has no form of were unknown programs, tier 2 without a denial, so open
// mode admitted, and an approval ran, what zsh runs through them: its
// precommand modifiers (- CMD, noglob, nocorrect, repeat N), emulate -c,
// print -z (the next Enter runs the editing buffer), =NAME (EQUALS
// expansion runs NAME), $=x and $^x (a value split or joined), variable
// names its builtins and module builtins assign to (a subscript in a name
// is arithmetic, which runs a $(…)), its read's attached-only -t and -k,
// zmodload (zsh/mapfile makes assignments write files) and the special
// tables through which an assignment defines functions or aliases.
func TestBlindSpotZshBuiltins(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`zsh -c 'true; - reboot'`,
		`zsh -c 'noglob reboot'`,
		`zsh -c 'nocorrect poweroff'`,
		`zsh -c 'noglob nocorrect - reboot'`,
		`zsh -c 'repeat 2 reboot'`,
		`zsh -c 'repeat $n halt'`,
		`zsh -c 'emulate sh -c reboot'`,
		`zsh -c 'emulate -R ksh -c "rm -rf /"'`,
		`zsh -c 'emulate -L -o aliases sh -c reboot'`,
		`zsh -c 'emulate -Lc reboot'`,
		`zsh -c 'emulate sh -creboot'`,
		`zsh -c 'print -z reboot'`,
		`zsh -c 'print -rz -- "rm -rf /"'`,
		`zsh -c 'print -v "a[\$(reboot)]" x'`,
		`zsh -c '=reboot'`,
		`zsh -c '=rm -rf /'`,
		`zsh -c 'exec =poweroff'`,
		`zsh -c 'sudo =reboot'`,
		`sudo =reboot`,
		`nohup =shutdown -h now`,
		`ssh h 'noglob reboot'`,
		`ssh h '=reboot'`,
		`su -c 'emulate sh -c reboot'`,
		`zsh -c 'zparseopts a=a[\$(reboot)]'`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		// a name computed at run time
		`zsh -c 'read k; print -v "$k" x'`,
		`zsh -c 'read k; print -v$k x'`,
		`zsh -c 'read k; print "$k" x'`,
		`zsh -c 'read k; print -rv "$k" x'`,
		`zsh -c 'read k; zparseopts -a "$k" a'`,
		`zsh -c 'read k; zparseopts -A "$k" a'`,
		`zsh -c 'read k; zparseopts a="$k"'`,
		`zsh -c 'read k; zformat -f "$k" x'`,
		`zsh -c 'read k; zregexparse "$k" x y'`,
		`zsh -c 'read k; zstyle -s x y "$k"'`,
		`zsh -c 'read k; getln "$k"'`,
		`zsh -c 'read k; vared "$k"'`,
		`zsh -c 'read k; strftime -s "$k" %s 1'`,
		`zsh -c 'read k; zstat -A "$k" /etc'`,
		`zsh -c 'read k; sysread "$k"'`,
		`zsh -c 'read k; sysread -c "$k" x'`,
		`zsh -c 'read k; sysopen -u "$k" -r /etc/hostname'`,
		`zsh -c 'read k; syserror -e "$k" 1'`,
		`zsh -c 'read k; zselect -a "$k" -t 0'`,
		`zsh -c 'read k; pcre_match -v "$k" x'`,
		// zsh's read: -t and -k take a number only attached, -n is a flag
		`zsh -c 'read k; read -t "$k" x'`,
		`zsh -c 'read k; read -k "$k" x'`,
		`zsh -c 'read k; read -n "$k" x'`,
		`zsh -c 'read k; read -rt "$k"'`,
		`zsh -c 'read k; read -d x -t "$k" y'`,
		`ssh h 'read k; read -t "$k" x'`,
		// modules and tables
		`zsh -c 'zmodload zsh/mapfile; mapfile[/etc/x]=y'`,
		`zsh -c 'zmodload zsh/mapfile; mapfile+=(/etc/x y)'`,
		`zsh -c 'zmodload zsh/system; sysopen -w -u fd /etc/x'`,
		`zsh -c 'zmodload -F zsh/files b:zf_rm; zf_rm -rf /srv'`,
		`zsh -c 'zmodload -ab zsh/zpty zpty'`,
		`zsh -c 'read m; zmodload "$m"'`,
		`zsh -c 'mapfile+=(/etc/x y)'`,
		`zsh -c 'functions=(g "rm -rf /srv"); g'`,
		`zsh -c 'functions+=(ls /tmp/p); ls'`,
		`zsh -c 'aliases=(ls /tmp/p)'`,
		`zsh -c 'typeset -A commands; commands=(ls /tmp/p)'`,
		`zsh -c 'options=(aliases on)'`,
		// values split or joined with the word
		`zsh -c 'x=$(cat /tmp/f); $=x'`,
		`zsh -c 'x=$(cat /tmp/f); rm $=x'`,
		`zsh -c 'x=(a b); ls $^x'`,
		`ssh h 'x=$(cat /tmp/f); $=x'`,
		// computed emulate words
		`zsh -c 'read o; emulate sh "$o" x'`,
		`zsh -c 'read c; emulate sh -c "$c"'`,
		`zsh -c 'read t; print -z "$t"'`,
		// builtins that act keep reading their arguments as commands
		`zsh -c 'zpty x reboot'`,
		`zsh -c 'zpty -b x "rm -rf /srv"'`,
	))
	// What reads the same in bash and zsh keeps its verdict, and bash
	// scripts keep their own variable names.
	runExactHosts(t, p, []exactCase{
		{"noglob ls", `zsh -c 'noglob ls *.txt'`, TierRead},
		{"nocorrect ls", `zsh -c 'nocorrect ls -la'`, TierRead},
		{"repeat uptime", `zsh -c 'repeat 3 uptime'`, TierRead},
		{"emulate", `zsh -c 'emulate -L zsh; ls'`, TierRead},
		{"emulate sh", `zsh -c 'emulate sh'`, TierRead},
		{"emulate -c ls", `zsh -c 'emulate sh -c "ls -la"'`, TierRead},
		{"print", `zsh -c 'print -r -- hello'`, TierRead},
		{"print var", `zsh -c 'read k; print -r -- "$k"'`, TierRead},
		{"print -v", `zsh -c 'print -v x hi'`, TierRead},
		{"print -l", `zsh -c 'print -l a b c'`, TierRead},
		{"zparseopts", `zsh -c 'zparseopts -D -E v=verbose h=help'`, TierRead},
		{"getln", `zsh -c 'getln line'`, TierRead},
		{"zmodload list", `zsh -c 'zmodload'`, TierRead},
		{"zmodload -l", `zsh -c 'zmodload -l'`, TierRead},
		{"zmodload -e", `zsh -c 'zmodload -e zsh/mapfile'`, TierRead},
		{"=ls", `zsh -c '=ls -la'`, TierRead},
		{"read -t5", `zsh -c 'read -t5 x'`, TierRead},
		{"read -r", `zsh -c 'read -r x'`, TierRead},
		{"bash read -t", `read k; read -t "$k" x`, TierRead},
		{"bash options", `options=-v; echo $options`, TierRead},
		{"bash functions", `functions="a b"; echo $functions`, TierRead},
		{"zsh $~ literal", `zsh -c 'echo $HOME'`, TierRead},
		{"sysopen writes", `zsh -c 'sysopen -w -u fd /srv/x'`, TierMutate},
		{"ztcp", `zsh -c 'ztcp example.com 80'`, TierMutate},
	})
}
