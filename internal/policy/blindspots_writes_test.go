package policy

import "testing"

// TestBlindSpotReaderOptions: options of otherwise read-only programs that
// write a file of the caller's choosing are checked as writes, and those
// that run a program classify it; the reads stay tier 0.
func TestBlindSpotReaderOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"pidstat -e", "pidstat -e reboot", TierDestructive, true},
		{"pidstat -d -e", "pidstat -d -e touch /srv/x", TierMutate, false},
		{"pidstat -e nothing", "pidstat -e", TierMutate, false},
		{"ausearch --checkpoint", "ausearch --checkpoint /tmp/x -m avc", TierMutate, false},
		{"ausearch --checkpoint=", "ausearch --checkpoint=/tmp/x", TierMutate, false},
		{"blkid -c", "blkid -c /tmp/x", TierMutate, false},
		{"blkid -c attached", "blkid -c/tmp/x", TierMutate, false},
		{"blkid --cache-file=", "blkid --cache-file=/tmp/x", TierMutate, false},
		{"blkid -c device", "blkid -c /dev/sda", TierDestructive, true},
		{"ss -D", "ss -D /tmp/x", TierMutate, false},
		{"ss --diag=", "ss --diag=/tmp/x", TierMutate, false},
		{"ss --di", "ss --di /tmp/x", TierMutate, false},
		{"ss -tD cluster", "ss -tD/tmp/x", TierMutate, false},
		{"tar -t --index-file", "tar -tvf x.tar --index-file=/tmp/o", TierMutate, false},
		{"tar -t --ind", "tar -tf x.tar --ind /tmp/o", TierMutate, false},
		{"tar -t --volno-file", "tar -tf x.tar --volno-file=/tmp/o", TierMutate, false},
		{"tar -d --index-file", "tar -df x.tar --index-file /tmp/o", TierMutate, false},
		{"tar --index-file device", "tar -tf x.tar --index-file=/dev/sda", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"pidstat", "pidstat 1 5", TierRead},
		{"pidstat -e ls", "pidstat -d -e ls -l", TierRead},
		{"ausearch", "ausearch -m avc --start today", TierRead},
		{"blkid", "blkid /dev/sda1", TierRead},
		{"blkid -c /dev/null", "blkid -c /dev/null", TierRead},
		{"ss", "ss -tlnp", TierRead},
		{"tar -t", "tar -tvf x.tar", TierRead},
		{"tar t", "tar tf x.tar", TierRead},
	})
}

// TestBlindSpotWritingEnvironment: variables that make a reading program
// write a file (git's traces, TLS key logs) are at least tier 2, and those
// that make it load code from a directory of the caller's choosing
// (OPENSSL_MODULES, GNUPGHOME, GIT_COMMON_DIR) are tier 3, before the
// command, exported or in the call's environment.
func TestBlindSpotWritingEnvironment(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"GIT_TRACE file", "GIT_TRACE=/tmp/x git status", TierMutate, false},
		{"GIT_TRACE2_EVENT", "GIT_TRACE2_EVENT=/tmp/x git log", TierMutate, false},
		{"GIT_TRACE_PACKET", "GIT_TRACE_PACKET=/tmp/x git log", TierMutate, false},
		{"exported GIT_TRACE", "export GIT_TRACE=/tmp/x; git status", TierMutate, false},
		{"GIT_REDIRECT_STDERR", "GIT_REDIRECT_STDERR=/tmp/x git log", TierMutate, false},
		{"SSLKEYLOGFILE", "SSLKEYLOGFILE=/tmp/k git ls-remote https://example.com/r", TierMutate, false},
		{"NSTAT_HISTORY", "NSTAT_HISTORY=/tmp/x nstat", TierMutate, false},
		{"KRB5_TRACE", "KRB5_TRACE=/tmp/x ls", TierMutate, false},
		{"OPENSSL_MODULES", "OPENSSL_MODULES=/tmp openssl x509 -provider x -in c", TierDestructive, false},
		{"GNUPGHOME", "GNUPGHOME=/tmp/g gpg -k", TierDestructive, false},
		{"GIT_COMMON_DIR", "GIT_COMMON_DIR=/tmp/x git status", TierDestructive, false},
	})
	if v := p.Evaluate(Input{Command: "git status", Env: map[string]string{"GIT_TRACE": "/tmp/x"}}); v.Tier < TierMutate {
		t.Errorf("GIT_TRACE in the call's environment: %s (%s), want at least %s", v.Tier, v.Reason, TierMutate)
	}
	runExact(t, p, []exactCase{
		{"git status", "git status", TierRead},
		{"LC_ALL", "LC_ALL=C git log -1", TierRead},
		{"TZ", "TZ=UTC date", TierRead},
	})
}

