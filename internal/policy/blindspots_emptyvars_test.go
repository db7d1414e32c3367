package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotEmptyVariables: a variable whose value is not known may be
// empty (never set, or set from a command that printed nothing), so rm
// -rf "$STEAMROOT/"* may be rm -rf /*, ShellCheck's SC2115. A command the
// deny list refuses once its unknown variables are empty is denied, and
// the reason names the variable and the ${VAR:?} that stops the shell
// there. ${VAR:?}, a default, a known value and a path that stays below
// a system directory keep their tier.
func TestBlindSpotEmptyVariables(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`rm -rf "$STEAMROOT/"*`,
		`rm -rf "$STEAMROOT"/*`,
		`rm -rf $DIR/`,
		`rm -rf "${BUILD}/"`,
		`rm -rf "${BUILD:-}/"*`,
		`rm -rf "${BUILD-}"/*`,
		`rm -fr "$PREFIX"/usr`,
		`rm -rf "$x$y"/etc`,
		`rm -rf "$HOME/$dir"`,
		`rm -f "$d"/*`,
		`rm --recursive --force -- "$ROOT/"`,
		`chmod -R 000 "$D"/`,
		`chown -R nobody "$D/"`,
		`mv "$D/" /tmp/x`,
		`rsync -a --delete /tmp/empty/ "$DEST/"`,
		`"$PREFIX"/sbin/reboot`,
		`sh -c 'rm -rf "$X/"*'`,
		`X=$(cat /nonexistent); rm -rf "$X/"*`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`rm -rf "${BUILD:?}/"*`,
		`rm -rf "${BUILD:?not set}"/*`,
		`rm -rf "${BUILD:-/tmp/b}/"*`,
		`rm -rf /srv/app/$x`,
		`rm -rf "$TMPDIR/foo"`,
		`rm -rf "$(cat f)/"*`,
		`rm -rf "$OLDPWD"`,
	))
	got := p.Evaluate(Input{Command: `rm -rf "$STEAMROOT/"*`})
	if !strings.Contains(got.Reason, "$STEAMROOT") || !strings.Contains(got.Reason, "${STEAMROOT:?}") {
		t.Errorf("reason %q does not name the variable and the fix", got.Reason)
	}
}

// TestEmptyVariablesLongWord: a word past the length wordOf reads (4096
// bytes) is not emptied, and the call keeps the tier its unknown path
// gives it, quickly.
func TestEmptyVariablesLongWord(t *testing.T) {
	p := protectedPolicy(t)
	long := `rm -rf "$X/` + strings.Repeat("a", 5000) + `"`
	got := p.Evaluate(Input{Command: long})
	if got.Tier != TierDestructive || got.Denied {
		t.Errorf("Evaluate(long rm) = %s denied=%v (%s); want tier 3, not denied", got.Tier, got.Denied, got.Reason)
	}
}
