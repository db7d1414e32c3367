package policy

import (
	"os"
	"strings"
	"testing"
)

// TestBlindSpotProgramOptions: options that run a program take the tier of
// what they run (and its deny verdict), or tier 3 when it cannot be seen;
// options that write files are at least tier 2 and their targets are
// checked like redirections; setuid and setgid modes are tier 3.
func TestBlindSpotProgramOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		// Pagers and browsers.
		{"git -p core.pager", "git -c core.pager='sh -c reboot' -p log", TierDestructive, true},
		{"git --paginate GIT_PAGER", "GIT_PAGER='reboot' git --paginate log", TierDestructive, true},
		{"git -p PAGER", "PAGER='init 0' git -p log", TierDestructive, true},
		{"git pager key", "git -c pager.log='rm -rf /' log", TierDestructive, true},
		{"man -P", "man -P 'sh -c reboot' ls", TierDestructive, true},
		{"man --pager=", "man --pager=reboot ls", TierDestructive, true},
		{"man -H browser", "man -Hreboot ls", TierDestructive, true},
		{"MANPAGER", "MANPAGER=poweroff man ls", TierDestructive, true},
		{"MANOPT -P", "MANOPT='-P reboot' man ls", TierDestructive, true},
		{"PSQL_PAGER", "PSQL_PAGER=reboot psql -c 'select 1'", TierDestructive, true},
		{"exported PSQL_EDITOR", "export PSQL_EDITOR=/tmp/x; psql", TierDestructive, false},
		{"GH_PAGER", "GH_PAGER='sh -c reboot' gh pr list", TierDestructive, true},
		{"SYSTEMD_PAGERSECURE", "SYSTEMD_PAGERSECURE=0 systemctl status", TierDestructive, false},
		{"bat --pager", "bat --pager='sh -c reboot' /etc/hosts", TierDestructive, true},
		{"generic --pager", "frob --pager 'halt' x", TierDestructive, true},
		{"mysql --pager", "mysql --pager=/tmp/x -e 'select 1'", TierDestructive, false},
		{"less +!cmd", "less '+!reboot' /etc/hosts", TierDestructive, true},
		{"less ++!cmd", "less '++!touch /tmp/p' /etc/hosts", TierDestructive, false},
		{"less +|pipe", "less '+|ashutdown -h now' /etc/hosts", TierDestructive, true},
		{"less -o", "less -o /dev/sda /etc/hosts", TierDestructive, true},
		{"less --log-file", "less --log-file=/tmp/x /etc/hosts", TierMutate, false},
		{"LESSOPEN", "LESSOPEN='|reboot %s' less /etc/hosts", TierDestructive, true},
		// git remote programs and config.
		{"fetch upload-pack", "git fetch --upload-pack='touch /tmp/p' origin", TierDestructive, false},
		{"fetch upload-pack deny", "git fetch --upload-pack 'reboot' origin", TierDestructive, true},
		{"clone -u", "git clone -u 'reboot' /tmp/r /tmp/x", TierDestructive, true},
		{"clone -u attached", "git clone -u'touch /tmp/p' /tmp/r /tmp/x", TierDestructive, false},
		{"ls-remote upload-pack", "git ls-remote --upload-pack 'touch /tmp/p' /tmp/r", TierDestructive, false},
		{"push receive-pack", "git push --receive-pack='touch /tmp/p' origin", TierDestructive, false},
		{"push exec", "git push --exec='poweroff' origin", TierDestructive, true},
		{"archive exec", "git archive --remote=/tmp/r --exec='touch /tmp/p' HEAD", TierDestructive, false},
		{"fsmonitor", "git -c core.fsmonitor='touch /tmp/p' status", TierDestructive, false},
		{"fsmonitor deny", "git -c core.fsmonitor='reboot' status", TierDestructive, true},
		{"hooksPath", "git -c core.hooksPath=/tmp/h commit -m x", TierDestructive, false},
		{"diff.external", "git -c diff.external=/tmp/x diff", TierDestructive, false},
		{"GIT_EXTERNAL_DIFF", "GIT_EXTERNAL_DIFF='reboot' git diff", TierDestructive, true},
		{"GIT_SSH_COMMAND", "GIT_SSH_COMMAND='sh -c reboot' git fetch", TierDestructive, true},
		{"sshCommand", "git -c core.sshCommand='touch /tmp/p' fetch", TierDestructive, false},
		{"textconv", "git -c diff.x.textconv='reboot' log -p", TierDestructive, true},
		{"credential helper", "git -c credential.helper='!reboot' fetch", TierDestructive, true},
		{"merge driver", "git -c merge.x.driver='touch /tmp/p' merge y", TierDestructive, false},
		{"sequence editor", "git -c sequence.editor='touch /tmp/p' rebase -i HEAD~2", TierDestructive, false},
		{"clone -c", "git clone -c core.fsmonitor='touch /tmp/p' /tmp/r", TierDestructive, false},
		{"clone --config", "git clone --config=core.hooksPath=/tmp/h /tmp/r", TierDestructive, false},
		{"clone template", "git clone --template=/tmp/t /tmp/r", TierDestructive, false},
		{"alias bang", "git -c alias.st='!rm -rf /' st", TierDestructive, true},
		// Tracers.
		{"strace -o pipe", "strace -o '|reboot' ls", TierDestructive, true},
		{"strace -o bang", "strace -f -o '!touch /tmp/p' ls", TierDestructive, false},
		{"strace -o file", "strace -o /tmp/t ls", TierMutate, false},
		{"strace --output", "strace --output=/dev/sda ls", TierDestructive, true},
		{"ltrace -o", "ltrace -o /dev/sda ls", TierDestructive, true},
		{"valgrind log", "valgrind --log-file=/tmp/v ls", TierMutate, false},
		{"valgrind db-command", "valgrind --db-command='reboot' ls", TierDestructive, true},
		{"perf record -o", "perf record -o /tmp/p ls", TierDestructive, false},
		{"tcpdump -w", "tcpdump -i any -w /tmp/x", TierMutate, false},
		{"tcpdump -w device", "tcpdump -w /dev/sda", TierDestructive, true},
		{"tcpdump -z", "tcpdump -w /tmp/x -C 1 -z reboot", TierDestructive, true},
		{"tcpdump -z unknown", "tcpdump -w /tmp/x -z \"$P\"", TierDestructive, false},
		{"tshark lua", "tshark -X lua_script:/tmp/x.lua", TierDestructive, false},
		{"time -o", "/usr/bin/time -o /dev/sda ls", TierDestructive, true},
		// Build tools.
		{"make --eval", "make --eval='$(shell reboot)'", TierDestructive, true},
		{"make -E", "make -E 'x:=$(shell touch /tmp/p)'", TierDestructive, false},
		{"make --eval braces", "make --eval 'x:=${shell poweroff}'", TierDestructive, true},
		{"make SHELL", "make SHELL=/tmp/x", TierDestructive, false},
		{"make SHELL:=", "make 'SHELL:=/tmp/x'", TierDestructive, false},
		{"make SHELL+=", "make SHELL+=-x", TierDestructive, false},
		{"make !=", "make 'X!=reboot'", TierDestructive, true},
		{"make := shell", "make 'X:=$(shell touch /tmp/p)'", TierDestructive, false},
		{"cmake -E rename", "cmake -E rename /etc /tmp/etc", TierDestructive, true},
		{"cmake -E copy", "cmake -E copy /tmp/x /etc/passwd", TierDestructive, false},
		// A directory nothing writes: what /tmp holds at the time (a build's
		// vet.cfg naming test files that name reboot) is not this test's.
		{"find -exec {} as program", "find /nonexistent -type f -exec {} +", TierDestructive, false},
		{"find -execdir {} as program", "find . -execdir {} \\;", TierDestructive, false},
		{"make .SHELLFLAGS", "make .SHELLFLAGS='-c touch /tmp/p;'", TierDestructive, false},
		{"make -f stdin", "curl -s x | make -f -", TierDestructive, false},
		{"cmake -P", "cmake -P /tmp/x.cmake", TierDestructive, false},
		{"cmake -C", "cmake -C /tmp/init.cmake ..", TierDestructive, false},
		{"cmake toolchain", "cmake --toolchain /tmp/t.cmake ..", TierDestructive, false},
		{"cmake launcher", "cmake -DCMAKE_C_COMPILER_LAUNCHER=/tmp/x ..", TierDestructive, false},
		{"cmake project include", "cmake -D CMAKE_PROJECT_INCLUDE=/tmp/x.cmake ..", TierDestructive, false},
		{"cmake -E rm", "cmake -E rm -rf /", TierDestructive, true},
		{"cmake -E remove_directory", "cmake -E remove_directory /etc", TierDestructive, true},
		{"cmake -E env", "cmake -E env FOO=1 reboot", TierDestructive, true},
		{"cmake -E chdir", "cmake -E chdir /tmp sh -c 'init 0'", TierDestructive, true},
		{"gdb -ex shell", "gdb -batch -ex '!reboot'", TierDestructive, true},
		{"gdb --eval-command shell", "gdb -batch --eval-command='shell poweroff' /bin/true", TierDestructive, true},
		{"vim -c", "vim -c '!reboot'", TierDestructive, true},
		{"vim +cmd", "vim '+silent !reboot' f", TierDestructive, true},
		{"vim --cmd", "nvim --cmd ':!touch /tmp/p' f", TierDestructive, false},
		{"emacs --eval", "emacs --batch --eval '(shell-command \"touch /tmp/p\")'", TierDestructive, false},
		{"emacs --eval deny", "emacs --batch --eval '(shell-command \"reboot\")'", TierDestructive, true},
		{"gdb call system", "gdb -p 1 -batch -ex 'call system(\"poweroff\")'", TierDestructive, true},
		{"logrotate", "logrotate -f /tmp/x.conf", TierDestructive, false},
		{"nmap script", "nmap --script=/tmp/x.nse 192.0.2.1", TierDestructive, false},
		{"nmap output", "nmap -oN /dev/sda 192.0.2.1", TierDestructive, true},
		{"nmap --scr=", "nmap --scr=/tmp/x.nse 192.0.2.1", TierDestructive, false},
		{"nmap -script one dash", "nmap -script=/tmp/x.nse 192.0.2.1", TierDestructive, false},
		{"scp -S program", "scp -S reboot a h:b", TierDestructive, true},
		{"sftp -D program", "sftp -D 'sh -c halt' h", TierDestructive, true},
		{"ssh-agent command", "ssh-agent sh -c reboot", TierDestructive, true},
		{"perl -M", "perl -MPOSIX -e 1", TierDestructive, false},
		// Schedulers.
		{"crontab file", "crontab /tmp/cron", TierDestructive, false},
		{"crontab stdin", "echo '* * * * * reboot' | crontab -", TierDestructive, true},
		{"crontab no file", "printf '@reboot rm -rf /\\n' | crontab", TierDestructive, true},
		{"crontab user", "crontab -u root /tmp/cron", TierDestructive, false},
		{"crontab unknown stdin", "cat /tmp/c | crontab -", TierDestructive, false},
		{"crontab -e", "crontab -e", TierDestructive, false},
		{"crontab -r", "crontab -r", TierDestructive, true},
		{"tar into the cron spool", "tar -xf x.tar -C /var/spool/cron", TierDestructive, false},
		{"unzip into cron.d", "unzip -d /etc/cron.d x.zip", TierDestructive, false},
		{"cp into init.d", "cp x /etc/init.d/", TierDestructive, false},
		{"cp anacrontab", "cp /tmp/x /etc/anacrontab", TierDestructive, false},
		{"systemctl enable a unit file", "systemctl enable /tmp/t.timer", TierDestructive, false},
		{"systemctl link", "systemctl link /tmp/x.service", TierDestructive, false},
		{"at", "echo reboot | at now", TierDestructive, true},
		{"at file", "at -f /tmp/job now", TierDestructive, false},
		{"batch", "batch <<< 'touch /tmp/p'", TierDestructive, false},
		{"systemd-run", "systemd-run touch /tmp/p", TierDestructive, false},
		{"systemd-run timer", "systemd-run --on-calendar=daily touch /tmp/p", TierDestructive, false},
		{"systemd-run command", "systemd-run --user reboot", TierDestructive, true},
		{"systemd-run ExecStartPre", "systemd-run -p ExecStartPre='/bin/sh -c reboot' true", TierDestructive, true},
		// Setuid and setgid.
		{"chmod u+s", "chmod u+s /tmp/x", TierDestructive, false},
		{"chmod g+s", "chmod g+s /tmp/x", TierDestructive, false},
		{"chmod +s", "chmod +s /tmp/x", TierDestructive, false},
		{"chmod 4755", "chmod 4755 /tmp/x", TierDestructive, false},
		{"chmod 2755", "chmod 2755 /tmp/x", TierDestructive, false},
		{"chmod 04755", "chmod 04755 /tmp/x", TierDestructive, false},
		{"chmod 6755", "chmod -- 6755 /tmp/x", TierDestructive, false},
		{"chmod clause list", "chmod u+x,g+s /tmp/x", TierDestructive, false},
		{"chmod a+rwxs", "chmod a+rwxs /tmp/x", TierDestructive, false},
		{"chmod u=rwxs", "chmod u=rwxs /tmp/x", TierDestructive, false},
		{"chmod dash mode", "chmod -x,u+s /tmp/x", TierDestructive, false},
		{"chmod reference", "chmod --reference=/usr/bin/passwd /tmp/x", TierDestructive, false},
		{"chmod =octal", "chmod =4755 /tmp/x", TierDestructive, false},
		{"chmod +octal", "chmod +2000 /tmp/x", TierDestructive, false},
		{"chmod u=octal clause", "chmod o-w,=6755 /tmp/x", TierDestructive, false},
		{"mkdir -m", "mkdir -m 4755 /tmp/d", TierDestructive, false},
		{"mkdir --mode", "mkdir --mode=g+s /tmp/d", TierDestructive, false},
		{"install -d -m", "install -d -m 2775 /tmp/d", TierDestructive, false},
		{"chmod computed", "chmod \"$M\" /tmp/x", TierDestructive, false},
		{"find chmod", "find /tmp/x -exec chmod 4755 {} +", TierDestructive, false},
		{"install -m", "install -m 4755 /tmp/a /usr/local/bin/a", TierDestructive, false},
		{"install --mode", "install --mode=u+s /tmp/a /tmp/b", TierDestructive, false},
		{"rsync --chmod", "rsync --chmod=u+s a b", TierDestructive, false},
		{"rsync --chmod octal", "rsync -a --chmod=F4755 a b", TierDestructive, false},
		{"tar -p", "tar -xpf x.tar", TierDestructive, false},
		{"tar same-permissions", "tar --same-permissions -xf x.tar -C /tmp/x", TierDestructive, false},
		{"tar to usr", "tar -xf x.tar -C /usr", TierDestructive, false},
		// Files written by text tools.
		{"sed w device", "sed 's/a/b/w /dev/sda' f", TierDestructive, true},
		{"sed W", "sed -n 'W /tmp/out' f", TierMutate, false},
		{"sed w", "sed -n '/x/w /tmp/out' f", TierMutate, false},
		{"sed -i", "sed -i 's/a/b/' /tmp/f", TierMutate, false},
		{"sed e", "sed '1e reboot' f", TierDestructive, true},
		{"awk print >", "awk '{print > \"/dev/sda\"}' f", TierDestructive, true},
		{"awk printf >>", "awk '{printf \"%s\", $0 >> \"/tmp/x\"}' f", TierMutate, false},
		{"awk print |", "awk '{print | \"reboot\"}' f", TierDestructive, true},
		{"awk getline", "awk 'BEGIN{\"reboot\" | getline}'", TierDestructive, true},
		{"awk coprocess", "gawk 'BEGIN{print \"x\" |& \"poweroff\"}'", TierDestructive, true},
		{"awk system", "mawk 'BEGIN{system(\"halt\")}'", TierDestructive, true},
		{"busybox awk", "busybox awk 'BEGIN{system(\"reboot\")}'", TierDestructive, true},
		{"awk -f", "awk -f /tmp/x.awk f", TierDestructive, false},
		{"gawk pretty-print", "gawk -o/tmp/out '{print}' f", TierMutate, false},
		{"gawk dump", "gawk --dump-variables=/dev/sda '{print}' f", TierDestructive, true},
		{"sort -o", "sort -o /tmp/x f", TierMutate, false},
		{"sort compress", "sort --compress-program=reboot f", TierDestructive, true},
		{"uniq out", "uniq a /dev/sda", TierDestructive, true},
		{"tee", "ls | tee /tmp/x", TierMutate, false},
		{"split", "split -l 10 f /tmp/part", TierMutate, false},
		{"split filter", "split --filter='reboot' f", TierDestructive, true},
		{"csplit", "csplit f 3", TierMutate, false},
		{"btrfs send -f", "btrfs send -f /srv/snap.stream /snap", TierMutate, false},
		{"btrfs send -f attached", "btrfs send -f/srv/snap.stream /snap", TierMutate, false},
		{"btrfs send cluster", "btrfs send -ef /srv/snap.stream /snap", TierMutate, false},
		{"btrfs send -f device", "btrfs send -p /a -f /dev/sda /snap", TierDestructive, true},
		{"btrfs send -f computed", `btrfs send -f "$OUT" /snap`, TierMutate, false},
		{"nohup", "nohup true", TierMutate, false},
		{"nohup wrapped", "nohup ls -la /", TierMutate, false},
		{"dd of", "dd if=f of=/tmp/x", TierMutate, false},
		{"curl -o", "curl -o /tmp/x https://example.com", TierMutate, false},
		{"curl -o device", "curl -o /dev/sda https://example.com", TierDestructive, true},
		{"curl -O", "curl -O https://example.com/x", TierMutate, false},
		{"curl -D", "curl -D /dev/sda https://example.com", TierDestructive, true},
		{"curl --trace", "curl --trace=/dev/sda https://example.com", TierDestructive, true},
		{"curl write-out output", "curl -w '%output{/dev/sda}x' https://example.com", TierDestructive, true},
		{"wget -O", "wget -O /tmp/x https://example.com", TierMutate, false},
		{"wget -o with stdout", "wget -O- -o /tmp/log https://example.com", TierMutate, false},
		{"wget -P", "wget -P /tmp https://example.com/x", TierMutate, false},
		{"ssh -E", "ssh -E /dev/sda host uptime", TierDestructive, true},
		{"openssl -out", "openssl req -new -out /dev/sda", TierDestructive, true},
		{"openssl -out file", "openssl rand -out /tmp/r 16", TierMutate, false},
		{"gzip -c >", "gzip -c f > /tmp/f.gz", TierMutate, false},
		// Other programs that run code from options.
		{"rpm eval", "rpm -E '%(reboot)'", TierDestructive, true},
		{"rpm --eval", "rpm --eval='%(touch /tmp/p)'", TierDestructive, false},
		{"rpm define", "rpm -q --define 'x %(poweroff)' bash", TierDestructive, true},
		{"rpm pipe", "rpm -qa --pipe 'reboot'", TierDestructive, true},
		{"apt hook", "apt-get update -o APT::Update::Pre-Invoke::=reboot", TierDestructive, true},
		{"apt dpkg hook", "apt-get install -o 'DPkg::Pre-Invoke::=touch /tmp/p' x", TierDestructive, false},
		{"apt bin", "apt-get -o Dir::Bin::dpkg=/tmp/x install y", TierDestructive, false},
		{"apt config file", "apt-get -c /tmp/apt.conf update", TierDestructive, false},
		{"fc -s", "fc -s", TierDestructive, false},
		{"fc -e", "fc -e vi 1", TierDestructive, false},
		{"history expansion", "!!", TierDestructive, false},
		{"tree -o", "tree -o /dev/sda /etc", TierDestructive, true},
		{"tree -o file", "tree -o /tmp/t /etc", TierMutate, false},
		{"sar -o", "sar -o /tmp/s 1 1", TierMutate, false},
		{"sdiff -o", "sdiff -o /tmp/m a b", TierMutate, false},
		{"dmidecode dump", "dmidecode --dump-bin /tmp/d", TierMutate, false},
		{"file -C", "file -C -m /tmp/magic", TierMutate, false},
		{"ss -K", "ss -K dst 10.0.0.1", TierMutate, false},
		{"lastlog -C", "lastlog -C -u bob", TierMutate, false},
		{"rg --pre", "rg --pre 'reboot' x /etc", TierDestructive, true},
		{"rg --pre file", "rg --pre=/tmp/x pattern", TierMutate, false},
		{"fd -x", "fd -e tmp . /tmp -x rm -f", TierDestructive, false},
		{"fd -x root", "fd -x rm -rf {} . /", TierDestructive, true},
		{"fd -X deny", "fdfind . / -X reboot", TierDestructive, true},
		{"history expansion word", "sudo !-2", TierDestructive, false},
		{"quick substitution", "^echo^reboot", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"git log", "git log --oneline -5", TierRead},
		{"git harmless config", "git -c color.ui=never log -1", TierRead},
		{"tcpdump read", "tcpdump -i eth0 -n -c 10 port 53", TierRead},
		{"crontab -l", "crontab -l", TierRead},
		{"cat a cron file", "cat /etc/cron.d/x", TierRead},
		{"tar into tmp", "tar -xf x.tar -C /tmp/x", TierMutate},
		{"at -l", "at -l", TierRead},
		{"fc -l", "fc -l", TierRead},
		{"history", "history", TierRead},
		{"chmod plain", "chmod 755 /tmp/x", TierMutate},
		{"chmod sticky", "chmod 1777 /tmp/x", TierMutate},
		{"chmod remove setuid", "chmod u-s /tmp/x", TierMutate},
		{"install plain", "install -m 0755 /tmp/a /tmp/b", TierMutate},
		{"ninja query", "ninja -t targets", TierRead},
		{"sed print", "sed -n '1,5p' /etc/hosts", TierRead},
		{"awk print", "awk '{print $1}' /etc/hosts", TierRead},
		{"awk comparison", "awk '$1 > 3 {print}' f", TierRead},
		{"make", "make -C /srv/build all", TierMutate},
		{"make variables", "make -j4 V=1 CC=gcc", TierMutate},
		{"find -exec cat", "find . -name x -exec cat {} \\;", TierRead},
		{"cmake -E echo", "cmake -E echo hi", TierRead},
		{"man", "man ls", TierMutate},
		{"curl stdout", "curl -s https://example.com", TierBenign},
		{"rpm query", "rpm -qa", TierRead},
		{"tree", "tree -L 2 /etc", TierRead},
		{"btrfs send to stdout", "btrfs send -p /snap/a /snap/b", TierRead},
		{"btrfs send parent named f", "btrfs send -pf /snap/b", TierRead},
		{"rg", "rg -n pattern /etc", TierRead},
		{"fd", "fd -e conf . /etc", TierRead},
		{"ss", "ss -tlnp", TierRead},
		{"nmap -sC", "nmap -sV -sC 192.0.2.1", TierMutate},
	})
}

