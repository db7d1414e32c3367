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

// TestBlindSpotNtpqInput: without -p, -c or -i, ntpq runs the commands
// on its standard input, so :config, config-from-file, saveconfig and
// writevar there (in any prefix ntpq accepts) change ntpd, and input the
// classifier cannot see could; read-only commands on the input keep ntpq
// at tier 0.
func TestBlindSpotNtpqInput(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{":config here-string", "ntpq <<< ':config restrict default'", TierMutate, false},
		{":conf prefix", "ntpq localhost <<< ':conf server 1.2.3.4'", TierMutate, false},
		{"config-from-file", "printf 'keyid 1\\npasswd x\\nconfig-from-file /tmp/c\\n' | ntpq", TierMutate, false},
		{"echo pipe", "echo 'writevar 0 leap=1' | ntpq -n", TierMutate, false},
		{"wv", "ntpq -4 <<< 'wv 0 x=1'", TierMutate, false},
		{"saveconfig here-doc", "ntpq <<EOF\nkeyid 1\nsaveconfig /etc/ntp.conf\nEOF", TierMutate, false},
		{"second line", "ntpq <<< $'peers\\n:config x'", TierMutate, false},
		{"unseen input", "ntpq < /tmp/cmds", TierMutate, false},
		{"pipe of a file", "cat cmds | ntpq -n", TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"-p", "ntpq -p", TierRead},
		{"-pn", "ntpq -pn", TierRead},
		{"-p input ignored", "ntpq -p <<< ':config x'", TierRead},
		{"no input", "ntpq -n", TierRead},
		{"peers on input", "ntpq <<< 'peers'", TierRead},
		{"rv on input", "echo rv | ntpq", TierRead},
	})
}

// TestBlindSpotArchiveListComputed: listing an archive runs what
// --checkpoint-action=exec=, -I/--use-compress-program, -F, --rsh-command
// name, and writes --index-file and --volno-file, so a word computed at
// run time where tar, bsdtar or cpio reads options can become one of them;
// the value of -f (and of the old-style "tf" cluster's letters), words
// after "--" and a pipe into grep stay tier 0.
func TestBlindSpotArchiveListComputed(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"tar -t then $x", "tar -tf x.tar $OPTS", TierMutate, false},
		{"tar $x first", "tar $OPTS -tf x.tar", TierMutate, false},
		{"tar between", "tar -t $OPTS -f x.tar", TierMutate, false},
		{"tar braces", "tar -tvf x.tar ${OPTS}", TierMutate, false},
		{"tar command subst", "tar -tf x.tar $(cat opts)", TierMutate, false},
		{"tar all args", `tar -tf x.tar "$@"`, TierMutate, false},
		{"tar array", `tar -tf x.tar "${a[@]}"`, TierMutate, false},
		{"tar quoted", `tar -tvf x.tar "$m"`, TierMutate, false},
		{"tar positional", "tar -tf x.tar $1", TierMutate, false},
		{"tar old style", `tar tf "$A" "$m"`, TierMutate, false},
		{"tar diff mode", "tar -df x.tar $O", TierMutate, false},
		{"gtar", "gtar -tf x.tar $O", TierMutate, false},
		{"bsdtar", "bsdtar -tf x $O", TierMutate, false},
		{"cpio -t", "cpio -t $O < x.cpio", TierMutate, false},
		{"cpio -it quoted", `cpio -itv -F x.cpio "$o"`, TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"archive from a variable", `tar -tf "$A"`, TierRead},
		{"old style archive", `tar tzvf "$A"`, TierRead},
		{"old style two values", `tar tfC "$A" "$d"`, TierRead},
		{"-C value", `tar -tf "$A" -C "$d"`, TierRead},
		{"after --", `tar -tf x.tar -- "$m"`, TierRead},
		{"loop", `for f in *.tar; do tar -tf "$f"; done`, TierRead},
		{"grep the list", `tar -tf x.tar | grep "$m"`, TierRead},
		{"cpio -F value", `cpio -t -F "$f"`, TierRead},
		{"cpio input", `cpio -it < "$f"`, TierRead},
	})
}

// TestBlindSpotReadersComputedRun: a word computed at run time given to a
// read-only program with an option that runs a program (diff3
// --diff-program, colordiff --difftprogram=, ag and ack --pager, pidstat
// -e, procs --load-config) or writes (ausearch --checkpoint) can become
// that option, as it can for rg; option values, words after "--" and
// operands with a literal start stay tier 0.
func TestBlindSpotReadersComputedRun(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"diff3", "diff3 $O a b c", TierMutate, false},
		{"diff3 operand", `diff3 a b "$c"`, TierMutate, false},
		{"colordiff", "colordiff $O a b", TierMutate, false},
		{"colordiff operands", `colordiff -u "$a" "$b"`, TierMutate, false},
		{"ag", "ag $O x", TierMutate, false},
		{"ag pattern", `ag "$pat" dir`, TierMutate, false},
		{"ack", "ack $(cat opts) x", TierMutate, false},
		{"ack pattern", `ack -i "$pat" /etc`, TierMutate, false},
		{"pidstat", "pidstat $O", TierMutate, false},
		{"pidstat count", `pidstat 1 "$n"`, TierMutate, false},
		{"procs", `procs "$@"`, TierMutate, false},
		{"ausearch", "ausearch $O", TierMutate, false},
		// "-c/etc/x" in one word is blkid's cache file, which it
		// replaces (TestBlindSpotComputedReaderOptions).
		{"blkid", `blkid "$dev"`, TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"diff3 label", `diff3 -L "$l" a b c`, TierRead},
		{"colordiff literal start", `colordiff -u /etc/"$a" /etc/"$b"`, TierRead},
		{"ag -G value", `ag -G "$re" x`, TierRead},
		{"ack after --", `ack -- "$pat"`, TierRead},
		{"pidstat -p value", `pidstat -p "$pid" 1`, TierRead},
		{"ausearch values", `ausearch -m AVC -ts "$t"`, TierRead},
		{"ausearch -k", `ausearch -i -k "$key"`, TierRead},
		{"grep", `grep "$pat" x`, TierRead},
		{"blkid exact", `dev=/dev/sda1; blkid "$dev"`, TierRead},
	})
}
