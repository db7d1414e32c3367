package policy

import (
	"fmt"
	"strings"
	"testing"
)

// TestBlindSpotSplitValues: a value the shell splits into several words
// gives the program all of them at once. An unquoted $A whose value has
// blanks is its fields (A="-rf /"; rm $A is rm -rf /), and an array or
// the positional parameters expanded whole ("${a[@]}", ${a[*]}, "$@",
// $*) are their elements together, not one at a time. A script that
// sets IFS splits otherwise: tier 3. Values that split into harmless
// words keep their tier.
func TestBlindSpotSplitValues(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`A="-rf /"; rm $A`,
		`A='-rf /usr'; rm $A`,
		`A="-rf /*"; rm $A`,
		`D="/srv/a /"; rm -rf $D`,
		`opts="-R 000 /"; chmod $opts`,
		`args="if=/dev/zero of=/dev/sda"; dd $args`,
		`a=(-rf /); rm "${a[@]}"`,
		`a=(-rf /); rm ${a[@]}`,
		`a=("-rf /"); rm ${a[*]}`,
		`a=(/srv/a /); rm -rf ${a[*]}`,
		`set -- -rf /; rm "$@"`,
		`set -- -rf /usr; rm $*`,
		`f() { rm "$@"; }; f -rf /`,
		`declare -a a=(-rf /etc); rm "${a[@]}"`,
		`mapfile -t a <<< $'-rf\n/'; rm "${a[@]}"`,
		`readarray -t a < <(printf '%s\n' -rf /); rm "${a[@]}"`,
		`a=(-rf); a+=(/); rm "${a[@]}"`,
		`a=(-r); a+=(-f /usr); rm ${a[@]}`,
		`sh -c 'rm $1' _ "-rf /"`,
		`A="-rf /"; bash -c 'rm $1' _ "$A"`,
		`sh -c 'chmod $2' _ x "-R 000 /"`,
		`IFS=,; x="-rf,/"; rm $x`,
		`IFS=:; x="-rf:/usr"; rm $x`,
		`x=$'-rf\t/'; rm $x`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`IFS=:; A="-rf /"; rm $A`,
		`IFS=:; IFS=,; x="-rf,/"; rm $x`,
		`D="/srv/a /srv/b"; rm -rf $D`,
		`a=(/srv/a /srv/b); rm -rf "${a[@]}"`,
		`a=(-rf); a+=(/usr); rm "${a[*]}"`, // one word, "-rf /usr"
	))
	runExactHosts(t, p, []exactCase{
		{"listing", `a=(-la /var/log); ls "${a[@]}"`, TierRead},
		{"split listing", `D="/etc /var/log"; ls $D`, TierRead},
		{"quoted value", `D="/srv/a /"; ls "$D"`, TierRead},
		{"quoted parameter", `sh -c 'ls "$1"' _ "/srv/a /"`, TierRead},
	})
}

// TestBlindSpotComputedRmOptions: a word computed at run time that can
// become several words ($x, "$@", "${a[@]}", $(cat list)), or an option
// beside another word (rm "$o" /srv/x), can make rm rm -rf, which no
// deny rule can check: tier 3, as rm -rf is, so open mode asks first.
// One quoted word alone, words after "--" and paths that start with a
// literal keep tier 2.
func TestBlindSpotComputedRmOptions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`rm $x`,
		`rm ${x}`,
		`rm "$o" /srv/y`,
		`rm "${a[@]}"`,
		`rm ${a[*]}`,
		`rm "$@"`,
		`rm $*`,
		`rm $(cat list)`,
		"rm `cat list`",
		`f() { rm "$@"; }; f /srv/x`,
		`\rm $x`,
		`/bin/rm "$@"`,
		`command rm $x`,
	))
	runExactHosts(t, p, []exactCase{
		{"one quoted word", `rm "$x"`, TierMutate},
		{"after --", `rm -- $x`, TierMutate},
		{"literal start", `rm "$dir"/*.tmp`, TierMutate},
		{"known words", `rm /srv/a /srv/b`, TierMutate},
	})
}

// TestSplitValuesCaps: whole-array readings stop at maxAlts. Eight lists
// of one array are all tried, so one of them that is rm -rf / is denied;
// a second array whose lists would take the readings past the cap is
// left unknown, which keeps rm at tier 3 rather than at its list's
// denial or below.
func TestSplitValuesCaps(t *testing.T) {
	p := protectedPolicy(t)
	var b strings.Builder
	for i := range maxVarValues - 1 {
		fmt.Fprintf(&b, "a=(/srv/x%d); ", i)
	}
	lists := b.String()
	got := p.Evaluate(Input{Command: lists + `a=(-rf /); rm "${a[@]}"`})
	if !got.Denied {
		t.Errorf("the last of %d lists was not tried: %s (%s)", maxVarValues, got.Tier, got.Reason)
	}
	past := lists + `a=(/srv/y); ` + strings.ReplaceAll(lists, "a=(", "b=(") + `b=(-rf /); rm "${a[@]}" "${b[@]}"`
	got = p.Evaluate(Input{Command: past})
	if got.Denied || got.Tier != TierDestructive {
		t.Errorf("past the cap: %s denied=%v (%s); want tier 3, not denied", got.Tier, got.Denied, got.Reason)
	}
}