// TestBlindSpotOpenssl: openssl options that load code (-config, a
// -provider module), write files (-out=f, -CAserial, -CAcreateserial,
// -signer when verifying, -certsout, a new key's default_keyfile) or keep
// state or serve (rehash, ts -reply, ocsp -port) are not read-only.
func TestBlindSpotOpenssl(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"-config", "openssl req -in r.csr -noout -text -config /tmp/evil.cnf", TierDestructive, false},
		{"-config=", "openssl req -in r.csr -noout -config=/tmp/evil.cnf", TierDestructive, false},
		{"-provider path", "openssl x509 -in c.pem -noout -provider /tmp/evil.so", TierDestructive, false},
		{"-provider= path", "openssl x509 -in c.pem -noout -provider=/tmp/evil.so", TierDestructive, false},
		{"-provider module name", "openssl x509 -in c.pem -noout -provider evil", TierDestructive, false},
		{"-out=", "openssl x509 -in c.pem -out=/tmp/x", TierMutate, false},
		{"-keyout= device", "openssl req -in r.csr -keyout=/dev/sda", TierDestructive, true},
		{"-CAserial", "openssl x509 -req -in r.csr -CA ca.pem -CAkey ca.key -CAserial /tmp/s", TierMutate, false},
		{"-CAcreateserial", "openssl x509 -req -in r.csr -CA ca.pem -CAkey ca.key -CAcreateserial", TierMutate, false},
		{"smime -verify -signer", "openssl smime -verify -in m -signer /tmp/s", TierMutate, false},
		{"cms -verify -signer", "openssl cms -verify -in m -signer /tmp/s", TierMutate, false},
		{"cms -certsout", "openssl cms -verify -in m -certsout /tmp/s", TierMutate, false},
		{"rehash", "openssl rehash /etc/ssl/certs", TierMutate, false},
		{"ts -reply", "openssl ts -reply -queryfile q.tsq -inkey k -signer s", TierMutate, false},
		{"ocsp -port", "openssl ocsp -port 8888 -index index.txt -CA ca.pem", TierMutate, false},
		{"req -new without -key", "openssl req -new -subj /CN=x", TierMutate, false},
		{"req -newkey", "openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=x", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"x509 -text", "openssl x509 -in c.pem -noout -text", TierRead},
		{"-provider legacy", "openssl pkcs12 -in x.p12 -nokeys -info -provider legacy", TierRead},
		{"smime -sign -signer", "openssl smime -sign -in m -signer s.pem -inkey k.pem", TierRead},
		{"req -new -key", "openssl req -new -key k.pem -subj /CN=x", TierRead},
		{"s_client", "openssl s_client -connect example.com:443 -servername example.com", TierRead},
		{"ocsp client", "openssl ocsp -issuer i.pem -cert c.pem -url http://ocsp.example.com", TierRead},
		{"verify", "openssl verify -CAfile ca.pem c.pem", TierRead},
	})
}

