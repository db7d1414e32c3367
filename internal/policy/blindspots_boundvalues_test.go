package policy

import "testing"

// TestBlindSpotAssignedThroughVariables: a variable set from another
// variable (TAR_OPTIONS=$X, export LESS="$X", Y="--to-command=$X") holds
// the values the script gives that variable elsewhere, and each is read
// as a literal assignment of it is: the options a program reads from it,
// the code it names, in every way of setting it.
func TestBlindSpotAssignedThroughVariables(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"X=--to-command=reboot; TAR_OPTIONS=$X tar xf a.tar",
		`X=--to-command=reboot; TAR_OPTIONS="$X" tar xf a.tar`,
		"X=reboot; TAR_OPTIONS=--to-command=$X tar xf a.tar",
		`A=reboot; B=now; TAR_OPTIONS="--to-command=$A $B" tar xf a.tar`,
		`X=reboot; Y="--to-command=$X"; TAR_OPTIONS=$Y tar xf a.tar`,
		"X=--to-command=reboot; export TAR_OPTIONS=$X; tar xf a.tar",
		"X=--to-command=reboot; declare -x TAR_OPTIONS=$X; tar xf a.tar",
		"X=--to-command=reboot; TAR_OPTIONS=$X; export TAR_OPTIONS; tar xf a.tar",
		`X=--to-command=reboot; export "TAR_OPTIONS=$X"; tar xf a.tar`,
		"X='+!reboot'; LESS=$X less /etc/hosts",
		"X='-H reboot'; MANOPT=$X man ls",
		"X='-TT reboot'; ZIPOPT=$X zip a.zip f",
		"X=\"--bind 'k:execute(reboot)'\"; FZF_DEFAULT_OPTS=$X fzf",
		"X=reboot; GIT_CONFIG_PARAMETERS=\"'core.pager'='$X'\" git log",
		"f() { TAR_OPTIONS=$1 tar xf a.tar; }; f --to-command=reboot",
	))
	runExactHosts(t, p, []exactCase{
		// A harmless value stays what setting the variable is.
		{"tar listing", "X=--verbose; TAR_OPTIONS=$X tar tf a.tar", TierDestructive},
		{"plain variable", "X=/var/log; D=$X; ls $D", TierRead},
	})
}
