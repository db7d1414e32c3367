package policy

import "testing"

// TestBlindSpotReadingOptions: options of programs that look like reads
// and that write files, run or load programs, reach another host or act on
// another process, in the spellings getopt_long and the programs' own
// parsers take (clusters, attached values, abbreviations, @file).
func TestBlindSpotReadingOptions(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		// curl -w @FILE reads a format whose %output{FILE} writes.
		{"curl -w @file", "curl -w @/tmp/fmt http://a", TierMutate, false},
		{"curl -w@file", "curl -w@/tmp/fmt http://a", TierMutate, false},
		{"curl -sw @file", "curl -sw @/tmp/fmt http://a", TierMutate, false},
		{"curl --write-out @file", "curl --write-out @/tmp/fmt http://a", TierMutate, false},
		// curl --engine loads an OpenSSL engine: a shared library.
		{"curl --engine path", "curl --engine /tmp/x.so http://a", TierDestructive, false},
		{"curl --engine name", "curl --engine dyn http://a", TierDestructive, false},
		// wget -e runs wgetrc commands (output_document, logfile…) in
		// every getopt spelling.
		{"wget -qe", "wget -qe output_document=/tmp/x --spider http://a", TierDestructive, false},
		{"wget -eVALUE", "wget -eoutput_document=/tmp/x -O- http://a", TierDestructive, false},
		{"wget --exec=", "wget --exec=logfile=/tmp/x -O- http://a", TierDestructive, false},
		{"wget --conf=", "wget --conf=/tmp/rc -O- http://a", TierDestructive, false},
		{"wget --use-a=", "wget --use-a=/tmp/x -O- http://a", TierDestructive, false},
		// ssh's short spellings of ForwardAgent and ForwardX11.
		{"ssh -A", "ssh -A host", TierMutate, false},
		{"ssh -qA", "ssh -qA host uptime", TierMutate, false},
		{"ssh -X", "ssh -X host", TierMutate, false},
		{"ssh -Y", "ssh -Yq host", TierMutate, false},
		{"scp -A", "scp -A host:/a /tmp/b", TierMutate, false},
		{"sftp -A", "sftp -A host", TierMutate, false},
		// git remote show without -n asks the remote, as ls-remote does.
		{"git remote show", "git remote show origin", TierBenign, false},
		{"git remote -v show", "git remote -v show origin", TierBenign, false},
		// strace --attach is -p.
		{"strace --attach=", "strace --attach=1", TierMutate, false},
		{"strace --att", "strace --att 1", TierMutate, false},
		// mdadm --monitor -m is --mail.
		{"mdadm monitor -m", "mdadm --monitor -1 -m root --scan", TierMutate, false},
		{"mdadm -F1 -mroot", "mdadm -F1 -mroot --scan", TierMutate, false},
		// podman creates its runtime and network directories even to list.
		{"podman --tmpdir", "podman --tmpdir=/etc/x ps", TierMutate, false},
		{"podman --network-config-dir", "podman --network-config-dir=/etc/x ps", TierMutate, false},
		{"podman --cni-config-dir", "podman --cni-config-dir=/etc/x ps", TierMutate, false},
		// unsquashfs -pf writes a pseudo file even when listing.
		{"unsquashfs -l -pf", "unsquashfs -l -pf /tmp/x x.sqfs", TierMutate, false},
		{"unsquashfs -l -pseudo-file dev", "unsquashfs -l -pseudo-file /dev/sda x.sqfs", TierDestructive, true},
		// vim takes flags clustered before -c, -S, -u and -s, and
		// --remote-send/--remote-expr run in another editor.
		{"vim -Rc", "vim -Rc '!reboot' f", TierDestructive, true},
		{"vim -Rc attached", "vim -Rc'!reboot' f", TierDestructive, true},
		{"view -RZc write", "view -RZc 'w /tmp/x' f", TierDestructive, false},
		{"view -RS", "view -RS /tmp/x f", TierDestructive, false},
		{"vim -Ru", "vim -Ru /tmp/x f", TierDestructive, false},
		{"vim -Rs", "vim -Rs /tmp/keys f", TierDestructive, false},
		{"nvim --remote-send", "nvim --server /tmp/sock --remote-send ':!reboot<CR>'", TierDestructive, true},
		{"vim --remote-send", "vim --servername x --remote-send ':!touch /tmp/x<CR>'", TierDestructive, false},
		{"vim --remote-expr", "vim --remote-expr 'system(\"reboot\")'", TierDestructive, true},
		// sort -T is TMPDIR for sort.
		{"sort -T", "sort -T /etc f", TierMutate, false},
		{"sort -uT", "sort -uT/etc f", TierMutate, false},
		{"sort --temporary-directory", "sort --temporary-directory=/root f", TierMutate, false},
		// dpkg's status logger runs as the options are read, queries too.
		{"dpkg --status-logger", "dpkg --status-logger=reboot -l", TierDestructive, true},
		{"dpkg --status-logger next", "dpkg --status-logger 'touch /tmp/x' -l", TierDestructive, false},
		{"dpkg --post-invoke", "dpkg --post-invoke='touch /tmp/x' --audit", TierDestructive, false},
		{"dpkg --log", "dpkg --log=/tmp/x -l", TierMutate, false},
		{"dpkg --log device", "dpkg --log /dev/sda -l", TierDestructive, true},
		// sdiff's and diff3's only long option beginning with d.
		{"sdiff --di=", "sdiff --di=reboot a b", TierDestructive, true},
		{"sdiff --d", "sdiff --d 'touch /tmp/x' a b", TierDestructive, false},
		{"diff3 --dif=", "diff3 --dif=reboot a b c", TierDestructive, true},
		// sqlite3's dot commands that write, and archive extraction.
		{"sqlite3 .log", "sqlite3 x.db '.log /dev/sda'", TierDestructive, true},
		{"sqlite3 .trace", "sqlite3 x.db '.trace /tmp/t'", TierMutate, false},
		{"sqlite3 .clone", "sqlite3 x.db '.clone /dev/sda'", TierDestructive, true},
		{"sqlite3 .ar -x", "sqlite3 x.db '.ar -C /etc -x'", TierDestructive, false},
		{"sqlite3 .archive --extract", "sqlite3 x.db '.archive --directory /etc --extract'", TierDestructive, false},
		{"sqlite3 -Ax", "sqlite3 -Ax -C /etc x.db", TierDestructive, false},
		{"sqlite3 -A -x", "sqlite3 -A -C /etc -x x.db", TierDestructive, false},
		// psql prompts run %`cmd` each time they are shown.
		{"psql -v PROMPT1", "psql -v PROMPT1='%`reboot`'", TierDestructive, true},
		{"psql --set PROMPT2", "psql --set PROMPT2='%`touch /tmp/x`' db", TierDestructive, false},
		{"psql \\set PROMPT1", "psql -c '\\set PROMPT1 %`reboot`'", TierDestructive, true},
		// strace -E sets the traced command's environment, as env does.
		{"strace -E", "strace -E LD_PRELOAD=/tmp/x.so ls", TierDestructive, false},
		{"strace --env=", "strace --env=LD_PRELOAD=/tmp/x.so ls", TierDestructive, false},
		{"strace -fE PAGER", "strace -fE PAGER=reboot git log", TierDestructive, true},
		{"strace -E computed", `strace -E "$X" ls`, TierDestructive, false},
		// The bus's activation environment reaches every service started
		// later, as systemctl set-environment's does.
		{"dbus activation env", "dbus-update-activation-environment LD_PRELOAD=/x.so", TierDestructive, false},
		{"dbus activation env --systemd", "dbus-update-activation-environment --systemd PATH=/tmp", TierDestructive, false},
		{"dbus activation env other", "dbus-update-activation-environment DISPLAY=:0", TierMutate, false},
	})
	runExact(t, p, []exactCase{
		{"strace -E LANG", "strace -E LANG=C ls", TierRead},
		{"sdiff -d", "sdiff -d a b", TierRead},
		{"sqlite3 query", "sqlite3 x.db 'select t.arrival, t.login from t'", TierMutate},
		{"sqlite3 .ar -t", "sqlite3 x.db '.ar -t'", TierMutate},
		{"psql -v", "psql -v ON_ERROR_STOP=1 -c 'select 1'", TierMutate},
		{"unsquashfs -l", "unsquashfs -l x.sqfs", TierRead},
		{"unsquashfs -l -pf -", "unsquashfs -l -pf - x.sqfs", TierRead},
		{"sort -T /tmp", "sort -T /tmp f", TierRead},
		{"sort -T /var/tmp", "sort -u -T /var/tmp/s f", TierRead},
		{"dpkg -l", "dpkg -l", TierRead},
		{"dpkg -S", "dpkg -S /bin/ls", TierRead},
		{"curl -w format", "curl -s -o /dev/null -w '%{http_code}' http://a", TierBenign},
		{"curl --engine list", "curl --engine list", TierBenign},
		{"wget -qO-", "wget -qO- http://a", TierBenign},
		{"git remote show -n", "git remote show -n origin", TierRead},
		{"git remote -v", "git remote -v", TierRead},
		{"strace a command", "strace -f -e trace=open ls", TierRead},
		{"mdadm --detail", "mdadm --detail --scan", TierRead},
		{"mdadm -D", "mdadm -D /dev/md0", TierRead},
		{"podman ps", "podman ps -a", TierRead},
		{"ssh uptime", "ssh host uptime", TierBenign},
	})
}