// TestBlindSpotReadFlagWithAction: a listing flag makes a call read-only
// only when nothing else in it acts: gpg without a command decrypts or
// unwraps its operands to files beside them, and ssh-add -l with -D, -x or
// -s changes the agent.
func TestBlindSpotReadFlagWithAction(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"gpg operand", "gpg --batch secret.gpg", TierMutate, false},
		{"gpg -q operand", "gpg -q secret.gpg", TierMutate, false},
		{"gpg no-tty operand", "gpg --quiet --batch --no-tty secret.gpg", TierMutate, false},
		{"gpg keyid-format operand", "gpg --keyid-format long secret.gpg", TierMutate, false},
		{"ssh-add -l -D", "ssh-add -l -D", TierMutate, false},
		{"ssh-add -L -x", "ssh-add -L -x", TierMutate, false},
		{"ssh-add -l -s", "ssh-add -l -s /tmp/p11.so", TierMutate, false},
		{"ssh-add -l -d", "ssh-add -l -d ~/.ssh/id_ed25519", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"gpg --batch stdin", "gpg --batch", TierRead},
		{"gpg --verify", "gpg --verify x.sig x", TierRead},
		{"gpg -k name", "gpg --keyid-format long -k alice", TierRead},
		{"gpg --with-colons --list-keys", "gpg --batch --with-colons --list-keys", TierRead},
		{"ssh-add -l", "ssh-add -l", TierRead},
		{"ssh-add -l -E", "ssh-add -l -E md5", TierRead},
	})
}

// TestBlindSpotGitWrites: git reads that write: fsck --lost-found fills
// .git/lost-found, trace2.*Target settings write their trace where they
// say, and git's parser takes abbreviated long options (--lost, --std).
func TestBlindSpotGitWrites(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"fsck --lost-found", "git fsck --lost-found", TierMutate, false},
		{"fsck --lost", "git fsck --lost", TierMutate, false},
		{"trace2.eventTarget", "git -c trace2.eventTarget=/tmp/x log", TierDestructive, false},
		{"trace2.perfTarget attached", "git -ctrace2.perfTarget=/tmp/x status", TierDestructive, false},
		{"Trace2.normalTarget", "git -c Trace2.normalTarget=/tmp/x status", TierDestructive, false},
		{"update-ref --std", "git update-ref --std < /tmp/refs", TierDestructive, false},
		{"gc --prun", "git gc --prun=now", TierDestructive, false},
	})
	// Every subcommand that reads revision or diff options opens
	// --output's file as it parses it, not only log, diff and show.
	runBlind(t, p, sameCases(TierMutate, false,
		"git range-diff --output=/etc/x a b",
		"git rev-list --output=/etc/x HEAD",
		"git shortlog --output /etc/x HEAD",
		"git blame --output=/etc/x f",
		"git annotate --output=/etc/x f",
		"git diff-tree --output=/etc/x HEAD",
		"git diff-files --output=/etc/x",
		"git diff-index --output=/etc/x HEAD",
		"git stash show --output=/etc/x",
		"git reflog --output=/etc/x",
		"git archive -o/etc/x HEAD",
		"git archive -vo /etc/x HEAD",
	))
	runExact(t, p, []exactCase{
		{"rev-list", "git rev-list --all", TierRead},
		{"blame", "git blame f", TierRead},
		{"range-diff", "git range-diff a b", TierRead},
		{"stash show", "git stash show", TierRead},
		{"output-indicator", "git log -p --output-indicator-new=+", TierRead},
		{"fsck", "git fsck --full", TierRead},
		{"color.ui", "git -c color.ui=always log -1", TierRead},
		{"archive to stdout", "git archive HEAD", TierRead},
		{"tag --list", "git tag --list 'v*'", TierRead},
	})
}