// TestBlindSpotOptionSpellings: an option that runs a program, writes a
// file or sets a setuid mode is found in every spelling getopt_long takes:
// at the end of a cluster of flags, with its value attached or next, and
// abbreviated to any prefix of its long name.
func TestBlindSpotOptionSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"mkdir -pm", "mkdir -pm 2755 /tmp/d", TierDestructive, false},
		{"mkdir -pm attached", "mkdir -pm2755 /tmp/d", TierDestructive, false},
		{"mkdir --mo=", "mkdir --mo=2755 /tmp/d", TierDestructive, false},
		{"install -Dm", "install -Dm4755 a b", TierDestructive, false},
		{"install -dm next", "install -dm 4755 /tmp/d", TierDestructive, false},
		{"install --mod=", "install --mod=4755 a b", TierDestructive, false},
		{"rsync --chmod next", "rsync --chmod u+s a b", TierDestructive, false},
		{"rsync --chm=", "rsync --chm=g+s a b", TierDestructive, false},
		{"rsync -avze", "rsync -avze 'sh -c reboot' a b", TierDestructive, true},
		{"rsync --log-f=", "rsync --log-f=/dev/sda a b", TierDestructive, true},
		{"sort -uo", "sort -uo /tmp/x f", TierMutate, false},
		{"sort -ro attached", "sort -ro/dev/sda f", TierDestructive, true},
		{"sort --output next", "sort --output /tmp/x f", TierMutate, false},
		{"sort --outp=", "sort --outp=/tmp/x f", TierMutate, false},
		{"sort --compress=", "sort --compress=reboot f", TierDestructive, true},
		{"shuf -o attached", "shuf -o/dev/sda f", TierDestructive, true},
		{"make --ev=", "make --ev='$(shell reboot)'", TierDestructive, true},
		{"make -sE", "make -sE '$(shell poweroff)'", TierDestructive, true},
		{"man --pa=", "man --pa=reboot ls", TierDestructive, true},
		{"man --pag next", "man --pag 'sh -c halt' ls", TierDestructive, true},
		{"curl -sSLo", "curl -sSLo /dev/sda https://example.com", TierDestructive, true},
		{"wget -qO", "wget -qO /dev/sda https://example.com", TierDestructive, true},
		{"tcpdump -nw", "tcpdump -nw /dev/sda", TierDestructive, true},
		{"ltrace -fo", "ltrace -fo /dev/sda ls", TierDestructive, true},
		{"tree -ao", "tree -ao /dev/sda /etc", TierDestructive, true},
		{"valgrind --log-f=", "valgrind --log-f=/dev/sda ls", TierDestructive, true},
		{"systemd-run --prop=", "systemd-run --prop=ExecStartPre=/sbin/reboot true", TierDestructive, true},
		{"git clone -qu", "git clone -qu reboot /tmp/r", TierDestructive, true},
		{"git fetch --upload-p=", "git fetch --upload-p=reboot origin", TierDestructive, true},
		{"git push --rec=", "git push --rec='touch /tmp/p' origin", TierDestructive, false},
		{"git log --out=", "git log --out=/dev/sda", TierDestructive, true},
		{"git rebase -x attached", "git rebase -xreboot HEAD~1", TierDestructive, true},
		{"git rebase -ix", "git rebase -ix 'sh -c halt' HEAD~1", TierDestructive, true},
		{"git difftool -yx", "git difftool -yx reboot", TierDestructive, true},
		{"git difftool --extc=", "git difftool --extc=poweroff", TierDestructive, true},
		{"git grep --open-files=", "git grep --open-files=reboot x", TierDestructive, true},
		{"git grep -O attached", "git grep -Oreboot x", TierDestructive, true},
		{"git send-email --to-c=", "git send-email --to-c=reboot x", TierDestructive, true},
		// vim runs what it reads on a standard input that is not a
		// terminal: keystrokes, or Ex commands in Ex mode.
		{"vim -es from a file", "vim -es < /tmp/s", TierDestructive, false},
		{"vim -es here-string", "vim -es <<< '!reboot'", TierDestructive, true},
		{"vim keystrokes from a pipe", "echo ':!poweroff' | vim", TierDestructive, true},
		{"ex from a file", "ex < /tmp/s", TierDestructive, false},
		{"nvim headless", "nvim --headless -es < /tmp/s", TierDestructive, false},
		{"vim -c attached", "vim '-c!reboot'", TierDestructive, true},
		{"vim -c attached unknown", "vim '-c!touch /tmp/p' f", TierDestructive, false},
		{"vim -W", "vim -W /dev/sda f", TierDestructive, true},
		// Programs run by options of archivers, package managers and
		// the kernel, in every spelling.
		{"tar -I attached", "tar -xIreboot -f x.tar", TierDestructive, true},
		{"tar --use-comp=", "tar --use-comp=reboot -xf x.tar", TierDestructive, true},
		{"tar --to-c=", "tar --to-c='touch /tmp/p' -xf x.tar", TierDestructive, false},
		{"tar --checkpoint-a=", "tar --checkpoint-a=exec=halt -cf x.tar a", TierDestructive, true},
		{"tar --info-s=", "tar --info-s=reboot -cf x.tar a", TierDestructive, true},
		{"zip --unzip-c=", "zip -T --unzip-c=reboot x.zip a", TierDestructive, true},
		{"cargo tree --config", "cargo tree --config 'build.rustc-wrapper=\"/tmp/x\"'", TierDestructive, false},
		{"cargo --config runner", "cargo --config 'target.x86_64-unknown-linux-gnu.runner=\"reboot\"' run", TierDestructive, true},
		{"cargo --config file", "cargo --config /tmp/c.toml metadata", TierDestructive, false},
		{"pip --log", "pip --log /dev/sda list", TierDestructive, true},
		{"pip list --log", "pip list --log=/tmp/x", TierMutate, false},
		{"npm explore", "npm explore x -- reboot", TierDestructive, true},
		{"sysctl core_pattern pipe", "sysctl -w kernel.core_pattern='|/tmp/x'", TierDestructive, false},
		{"sysctl modprobe", "sysctl kernel.modprobe=/tmp/x", TierDestructive, false},
		{"chattr +i root", "chattr -R +i /", TierDestructive, true},
		{"setfacl -R root", "setfacl -R -m u:nobody:rwx /etc", TierDestructive, true},
		{"script typescript device", "script -q /dev/sda", TierDestructive, true},
		{"script -c with typescript", "script -c 'touch /tmp/p' /etc/passwd", TierDestructive, false},
		{"gpg -o device", "gpg -o /dev/sda --export", TierDestructive, true},
		{"patch -o device", "patch -o /dev/sda a x.diff", TierDestructive, true},
		{"patch --out= sensitive", "patch --out=/etc/passwd a x.diff", TierDestructive, false},
		// Setuid and setgid bits kept by archivers, in every spelling.
		{"unzip -K", "unzip -oK x.zip", TierDestructive, false},
		{"cpio -i", "cpio -idm < x.cpio", TierDestructive, false},
		{"cpio --ext", "cpio --ext < x.cpio", TierDestructive, false},
		{"cpio -p", "cpio -pdm /tmp/d < list", TierDestructive, false},
		{"cpio -O device", "cpio -oF /dev/sda < list", TierDestructive, true},
		{"cpio --rsh-command", "cpio -o --rsh-command=reboot -F h:/x < list", TierDestructive, true},
		{"tar --mode setuid", "tar --mode=u+s -cf x.tar a", TierDestructive, false},
		{"tar --preserve-perm", "tar -xf x.tar --preserve-perm", TierDestructive, false},
		{"tar --same-p", "tar --same-p -xf x.tar", TierDestructive, false},
		{"setfattr capability", "setfattr -n security.capability -v 0x01 /tmp/x", TierDestructive, false},
		{"sed --expr=", "sed --expr='1e reboot' f", TierDestructive, true},
		{"sed --exp next", "sed --exp 'w /dev/sda' f", TierDestructive, true},
		{"sed --in", "sed --in s/a/b/ f", TierMutate, false},
		// awk reads its options with getopt too.
		{"awk -i attached", "awk -iinplace '{print}' f", TierDestructive, false},
		{"gawk -i in a cluster", "gawk -bi inplace '{print}' f", TierDestructive, false},
		{"gawk -f attached", "gawk -f/tmp/x f", TierDestructive, false},
		{"gawk -l attached", "gawk -lfoo 'BEGIN{}'", TierDestructive, false},
		{"gawk -e attached", "gawk -e'BEGIN{system(\"reboot\")}' f", TierDestructive, true},
		{"gawk --so=", "gawk --so='BEGIN{system(\"halt\")}'", TierDestructive, true},
		{"gawk --inc=", "gawk --inc=inplace '{print}' f", TierDestructive, false},
		{"gawk --ex=", "gawk --ex=/tmp/x f", TierDestructive, false},
		{"gawk --dump=", "gawk --dump=/dev/sda '{print}' f", TierDestructive, true},
		{"gawk --pretty=", "gawk --pretty=/dev/sda '{print}' f", TierDestructive, true},
		{"gawk --pro=", "gawk --pro=/tmp/x '{print}' f", TierMutate, false},
		{"gawk -D debugger script", "gawk -D/tmp/cmds '{print}' f", TierDestructive, false},
		{"gawk -W source", "gawk -W source='BEGIN{system(\"reboot\")}'", TierDestructive, true},
		{"mawk -W exec", "mawk -W exec /tmp/x f", TierDestructive, false},
		{"mawk -We", "mawk -We /tmp/x", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"strace -e attached", "strace -eopen ls", TierRead},
		{"sort -t value", "sort -to f", TierRead},
		{"sort keys", "sort -t, -k2n f", TierRead},
		{"xmllint -noout", "xmllint -noout f", TierRead},
		{"cmake -E echo", "cmake -E echo hi", TierRead},
		{"tcpdump flags", "tcpdump -nni eth0 -c 5", TierRead},
		{"git log", "git log -n5 --oneline", TierRead},
		{"git grep -o", "git grep -n -o foo", TierRead},
		{"git grep --or", "git grep --or -e a -e b", TierRead},
		{"tree", "tree -aL 2 /etc", TierRead},
		{"curl -X", "curl -XPOST https://example.com", TierMutate},
		{"install plain cluster", "install -Dm755 a b", TierMutate},
		{"vim file", "vim -R f", TierMutate},
		{"vim editing its input", "cat f | vim -R -", TierMutate},
		{"unzip -l", "unzip -l x.zip", TierRead},
		{"gpg -k", "gpg -k", TierRead},
		{"patch", "patch -p1 < x.diff", TierMutate},
		{"cargo tree", "cargo tree --frozen", TierRead},
		{"cargo harmless config", "cargo --config net.offline=true tree --frozen", TierRead},
		{"pip list", "pip list", TierRead},
		{"sysctl read", "sysctl kernel.core_pattern", TierRead},
		{"sysctl plain write", "sysctl -w vm.swappiness=10", TierMutate},
		{"chattr -i", "chattr -R -i /tmp/x", TierMutate},
		{"cpio -it", "cpio -itv < x.cpio", TierRead},
		{"tar plain mode", "tar --mode=go-w -cf x.tar a", TierMutate},
		{"setfattr user", "setfattr -n user.x -v 1 /tmp/x", TierMutate},
		{"sed --quiet", "sed --quiet -e p f", TierRead},
		{"awk -F attached", "awk -F: '{print $1}' /etc/passwd", TierRead},
		{"awk -v attached", "awk -vx=1 '{print x}' f", TierRead},
		{"gawk -e", "gawk -e 'BEGIN{print 1}'", TierRead},
		{"gawk -W posix", "gawk -W posix '{print}' f", TierRead},
		{"mawk -W interactive", "mawk -Wi '{print}' f", TierRead},
	})
}

