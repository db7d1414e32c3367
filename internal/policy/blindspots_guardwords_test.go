package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestGuardWordsShadowed: a guard is read as bash's builtins, and bash
// runs a function named exit, return, test or [ in the builtin's place
// (exit() { :; } makes [ -n "$D" ] || exit 1 go on with D empty), as it
// does after enable -n exit, an alias, a DEBUG trap (under extdebug it
// skips the exit) or text eval or source runs. Each of these keeps the
// SC2115 denial of the rm -rf that follows, in the script and in the
// script one of its shells runs.
func TestGuardWordsShadowed(t *testing.T) {
	p := protectedPolicy(t)
	rm := `; rm -rf "$D"/*`
	var cases []string
	for _, pre := range []string{
		`exit() { :; }; `,
		`exit() { echo bye; }; `,
		`exit () { :; }; `,
		"exit()\n{\n  :\n}\n",
		`test() { return 0; }; `,
		`[() { :; }; `,
		`f() { exit() { :; }; }; f; `,
		`if true; then exit() { :; }; fi; `,
		`enable -n exit; `,
		`enable -n test; `,
		`shopt -s expand_aliases; alias exit=:; `,
		`alias exit=true; `,
		`trap 'false' DEBUG; `,
		`shopt -s extdebug; trap -- 'return 1' debug; `,
		`eval "$X"; `,
		`source ./lib.sh; `,
		`. "$LIB"; `,
	} {
		for _, guard := range []string{
			`[ -n "$D" ] || exit 1`,
			`test -n "$D" || exit 1`,
			`[ -z "$D" ] && exit 1`,
			`if [ -z "$D" ]; then exit 1; fi`,
		} {
			cases = append(cases, pre+guard+rm)
		}
	}
	cases = append(cases,
		`sh -c 'exit() { :; }; [ -n "$D" ] || exit 1; rm -rf "$D"/*'`,
		`bash -c 'test() { :; }; test -n "$1" || exit; rm -rf "$1"/*'`,
		`f() { return() { :; }; }; g() { [ -n "$1" ] || return; rm -rf "$1"/*; }; f; g`,
	)
	runBlindHosts(t, p, sameCases(TierDestructive, true, cases...))
	// A trap that cannot skip a command and an unset keep the guard.
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`trap 'rm -f "$tmp"' EXIT; [ -n "$D" ] || exit 1`+rm,
		`trap cleanup INT TERM; [ -n "$D" ] || exit 1`+rm,
		`unset CDPATH; [ -n "$D" ] || exit 1`+rm,
		`unset -f exit; [ -n "$D" ] || exit 1`+rm,
	))
}

// TestGuardFunctionsThatExit: die() { echo "$*" >&2; exit 1; } ends the
// script as exit does, so [ -n "$D" ] || die "usage" is a guard where the
// call runs that function: declared once, before the guard, at the top
// level, ending in exit and never returning. Otherwise the denial stays.
func TestGuardFunctionsThatExit(t *testing.T) {
	p := protectedPolicy(t)
	rm := `; rm -rf "$D"/*`
	var guarded []string
	for _, die := range []string{
		`die() { echo "$*" >&2; exit 1; }; `,
		`die() { printf '%s\n' "$*" >&2; exit 2; }; `,
		"die() {\n  echo \"error: $1\" 1>&2\n  exit 64\n}\n",
		`die() { logger -t clean "$*"; { echo "$*"; exit 1; }; }; `,
	} {
		for _, guard := range []string{
			`[ -n "$D" ] || die "no directory"`,
			`test -n "$D" || die`,
			`[ -z "$D" ] && die usage`,
			`[[ -n $D ]] || die`,
			`[ -d "$D" ] || die "$D: not a directory"`,
			`if [ -z "$D" ]; then die usage; fi`,
			`[ -n "$D" ] || { echo usage; die; }`,
		} {
			guarded = append(guarded, die+guard+rm)
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, guarded...))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`die() { [ -n "$Q" ] && return; exit 1; }; [ -n "$D" ] || die`+rm,
		`die() { echo "$*"; return 1; }; [ -n "$D" ] || die`+rm,
		`die() { echo "$*"; }; [ -n "$D" ] || die`+rm,
		`die() { "$H" "$*"; exit 1; }; [ -n "$D" ] || die`+rm,
		`die() ( exit 1 ); [ -n "$D" ] || die`+rm,
		`die() { exit 1 & }; [ -n "$D" ] || die`+rm,
		`die() { exit 1; }; die() { :; }; [ -n "$D" ] || die`+rm,
		`die() { exit 1; }; g() { die() { :; }; }; g; [ -n "$D" ] || die`+rm,
		`[ -n "$D" ] || die; die() { exit 1; }`+rm,
		`if true; then die() { exit 1; }; fi; [ -n "$D" ] || die`+rm,
		`die() { exit 1; }; unset -f die; [ -n "$D" ] || die`+rm,
		`die() { exit 1; }; alias die=:; [ -n "$D" ] || die`+rm,
		`die() { exit 1; }; [ -n "$D" ] || die & rm -rf "$D"/*`,
		`die() { exit 1; }; [ -n "$D" ] || die | cat`+rm,
		`die() { exit 1; }; [ -n "$D" ] || ( die )`+rm,
		`die() { exit 1; }; [ -n "$D" ] || ! die`+rm,
		`die() { exit 1; }; [ -n "$D" ] || sudo die`+rm,
		`die() { exit 1; } & [ -n "$D" ] || die`+rm,
		"die() { exit 1; } &\n[ -n \"$D\" ] || die"+rm,
	))
}