// TestBlindSpotDryRunWrites: a dry run that still writes (logrotate -d
// with -l) or a reader that opens an interactive shell able to save files
// (xmllint --shell) is not read-only.
func TestBlindSpotDryRunWrites(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"logrotate -d -l", "logrotate -d -l /tmp/log /etc/logrotate.conf", TierMutate, false},
		{"logrotate -d --log=", "logrotate -d --log=/tmp/log /etc/logrotate.conf", TierMutate, false},
		{"logrotate -dl attached", "logrotate -dl/tmp/log /etc/logrotate.conf", TierMutate, false},
		{"logrotate -d -l device", "logrotate -d -l /dev/sda /etc/logrotate.conf", TierDestructive, true},
		{"xmllint --shell", "xmllint --shell x.xml", TierMutate, false},
		{"xmllint -shell", "xmllint -shell x.xml", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"logrotate -d", "logrotate -d /etc/logrotate.conf", TierRead},
		{"xmllint --noout", "xmllint --noout x.xml", TierRead},
	})
}

// TestBlindSpotTempDirVariables: the variables naming where programs make
// their temporary files send a read's writes wherever they say (mktemp
// creates its file there, sort its spill files), so setting one to
// anything but a temporary directory is a write; GIT_INDEX_FILE names the
// index git status writes back.
func TestBlindSpotTempDirVariables(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"TMPDIR before a command", "TMPDIR=/etc/cron.d sort /var/log/syslog", TierMutate, false},
		{"exported", "export TMPDIR=/etc; mktemp", TierMutate, false},
		{"assigned then exported", "TMPDIR=/root/.ssh; export TMPDIR; sort f", TierMutate, false},
		{"through env", "env TMPDIR=/srv mktemp", TierMutate, false},
		{"through sudo", "sudo TMPDIR=/etc sort f", TierMutate, false},
		{"TMP", "TMP=/etc sort f", TierMutate, false},
		{"TEMP", "TEMP=/usr/lib sort f", TierMutate, false},
		{"TEMPDIR", "TEMPDIR=/boot sort f", TierMutate, false},
		{"dot-dot out of /tmp", "TMPDIR=/tmp/../etc sort f", TierMutate, false},
		{"relative", "TMPDIR=cron.d sort f", TierMutate, false},
		{"known only at run time", "TMPDIR=$HOME/t sort f", TierMutate, false},
		{"GIT_INDEX_FILE", "GIT_INDEX_FILE=/etc/x git status", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"under /tmp", "TMPDIR=/tmp/work sort /etc/hosts", TierRead},
		{"/tmp itself", "TMPDIR=/tmp sort /etc/hosts", TierRead},
		{"under /var/tmp", "env TMPDIR=/var/tmp/x sort /etc/hosts", TierRead},
		{"other variable", "LC_ALL=C sort /etc/hosts", TierRead},
	})
}

// TestBlindSpotWrapperWrites: a wrapper's own options write files beside
// running the command: fakeroot -s, xvfb-run -e/-f, chpst -l/-L, rlwrap
// -l/-H (and its history file in $HOME), valgrind's profiling tools.
func TestBlindSpotWrapperWrites(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"fakeroot -s /etc/x ls", "fakeroot -s/etc/x ls", "fakeroot -us /etc/x ls", "fakeroot -i /tmp/x -s /etc/x ls",
		"xvfb-run -e /etc/x ls", "xvfb-run -ae /etc/x ls", "xvfb-run --error-file=/etc/x ls", "xvfb-run --err /etc/x ls",
		"xvfb-run -f /etc/x ls", "xvfb-run --auth-file=/etc/x ls",
		"chpst -l /etc/x ls", "chpst -L /etc/x ls", "chpst -vl/etc/x ls",
		"rlwrap ls", "rlwrap -l /etc/x ls", "rlwrap --history-filename=/etc/x ls", "rlwrap -c ls",
		"valgrind --tool=callgrind ls", "valgrind --tool=cachegrind ls", "valgrind --tool=massif ls",
		"valgrind --tool=dhat ls", "valgrind --tool=callgrind --callgrind-out-file=/etc/x ls",
	))
	runExact(t, p, []exactCase{
		{"fakeroot -i", "fakeroot -i /tmp/x ls", TierRead},
		{"fakeroot command's -s", "fakeroot ls -s /etc/x", TierRead},
		{"xvfb-run -a", "xvfb-run -a ls", TierRead},
		{"xvfb-run command's -e", "xvfb-run ls -e /etc/x", TierRead},
		{"chpst -u", "chpst -u bob grep -l x f", TierRead},
		{"valgrind", "valgrind --tool=memcheck ls", TierRead},
		{"valgrind command's --tool", "valgrind ls --tool=callgrind", TierRead},
	})
}