// TestBlindSpotWriteOptions: options and programs that write a file or act
// on other processes, in programs whose plain use is read-only.
func TestBlindSpotWriteOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"openssl -sess_out", "openssl s_client -sess_out /var/s -connect h:443", TierMutate, false},
		{"openssl --sess_out", "openssl s_client --sess_out /var/s -connect h:443", TierMutate, false},
		{"openssl -keylogfile", "openssl s_client -keylogfile /var/k -connect h:443", TierMutate, false},
		{"openssl -msgfile", "openssl s_client -msgfile /var/m -connect h:443", TierMutate, false},
		{"openssl ocsp -respout", "openssl ocsp -respout /var/r -url http://h", TierMutate, false},
		{"openssl -out sensitive", "openssl req -in r -out /etc/passwd", TierDestructive, false},
		{"openssl s_server", "openssl s_server -accept 4433", TierMutate, false},
		{"flock creates its file", "flock /var/lock/x true", TierMutate, false},
		{"flock -c creates its file", "flock /var/lock/x -c ls", TierMutate, false},
		{"atop -w", "atop -w /var/a 1 1", TierMutate, false},
		{"htop kills", "htop", TierMutate, false},
		{"btop kills", "btop", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"openssl reads", "openssl x509 -noout -text -in c", TierRead},
		{"flock on a descriptor", "flock -n 9 true", TierRead},
	})
}

