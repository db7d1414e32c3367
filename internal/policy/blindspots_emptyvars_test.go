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
		// Trims, case changes and substrings of an empty value are empty.
		`rm -rf "${D%/}"/*`,
		`rm -rf "${D%%/*}/"*`,
		`rm -rf "${D#./}"/*`,
		`rm -rf "${D##*/}"/etc`,
		`rm -rf "${D,,}"/*`,
		`rm -rf "${D^^}"/*`,
		`rm -rf "${D:0:10}"/*`,
		`rm -rf "${1%/}"/*`,
		// unset and local leave a variable with no value.
		`D=/srv/x; unset D; rm -rf "$D"/*`,
		`D=/srv/x; unset -v D; rm -rf "$D"/*`,
		`[ "$X" ] && D=/srv/x; f() { local D; rm -rf "$D"/*; }; f`,
		`[ "$X" ] && D=/srv/x; f() { declare D; rm -rf "$D"/*; }; f`,
		`[ "$X" ] && D=/srv/x; f() { typeset D; chmod -R 000 "$D"/; }; f`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`rm -rf "${BUILD:?}/"*`,
		`rm -rf "${BUILD:?not set}"/*`,
		`rm -rf "${BUILD:-/tmp/b}/"*`,
		`rm -rf /srv/app/$x`,
		`rm -rf "$TMPDIR/foo"`,
		`rm -rf "$OLDPWD"`,
		`rm -rf "${D/#/\/srv}"/*`,
		`rm -rf "${D@Q}"/*`,
		`rm -rf "${#D}"/*`,
		`D=/srv/x; unset -f D; rm -rf "$D"/*`,
		`D=/srv/x; export D; rm -rf "$D"/*`,
		`f() { local D=/srv/x; rm -rf "$D"/*; }; f`,
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

// TestBlindSpotEmptyPositionals: warden starts its shell with no
// positional parameters, and a function may be called with none, so $1,
// ${10}, "$@" and "$*" may be empty as an unset variable may: rm -rf
// "$1"/* is rm -rf /* at the top level. A script that sets them (set --,
// shift) keeps tier 3; known ones (sh -c '…' _ /srv/x) keep theirs.
func TestBlindSpotEmptyPositionals(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`rm -rf "$1"/*`,
		`rm -rf $1/*`,
		`rm -rf "${1}"/*`,
		`rm -rf "$2/"*`,
		`rm -rf "${10}"/*`,
		`rm -rf "$@"/*`,
		`rm -rf "$*"/*`,
		`rm -rf "${@}"/`,
		`chmod -R 000 "$1"/`,
		`f() { rm -rf "$1"/*; }; f`,
		`cleanup() { rm -rf -- "$1/"; }; cleanup "$dir"`,
		`bash -c 'rm -rf "$1"/*' _ "$x"`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`set -- /srv/x; rm -rf "$1"/*`,
		`shift; rm -rf "$1"/*`,
		`rm -rf "${1:?}"/*`,
		`rm -rf "${1:-/srv/x}"/*`,
		`rm -rf "$1"`,
		`rm -rf "$1"/build`,
		`rm -rf "$0"/*`,
	))
	if got := p.Evaluate(Input{Command: `rm -rf "${10}"/*`}); !strings.Contains(got.Reason, "if ${10} is empty") {
		t.Errorf("reason %q does not name ${10}", got.Reason)
	}
	runExactHosts(t, p, []exactCase{
		{"known argument", `bash -c 'rm -rf "$1"/*' _ /srv/x`, TierDestructive},
		{"loop over arguments", `for f in "$@"; do echo "$f"; done`, TierRead},
	})
}

// TestBlindSpotEmptyVariablesHandled: programs whose denials their own
// handler decides (find -delete, find -exec rm) are classified again with
// the unknown variables empty: find "$D"/ -delete is find / -delete.
// A filter that narrows what find removes keeps tier 3.
func TestBlindSpotEmptyVariablesHandled(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`find "$D"/ -delete`,
		`find "$D/" -mindepth 1 -delete`,
		`find -L "$ROOT"/ -depth -delete`,
		`find "$D"/ -exec rm -rf {} +`,
		`find "$D"/ -exec rm -rf {} \;`,
		`find "$1"/ -delete`,
		`find "${PREFIX}/usr" -delete`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`find "${D:?}"/ -delete`,
		`find "$D"/ -name '*.log' -delete`,
		`find "$D"/ -mtime +30 -delete`,
	))
	runExactHosts(t, p, []exactCase{
		{"listing", `find "$D"/ -type f`, TierDestructive},
		{"copy", `cp -r "$SRC"/ /srv/dst/`, TierMutate},
	})
}

// TestBlindSpotEmptyCdTargets: cd's target may be empty as any unknown
// variable may: cd "$D"/ is cd /, cd $D is cd to the home directory, so
// a wipe of * after it is denied as after cd / or cd. cd "$D" stays
// where it was (tier 3), as does a target the script guards.
func TestBlindSpotEmptyCdTargets(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`cd $D && rm -rf *`,
		`cd $BUILD_DIR; rm -rf ./*`,
		`cd "$D"/ && rm -rf *`,
		`cd "${ROOT}/" && rm -rf -- *`,
		`cd "$D/usr" && rm -rf *`,
		`cd "$1"/etc; rm -f *`,
		`pushd "$D"/ && rm -rf *`,
		`cd "$D"/ && find . -delete`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cd "$D" && rm -rf *`,
		`cd "${D:?}"/ && rm -rf *`,
		`cd "$D"/build && rm -rf *`,
		`cd "$(mktemp -d)" && rm -rf *`,
	))
}

// TestBlindSpotEmptySubstitutions: what a command prints may be nothing,
// as a variable may be empty: rm -rf "$(git rev-parse --show-toplevel)"/*
// outside a repository is rm -rf /*. The reason says to assign it and
// write ${VAR:?}. Programs that always print something (pwd, dirname)
// and substitutions whose output is known keep their tier.
func TestBlindSpotEmptySubstitutions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`rm -rf "$(git rev-parse --show-toplevel)"/*`,
		`rm -rf "$(cat f)/"*`,
		"rm -rf `cat /srv/dir`/*",
		`rm -rf $(cat f)/usr`,
		`chmod -R 777 "$(xdg-user-dir DOWNLOAD)"/`,
		`find "$(cat f)"/ -delete`,
		`cd "$(cat f)"/ && rm -rf *`,
		`rm -rf "$D$(cat f)"/*`,
		`rsync -a --delete /srv/empty/ "$(cat dest)"/`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`rm -rf "$(dirname "$x")"/build`,
		`rm -rf "$(npm root -g)"/foo`,
		`rm -rf "$(mktemp -d)/x"`,
	))
	runExactHosts(t, p, []exactCase{
		{"known output", `rm -rf "$(echo /srv/x)"/*`, TierDestructive},
		{"listing", `ls "$(cat f)"/`, TierRead},
	})
	got := p.Evaluate(Input{Command: `rm -rf "$(git rev-parse --show-toplevel)"/*`})
	if !strings.Contains(got.Reason, "$(git …) prints nothing") || !strings.Contains(got.Reason, "${VAR:?}") {
		t.Errorf("reason %q does not name the substitution and the fix", got.Reason)
	}
}