// TestBlindSpotReaderConfigs: readers told to take their options from a
// file or variable the classifier cannot read (bat --config-file,
// BAT_CONFIG_PATH, RIPGREP_CONFIG_PATH, PARALLEL) can be made to run a
// pager or preprocessor; bat --generate-config-file and blkid -g write.
func TestBlindSpotReaderConfigs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"bat --config-file /tmp/x f", "bat --config-file=/tmp/x f", "batcat --config-f=/tmp/x f",
		"BAT_CONFIG_PATH=/tmp/x bat f", "RIPGREP_CONFIG_PATH=/tmp/x rg x", "export RIPGREP_CONFIG_PATH=/tmp/x",
		"PARALLEL='--joblog /etc/x' parallel ls ::: a", "procs --load-config /tmp/x",
	))
	// rg --hostname-bin runs the program it names.
	runBlind(t, p, sameCases(TierMutate, false, "rg --hostname-bin=/tmp/x x", "rg --hostname-b /tmp/x x"))
	runBlind(t, p, sameCases(TierDestructive, true, "rg --hostname-bin=reboot x"))
	runBlind(t, p, sameCases(TierMutate, false,
		"bat --generate-config-file", "bat --gen", "blkid -g", "blkid --garbage-collect", "blkid --garb",
	))
	runExact(t, p, []exactCase{
		{"bat", "bat -p f", TierRead},
		{"bat --config-dir", "bat --config-dir", TierRead},
		{"rg", "rg x", TierRead},
		{"procs", "procs --use-config large", TierRead},
		{"blkid", "blkid -o value -s UUID /dev/sda", TierRead},
	})
}

// TestBlindSpotGpgPhotoViewer: gpg --list-options or --verify-options
// show-photos runs the photo viewer on each photo ID, from a listing or
// verifying command that otherwise reads.
func TestBlindSpotGpgPhotoViewer(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"gpg -k --list-options show-photos", "gpg --list-options=show-photos -k",
		"gpg --verify-options show-photos --verify x.sig", "gpg2 -K --list-options show-uid-validity,show-photos",
	))
	runExact(t, p, []exactCase{
		{"list-options", "gpg -k --list-options show-uid-validity", TierRead},
		{"verify", "gpg --verify x.sig", TierRead},
	})
}

// TestBlindSpotTreeRecurse: tree -R runs tree again in every directory
// with -o 00Tree.html; every letter of tree's clusters is an option, as
// its value options take the next word.
func TestBlindSpotTreeRecurse(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"tree -R -H . -L 1", "tree -RH . -L 1", "tree -H . -L 1 -R", "tree -aR -L 2", "tree -LR 2 /srv",
	))
	runExact(t, p, []exactCase{
		{"tree -L", "tree -L 2", TierRead},
		{"tree -H", "tree -H . -L 1", TierRead},
	})
}

// TestBlindSpotMktempPlace: mktemp creates its file where its template or
// -p/--tmpdir=DIR say, not always under /tmp; only there is it tier 1.
func TestBlindSpotMktempPlace(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"mktemp /etc/xXXXXXX", "mktemp -d /etc/xXXXXXX", "mktemp -p /etc", "mktemp -dp /etc",
		"mktemp -p /etc xXXXXXX", "mktemp --tmpdir=/etc xXXXXXX", "mktemp xXXXXXX",
	))
	runExact(t, p, []exactCase{
		{"plain", "mktemp", TierBenign},
		{"-d", "mktemp -d", TierBenign},
		{"-t", "mktemp -t xXXXXXX", TierBenign},
		{"under /tmp", "mktemp /tmp/xXXXXXX", TierBenign},
		{"-p /tmp", "mktemp -p /tmp", TierBenign},
		{"dry run", "mktemp -u /etc/xXXXXXX", TierBenign},
	})
}

