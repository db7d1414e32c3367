package policy

import "testing"

// TestBlindSpotColordiffProgram: colordiff takes --difftprogram=PROG from
// anywhere in its arguments and runs PROG in place of diff, with the
// other arguments; PROG is a command like any other (a program the agent
// wrote is tier 3, rm's operands are checked, a value known only at run
// time is unknown code). Plain colordiff stays read-only.
func TestBlindSpotColordiffProgram(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"tmp program", "colordiff --difftprogram=/tmp/evil a b", TierDestructive, false},
		{"after operands", "colordiff a b --difftprogram=/tmp/evil", TierDestructive, false},
		{"after --", "colordiff -u -- a b --difftprogram=./x", TierDestructive, false},
		{"quoted", `colordiff "--difftprogram=/home/u/x" a b`, TierDestructive, false},
		{"run time", `colordiff --difftprogram="$P" a b`, TierDestructive, false},
		{"computed", "colordiff --difftprogram=$(cat f) a b", TierDestructive, false},
		{"shell", "colordiff --difftprogram=sh a b", TierDestructive, false},
		{"reboot", "colordiff --difftprogram=reboot a b", TierDestructive, true},
		{"wdiff", "colordiff --difftprogram=wdiff a b", TierDestructive, false},
		{"in a pipeline", "colordiff --difftprogram=/tmp/x a b | less -R", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"plain", "colordiff a b", TierRead},
		{"unified", "colordiff -u a b", TierRead},
		{"recursive", "colordiff -ru dir1 dir2", TierRead},
		{"piped", "diff -u a b | colordiff", TierRead},
	})
}

// TestBlindSpotOpensslCmp: openssl cmp writes the certificates and
// messages its -chainout, -extracertsout, -cacertsout, -rspout,
// -reqout_only, -crlout and root-update (-newwithnew, -newwithold,
// -oldwithnew) options name, and serves with -port; s_client's
// -ssl_client_engine loads an engine as -engine does.
func TestBlindSpotOpensslCmp(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"chainout", "openssl cmp -server h -chainout /etc/x", TierMutate, false},
		{"chainout device", "openssl cmp -server h -chainout /dev/sda", TierDestructive, true},
		{"extracertsout", "openssl cmp -server h -extracertsout /etc/cron.d/x", TierDestructive, false},
		{"cacertsout", "openssl cmp -server h --cacertsout /etc/x", TierMutate, false},
		{"rspout =", "openssl cmp -server h -rspout=/etc/x", TierMutate, false},
		{"reqout_only", "openssl cmp -reqout_only /etc/sudoers -server h", TierDestructive, false},
		{"crlout", "openssl cmp -server h -crlout /etc/x", TierMutate, false},
		{"newwithnew", "openssl cmp -server h -cmd genm -newwithnew /etc/x", TierMutate, false},
		{"newwithold", "openssl cmp -server h -newwithold /etc/x", TierMutate, false},
		{"oldwithnew", "openssl cmp -server h -oldwithnew /etc/x", TierMutate, false},
		{"mock server", "openssl cmp -port 1234 -srv_cert c -srv_key k", TierMutate, false},
		{"mock server --", "openssl cmp --port=1234 -srv_secret pass:x", TierMutate, false},
		{"ssl_client_engine", "openssl s_client -ssl_client_engine /tmp/x.so -connect h:443", TierDestructive, false},
		{"--ssl_client_engine", "openssl s_client --ssl_client_engine=pkcs11 -connect h:443", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"cmp help", "openssl cmp -help", TierRead},
		{"x509 text", "openssl x509 -in c.pem -noout -text", TierRead},
		{"s_client", "openssl s_client -connect h:443 </dev/null", TierRead},
	})
}
