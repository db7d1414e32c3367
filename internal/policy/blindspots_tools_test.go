package policy

import "testing"

// TestBlindSpotSocatAddresses: socat's file addresses (OPEN, CREATE,
// GOPEN, FILE, PIPE, a bare path) and its link=, history= and log options
// are checked as writes, so a block device is denied like dd and a
// sensitive file is tier 3; addresses that connect to a local socket (the
// container engine's) are tier 3. Plain relays stay where they were.
func TestBlindSpotSocatAddresses(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"OPEN device", "socat -u FILE:x OPEN:/dev/sda", TierDestructive, true},
		{"GOPEN device", "socat - GOPEN:/dev/sda", TierDestructive, true},
		{"FILE device", "socat - FILE:/dev/nvme0n1,seek=0", TierDestructive, true},
		{"bare path device", "socat -u STDIN /dev/sda", TierDestructive, true},
		{"lower-case open", "socat -u - open:/dev/sda,creat", TierDestructive, true},
		{"dual address", "socat - STDIO!!OPEN:/dev/sda", TierDestructive, true},
		{"CREATE sensitive", "socat -u STDIN CREATE:/etc/sudoers", TierDestructive, false},
		{"OPEN cron", "socat -u - OPEN:/etc/cron.d/x,creat", TierDestructive, false},
		{"link= sensitive", "socat - PTY,link=/etc/cron.d/x", TierDestructive, false},
		{"history= device", "socat - READLINE,history=/dev/sda", TierDestructive, true},
		{"-lf device", "socat -lf /dev/sda - TCP:host:80", TierDestructive, true},
		{"UNIX-CONNECT docker", "socat - UNIX-CONNECT:/var/run/docker.sock", TierDestructive, false},
		{"UNIX docker", "socat - UNIX:/run/docker.sock", TierDestructive, false},
		{"UNIX-CLIENT", "socat STDIO UNIX-CLIENT:/run/containerd/containerd.sock", TierDestructive, false},
		{"ABSTRACT-CONNECT", "socat - ABSTRACT-CONNECT:x", TierDestructive, false},
		{"relay", "socat - TCP:host:80", TierMutate, false},
	})
}

// TestBlindSpotToolchain: compilers, linkers and binary tools write the
// file -o (or -MF, -Map, cpp's and objcopy's second operand) names, which
// is checked as a write; plugins, wrappers, -B prefixes, specs, linker
// paths, @files and rustc's linker are tier 3; versioned names are the
// same programs; the binary readers stay tier 0.
func TestBlindSpotToolchain(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"gcc -o device", "gcc -o /dev/sda x.c", TierDestructive, true},
		{"gcc -o attached sensitive", "gcc -o/etc/sudoers x.c", TierDestructive, false},
		{"cc -E -o device", "cc -E -o /dev/sda x.c", TierDestructive, true},
		{"gcc-13 -o device", "gcc-13 x.c -o /dev/sdb", TierDestructive, true},
		{"clang++ --output=", "clang++ main.cpp --output=/dev/sda", TierDestructive, true},
		{"gcc -MF device", "gcc -M -MF /dev/sda x.c", TierDestructive, true},
		{"cpp second operand", "cpp x.c /dev/sda", TierDestructive, true},
		{"ld -o device", "ld -o /dev/sda x.o", TierDestructive, true},
		{"ld -Map=", "ld -Map=/dev/sda -o a x.o", TierDestructive, true},
		{"objcopy second operand", "objcopy -O binary x.o /dev/sda", TierDestructive, true},
		{"objcopy --dump-section", "objcopy --dump-section .text=/dev/sda x.o", TierDestructive, true},
		{"strip -o device", "strip -o /dev/sda x", TierDestructive, true},
		{"rustc -o device", "rustc -o /dev/sda x.rs", TierDestructive, true},
		{"-fplugin", "gcc -fplugin=/tmp/x.so x.c", TierDestructive, false},
		{"-fpass-plugin", "clang -fpass-plugin=/tmp/x.so x.c", TierDestructive, false},
		{"-Xclang -load", "clang -Xclang -load -Xclang /tmp/x.so x.c", TierDestructive, false},
		{"-wrapper", "gcc -wrapper /tmp/w x.c", TierDestructive, false},
		{"-wrapper reboot", "gcc -wrapper reboot x.c", TierDestructive, true},
		{"-B", "gcc -B/tmp/ x.c", TierDestructive, false},
		{"-B next word", "g++ -B /tmp/bin x.cc", TierDestructive, false},
		{"-specs", "gcc -specs=/tmp/s x.c", TierDestructive, false},
		{"@file", "gcc @/tmp/opts", TierDestructive, false},
		{"--ld-path", "clang --ld-path=/tmp/ld x.c", TierDestructive, false},
		{"-fuse-ld path", "gcc -fuse-ld=/tmp/ld x.c", TierDestructive, false},
		{"-Wl,--plugin", "gcc -Wl,--plugin=/tmp/x.so x.c", TierDestructive, false},
		{"-Wl,-O1,-plugin", "gcc -Wl,-O1,-plugin,/tmp/x.so x.c", TierDestructive, false},
		{"ld --plugin", "ld --plugin /tmp/x.so x.o", TierDestructive, false},
		{"nm --plugin", "nm --plugin /tmp/x.so x.o", TierDestructive, false},
		{"rustc -C linker", "rustc -C linker=/tmp/x x.rs", TierDestructive, false},
		{"rustc -Clinker", "rustc -Clinker=/tmp/x x.rs", TierDestructive, false},
		{"rustc codegen backend", "rustc -Z codegen-backend=/tmp/x.so x.rs", TierDestructive, false},
		{"gcc compiles", "gcc -c x.c", TierMutate, false},
		{"strip in place", "strip x", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"nm", "nm x.o", TierRead},
		{"nm -o flag", "nm -o x.o", TierRead},
		{"size -o flag", "size -o x", TierRead},
		{"objdump", "objdump -d x.o", TierRead},
		{"readelf", "readelf -a x", TierRead},
		{"cpp to stdout", "cpp -DX=1 x.c", TierRead},
		{"ld -Bstatic", "ld -Bstatic -o a x.o", TierMutate},
		{"gcc -o app", "gcc -o app main.c", TierMutate},
		{"gcc -fuse-ld=lld", "gcc -fuse-ld=lld -o app main.c", TierMutate},
	})
}