// TestBlindSpotWriteTargetValues: a redirection or an awk print whose
// target is a variable writes whatever the script gave it. A device,
// /proc/sysrq-trigger or kernel state reached that way is what dd of=$f
// and tee $f already were: denied or tier 3.
func TestBlindSpotWriteTargetValues(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"f=/dev/sda; cat /dev/zero > $f",
		"f=/dev/sda; cat /dev/zero >\"$f\"",
		"f=/dev/sda; exec 3>$f; echo x >&3",
		"f=/dev/sda; exec > $f",
		"f=/dev/sda; printf x 1<> $f",
		"f=/dev/sda; echo x &>> $f",
		"f=/dev/sda; echo x >& $f",
		"f=/proc/sysrq-trigger; echo b > $f",
		"d=/dev; echo x > $d/nvme0n1",
		"if [ -n \"$x\" ]; then f=/dev/sda; else f=/tmp/x; fi; echo x > $f",
		"for f in /tmp/a /dev/sdb; do echo x > \"$f\"; done",
		"awk 'BEGIN{f=\"/dev/sda\"; print \"a\" > f}'",
		"awk 'BEGIN{f=\"/proc/sysrq-trigger\"; printf \"b\" > f}'",
		"awk -v f=/dev/sda 'BEGIN{print \"a\" > f}'",
		"awk 'BEGIN{print \"a\" > f}' f=/dev/sda",
		"awk 'BEGIN{f=\"/dev/\" \"sda\"; print \"a\" > f}'",
		"gawk 'BEGIN{print \"a\" > \"/dev/\"  \"sda\"}'",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"awk '{print > (\"/dev/\" $1)}' list",
		"awk 'BEGIN{f=\"/etc/sha\" \"dow\"; print \"a\" >> f}'",
		"f=/sys/class/leds/x/brightness; echo 1 > $f",
	))
	runExact(t, p, []exactCase{
		{"temp file", "f=/tmp/out; echo x > $f", TierMutate},
		{"log file", "log=/var/log/app.log; echo start >> \"$log\"", TierMutate},
		{"run-time name", "echo x > \"$1\"", TierMutate},
		{"awk to a named file", "awk -v out=/srv/x.txt '{print > out}' list", TierMutate},
		{"awk to stderr", "awk '{print \"e\" > \"/dev/stderr\"}' list", TierMutate},
	})
}

// TestBlindSpotReadsThatChange: cargo tree and metadata resolve the
// dependencies, writing Cargo.lock and the registry cache unless frozen;
// a capture in monitor mode takes a wireless interface off its network.
func TestBlindSpotReadsThatChange(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		`cargo tree`, `cargo tree -e normal`, `cargo metadata --format-version 1`, `cargo tree --locked`,
		`cargo --offline tree`, `cargo metadata --manifest-path /srv/app/Cargo.toml`,
		`tcpdump -I -i wlan0`, `tcpdump -nI -i wlan0`, `tcpdump --monitor-mode -i wlan0`, `tcpdump --monitor -i wlan0`,
		`tshark -I -i wlan0`, `dumpcap -I -i wlan0`,
	))
	for _, cmd := range []string{`cargo tree --frozen`, `cargo metadata --no-deps --format-version 1`, `cargo tree --locked --offline`, `tcpdump -i eth0 -nn -c 10 port 53`, `tshark -i eth0 -c 5`} {
		if got := p.Evaluate(Input{Command: cmd}); got.Tier != TierRead {
			t.Errorf("Evaluate(%q) = %s (%s); want read", cmd, got.Tier, got.Reason)
		}
	}
}