// TestBlindSpotBuildTools: build tools run other programs when their
// options or environment say so, even in commands that only list.
func TestBlindSpotBuildTools(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"go list -toolexec", "go list -toolexec=reboot ./...", TierDestructive, true},
		{"go list --toolexec", "go list --toolexec 'sh -c id' ./...", TierDestructive, false},
		{"go list -exec", "go list -exec=/tmp/x -test ./...", TierDestructive, false},
		{"go list -export", "go list -export ./...", TierMutate, false},
		{"go list -compiled", "go list -compiled ./...", TierMutate, false},
		{"go list -mod=mod", "go list -mod=mod ./...", TierMutate, false},
		{"GOFLAGS", "GOFLAGS=-toolexec=id go list ./...", TierDestructive, false},
		{"exported GOFLAGS", "export GOFLAGS=-toolexec=id; go version", TierDestructive, false},
		{"go env -w GOFLAGS", "go env -w GOFLAGS=-toolexec=id", TierDestructive, false},
		{"go env -w", "go env -w GOPRIVATE=example.com", TierMutate, false},
		{"GOTOOLCHAIN", "GOTOOLCHAIN=go1.99.0 go version", TierDestructive, false},
		{"CC", "CC='sh -c id' go build .", TierDestructive, false},
		{"CGO_LDFLAGS", "CGO_LDFLAGS=-fplugin=/tmp/x.so go build .", TierDestructive, false},
		{"cargo runner", "CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=id cargo run", TierDestructive, false},
		{"npm script shell", "npm_config_script_shell=/tmp/x npm ls", TierDestructive, false},
		{"RUSTC_WRAPPER", "RUSTC_WRAPPER=/tmp/x cargo check", TierDestructive, false},
		{"go test -exec", "go test -exec reboot ./...", TierDestructive, true},
		{"go test -exec after packages", "go test ./... -exec='sh -c poweroff'", TierDestructive, true},
		{"go test --exec=", "go test --exec=/tmp/x ./...", TierDestructive, false},
		{"go build -toolexec", "go build -toolexec=reboot .", TierDestructive, true},
		{"go run -exec", "go run -exec 'touch /tmp/p' .", TierDestructive, false},
		{"go install -toolexec", "go install -toolexec /tmp/x .", TierDestructive, false},
		{"go vet -vettool", "go vet -vettool /sbin/halt ./...", TierDestructive, true},
		{"go build -overlay", "go build -overlay=/tmp/o.json .", TierDestructive, false},
		{"go build -o device", "go build -o /dev/sda .", TierDestructive, true},
		{"go test -coverprofile device", "go test -coverprofile=/dev/sda ./...", TierDestructive, true},
		{"go test -cpuprofile sensitive", "go test -cpuprofile /etc/passwd ./...", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"go list", "go list -f '{{.Dir}}' ./...", TierRead},
		{"go list modules", "go list -m -json all", TierRead},
		{"go env", "go env GOPATH", TierRead},
		{"go test", "go test -run TestX -count=1 ./...", TierMutate},
		{"go build -o", "go build -o /tmp/x .", TierMutate},
		{"go test -args", "go test ./x -args -exec=x", TierMutate},
	})
}