// TestBlindSpotMailAndLog: logger -n sends to another host (host rules
// apply) and -u writes a socket of the caller's choosing; the MTAs' test
// modes (-be, -bf, -bF, -bh) and -C configurations run commands, -X
// writes a traffic log; mailx -S names the MTA, pager, editor or shell it
// runs, GNU mail -E runs mail commands, mutt -e/-F run muttrc commands and
// msmtp -C/--passwordeval run a command. Plain logging and sending stay.
func TestBlindSpotMailAndLog(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"logger -n denied host", "logger -n 169.254.169.254 hi", TierDestructive, true},
		{"logger --server", "logger --server 10.0.0.1 -f /etc/hostname", TierDestructive, true},
		{"logger --ser abbrev", "logger --ser=10.1.1.1 hi", TierDestructive, true},
		{"logger -n", "logger -n logs.example.com -f /var/log/app.log", TierMutate, false},
		{"logger -u", "logger -u /var/run/docker.sock x", TierMutate, false},
		{"logger --socket=", "logger --socket=/run/x hi", TierMutate, false},
		{"exim -be run", "exim -be '${run{/sbin/reboot}}'", TierDestructive, true},
		{"sendmail -be", "sendmail -be '${run{/bin/sh -c id}}'", TierDestructive, false},
		{"exim4 -be readfile", "exim4 -be '${readfile{/etc/shadow}}'", TierDestructive, false},
		{"exim -bem", "exim -bem /tmp/msg", TierDestructive, false},
		{"exim -bf", "exim -bf /tmp/filter", TierDestructive, false},
		{"exim -bh", "exim -bh 192.0.2.1", TierDestructive, false},
		{"sendmail -C", "sendmail -C /tmp/cf root", TierDestructive, false},
		{"sendmail -Cfile", "sendmail -C/tmp/cf root", TierDestructive, false},
		{"sendmail -X device", "sendmail -X /dev/sda root", TierDestructive, true},
		{"sendmail -X sensitive", "sendmail -X/etc/sudoers root", TierDestructive, false},
		{"mail -S sendmail", "mail -S sendmail=/tmp/x root", TierDestructive, false},
		{"mailx -S sendmail reboot", "mailx -S sendmail='sh -c reboot' root", TierDestructive, true},
		{"mailx -SPAGER", "mailx -SPAGER=reboot", TierDestructive, true},
		{"s-nail -S mta", "s-nail -S mta=/tmp/x root", TierDestructive, false},
		{"mail -E", "mail -E '! reboot'", TierDestructive, true},
		{"mail --exec=", "mail --exec='|touch /tmp/x'", TierDestructive, false},
		{"mutt -e", "mutt -e 'set sendmail=/tmp/x' root", TierDestructive, false},
		{"neomutt -F", "neomutt -F /tmp/rc", TierDestructive, false},
		{"msmtp -C", "msmtp -C /tmp/rc root", TierDestructive, false},
		{"msmtp --passwordeval", "msmtp --passwordeval='reboot' root", TierDestructive, true},
		{"msmtp --logfile device", "msmtp --logfile=/dev/sda root", TierDestructive, true},
		{"sendmail", "sendmail root", TierMutate, false},
		{"mail -s", "mail -s hi root", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"logger", "logger hi", TierBenign},
		{"logger -t -p", "logger -t app -p user.info started", TierBenign},
		{"logger -u /dev/log", "logger -u /dev/log hi", TierBenign},
		{"sendmail -bp", "sendmail -bp", TierRead},
		{"mailq", "mailq", TierRead},
	})
}

