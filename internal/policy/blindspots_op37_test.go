package policy

import "testing"

// TestBlindSpotOp37ComposeOutput: the standalone docker-compose writes
// config's rendered file as the plugin does, in every spelling of -o.
func TestBlindSpotOp37ComposeOutput(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"-o", "docker-compose config -o /tmp/y", TierMutate, false},
		{"--output=", "docker-compose config --output=/etc/passwd", TierDestructive, false},
		{"--output", "docker-compose --file x.yml config --output /tmp/y", TierMutate, false},
		{"cluster", "docker-compose -f x.yml config -qo /tmp/y", TierMutate, false},
		{"sudo", "sudo docker-compose config -o /tmp/y", TierMutate, false},
		{"path", "/usr/local/bin/docker-compose config -o /tmp/y", TierMutate, false},
		{"state", "docker-compose config -o /root/.local/state/warden/token", TierDestructive, true},
	})
	runExactHosts(t, p, []exactCase{
		{"config", "docker-compose config", TierRead},
		{"config --services", "docker-compose config --services", TierRead},
		{"-p o", "docker-compose -p o config", TierRead},
	})
}

// TestBlindSpotOp37Extcap: tshark captures from an extcap interface by
// running its program (sshdump logs in to another host and runs a capture
// command there, udpdump listens on a port), so such an -i is not a read;
// an interface by number or computed at run time may be one.
func TestBlindSpotOp37Extcap(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tshark -i sshdump",
		"tshark -isshdump",
		"tshark --interface=ciscodump -c 1",
		"tshark --interface wifidump",
		"tshark -qi udpdump",
		"tshark -i eth0 -i randpkt",
		"tshark -i android-logcat-main-x",
		"tshark -i 7",
		`tshark -i "$I"`,
		"sudo tshark -i sshdump",
		"nice -n5 /usr/bin/tshark -i sdjournal",
	))
	runExactHosts(t, p, []exactCase{
		{"eth0", "tshark -i eth0 -c 5", TierRead},
		{"any", "tshark -i any", TierRead},
		{"lo filter", "tshark -i lo -f 'port 53'", TierRead},
		{"read file", "tshark -r /tmp/x.pcap", TierRead},
		{"list", "tshark -D", TierRead},
		{"link types", "tshark -L -i eth0", TierRead},
	})
}

// TestBlindSpotOp37LdsoList: ld.so --list runs no program, but it loads
// and starts the audit modules the program's DT_AUDIT tag names (ldd's
// case, shown on glibc 2.36), so a program a benign call could have
// written is code; --verify only maps it.
func TestBlindSpotOp37LdsoList(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"/lib64/ld-linux-x86-64.so.2 --list /tmp/x",
		"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2 --list /var/tmp/x",
		"/lib/ld-linux-aarch64.so.1 --list -- /dev/shm/x",
		`/lib64/ld-linux-x86-64.so.2 --list "$P"`,
		"cd /tmp; /lib64/ld-linux-x86-64.so.2 --list ./x",
		"sudo /lib64/ld-linux-x86-64.so.2 --inhibit-cache --list /tmp/x/../x",
		"nice -n5 /lib64/ld-linux-x86-64.so.2 --list /tmp/x",
	))
	runExactHosts(t, p, []exactCase{
		{"list system", "/lib64/ld-linux-x86-64.so.2 --list /bin/ls", TierRead},
		{"list sshd", "/lib64/ld-linux-x86-64.so.2 --list /usr/sbin/sshd", TierRead},
		{"verify", "/lib64/ld-linux-x86-64.so.2 --verify /tmp/x", TierRead},
		{"tunables", "/lib64/ld-linux-x86-64.so.2 --list-tunables", TierRead},
		{"help", "/lib64/ld-linux-x86-64.so.2 --help", TierRead},
	})
}

// TestBlindSpotOp37SftpInput: sftp without -b reads its commands from
// standard input, pipe or file alike, and "!" runs a local shell command
// there as in a batch: the input is read as ftp's is.
func TestBlindSpotOp37SftpInput(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"here-string", "sftp host <<< '!reboot'", TierDestructive, true},
		{"pipe", `printf 'ls\n!reboot\n' | sftp host`, TierDestructive, true},
		{"options", "echo '!sh -c reboot' | sftp -P 22 -oPort=22 user@host", TierDestructive, true},
		{"sudo", "sudo sftp host <<< '!reboot'", TierDestructive, true},
		{"local command", "sftp -q host <<< '!touch /tmp/p'", TierDestructive, false},
		{"unseen input", "sftp host < /tmp/cmds", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"session", "sftp host", TierMutate},
		{"fetch", "sftp host:/etc/hosts /tmp/x", TierMutate},
		{"ls", "sftp host <<< 'ls'", TierMutate},
	})
}