// TestFunctionDeclaredInBackground: f() { …; } & declares f in a
// subshell, so the shell's own f is still whatever program PATH finds:
// a call of it is an unknown program, not the body.
func TestFunctionDeclaredInBackground(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`f() { ls; } & f`,
		"f() { ls; } &\nf",
		`f() { cat /etc/hosts; } & wait; f`,
		`report() { df -h; } & report /`,
	))
	runExactHosts(t, p, []exactCase{
		{"declared", `f() { ls; }; f`, TierRead},
		{"declared and waited", `f() { ls; }; f & wait`, TierRead},
	})
}

// TestGuardFunctionsInPieces: a function declared in the first piece of
// a script classified in pieces is a guard's exit in a later one.
func TestGuardFunctionsInPieces(t *testing.T) {
	p := protectedPolicy(t)
	filler := strings.Repeat("echo step\n", 2*pieceMin/10)
	for _, tc := range []struct {
		script string
		deny   bool
	}{
		{"die() { echo \"$*\" >&2; exit 1; }\n" + filler + "[ -n \"$D\" ] || die usage\nrm -rf \"$D\"/*\n", false},
		{"die() { echo \"$*\" >&2; }\n" + filler + "[ -n \"$D\" ] || die usage\nrm -rf \"$D\"/*\n", true},
		{"die() { exit 1; }\n" + filler + "die() { :; }\n[ -n \"$D\" ] || die\nrm -rf \"$D\"/*\n", true},
		{"exit() { :; }\n" + filler + "[ -n \"$D\" ] || exit 1\nrm -rf \"$D\"/*\n", true},
	} {
		got := p.Evaluate(Input{Interpreter: "bash", Script: tc.script})
		if got.Denied != tc.deny || got.Tier != TierDestructive {
			t.Errorf("%d KiB script ending %q: %s denied=%v (%s); want tier3 denied=%v", len(tc.script)>>10, tc.script[len(tc.script)-40:], got.Tier, got.Denied, got.Reason, tc.deny)
		}
	}
}