// TestBlindSpotShellState: a bind macro types its text when the key is
// pressed, and a newline in it submits the line, so the text is classified
// as shell and the binding is tier 2 like bind -x; bind -f reads such
// bindings from a file. ulimit with a value changes later commands'
// limits (tier 1); asking for one reads.
func TestBlindSpotShellState(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"macro rm", `bind '"\C-x": "rm -rf /\n"'`, TierDestructive, true},
		{"macro reboot C-m", `bind '"\C-x": "reboot\C-m"'`, TierDestructive, true},
		{"macro writes", `bind '"a": "touch /etc/x\n"'`, TierMutate, false},
		{"macro no space", `bind '"\C-x":"id\r"'`, TierMutate, false},
		{"macro keymap", `bind -m vi-insert '"\C-x": "reboot\n"'`, TierDestructive, true},
		{"bind -f", "bind -f /tmp/inputrc", TierMutate, false},
		{"bind -f attached", "bind -f/tmp/inputrc", TierMutate, false},
		{"ulimit -c unlimited", "ulimit -c unlimited", TierBenign, false},
		{"ulimit -Sc", "ulimit -Sc 100", TierBenign, false},
		{"ulimit -n value", "ulimit -n 4096", TierBenign, false},
		{"ulimit computed", "ulimit -c $N", TierBenign, false},
	})
	runExact(t, p, []exactCase{
		{"bind function", `bind '"\C-x": shell-expand-line'`, TierBenign},
		{"bind set", "bind 'set editing-mode vi'", TierBenign},
		{"bind -p", "bind -p", TierRead},
		{"ulimit -a", "ulimit -a", TierRead},
		{"ulimit -n", "ulimit -n", TierRead},
		{"ulimit -c", "ulimit -c", TierRead},
		{"ulimit -Hn", "ulimit -Hn", TierRead},
	})
}

// TestBlindSpotLogFiles: the files git bundle create and git config -f
// write, script's -O/-I/-B/-T/--timing logs and history -w/-a's file are
// checked as writes; reading forms stay as they were.
func TestBlindSpotLogFiles(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"git bundle create device", "git bundle create /dev/sda HEAD", TierDestructive, true},
		{"git config -f device", "git config -f /dev/sda x.y z", TierDestructive, true},
		{"git config --file sensitive", "git config --file /root/.ssh/config x.y z", TierDestructive, false},
		{"script -O device", "script -O /dev/sda", TierDestructive, true},
		{"script --log-out", "script --log-out /dev/sda -c id", TierDestructive, true},
		{"script -T", "script -T /dev/sda -c id", TierDestructive, true},
		{"script -B sensitive", "script -q -B /etc/sudoers -c id", TierDestructive, false},
		{"script --timing=", "script --timing=/dev/sda -c id", TierDestructive, true},
		{"history -w device", "history -w /dev/sda", TierDestructive, true},
		{"history -a sensitive", "history -a /root/.bashrc", TierDestructive, false},
		{"history -w", "history -w", TierMutate, false},
		{"git bundle create", "git bundle create repo.bundle HEAD", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"git config --file --list", "git config --file x.cfg --list", TierRead},
		{"history", "history 20", TierRead},
	})
}