// TestBlindSpotQuotedDeclarations: bash splits a declaration's argument at
// its first "=" after quote removal, so a quoted or partly quoted
// NAME=VALUE sets NAME as the unquoted spelling does; variables that make
// programs load or run code are held however they are set.
func TestBlindSpotQuotedDeclarations(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, []blindCase{
		{"export double-quoted", `export "PAGER=reboot"; git log`, TierDestructive, true},
		{"export single-quoted", `export 'LD_PRELOAD=/tmp/x.so'; ls`, TierDestructive, false},
		{"export quote inside name", `export PAG''ER=reboot; git log`, TierDestructive, true},
		{"export quoted name only", `export "LD_PRELOAD"=/tmp/x.so; ls`, TierDestructive, false},
		{"export --", `export -- "PAGER=reboot"; git log`, TierDestructive, true},
		{"declare -x", `declare -x "PAGER=reboot"; git log`, TierDestructive, true},
		{"declare -gx", `declare -gx "GIT_SSH_COMMAND=reboot"; git fetch`, TierDestructive, true},
		{"typeset -x", `typeset -x 'LD_PRELOAD=/tmp/x.so'`, TierDestructive, false},
		{"declare PATH", `declare "PATH=/tmp"; ls`, TierDestructive, false},
		{"local PATH", `f() { local "PATH=/tmp"; ls; }; f`, TierDestructive, false},
		{"readonly PATH", `readonly "PATH=/tmp"; ls`, TierDestructive, false},
		{"export PS4", `export "PS4=\$(reboot)"; set -x`, TierDestructive, true},
		{"export PROMPT_COMMAND", `export "PROMPT_COMMAND=reboot"`, TierDestructive, true},
		{"export proxy", `export "http_proxy=http://10.0.0.1"; curl http://a`, TierDestructive, true},
		{"export TMPDIR", `export "TMPDIR=/etc/cron.d"; sort f`, TierMutate, false},
		{"declare GIT_TRACE", `declare -x "GIT_TRACE=/etc/x"; git log`, TierMutate, false},
		// Variables that name code a reading program loads.
		{"PHPRC", "PHPRC=/tmp php -m", TierDestructive, false},
		{"PHP_INI_SCAN_DIR", "PHP_INI_SCAN_DIR=/tmp php -v", TierDestructive, false},
		{"APT_CONFIG", "APT_CONFIG=/tmp/x apt list", TierDestructive, false},
		{"RPM_CONFIGDIR", "RPM_CONFIGDIR=/tmp rpm -qa", TierDestructive, false},
		{"HGRCPATH", "HGRCPATH=/tmp/x hg log", TierDestructive, false},
		{"SVN_SSH", "SVN_SSH=/tmp/x svn log svn+ssh://h/r", TierDestructive, false},
		{"AWS_PAGER", "AWS_PAGER=reboot aws s3 ls", TierDestructive, true},
		{"exported GH_BROWSER", "export GH_BROWSER=/tmp/x; gh browse", TierDestructive, false},
	})
	runExact(t, p, []exactCase{
		{"export plain quoted", `export "X=1"; ls`, TierRead},
		{"export lower-case home", `export "home=/x"`, TierRead},
		{"declare -p quoted", `declare -p "PATH"`, TierRead},
	})
}