// TestBlindSpotCommandOptions: programs that run a command given after
// their own words run it with its options (git bisect run rm -rf /).
func TestBlindSpotCommandOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"bisect run", "git bisect run rm -rf /", TierDestructive, true},
		{"bisect run sh -c", "git bisect run sh -c 'rm -rf --no-preserve-root /'", TierDestructive, true},
		{"submodule foreach", "git submodule foreach 'rm -rf /'", TierDestructive, true},
		{"submodule foreach --recursive", "git submodule foreach --recursive rm -fr /", TierDestructive, true},
		{"submodule foreach -q", "git submodule foreach -q reboot -f", TierDestructive, true},
	})
}

// TestReasonNamesNoOperand: a subcommand program's reason names its
// subcommand, never the words after it, which may be secrets.
func TestReasonNamesNoOperand(t *testing.T) {
	p := testPolicy(t)
	for _, cmd := range []string{
		"docker login --password S3CRET-w0rd",
		"docker login -u admin -p S3CRET-w0rd",
		"podman login -p S3CRET-w0rd registry.example",
		"nerdctl login --password S3CRET-w0rd",
		"helm registry login -p S3CRET-w0rd reg",
		"kubectl --token S3CRET-w0rd get pods",
	} {
		if v := p.Evaluate(Input{Command: cmd}); strings.Contains(v.Reason, "S3CRET") {
			t.Errorf("Evaluate(%q).Reason = %q: names the secret", cmd, v.Reason)
		}
	}
	if v := p.Evaluate(Input{Command: "docker container ls"}); v.Tier != TierRead {
		t.Errorf("docker container ls: %s (%s)", v.Tier, v.Reason)
	}
}