// TestBlindSpotVCSPrograms: hg's -e/--ssh and --remotecmd (on the remote
// commands), extdiff -p and svn's --diff-cmd, --diff3-cmd and --editor-cmd
// name programs they run, as git's --upload-pack does: tier 3 with the
// program classified; hg --debugger runs Python's debugger. hg commit -e
// is a flag and stays tier 2.
func TestBlindSpotVCSPrograms(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"hg clone --ssh", "hg clone --ssh reboot ssh://h/r", TierDestructive, true},
		{"hg clone -e", "hg clone -e 'ssh -i /tmp/k' ssh://h/r", TierDestructive, false},
		{"hg pull -e reboot", "hg pull -e reboot", TierDestructive, true},
		{"hg push --remotecmd=", "hg push --remotecmd=reboot", TierDestructive, true},
		{"hg in --remote abbrev", "hg incoming --remote reboot", TierDestructive, true},
		{"hg extdiff -p", "hg extdiff -p reboot", TierDestructive, true},
		{"hg extdiff --program", "hg extdiff --program=/tmp/d", TierDestructive, false},
		{"hg --debugger", "hg --debugger log", TierDestructive, false},
		{"svn --diff-cmd", "svn diff --diff-cmd reboot", TierDestructive, true},
		{"svn --diff-cmd=", "svn diff --diff-cmd=/tmp/d", TierDestructive, false},
		{"svn --diff3-cmd", "svn merge --diff3-cmd reboot ^/trunk", TierDestructive, true},
		{"svn --editor-cmd", "svn commit --editor-cmd 'rm -rf /'", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"hg log", "hg log", TierMutate},
		{"hg commit -e", "hg commit -e -m x", TierMutate},
		{"hg clone", "hg clone https://h/r", TierMutate},
		{"svn diff", "svn diff", TierMutate},
	})
}

// TestBlindSpotScriptShells: npm, yarn and pnpm's --script-shell (and
// --shell) replace the shell their scripts run in, and npm's and pip's
// --editor is started: the program is classified, and replacing the shell
// is tier 3 as make SHELL= is. cmake's --graphviz, --system-information,
// --profiling-output and --trace-redirect files are checked as writes.
func TestBlindSpotScriptShells(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"npm --script-shell=", "npm run build --script-shell=reboot", TierDestructive, true},
		{"npm --script-shell next", "npm test --script-shell reboot", TierDestructive, true},
		{"npm --script-shell path", "npm run build --script-shell=/tmp/sh", TierDestructive, false},
		{"yarn --script-shell", "yarn run build --script-shell reboot", TierDestructive, true},
		{"pnpm --config.script-shell", "pnpm run build --config.script-shell=reboot", TierDestructive, true},
		{"npm --editor", "npm edit x --editor=reboot", TierDestructive, true},
		{"pip --editor", "pip config edit --editor reboot", TierDestructive, true},
		{"cmake --graphviz device", "cmake --graphviz=/dev/sda .", TierDestructive, true},
		{"cmake --system-information", "cmake --system-information /dev/sda", TierDestructive, true},
	})
	runExact(t, p, []exactCase{
		{"npm run", "npm run build", TierMutate},
		{"npm ls", "npm ls", TierRead},
		{"cmake --graphviz", "cmake --graphviz=deps.dot .", TierMutate},
	})
}

// TestBlindSpotOtherCrontabs: incrontab and fcrontab install tables whose
// commands run later, outside warden's confinement, as crontab does
// (tier 3, known commands classified); listing stays tier 0.
func TestBlindSpotOtherCrontabs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"incrontab file", "incrontab /tmp/tab", TierDestructive, false},
		{"incrontab stdin", "echo '/etc IN_MODIFY reboot' | incrontab -", TierDestructive, true},
		{"incrontab -e", "incrontab -e", TierDestructive, false},
		{"incrontab -u", "incrontab -u root /tmp/tab", TierDestructive, false},
		{"fcrontab file", "fcrontab /tmp/tab", TierDestructive, false},
		{"fcrontab stdin", "echo '* * * * * reboot' | fcrontab -", TierDestructive, true},
		{"fcrontab -r", "fcrontab -r", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"incrontab -l", "incrontab -l", TierRead},
		{"fcrontab -l", "fcrontab -l", TierRead},
	})
}