// TestBlindSpotOp37ClangConfig: clang --config FILE reads options from a
// file, -fplugin and -B among them, as an @file does; --config-system-dir
// and --config-user-dir say where it looks for one.
func TestBlindSpotOp37ClangConfig(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"clang -fsyntax-only --config=/tmp/cfg /tmp/x.c",
		"clang -fsyntax-only --config /tmp/cfg /tmp/x.c",
		"clang++ -E --config-system-dir=/tmp x.c",
		"clang-17 -E --config-user-dir=/tmp --config x.cfg x.c",
		"sudo cc --config=/tmp/cfg -E x.c",
	))
	runExactHosts(t, p, []exactCase{
		{"syntax", "clang -fsyntax-only x.c", TierMutate},
		{"cpp", "cpp -dM /dev/null", TierRead},
	})
}

// TestBlindSpotOp37FileVars: a variable naming a file programs write
// holds a write's target: nstat truncates and rewrites its history file
// (and -r removes it first), so NSTAT_HISTORY=/etc/passwd nstat is tier 3
// as > /etc/passwd is, in every way the variable is set.
func TestBlindSpotOp37FileVars(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"prefix", "NSTAT_HISTORY=/etc/passwd nstat", TierDestructive, false},
		{"reset", "NSTAT_HISTORY=/etc/passwd nstat -r", TierDestructive, false},
		{"export", "export NSTAT_HISTORY=/etc/shadow; nstat -n", TierDestructive, false},
		{"declare", "declare -x NSTAT_HISTORY=/etc/passwd; nstat", TierDestructive, false},
		{"env", "env NSTAT_HISTORY=/etc/passwd nstat", TierDestructive, false},
		{"sudo", "sudo NSTAT_HISTORY=/etc/passwd nstat", TierDestructive, false},
		{"ifstat device", "IFSTAT_HISTORY=/dev/sda ifstat", TierDestructive, true},
		{"rtacct", "RTACCT_HISTORY=/etc/passwd rtacct", TierDestructive, false},
		{"keylog", "SSLKEYLOGFILE=/etc/cron.d/x curl https://x", TierDestructive, false},
		{"git trace", "GIT_TRACE=/etc/passwd git status", TierDestructive, false},
		{"by suffix", "FOO_HISTFILE=/etc/passwd foo", TierDestructive, false},
		{"cpp deps", "DEPENDENCIES_OUTPUT='/etc/passwd x' cpp x.c", TierDestructive, false},
		{"kerberos cache", "KRB5CCNAME=FILE:/etc/cron.d/x kinit u", TierDestructive, false},
		{"kerberos cache path", "KRB5CCNAME=/etc/shadow kinit u", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"nstat", "nstat", TierRead},
		{"nstat -s", "nstat -s", TierRead},
		{"temporary", "NSTAT_HISTORY=/tmp/h nstat", TierMutate},
		{"git trace 1", "GIT_TRACE=1 git status", TierRead},
	})
}

// TestBlindSpotOp37GroffDevice: groff runs the postprocessor (postpro)
// and spooler (print) its device's DESC file names, and -F DIR reads that
// file from DIR: groff -F /tmp/f doc ran /tmp's program here (groff
// 1.22), as -U's .sy does.
func TestBlindSpotOp37GroffDevice(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"groff -F /tmp x",
		"groff -F/tmp -Tps x",
		"groff -tF /tmp x",
		"sudo groff -Tutf8 -F /var/tmp/f x",
		"nroff -F /tmp x",
	))
	runExactHosts(t, p, []exactCase{
		{"man macros", "groff -man x", TierMutate},
		{"ms ps", "groff -ms -Tps x", TierMutate},
	})
}

// TestBlindSpotOp37OptionEnv: variables that hold a program's options or
// where it finds the programs it runs: GROFF_FONT_PATH and GROFF_BIN_PATH
// (groff and man through it run the postprocessor found there), ENSCRIPT
// and GENSCRIPT (enscript's default options: -I runs an input filter, -o
// writes), ENSCRIPT_LIBRARY (its configuration).
func TestBlindSpotOp37OptionEnv(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"GROFF_FONT_PATH=/tmp groff x",
		"GROFF_BIN_PATH=/tmp groff x",
		"GROFF_FONT_PATH=/tmp/f man ls",
		"export GROFF_BIN_PATH=/tmp; man ls",
		"ENSCRIPT='-I touch /tmp/p' enscript -p- /etc/hosts",
		"env GENSCRIPT='-o /etc/passwd' enscript -p- /etc/hosts",
		"ENSCRIPT_LIBRARY=/tmp enscript -p- /etc/hosts",
	))
	// enscript reads the variable as its options: -I's filter meets the
	// deny rules as on the command line.
	runBlindHosts(t, p, sameCases(TierDestructive, true, "ENSCRIPT='-I reboot' enscript -p- /etc/hosts"))
	runExactHosts(t, p, []exactCase{
		{"enscript stdout", "enscript -p- /etc/hosts", TierRead},
	})
}

