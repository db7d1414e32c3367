package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestEmptyVariableGuards: a script that stops on an empty variable before
// it uses one is not the SC2115 bug, and was denied as if it were: D=${1:?}
// and : "${D:?}" stop the shell, [ -n "$D" ] && … and [ -z "$D" ] && exit
// 1 reach the use only with D set, and a default of literal text is never
// empty. Those keep the tier of their unknown path (3, for rm -rf). A guard
// the shell can go past — the other branch, a subshell, a mixed chain, a
// test of an unquoted $D ([ -n ] is true), return outside a function, a
// guard after the use, a variable set again — keeps the denial.
func TestEmptyVariableGuards(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`D=${1:?}; rm -rf "$D"/*`,
		`D="${1:?usage: clean DIR}"; rm -rf "$D"/*`,
		`D=${1:-/srv/cache}; rm -rf "$D"/*`,
		`D=${1:-.}; rm -rf "$D"/*`,
		`D=$(git rev-parse --show-toplevel); : "${D:?}"; rm -rf "$D"/*`,
		`D=$1; : ${D:?not set}; rm -rf "$D"/*`,
		`D=$1; echo "cleaning ${D:?}"; rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] && rm -rf "$D"/*`,
		`D=$1; test -n "$D" && rm -rf "$D"/*`,
		`D=$1; [ -d "$D" ] && rm -rf "$D"/*`,
		`D=$1; [ "$D" ] && rm -rf "$D"/*`,
		`D=$1; [ "$D" != "" ] && rm -rf "$D"/*`,
		`D=$1; [[ -n $D ]] && rm -rf "$D"/*`,
		`D=$1; [[ $D ]] && rm -rf "$D"/*`,
		`D=$1; ! [ -z "$D" ] && rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] && [ -d "$D" ] && rm -rf "$D"/*`,
		`D=$1; [ -z "$D" ] || rm -rf "$D"/*`,
		`D=$1; [[ -z $D ]] || rm -rf "$D"/*`,
		`D=$1; [ -z "$D" ] && exit 1; rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] || { echo "usage: clean DIR" >&2; exit 1; }; rm -rf "$D"/*`,
		`D=$1; if [ -z "$D" ]; then echo usage; exit 1; fi; rm -rf "$D"/*`,
		`D=$1; if [ -n "$D" ]; then rm -rf "$D"/*; fi`,
		`D=$1; if [ -z "$D" ]; then echo none; else rm -rf "$D"/*; fi`,
		"D=$1\nif [ -z \"$D\" ]; then\n  exit 1\nfi\nrm -rf \"$D\"/*",
		`f() { [ -z "$1" ] && return 1; rm -rf "$1"/*; }; f`,
		`f() { local D=$1; [ -n "$D" ] || return; rm -rf "$D"/*; }; f`,
		`[ -n "$1" ] && rm -rf "$1"/*`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`D=${1:-}; rm -rf "$D"/*`,
		`D=${1:+/srv}; rm -rf "$D"/*`,
		`D=${1?}; rm -rf "$D"/*`,
		`D=${1:?}; D=$2; rm -rf "$D"/*`,
		`D=${1:?}; unset D; rm -rf "$D"/*`,
		`D=${1:?}; read D; rm -rf "$D"/*`,
		`D=${1:?}; eval "$2"; rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] || rm -rf "$D"/*`,
		`D=$1; [ -z "$D" ] && rm -rf "$D"/*`,
		`D=$1; [ -n $D ] && rm -rf "$D"/*`,
		`D=$1; [ -d $D ] && rm -rf "$D"/*`,
		`D=$1; [ "$D" = "" ] && rm -rf "$D"/*`,
		`D=$1; [[ -v D ]] && rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] && x || rm -rf "$D"/*`,
		`D=$1; ( : "${D:?}" ); rm -rf "$D"/*`,
		`D=$1; : "${D:?}" & rm -rf "$D"/*`,
		`D=$1; echo ${D:?} | cat; rm -rf "$D"/*`,
		`D=$1; x=$(: ${D:?}); rm -rf "$D"/*`,
		`D=$1; rm -rf "$D"/*; : "${D:?}"`,
		`D=$1; f() { : "${D:?}"; }; rm -rf "$D"/*`,
		`D=$1; if [ -n "$D" ]; then :; fi; rm -rf "$D"/*`,
		`D=$1; if [ -n "$D" ]; then :; else rm -rf "$D"/*; fi`,
		`D=$1; if [ -z "$D" ]; then echo none; fi; rm -rf "$D"/*`,
		`D=$1; if [ -z "$D" ]; then exit 1; else :; fi; rm -rf "$D"/*`,
		`D=$1; [ -z "$D" ] && echo none; rm -rf "$D"/*`,
		`D=$1; [ -z "$D" ] && return 1; rm -rf "$D"/*`,
		`D=$1; [ -n "$D" ] && { D=$2; rm -rf "$D"/*; }`,
		`while [ -n "$D" ]; do rm -rf "$D"/*; D=; done`,
	))
}

// TestEmptyVariableGuardsInPieces: a guard at the top of a script large
// enough to be classified in pieces holds for a use pieces later, as in
// one walk.
func TestEmptyVariableGuardsInPieces(t *testing.T) {
	p := protectedPolicy(t)
	filler := strings.Repeat("echo step\n", 2*pieceMin/10)
	for _, tc := range []struct {
		script string
		deny   bool
	}{
		{"D=$1\n: \"${D:?}\"\n" + filler + "rm -rf \"$D\"/*\n", false},
		{"D=$1\n[ -z \"$D\" ] && exit 1\n" + filler + "rm -rf \"$D\"/*\n", false},
		{"D=$1\n" + filler + "rm -rf \"$D\"/*\n: \"${D:?}\"\n", true},
		{"D=$1\n[ -z \"$D\" ] && echo none\n" + filler + "rm -rf \"$D\"/*\n", true},
	} {
		got := p.Evaluate(Input{Interpreter: "bash", Script: tc.script})
		if got.Denied != tc.deny || got.Tier != TierDestructive {
			t.Errorf("%d KiB script ending %q: %s denied=%v (%s); want tier3 denied=%v", len(tc.script)>>10, tc.script[len(tc.script)-24:], got.Tier, got.Denied, got.Reason, tc.deny)
		}
	}
}

// TestEmptyVariableGuardsBounded: one statement guards at most maxGuarded
// names; a name past them keeps the denial.
func TestEmptyVariableGuardsBounded(t *testing.T) {
	p := protectedPolicy(t)
	var guard, sets strings.Builder
	guard.WriteString(":")
	for i := 0; i <= maxGuarded; i++ {
		fmt.Fprintf(&sets, "V%d=$%d; ", i, i+1)
		fmt.Fprintf(&guard, ` "${V%d:?}"`, i)
	}
	for i, deny := range map[int]bool{0: false, maxGuarded - 1: false, maxGuarded: true} {
		cmd := fmt.Sprintf("%s%s; rm -rf \"$V%d\"/*", sets.String(), guard.String(), i)
		if got := p.Evaluate(Input{Command: cmd}); got.Denied != deny || got.Tier != TierDestructive {
			t.Errorf("guard of V%d: %s denied=%v (%s); want tier3 denied=%v", i, got.Tier, got.Denied, got.Reason, deny)
		}
	}
}