// TestBlindSpotCopySetuid: cp keeping the mode of a setuid file on this
// machine is tier 3; of an ordinary file tier 2.
func TestBlindSpotCopySetuid(t *testing.T) {
	dir := t.TempDir()
	suid := dir + "/suid"
	plain := dir + "/plain"
	for _, f := range []string{suid, plain} {
		if err := os.WriteFile(f, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(suid, 0o755|os.ModeSetuid); err != nil {
		t.Skip(err)
	}
	if fi, err := os.Stat(suid); err != nil || fi.Mode()&os.ModeSetuid == 0 {
		t.Skip("this file system keeps no setuid bit")
	}
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"cp -p", "cp -p " + suid + " /tmp/x", TierDestructive, false},
		{"cp -a", "cp -a " + suid + " /tmp/x", TierDestructive, false},
		{"cp --preserve=mode", "cp --preserve=mode " + suid + " /tmp/x", TierDestructive, false},
		{"cp --preserve=all", "cp --preserve=all " + suid + " /tmp/x", TierDestructive, false},
		{"chown setuid", "chown nobody " + suid, TierDestructive, false},
		{"cp --pres", "cp --pres " + suid + " /tmp/x", TierDestructive, false},
		{"cp --pres=mode", "cp --pres=mode " + suid + " /tmp/x", TierDestructive, false},
		{"cp --arch", "cp --arch " + suid + " /tmp/x", TierDestructive, false},
		{"cp -pt", "cp -pt /tmp/x " + suid, TierDestructive, false},
		{"cp -t then -p", "cp -t /tmp/x -p " + suid, TierDestructive, false},
		{"rsync -p", "rsync -p " + suid + " /tmp/x", TierDestructive, false},
		{"rsync -a", "rsync -a " + suid + " /tmp/x", TierDestructive, false},
		{"rsync --perms", "rsync --perms " + suid + " /tmp/x", TierDestructive, false},
		{"rsync -rlptgoD", "rsync -rlptgoD " + suid + " /tmp/x", TierDestructive, false},
		{"chgrp setuid", "chgrp nogroup " + suid, TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"cp plain", "cp -p " + plain + " /tmp/x", TierMutate},
		{"cp without mode", "cp " + suid + " /tmp/x", TierMutate},
		{"cp --preserve=ownership", "cp --preserve=ownership " + suid + " /tmp/x", TierMutate},
		{"rsync without perms", "rsync -r " + suid + " /tmp/x", TierMutate},
		{"chown plain", "chown nobody " + plain, TierMutate},
	})
	if v := p.Evaluate(Input{Command: "cp -p " + suid + " /tmp/x", Host: "web1"}); v.Tier != TierMutate {
		t.Errorf("remote host: %s (%s); the local file says nothing about another machine", v.Tier, v.Reason)
	}
}