// TestBlindSpotActsBehindReads: programs that read by one option and act
// by another given with it (the last action wins: kill -0 -s 9, sfdisk -l
// --delete, fsck -n -a, ssh-keygen -y -p), read-looking subcommands that
// run commands or write files (dmsetup ls --exec, fail2ban-client -i,
// borg --remote-path and --debug-profile, rpm --reinstall and --addsign,
// tailscale metrics write, pnpm audit --fix), a captive or vendor SMART
// command, and logger -f copying a file into the system log.
func TestBlindSpotActsBehindReads(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		`kill -0 -s 9 1234`, `kill -0 -n 9 1234`, `kill -s 0 -s KILL 1234`, `/bin/kill -0 --signal KILL 1234`, `kill -0 -9 1234`,
		`sfdisk -l --delete /dev/sda 1`, `sfdisk --list --delete /dev/sda 2`, `sfdisk -d -A /dev/sda 1`, `sfdisk -l -r /dev/sda`,
		`sfdisk -l /dev/sda -r`, `sfdisk -l --part-attrs /dev/sda 1 RequiredPartition`, `sfdisk --dump --part-uuid /dev/sda 1 x`,
		`sfdisk -J --part-type /dev/sda 1 83`, `sfdisk -g --disk-id /dev/sda 0x1`,
		`fsck -n -a /dev/sdb1`, `fsck -a -n /dev/sda1`, `fsck -n /dev/sda1 -p`, `fsck -n -f -y /dev/sdb1`, `fsck -t vfat -n -a /dev/sdb1`, `fsck -ny /dev/sdb1`,
		`ssh-keygen -y -p -P '' -N new -f /etc/ssh/ssh_host_ed25519_key`, `ssh-keygen -y -c -C x -f /root/.ssh/id_ed25519`,
		`ssh-keygen -y -f /etc/ssh/ssh_host_rsa_key -c -C x`, `ssh-keygen -B -H`, `ssh-keygen -y -H -f /etc/ssh/ssh_known_hosts`,
		`dmsetup ls --exec /tmp/p`, `dmsetup ls --exec=/tmp/p`, `dmsetup ls --tree --exec 'sh /tmp/p'`, `sudo dmsetup ls --exec /tmp/p`,
		`echo stop | fail2ban-client -i`, `fail2ban-client -i <<< 'set sshd unbanip --all'`, `fail2ban-client --interactive < /tmp/cmds`,
		`borg info --remote-path='sh /tmp/p #' h:repo`, `borg list --remote-path 'sh /tmp/p #' ssh://h/repo`,
		`borg list --debug-profile /etc/x /srv/repo`,
		`rpm --reinstall x.rpm`, `rpm --addsign x.rpm`, `rpm --resign x.rpm`, `rpm --delsign x.rpm`, `rpm --setcaps bash`,
		`tailscale metrics write /etc/x`, `pnpm audit --fix`,
		`smartctl -C -t long /dev/sda`, `smartctl -Ct long /dev/sda`, `smartctl -t long -C /dev/sda`, `smartctl --captive --test=long /dev/sda`,
		`smartctl -t vendor,0x40 /dev/sda`,
		`logger -f /etc/shadow`, `logger --file=/root/.ssh/id_rsa`,
	))
	for _, cmd := range []string{
		`kill -0 1234`, `kill -s 0 1234`, `kill -0 -- 1234`, `sfdisk -l /dev/sda`, `sfdisk -d /dev/sda`, `fsck -n /dev/sdb1`,
		`ssh-keygen -l -f /etc/ssh/ssh_host_ed25519_key.pub`, `ssh-keygen -F host -H`, `ssh-keygen -y -f /root/.ssh/id_ed25519`,
		`dmsetup ls --tree`, `fail2ban-client status sshd`, `borg list /srv/repo`, `rpm -qa`, `tailscale metrics print`,
		`pnpm audit`, `smartctl -a /dev/sda`,
	} {
		if got := p.Evaluate(Input{Command: cmd}); got.Tier != TierRead || got.Denied {
			t.Errorf("Evaluate(%q) = %s denied=%v (%s); want read", cmd, got.Tier, got.Denied, got.Reason)
		}
	}
}