// TestBlindSpotOp37MailEscapes: mail's tilde escapes in the message it
// reads run a shell (~!, ~|, ~< !), a mail command (~:, ~_) or write a
// file (~w); -I and -~ make mail honour them with any input. s-nail's -X
// and -Y run mail commands, ! a shell.
func TestBlindSpotOp37MailEscapes(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"~! -I", "mail -I -s x root <<< '~!reboot'", TierDestructive, true},
		{"~!", "mail -s x root <<< '~!reboot'", TierDestructive, true},
		{"~! local", "mailx -I -s x root <<< '~!touch /tmp/p'", TierDestructive, false},
		{"~| pipe", `printf 'hi\n~|reboot\n' | mail -s x root`, TierDestructive, true},
		{"~<!", "mail -s x root <<< '~< !reboot'", TierDestructive, true},
		{"~:!", "mail -s x root <<< '~:!reboot'", TierDestructive, true},
		{"~_", "mail -s x root <<< '~_shell'", TierDestructive, false},
		{"~w", "mail -s x root <<< '~w /etc/passwd'", TierDestructive, false},
		{"-~", "s-nail -~ -s x root <<< '~!reboot'", TierDestructive, true},
		{"-~ unseen", "s-nail -~ -s x root < /tmp/body", TierDestructive, false},
		{"-I unseen", "sudo mail -I -s x root < /tmp/body", TierDestructive, false},
		{"-X", "s-nail -X '!reboot'", TierDestructive, true},
		{"-X shell", "s-nail -X shell", TierDestructive, false},
		{"-X attached", "s-nail -X'!touch /tmp/p' -s x root", TierDestructive, false},
		{"-Y", "s-nail -Y '!reboot' -s x root", TierDestructive, true},
	})
	runExactHosts(t, p, []exactCase{
		{"body", "mail -s x root <<< 'hello'", TierMutate},
		{"piped body", "echo hello | mail -s x root", TierMutate},
		{"body file", "mail -s x root < /tmp/body", TierMutate},
		{"tilde inside", "mail -s 'I am' root <<< 'hi ~ there'", TierMutate},
	})
}

// TestBlindSpotOp37FindOk: find -ok and -okdir ask before each command,
// but read the answer from find's input, so with input (yes | find …)
// they remove as -exec and -execdir do.
func TestBlindSpotOp37FindOk(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"yes -ok", `yes | find / -ok rm {} \;`, TierDestructive, true},
		{"yes -okdir", `yes | find / -okdir rm -rf {} \;`, TierDestructive, true},
		{"answers file", `find / -ok rm {} \; < /tmp/answers`, TierDestructive, true},
		{"here-string", `find / -ok rm {} \; <<< y`, TierDestructive, true},
		{"etc", `yes | find /etc -ok rm -f {} \;`, TierDestructive, true},
		{"shred", `yes | find / -okdir shred {} \;`, TierDestructive, true},
		{"temporary", `yes | find /tmp/x -ok rm {} \;`, TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"ok ls", `yes | find /srv -ok ls {} \;`, TierRead},
		{"no input", `find /tmp -ok rm {} \;`, TierMutate},
	})
}

// TestBlindSpotOp37Hooks: small daemons and busybox applets that run a
// program an option or operand names, on every lease, link change, clock
// step, MIME part, file event or connection: the program is classified
// (a shell tcpsvd serves to the network is tier 3), and crond -c runs the
// crontabs of the directory it names.
func TestBlindSpotOp37Hooks(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"tcpsvd sh", "busybox tcpsvd 0 1234 /bin/sh", TierDestructive, false},
		{"tcpsvd opts", "tcpsvd -c 10 -vE 0 1234 /bin/sh -i", TierDestructive, false},
		{"tcpsvd deny", "tcpsvd -vE 0 1234 reboot", TierDestructive, true},
		{"udpsvd deny", "busybox udpsvd 0 1234 reboot", TierDestructive, true},
		{"tcpsvd computed", `tcpsvd 0 1234 "$P"`, TierDestructive, false},
		{"udhcpc -s", "udhcpc -s /tmp/x -i eth0", TierDestructive, false},
		{"udhcpc attached", "busybox udhcpc -s/tmp/x", TierDestructive, false},
		{"udhcpc --script", "udhcpc --script=reboot", TierDestructive, true},
		{"ifplugd -r", "busybox ifplugd -r /tmp/x", TierDestructive, false},
		{"ifplugd --run", "ifplugd --run=/tmp/x", TierDestructive, false},
		{"ntpd -S", "busybox ntpd -S /tmp/x", TierDestructive, false},
		{"reformime -X", "busybox reformime -X reboot", TierDestructive, true},
		{"inotifyd", "busybox inotifyd /tmp/x /tmp", TierDestructive, false},
		{"inotifyd deny", "inotifyd reboot /tmp", TierDestructive, true},
		{"crond -c", "busybox crond -c /tmp/crontabs", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"udhcpc", "udhcpc -i eth0", TierMutate},
		{"crond", "crond -f", TierMutate},
	})
}