// protectedPolicy protects warden's usual paths under /root and /etc.
func protectedPolicy(t *testing.T, extra ...string) *Policy {
	t.Helper()
	p, err := New(Rules{
		Protect: append([]string{"/root/.local/state/warden", "/root/.local/state/warden/audit.jsonl",
			"/root/.local/state/warden/token", "/etc/warden/config.yaml", "/etc/warden/audit.key"}, extra...),
		Home:      "/root",
		DenyHosts: []string{"169.254.169.254"},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBlindSpotFdExecSpellings: fd's -x/--exec and -X/--exec-batch run
// their command in every spelling clap takes: the command attached
// ("--exec=rm", "-xrm"), after flags in a cluster ("-Hx rm") and
// abbreviated ("--exec-b").
func TestBlindSpotFdExecSpellings(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"fd --exec=rm", "fd --exec-batch=rm", "fd -xrm", "fd -Xrm", "fd --exec-b rm",
		"fd -Hx rm", "fd -HIX rm {}", "fd --exec-batch='rm -rf'",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "fd --exec=reboot", "fd -Hxreboot"))
	runExact(t, p, []exactCase{
		{"extension x", "fd -ex rm", TierRead},
		{"type x", "fd -tx", TierRead},
		{"exec cat", "fd --exec=cat", TierRead},
		{"exec ls", "fd -x ls {}", TierRead},
	})
}

// TestBlindSpotParallelOptions: GNU parallel's own options write files
// (--joblog, --results, --tmpdir outside /tmp), run code (--filter and
// --rpl are Perl, --compress-program, --limit and --ssh are shell, --tmux
// starts a server) or keep state (--semaphore, --record-env, --sql*), in
// "--opt=value" and abbreviated spellings.
func TestBlindSpotParallelOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"parallel --joblog /etc/x ls ::: a", "parallel --joblog=/etc/x ls ::: a", "parallel --jobl=/etc/x ls ::: a",
		"parallel --results /etc/x ls ::: a", "parallel --tmpdir /etc ls ::: a", "parallel --tempdir=/etc ls ::: a",
		"parallel --semaphore ls", "parallel --record-env", "parallel --sqlmaster=sqlite3:///etc/x ls ::: a",
		"parallel --compress-program='touch /etc/x' ls ::: a",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"parallel --tmux ls ::: a", "parallel --filter '{1} < 3' ls ::: a", "parallel --rpl '{x} s/a/b/' ls ::: a",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "parallel --decompress-p=reboot ls ::: a"))
	runExact(t, p, []exactCase{
		{"parallel", "parallel ls ::: a", TierRead},
		{"--tmpdir /tmp", "parallel --tmpdir /tmp/p ls ::: a", TierRead},
		{"--halt value", "parallel -j1 --halt now,fail=1 ls ::: a", TierRead},
		{"--pipe", "parallel --pipe cat", TierRead},
	})
}