// TestGuardSpellings: a chain whose first command is a guard is one
// ([ -z "$D" ] && exit 1 || echo ok), and set -u scripts test "${D:-}",
// "${D-}" or "${D:+x}", each empty exactly when D is. printf without -v
// sets no variable. A default that is not empty, ${D+x} (set, maybe
// empty) and printf -v D keep the denial.
func TestGuardSpellings(t *testing.T) {
	p := protectedPolicy(t)
	rm := `; rm -rf "$D"/*`
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`[ -z "$D" ] && exit 1 || echo ok`+rm,
		`[ -n "$D" ] || exit 1 && echo ok`+rm,
		`: "${D:?}" && echo ok`+rm,
		`[ -n "${D:-}" ] || exit 1`+rm,
		`[ -n "${D-}" ] || exit 1`+rm,
		`[ -n "${D:+x}" ] || exit 1`+rm,
		`[ -z "${D:-}" ] && exit 1`+rm,
		`[ "${D:-}" != "" ] || exit 1`+rm,
		`[[ -z ${D:-} ]] && exit 1`+rm,
		`[[ -n ${D-} ]] || exit 1`+rm,
		`set -u; D=${1:-}; [ -n "${D:-}" ] || { echo usage >&2; exit 64; }`+rm,
		`printf '%s\n' "$D"; [ -n "$D" ] || exit 1`+rm,
		`printf -- '%s\n' "$D"; [ -n "$D" ] || exit 1`+rm,
		`printf -v other %s x; [ -n "$D" ] || exit 1`+rm,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`[ -n "$D" ] && echo ok || exit 1; echo x | rm -rf "$D"/*; [ -n "$D" ] && x || rm -rf "$D"/*`,
		`[ -n "$D" ] | exit 1`+rm,
		`[ -n "${D+x}" ] || exit 1`+rm,
		`[ -n "${D:-x}" ] || exit 1`+rm,
		`[ -n "${D:-$E}" ] || exit 1`+rm,
		`[ -n "${D:=}" ] || exit 1`+rm,
		`[ -n "${D:+}" ] || exit 1`+rm,
		`[ -n ${D:-} ] || exit 1`+rm,
		`[ -n "$D" ] || exit 1; printf -v D ''`+rm,
		`[ -n "$D" ] || exit 1; printf -vD ''`+rm,
		`[ -n "$D" ] || exit 1; printf "$F" x`+rm,
	))
}

// TestEmptyPositionalThroughCalls: a call of the script's function (f
// /srv) gives $1 a value to try in the function's body, not the value of
// the script's own $1, which warden's shell starts without. A variable
// set from it (D=$1, through another, a trim or quotes) may still be
// empty, and rm -rf "$D"/* is denied as it is without the call.
func TestEmptyPositionalThroughCalls(t *testing.T) {
	p := protectedPolicy(t)
	rm := `; rm -rf "$D"/*`
	var cases []string
	for _, set := range []string{`D=$1`, `D="$1"`, `D=${1}`, `D=${1%/}`, `E=$1; D=$E`, `E=$2; F=$E; D=$F`, `D=$*`, `D="$@"`} {
		for _, call := range []string{`f /srv`, `f "/srv/cache"`, `f x y z`} {
			cases = append(cases, `f() { :; }; `+set+"; "+call+rm)
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, true, cases...))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`f() { :; }; D=${1:?}; f /srv/cache`+rm,
		`f() { :; }; D=${1:-/srv}; f /x`+rm,
		`f() { :; }; X=/srv; D=$X/a; f /x`+rm,
	))
}

// TestAliasListingKeepsFunctions: alias with no definition only prints
// aliases, so a script that lists them still has its functions and its
// guards; one that defines an alias has neither.
func TestAliasListingKeepsFunctions(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"alias, then a function", `alias; f() { ls; }; f`, TierRead},
		{"alias -p", `alias -p; f() { df -h; }; f`, TierRead},
		{"alias of a name", `alias ll; f() { ls; }; f`, TierRead},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false, `alias -p; [ -n "$D" ] || exit 1; rm -rf "$D"/*`))
	runBlindHosts(t, p, sameCases(TierDestructive, true, `alias exit=:; [ -n "$D" ] || exit 1; rm -rf "$D"/*`))
}

// TestEmptyPositionalThroughCallsBounded: fromPositional follows a value
// through copies up to maxDerivedDepth, and a cycle of copies (E=$F;
// F=$E), which would follow itself for ever, ends there too: both keep
// the denial.
func TestEmptyPositionalThroughCallsBounded(t *testing.T) {
	p := protectedPolicy(t)
	var chain strings.Builder
	chain.WriteString("f() { :; }; E0=$1; ")
	for i := 1; i <= maxDerivedDepth; i++ {
		fmt.Fprintf(&chain, "E%d=$E%d; ", i, i-1)
	}
	fmt.Fprintf(&chain, "D=$E%d; f /srv/cache; ", maxDerivedDepth)
	for name, script := range map[string]string{
		"a chain as long as the bound": chain.String(),
		"a cycle":                      `f() { :; }; E=$F; F=$E; E=$1; D=$E; f /srv/cache; `,
		"a longer cycle":               `f() { :; }; A=$B; B=$C; C=$A; A=$1; D=$C; f /srv/cache; `,
	} {
		got := p.Evaluate(Input{Command: script + `rm -rf "$D"/*`})
		if !got.Denied || got.Tier != TierDestructive {
			t.Errorf("%s: %s denied=%v (%s); want tier3 denied", name, got.Tier, got.Denied, got.Reason)
		}
	}
}