// TestBlindSpotRakeAndStatoverride: rake's -e/-E/-p/--execute* run Ruby
// and -r/--require load it; dpkg-statoverride --add with a setuid or
// setgid mode (or one computed at run time) sets it like chmod would.
func TestBlindSpotRakeAndStatoverride(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"rake -e 'system(\"touch /tmp/m\")'",
		"rake --execute='File.write(\"/etc/x\", \"y\")'",
		"rake -E 'x' -T",
		"rake --execute-print 'x'",
		"rake -p 'x'",
		"rake -qe 'x'",
		"rake -rfoo build",
		"rake --require=foo build",
		"dpkg-statoverride --update --add root root 4755 /tmp/x",
		"dpkg-statoverride --add root shadow 2755 /usr/bin/x",
		"dpkg-statoverride --add root root \"$m\" /tmp/x",
	))
	runExact(t, p, []exactCase{
		{"rake task", "rake db:migrate", TierMutate},
		{"rake -f", "rake -fRakefile.rb build", TierMutate},
		{"statoverride list", "dpkg-statoverride --list", TierRead},
		{"statoverride plain mode", "dpkg-statoverride --add root root 0755 /tmp/x", TierMutate},
	})
}

// TestBlindSpotDiffProgramsAndVCSConfig: sdiff's and diff3's
// --diff-program run the program they name in place of diff; hg --config
// of hooks, extensions, aliases, editors and merge tools, svn
// --config-option of its helper and tunnel commands and svn --config-dir
// set what runs.
func TestBlindSpotDiffProgramsAndVCSConfig(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"sdiff --diff-program='touch /tmp/m' a b",
		"sdiff --diff-prog=/tmp/x a b",
		"sdiff --diff-program /tmp/x a b",
		"diff3 --diff-program='touch /tmp/m' a b c",
		"hg --config hooks.pre-status='touch /tmp/m' status",
		"hg --config=extensions.x=/tmp/x.py status",
		"hg --config alias.st='!touch /tmp/m' st",
		"hg --config ui.editor=/tmp/x commit",
		"svn --config-option config:helpers:diff-cmd=/tmp/x diff",
		"svn --config-option=config:tunnels:ssh=/tmp/x up",
		"svn --config-dir /tmp/c up",
	))
	runBlind(t, p, sameCases(TierDestructive, true, "diff3 --diff-program=reboot a b c"))
	runExact(t, p, []exactCase{
		{"sdiff", "sdiff a b", TierRead},
		{"diff3", "diff3 a b c", TierRead},
		{"hg", "hg status", TierMutate},
		{"hg username", "hg --config ui.username=x commit -m y", TierMutate},
		{"svn timeout", "svn --config-option servers:global:http-timeout=60 up", TierMutate},
	})
}
