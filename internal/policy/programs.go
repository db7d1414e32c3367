package policy

import (
	"fmt"
	"strings"
)

// Program tables. A program not named anywhere here is TierMutate: an
// unknown program may do anything a user can do, but nothing on the deny
// list sees through it, so its payloads are not assumed away either.

// readPrograms only inspect, whatever their arguments (programs whose
// arguments matter have handlers instead).
var readPrograms = set(`ls dir vdir cat tac nl head tail grep egrep fgrep zgrep zegrep zfgrep
	zcat bzcat xzcat zstdcat lz4cat rg ag ack wc stat file df du free uptime uname id
	whoami groups who w last lastb lastlog users ps pgrep pidof ss sockstat netstat lsblk blkid
	findmnt lsof lscpu lsmem lspci lsusb lsmod lsns lsattr lslocks lsipc lshw dmidecode
	nproc arch getconf locale tty cal printenv echo printf true false test [ : pwd which
	whereis type cut tr jq column paste join comm diff diff3 cmp fold fmt expand unexpand
	rev seq basename dirname realpath readlink md5sum sha1sum sha224sum sha256sum
	sha384sum sha512sum b2sum cksum sum base64 base32 basenc od hexdump strings expr bc
	tree namei getent nslookup dig host traceroute traceroute6 tracepath mtr iostat vmstat
	mpstat pidstat sar nfsstat numastat sensors sleep wait jobs umask getfacl quota repquota whatis apropos runlevel
	lsb_release hostid fc-list look dirs cd pushd popd exit return
	break continue shift read getopts times caller unset tput clear pstree logname
	ping ping6 ipcs vcgencmd uptime nstat ifstat sha1 md5
	shasum cmp sdiff wdiff yes numfmt tsort lsinitramfs free lscgroup systemd-cgls
	systemd-cgtop systemd-analyze systemd-detect-virt virt-what 
	uuidgen id mapfile readarray history fc colordiff bat batcat fd fdfind exa eza duf
	dust procs gron csvlook 
	lsscsi lspath sestatus getenforce aa-status ausearch modinfo dpkg-query upower edac-util
	dumpe2fs xfs_info named-checkconf systemd-delta apt-config atq arc_summary
	aureport ifquery iwgetid pr lzcat lzmadec xzdec lzmainfo rpm2cpio xzgrep xzegrep xzfgrep bzgrep
	bzegrep bzfgrep lzgrep lzegrep lzfgrep zstdgrep help getcap dircolors
	ipcalc sipcalc pveversion kldstat ntpstat disown pg_lsclusters procstat acpi`)

// benignPrograms have side effects nobody needs to approve.
var benignPrograms = set(`mktemp sync logger wall ssh-keyscan notify-send beep
	iftop nethogs bmon nload`)

// destructivePrograms are raw or destructive whatever their arguments;
// among them the router and NAS tools that flash firmware, erase flash or
// reset to factory (OpenWrt's mtd, sysupgrade, firstboot, jffs2reset, the
// mtd-utils and U-Boot's fw_setenv), the BSD and mtools formatters, the
// sg3_utils commands that format, sanitize, unmap or write a drive, and
// the LVM commands that move or drop physical volumes, and the k3s and
// RKE2 scripts that kill every workload or remove the cluster and its data.
var destructivePrograms = set(`mknod modprobe insmod rmmod setcap gdisk cgdisk cfdisk
	debugfs e2fsck fsck xfs_repair resize2fs lvremove vgremove pvremove lvreduce at batch
	gdb lldb dc expect capsh flashrom grub-install npx bunx bpftrace perf iptables-restore
	ip6tables-restore nft-restore ed ex tmux screen byobu dtach abduco 
	mkinitcpio fsfreeze pivot_root switch_root mount.cifs
	ldd systemd-nspawn machinectl vmware virtualbox VBoxManage vboxmanage qm pct wipe srm sfill
	mtd sysupgrade firstboot jffs2reset jffs2mark flash_erase flash_eraseall flashcp nandwrite
	ubiformat ubirmvol ubiupdatevol fw_setenv newfs newfs_msdos newfs_hfs newfs_exfat mformat
	mkudffs jfs_mkfs sg_format sg_sanitize sg_write_same sg_unmap sg_raw sg_write_buffer
	sg_write_long sg_write_verify sg_write_x sg_compare_and_write sg_dd sgp_dd sgm_dd sg_xcopy
	sg_reset sedutil-cli synopoweroff syno_poweroff_task vgreduce vgsplit vgmerge pvmove
	vgcfgrestore pvcreate wrmsr outb outw outl i2cset i2ctransfer k3s-killall.sh k3s-uninstall.sh
	k3s-agent-uninstall.sh rke2-killall.sh rke2-uninstall.sh`)

// commandRunners are the destructive programs above that run a command
// their words give, in a way the classifier does not read (tmux new -d
// CMD, screen -dm CMD, expect -c 'spawn CMD', at, gdb -ex 'shell CMD'):
// they are tier 3, and their input's text is scanned for what the deny
// list refuses, as for any payload the classifier cannot see into.
var commandRunners = set(`at batch gdb lldb expect capsh npx bunx bpftrace perf tmux screen byobu dtach abduco
	systemd-nspawn machinectl ed ex dc`)

// interactivePrograms can run commands from inside (a pager's "!cmd", an
// editor's ":!cmd"), or kill and renice processes (htop's F9, atop's k),
// or write files (atop -w); at least TierMutate.
var interactivePrograms = set(`less more most pg man info vi vim nvim view vimdiff
	rvim nano pico micro joe mcedit mc ncdu nmtui alsamixer lynx w3m elinks
	htop btop atop glances`)

// funcWordShells read "function NAME { …; }" as declaring a function;
// dash, posh and other plain POSIX shells read it as a command named
// function (funcs.go).
var funcWordShells = set(`bash rbash ksh ksh93 mksh lksh pdksh oksh loksh zsh`)

// posixShells are parsed as shell when given a payload.
var posixShells = set(`sh bash dash zsh ksh ksh93 mksh pdksh oksh loksh ash yash posh rbash lksh osh hush bosh mrsh gash`)

// interpreters run programs the classifier cannot read.
var interpreters = set(`python python2 python3 pypy pypy3 perl ruby irb node nodejs deno bun
	php lua luajit tclsh wish Rscript R julia pwsh powershell osascript jshell groovy scala
	java guile racket sbcl ghci runghc swift dotnet fish tcsh csh elvish nu xonsh ipython
	ipython3 jruby jython rhino qjs gjs cscript wscript tclsh8.6 php-cgi erl escript
	elixir iex clisp ocaml crystal nim dart kotlin kotlinc m4 gnuplot octave octave-cli maxima gp
	ts-node tsx bb clojure clj janet fennel pike jrunscript jjs hy groovysh mongo mongosh rc es ysh ion murex oh scsh`)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// simpleTier is the tier of a program that has no handler.
func simpleTier(name string) (Tier, string) {
	if t, ok := simpleTiers[name]; ok {
		return t.tier, t.why
	}
	switch {
	case len(name) > 1 && (name[0] == '!' || name[0] == '^'):
		// !!, !-2, !ls and ^old^new re-run history in an interactive shell.
		return TierDestructive, "history expansion " + truncate(name, 32) + " re-runs an earlier command"
	}
	return TierMutate, fmt.Sprintf("unknown program %q", truncate(name, 64))
}

// historyWord reports whether an interactive shell's history expansion
// may rewrite a command name into an earlier command: ^old^new at its
// start, or a ! that begins an event anywhere in it (!!:s/a/b/ is the
// last command edited, whatever path.Base makes of the slashes).
func historyWord(w string) bool {
	if len(w) > 1 && w[0] == '^' {
		return true
	}
	for i := 0; i+1 < len(w); i++ {
		if w[i] == '!' && strings.IndexByte(" \t\n=(", w[i+1]) < 0 {
			return true
		}
	}
	return false
}

// tierWhy is a tier and the reason for it.
type tierWhy struct {
	tier Tier
	why  string
}

// simpleTiers is simpleTier's answer for every program the sets above
// name, made once: a command then costs one lookup and no allocation. A
// program in several sets takes the first of read, benign, destructive,
// interactive, mutate.
var simpleTiers = func() map[string]tierWhy {
	m := map[string]tierWhy{}
	for _, s := range []struct {
		set  map[string]bool
		tier Tier
		why  string
	}{
		{mutatePrograms, TierMutate, ": changes the system"},
		{interactivePrograms, TierMutate, ": interactive program that can run commands or signal processes"},
		{destructivePrograms, TierDestructive, ": destructive or raw"},
		{benignPrograms, TierBenign, ": benign side effects"},
		{readPrograms, TierRead, ": read-only"},
	} {
		for name := range s.set {
			m[name] = tierWhy{s.tier, name + s.why}
		}
	}
	return m
}()

// knownProgram is what program finds for a program's name: normalised's
// name and handler and, for a name without a handler, simpleTier's answer.
type knownProgram struct {
	name   string
	h      func(*call) (Tier, string)
	daemon bool // one of daemonClients
	runs   bool // one of commandRunners
	tierWhy
}

// knownPrograms holds knownProgram for every name the tables name, made
// once by calling the same functions, so that each command costs one
// lookup rather than one per table; other names are looked up as they come.
var knownPrograms map[string]knownProgram

// init makes knownPrograms. It is not the variable's initializer because
// the handlers it looks up reach program, which reads it: Go would call
// that an initialization cycle.
func init() { knownPrograms = makeKnownPrograms() }

func makeKnownPrograms() map[string]knownProgram {
	m := map[string]knownProgram{}
	for _, set := range []map[string]bool{readPrograms, benignPrograms, destructivePrograms,
		interactivePrograms, mutatePrograms, posixShells, interpreters, denyTriggers} {
		for n := range set {
			k := knownProgram{}
			k.name, k.h = normalised(n)
			k.daemon = daemonClients[k.name]
			k.runs = commandRunners[k.name]
			if k.h == nil {
				k.tier, k.why = simpleTier(k.name)
			}
			m[n] = k
		}
	}
	return m
}

// mutatePrograms change the system; listed so the reason says so rather
// than "unknown program".
var mutatePrograms = set(`updatedb cp ln install rmdir chattr setfacl mkfifo useradd usermod
	groupadd groupdel groupmod gpasswd chpasswd chsh chfn visudo renice make gmake cmake
	ninja meson patch unlink ldconfig update-initramfs dracut mkinitramfs
	update-alternatives a2enmod a2dismod a2ensite a2dissite apachectl apache2ctl sponge
	split csplit gcc cc g++ clang rustc mvn gradle javac ansible ansible-playbook helm
	exportfs update-rc.d chkconfig rc-service rc-update sv ipcrm netplan resolvconf
	debconf-set-selections dpkg-reconfigure update-grub svn hg ar cpio lxc incus
	pv ldd chcon restorecon semanage setsebool
	newaliases postmap postfix sendmail mail mailx msmtp usbreset
	rfkill iwconfig iwlist brctl bridge tc vconfig arp route 
	swapon swapoff rtcwake chronyc ntpdate sntp ncat netcat`)

// handlerFor returns the classifier for programs whose tier depends on their
// arguments, or nil.
func handlerFor(name string) func(*call) (Tier, string) {
	switch {
	case posixShells[name]:
		return shellProgram
	case interpreters[name]:
		return interpreterProgram
	}
	if h := optsProgram(name); h != nil {
		return h
	}
	if zshNamers[name] {
		return zshNamer
	}
	switch name {
	// Wrappers: classify the command they run.
	case "sudo", "doas", "pkexec":
		return sudoProgram
	case "ping", "ping6":
		return pingProgram
	case "clear":
		return clearProgram
	case "show":
		return showProgram
	case "vyatta-op-cmd-wrapper":
		return opCmdWrapperProgram
	case "traceroute", "traceroute6", "tracepath", "tracepath6", "mtr", "nslookup", "dig", "host":
		return netProbeProgram
	case "env":
		return envProgram
	case "nice", "nohup", "stdbuf", "setsid", "chrt", "taskset", "ionice", "timeout",
		"time", "command", "builtin", "exec", "caffeinate", "firejail", "cgexec",
		"systemd-run", "chroot", "unshare", "nsenter", "setpriv", "runuser", "su",
		"strace", "ltrace", "valgrind", "flock", "watch", "script", "busybox", "toybox",
		"coreutils", "faketime", "proxychains", "proxychains4", "torsocks", "catchsegv", "eatmydata",
		"unbuffer", "rlwrap", "sg", "newgrp", "setarch", "linux32", "linux64", "prlimit",
		"numactl", "cpulimit", "trickle", "fakeroot", "dbus-run-session", "systemd-inhibit",
		"sshpass", "parallel", "xargs", "jc", "bwrap", "proot":
		return wrapperProgram
	case "eval":
		return evalProgram
	case "source", ".":
		return sourceProgram
	case "trap":
		return trapProgram
	case "jobs":
		return jobsProgram
	case "alias":
		return aliasProgram
	case "setopt", "unsetopt":
		return zshSetopt
	case "wall":
		return wallProgram
	case "-", "noglob", "nocorrect", "repeat":
		return zshPrecommand
	case "exit", "return", "break", "continue", "shift", "logout":
		return zshCounted
	case "emulate":
		return emulateProgram
	case "systemd-sysctl":
		return systemdSysctl
	case "update-binfmts":
		return binfmtProgram
	case "setenforce", "aa-disable", "aa-complain", "aa-teardown", "aa-audit", "aa-enforce", "apparmor_parser", "auditctl":
		return lsmProgram
	case "print":
		return zshPrint
	case "filecap":
		return filecapProgram
	case "zmodload":
		return zshModload
	case "compgen", "complete", "bind":
		return completionProgram
	case "unalias", "enable", "hash", "shopt", "set", "declare", "typeset", "export", "local", "readonly":
		return builtinProgram
	case "rm", "unlink":
		return rmProgram
	case "mv", "chmod", "chown", "chgrp", "truncate", "shred", "tee", "sponge", "dd", "touch", "mkdir":
		return fileProgram
	case "kill", "pkill", "killall", "skill", "fuser":
		return killProgram
	case "find":
		return findProgram
	case "git":
		return gitProgram
	case "awk", "gawk", "mawk", "nawk":
		return awkProgram
	case "sed", "gsed":
		return sedProgram
	case "tar", "bsdtar", "gtar":
		return tarProgram
	case "sort", "uniq", "shuf", "xxd", "yq", "iconv", "xmllint":
		return filterProgram
	case "zip", "unzip", "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd",
		"unzstd", "lz4", "7z", "7za", "7zr", "unrar", "rar", "unlz4", "lz4c", "zstdmt", "pigz",
		"unpigz", "lzma", "unlzma", "brotli", "unbrotli":
		return archiveChecked
	case "ar":
		return arProgram
	case "pv":
		return pvProgram
	case "sysrc":
		return sysrcProgram
	case "sysupgrade":
		return sysupgradeProgram
	case "fw_printenv":
		return fwPrintenvProgram
	case "wpa_cli":
		return wpaCliProgram
	case "pax":
		return paxProgram
	case "unsquashfs":
		return unsquashfsProgram
	case "ssh", "scp", "sftp", "rsync", "ssh-copy-id", "mosh":
		return sshProgram
	case "autossh":
		return autosshProgram
	case "sshuttle":
		return sshuttleProgram
	case "curl", "wget", "nc", "ncat", "netcat", "socat", "telnet", "ftp", "lftp", "aria2c", "http", "https", "xh":
		return netProgram
	case "emacs", "emacsclient", "vim", "vi", "nvim", "gvim", "view", "ex":
		return editorProgram
	case "test", "[", "let", "printf", "read", "mapfile", "readarray", "getopts", "unset", "wait":
		return arithBuiltin
	case "sqlite3", "sqlite", "mysql", "mariadb", "psql":
		return queryProgram
	case "dropdb", "dropuser", "ldapdelete", "pg_dropcluster", "mysqladmin", "mariadb-admin", "redis-cli", "valkey-cli", "keydb-cli", "mongosh",
		"mongo", "influx", "clickhouse-client", "cqlsh":
		return dbClientProgram
	case "top":
		return topProgram
	case "warden":
		return wardenProgram
	case "ipfw":
		return ipfwProgram
	case "apt-key":
		return aptKeyProgram
	case "trust":
		return trustProgram
	case "dpkg-divert":
		return divertProgram
	case "dockerd":
		return dockerdProgram
	case "pam-auth-update", "authselect", "authconfig":
		return authProgram
	case "pfctl", "rc-service", "rc-status", "iptables-save", "ip6tables-save", "checkupdates",
		"iptables-restore", "ip6tables-restore", "ipset", "iptables-legacy-save", "ip6tables-legacy-save",
		"iptables-nft-save", "ip6tables-nft-save", "iptables-legacy-restore", "ip6tables-legacy-restore",
		"iptables-nft-restore", "ip6tables-nft-restore":
		return probeProgram
	case "nvram", "uci", "iwinfo", "ubus", "wl", "synosystemctl", "synopkg", "synoservicectl", "synoservice",
		"opkg", "synoupgrade", "upnpc":
		return routerProgram
	case "iptables", "ip6tables", "iptables-legacy", "ip6tables-legacy", "iptables-nft",
		"ip6tables-nft", "ebtables", "arptables", "nft", "ufw", "firewall-cmd":
		return firewallProgram
	case "bridge", "brctl", "exportfs", "showmount", "smbstatus", "testparm", "multipath", "iscsiadm",
		"conntrack", "logread", "fw4", "fw3", "swconfig", "mdcmd", "sshd", "midclt", "k3s", "wipefs", "gdisk", "e2fsck",
		"fsck.ext2", "fsck.ext3", "fsck.ext4", "xfs_repair", "chronyc", "ntpq", "ipvsadm", "postqueue", "mailq",
		"postconf", "haproxy", "ipmitool", "udevadm", "faillog", "chage", "visudo", "iotop", "arcstat":
		return inspectProgram
	case "cd", "pushd", "journalctl", "ip", "service", "dpkg", "rpm", "pacman", "yay", "paru", "nginx", "apachectl", "apache2ctl", "ansible",
		"httpd", "apache2":
		return moreProgram
	case "ansible-playbook":
		return ansiblePlaybookProgram
	case "puppet", "chef-apply":
		return confMgmtProgram
	case "lvs", "vgs", "pvs", "lvdisplay", "vgdisplay", "pvdisplay", "lvscan", "lvmconfig":
		return lvmReportProgram
	case "badblocks":
		return badblocksProgram
	case "devmem", "devmem2", "setpci", "efivar":
		return hwRegisterProgram
	case "init", "telinit", "crontab", "userdel", "deluser", "passwd", "fdisk", "sfdisk", "parted", "tune2fs",
		"efibootmgr", "losetup", "dmsetup", "mount", "umount", "hostname", "dnsdomainname", "domainname", "nisdomainname", "ypdomainname", "date", "dmesg",
		"hwclock", "sysctl", "ifconfig", "iw", "ethtool", "smartctl", "nvme", "mdadm",
		"cryptsetup", "sgdisk", "zramctl", "swapon", "openssl", "gpg", "gpg2", "ssh-keygen",
		"ssh-add", "nvidia-smi", "stty", "arp", "route", "fsck", "blockdev", "hdparm", "lspci":
		return argProgram
	}
	switch name {
	case "ifdown":
		return ifdownProgram
	case "swapoff":
		return swapoffProgram
	case "rfkill":
		return rfkillProgram
	case "usermod", "gpasswd", "groupdel", "delgroup", "pw", "chsh", "chpasswd",
		"useradd", "adduser", "addgroup", "groupadd", "groupmod", "newusers", "vipw", "vigr":
		return accountProgram
	case "lvchange", "vgchange", "lvconvert":
		return volumeProgram
	case "invoke-rc.d", "sv", "rcctl", "s6-svc", "s6-rc", "launchctl":
		return serviceProgram
	case "chkconfig", "update-rc.d", "rc-update":
		return bootServiceProgram
	case "kubectl", "docker", "podman", "nerdctl", "crictl", "nmcli", "timedatectl", "docker-compose", "wg":
		return cutoffSubProgram
	case "vboxmanage", "VBoxManage":
		return vboxProgram
	}
	if _, ok := readOptPrograms[name]; ok {
		return readOptProgram
	}
	if h := teardownProgram(name); h != nil {
		return h
	}
	if h := applianceProgram(name); h != nil {
		return h
	}
	if h := opsQueryProgram(name); h != nil {
		return h
	}
	if infraPrograms[name] {
		return infraProgram
	}
	if _, ok := subcommandTables[name]; ok {
		return subcommandProgram
	}
	return nil
}

// envRisk classifies setting an environment or shell variable by name.
// Names are matched as spelled: the shell and the programs that read
// these variables tell case apart, so a script's own lower-case path,
// home or env is not PATH, HOME or ENV. The exceptions are zsh's
// lower-case twins of its search paths and prompt (zshTied), npm's and
// yarn's configuration prefixes, which they read in either case, and
// warden's own.
func envRisk(name string) (Tier, string) {
	u := strings.ToUpper(name)
	switch {
	case !validName(name):
		return TierDestructive, "not a plain variable name (exported functions and the like run code)"
	case strings.HasPrefix(u, "WARDEN_"):
		return TierDestructive, "changes warden's own settings"
	case dangerousEnv[name] || readCodeEnv(name) || zshTied[name] || zshCode[name] || helperVar(name):
		return TierDestructive, "changes which code programs load or run"
	case strings.HasPrefix(u, "NPM_CONFIG_") || strings.HasPrefix(u, "YARN_"):
		return TierDestructive, "changes which code programs load or run"
	}
	for _, p := range []string{"LD_", "DYLD_", "BASH_FUNC_", "GIT_CONFIG", "PYTHON", "PERL", "RUBY", "NODE_", "JAVA_", "_JAVA", "JDK_", "LESS",
		"CGO_", "CARGO_", "PIP_", "OPENSSL_", "LUA_INIT", "LUA_PATH", "LUA_CPATH", "GIT_TEST_", "GUILE_"} {
		if strings.HasPrefix(name, p) {
			return TierDestructive, "changes which code programs load or run"
		}
	}
	if strings.HasPrefix(name, "ANSIBLE_") && strings.HasSuffix(name, "_PLUGINS") {
		return TierDestructive, "changes which code programs load or run"
	}
	if contextEnv[name] {
		return TierBenign, "picks a saved context or connection, which may reach its host through ssh"
	}
	if fileEnv[name] || strings.HasPrefix(name, "GIT_TRACE") || strings.HasPrefix(name, "GIT_REDIRECT_") {
		return TierMutate, "names a file programs write"
	}
	return conventionRisk(name)
}

// zshTied are zsh's lower-case arrays tied to PATH, CDPATH, FPATH,
// MODULE_PATH and MAILPATH (where commands, functions and modules are
// found, and mail messages whose $(…) an interactive shell runs) and its
// prompt, the same as PS1. zshCode are zsh's other variables that run
// code: the command a redirection without one runs (NULLCMD, READNULLCMD:
// "< f" alone runs it), the prompts an interactive zsh expands with
// PROMPT_SUBST, and the hook arrays whose functions it runs.
var (
	zshTied = set(`path cdpath fpath module_path mailpath prompt`)
	zshCode = set(`NULLCMD READNULLCMD PROMPT PROMPT2 PROMPT3 PROMPT4 RPROMPT RPROMPT2 RPS1 RPS2 SPROMPT
	precmd_functions preexec_functions chpwd_functions periodic_functions zshaddhistory_functions
	zshexit_functions`)
)

func validName(n string) bool {
	if n == "" {
		return false
	}
	for i, c := range n {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// dangerousEnv are variables that make programs load or run other code.
// BASH_CMDS and BASH_ALIASES are bash's command hash table and aliases:
// an element set in them (BASH_CMDS[ls]=/tmp/x) changes what a name runs,
// whether or not they are declared -A first. Among the administration
// tools': CONTAINER_HOST points podman at a remote service over ssh and
// CONTAINERS_CONF names the OCI runtime podman ps runs to sync state;
// KRB5_CONFIG and SASL_PATH name plugin modules the Kerberos and SASL
// libraries load (ssh with GSSAPI, ldapsearch), GIO_EXTRA_MODULES GLib's;
// ZIPOPT holds default zip options, -TT's command included; CEPH_ARGS
// and CEPH_CONF add options and a configuration (a plugin directory among
// them) to every ceph command. PHPRC and PHP_INI_SCAN_DIR name php.ini
// files whose extension= lines load shared objects even for php -v;
// APT_CONFIG is apt's -c (Dir::Bin::dpkg runs to list architectures);
// RPM_CONFIGDIR holds the macro files whose %(…) rpm expands opening its
// database; HGRCPATH is an hgrc with hooks; the editors, pagers,
// browsers and ssh commands of hg, svn, cvs, gh and the AWS CLI run when
// they show or fetch; XZ_DEFAULTS are xz options, as XZ_OPT are, and
// UNZIP, UNZIPOPT, ZIPINFO(OPT), BZIP(2), PIGZ and LZOP the default
// options of unzip, zipinfo, bzip2, pigz and lzop (bzip2 takes file names
// there too). CLOUDSDK_CONFIG holds gcloud's virtualenv, whose python
// gcloud runs, CLOUDSDK_PYTHON names it; AZURE_CONFIG_DIR and
// AZURE_EXTENSION_DIR hold the az extensions (Python) az loads;
// RCLONE_CONFIG's sftp remotes name the ssh command rclone runs, and
// HELM_REGISTRY_CONFIG the credential helpers helm runs. pacdiff runs
// DIFFPROG and i3-sensible-terminal TERMINAL; COMPOSER_HOME holds the
// global plugins composer loads and COMPOSER its composer.json; vagrant
// runs the Ruby of the Vagrantfile VAGRANT_CWD or VAGRANT_VAGRANTFILE
// names and the plugins under VAGRANT_HOME. TERMINFO_DIRS and TERMCAP
// choose the terminal description as TERMINFO does, whose init program
// (iprog) tput init and tput reset run. COMPILER_PATH and GCC_EXEC_PREFIX
// are where the GCC and Clang drivers (cpp among them) find cc1, as and
// collect2, as -B is. TEXTDOMAINDIR holds the message catalogs whose
// translations bash expands (envlocale.go). An ImageMagick built to run
// from where it is unpacked finds its delegates.xml and coder modules
// under MAGICK_HOME. systemd-analyze verify finds the units it checks in
// SYSTEMD_UNIT_PATH (a unit's Documentation=man:ls(-Hcmd) runs cmd as
// man's browser) and --generators runs SYSTEMD_GENERATOR_PATH's programs.
// XDG_CONFIG_DIRS and XDG_DATA_DIRS
// are searched after XDG_CONFIG_HOME and XDG_DATA_HOME for the same files:
// pip's site pip.conf (whose python re-runs pip under that interpreter, on
// pip list too), fish's vendor_conf.d scripts, neovim's plugins.
// An interactive shell (a session) expands
// the message after a '?' in MAILPATH, $(…) included, when a mailbox in it
// changes. FPATH and MODULE_PATH are zsh's fpath and module_path by their
// other names (FPATH=/tmp/x zsh -ic true runs /tmp/x/zsh-newuser-install,
// and compinit from there where /etc/zsh/zshrc calls it); ksh93 finds
// functions in FPATH too. git runs
// GIT_TEST_FSMONITOR as its fsmonitor hook on git status and git diff
// (the GIT_TEST_ prefix: git's test knobs), and reads its messages'
// translations, printf formats, from GIT_TEXTDOMAINDIR as bash does
// from TEXTDOMAINDIR. tshark -D runs every program in
// WIRESHARK_EXTCAP_DIR, and tshark loads its data files (init.lua among
// them, in releases that run it) from WIRESHARK_DATA_DIR. Ghostscript
// finds gs_init.ps, which sets up -dSAFER, in GS_LIB before its own copy:
// identify a.pdf hands the file to gs. PyGObject programs (firewall-cmd)
// load typelibs from GI_TYPELIB_PATH, each naming the shared object that
// implements it. Guile loads its boot code (ice-9/boot-9) through
// GUILE_LOAD_PATH, GUILE_LOAD_COMPILED_PATH and GUILE_SYSTEM_COMPILED_PATH
// before it reads its arguments, guile --version too (the GUILE_ prefix).
// groff (and man through it) runs the postprocessor the device's DESC
// file names, found in GROFF_FONT_PATH as groff -F finds it, and looks
// for it in GROFF_BIN_PATH first. ENSCRIPT and GENSCRIPT hold enscript's
// default options (-I runs an input filter, -o writes), ENSCRIPT_LIBRARY
// the directory of its configuration and highlighting state files.
// MAILRC and NAILRC name the start-up file mailx and s-nail run the
// commands of, mail -H included (its sendmail, MIME handlers and hooks
// are programs).
var dangerousEnv = set(`MAILRC NAILRC FPATH MODULE_PATH GIT_TEXTDOMAINDIR WIRESHARK_EXTCAP_DIR WIRESHARK_DATA_DIR GS_LIB GI_TYPELIB_PATH
	LD_PRELOAD LD_LIBRARY_PATH LD_AUDIT BASH_ENV ENV PROMPT_COMMAND MAILPATH
	SHELLOPTS BASHOPTS PS0 PS1 PS2 PS3 PS4 IFS PATH CDPATH GLOBIGNORE GIT_SSH GIT_SSH_COMMAND
	GIT_EXEC_PATH GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR GIT_ASKPASS SSH_ASKPASS GIT_COMMON_DIR
	SUDO_ASKPASS GIT_EXTERNAL_DIFF GIT_PROXY_COMMAND GIT_TEMPLATE_DIR GIT_DIR GIT_WORK_TREE
	PAGER MANPAGER SYSTEMD_PAGER LESSOPEN LESSCLOSE EDITOR VISUAL SUDO_EDITOR BROWSER
	PYTHONSTARTUP PYTHONPATH PYTHONHOME PERL5OPT PERL5LIB PERLLIB PERL5DB RUBYOPT RUBYLIB
	NODE_OPTIONS NODE_PATH JAVA_TOOL_OPTIONS _JAVA_OPTIONS JDK_JAVA_OPTIONS ZDOTDIR HOME
	XDG_CONFIG_HOME XDG_DATA_HOME XDG_STATE_HOME XDG_CONFIG_DIRS XDG_DATA_DIRS GCONV_PATH OPENSSL_CONF OPENSSL_ENGINES GNUPGHOME
	SHELL TMOUT HISTFILE INPUTRC TERMINFO TERMINFO_DIRS TERMCAP MAKEFLAGS GNUMAKEFLAGS MAKEFILES CURL_HOME WGETRC SSH_AUTH_SOCK
	DOCKER_HOST KUBECONFIG GIT_SSH_VARIANT LOCPATH NLSPATH HOSTALIASES RESOLV_HOST_CONF
	SYSTEMD_EDITOR SYSTEMD_LESS EXINIT VIMINIT MYVIMRC TAR_OPTIONS GZIP XZ_OPT ZSTD_CLEVEL
	RSYNC_RSH RSYNC_CONNECT_PROG CVS_RSH RSH RMT GREP_OPTIONS GOFLAGS GOTOOLCHAIN GOENV GOROOT GOPROXY
	GOPATH GOEXPERIMENT CC CXX CPP LD AR RUSTC RUSTC_WRAPPER RUSTC_WORKSPACE_WRAPPER RUSTFLAGS
	RUSTDOCFLAGS MAVEN_OPTS GRADLE_OPTS GRADLE_USER_HOME ANT_OPTS SBT_OPTS MANOPT PSQL_PAGER PSQL_EDITOR
	BAT_PAGER DELTA_PAGER GH_PAGER GH_EDITOR GIT_DIFF_OPTS SYSTEMD_PAGERSECURE LESSSECURE
	BAT_CONFIG_PATH RIPGREP_CONFIG_PATH PARALLEL KUBECTL_EXTERNAL_DIFF SYSTEMD_DEBUGGER
	BASH_CMDS BASH_ALIASES KUBE_EDITOR MANROFFOPT GROFF_COMMAND_PREFIX PSQLRC MYSQL_HOME R_PROFILE R_PROFILE_USER
	R_ENVIRON R_ENVIRON_USER EMACSLOADPATH AWS_CONFIG_FILE GOWORK ANSIBLE_CONFIG ANSIBLE_INVENTORY
	ANSIBLE_VAULT_PASSWORD_FILE ANSIBLE_LIBRARY ANSIBLE_MODULE_UTILS ANSIBLE_COLLECTIONS_PATH
	ANSIBLE_COLLECTIONS_PATHS ANSIBLE_ROLES_PATH FZF_DEFAULT_COMMAND FZF_DEFAULT_OPTS FZF_DEFAULT_OPTS_FILE
	SKIM_DEFAULT_COMMAND SKIM_DEFAULT_OPTIONS LVM_SYSTEM_DIR ZPOOL_SCRIPTS_PATH
	DOCKER_CONFIG HELM_PLUGINS HELM_DATA_HOME CONTAINER_HOST CONTAINERS_CONF CONTAINERS_CONF_OVERRIDE
	KRB5_CONFIG SASL_PATH GIO_EXTRA_MODULES GIO_MODULE_DIR ZIPOPT CEPH_ARGS CEPH_CONF
	PHPRC PHP_INI_SCAN_DIR APT_CONFIG RPM_CONFIGDIR HGRCPATH HGEDITOR SVN_SSH SVN_EDITOR CVSEDITOR
	GH_BROWSER AWS_PAGER XZ_DEFAULTS UNZIP UNZIPOPT ZIPINFO ZIPINFOOPT BZIP BZIP2 PIGZ LZOP
	CLOUDSDK_CONFIG CLOUDSDK_PYTHON AZURE_CONFIG_DIR AZURE_EXTENSION_DIR RCLONE_CONFIG HELM_REGISTRY_CONFIG
	DIFFPROG TERMINAL COMPOSER COMPOSER_HOME VAGRANT_CWD VAGRANT_VAGRANTFILE VAGRANT_HOME COMPILER_PATH GCC_EXEC_PREFIX
	TEXTDOMAINDIR MAGICK_HOME SYSTEMD_UNIT_PATH SYSTEMD_GENERATOR_PATH SYSTEMD_ENVIRONMENT_GENERATOR_PATH
	GROFF_FONT_PATH GROFF_BIN_PATH ENSCRIPT GENSCRIPT ENSCRIPT_LIBRARY
	LADSPA_PATH LV2_PATH FREI0R_PATH DSSI_PATH VST_PATH VST3_PATH LXVST_PATH GTK_PATH GTK_EXE_PREFIX
	GDK_PIXBUF_MODULE_FILE GTK_IM_MODULE_FILE GST_PLUGIN_PATH_1_0 GST_PLUGIN_SYSTEM_PATH GST_PLUGIN_SYSTEM_PATH_1_0`)

// contextEnv pick a saved docker context, podman connection or helm
// kube context: the address it holds (ssh://host runs ssh) is not on the
// command line, as docker --context is not.
var contextEnv = set(`DOCKER_CONTEXT HELM_KUBECONTEXT CONTAINER_CONNECTION`)

// fileEnv are variables naming a file that programs which otherwise only
// read write to: git's index (git status refreshes it), GIT_TRACE* and
// GIT_REDIRECT_* (matched by prefix),
// TLS key logs, Kerberos traces, nstat's and ifstat's history, glibc's
// malloc trace, coverage output, client histories, ffmpeg's report file,
// PATCH_GET (patch, even with --dry-run, then checks a missing file
// out of RCS or SCCS) and TAPE (the archive tar and mt open when no -f
// names one: TAPE=/etc/x tar c /srv writes /etc/x, and a HOST:FILE one
// is reached through rsh), and BLKID_FILE (blkid's cache, as -c names
// it: BLKID_FILE=/etc/x blkid writes /etc/x), DEPENDENCIES_OUTPUT and
// SUNPRO_DEPENDENCIES (cpp writes its make rules there, as -MD -MF do),
// and KRB5CCNAME's FILE: or DIR: cache (kinit writes its tickets there).
var fileEnv = set(`TAPE BLKID_FILE FFREPORT PATCH_GET GIT_INDEX_FILE SSLKEYLOGFILE KRB5_TRACE NSTAT_HISTORY IFSTAT_HISTORY RTACCT_HISTORY MALLOC_TRACE
	GCOV_PREFIX LLVM_PROFILE_FILE SEGFAULT_OUTPUT_NAME MYSQL_HISTFILE PSQL_HISTORY SQLITE_HISTORY
	REDISCLI_HISTFILE GOCACHE GOMODCACHE RAR DEPENDENCIES_OUTPUT SUNPRO_DEPENDENCIES KRB5CCNAME`)

// shellValued variables hold shell text some program will run; their
// values are classified as shell too. zgrep, bzgrep, xzgrep and zstdgrep
// run GREP instead of grep, zstdgrep ZCAT instead of zstdcat: a script's
// own GREP=grep or ZCAT=gzcat names a program as plainly as the word.
// The askpass programs, GIT_SSH and CVS_RSH name a program run without
// a shell: read as shell, the program is still the command.
var shellValued = set(`PROMPT_COMMAND GIT_SSH_COMMAND GIT_PAGER GIT_EDITOR GIT_SEQUENCE_EDITOR
	PAGER MANPAGER SYSTEMD_PAGER EDITOR VISUAL SUDO_EDITOR BROWSER LESSOPEN LESSCLOSE
	GIT_PROXY_COMMAND GIT_EXTERNAL_DIFF RSYNC_RSH RSYNC_CONNECT_PROG SYSTEMD_EDITOR PSQL_PAGER
	PSQL_EDITOR BAT_PAGER DELTA_PAGER GH_PAGER GH_EDITOR KUBE_EDITOR FZF_DEFAULT_COMMAND SKIM_DEFAULT_COMMAND
	RESTIC_PASSWORD_COMMAND BORG_PASSCOMMAND BORG_RSH HGEDITOR SVN_SSH SVN_EDITOR CVSEDITOR GH_BROWSER AWS_PAGER
	DIFFPROG TERMINAL RSH RMT GREP ZCAT SSH_ASKPASS SUDO_ASKPASS GIT_ASKPASS GIT_SSH CVS_RSH`)

func versionByte(c byte) bool { return c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' }

// variantSuffixes are the suffixes Debian's alternatives give the
// variants of one program (nc.openbsd, nc.traditional): each is that
// program.
var variantSuffixes = set(`openbsd traditional`)

// variantName maps a variant's name to its program's, and its handler.
func variantName(n string) (string, func(*call) (Tier, string)) {
	if i := strings.LastIndexByte(n, '.'); i > 0 && variantSuffixes[n[i+1:]] {
		if h := handlerFor(n[:i]); h != nil {
			return n[:i], h
		}
	}
	// sudo-rs, su-rs and visudo-rs are the Rust rewrites installed
	// beside the programs they replace, with their options.
	if base, ok := strings.CutSuffix(n, "-rs"); ok && rustRewrites[base] {
		return base, handlerFor(base)
	}
	return n, nil
}

// rustRewrites are the programs whose Rust rewrites are named NAME-rs.
var rustRewrites = set(`sudo su visudo`)

// renamed reports whether normaliseName may give n another name: only a
// name with a dot (nc.openbsd, ld-linux-x86-64.so.2) or a version at its
// end (python3, bash5) can have one. Asking this first spares most
// commands normaliseName's lookups.
func renamed(n string) bool {
	return n == "" || strings.IndexByte(n, '.') >= 0 || versionByte(n[len(n)-1])
}

// normaliseName maps versioned interpreter names to their family:
// python3.12 → python3, perl5.36 → perl, bash5 → bash.
func normaliseName(n string) string {
	name, _ := normalised(n)
	return name
}

// normalised is normaliseName, also returning handlerFor of the name, so
// that each command looks its program up once.
func normalised(n string) (string, func(*call) (Tier, string)) {
	if h := handlerFor(n); h != nil {
		return n, h // the shells and interpreters among them
	}
	// strings.TrimRight(n, "0123456789.-_"), without building its byte set
	// on every call: this runs for every command and every scanned word.
	t := n
	for len(t) > 0 && versionByte(t[len(t)-1]) {
		t = t[:len(t)-1]
	}
	if t == n || t == "" {
		return variantName(n)
	}
	switch {
	case strings.HasPrefix(n, "ld-linux") || strings.HasPrefix(n, "ld-musl"):
		return "ld.so", handlerFor("ld.so") // the dynamic loader, ld-linux-x86-64.so.2
	case strings.HasPrefix(n, "python3"):
		return "python3", handlerFor("python3")
	case strings.HasPrefix(n, "python2"):
		return "python2", handlerFor("python2")
	}
	if interpreters[t] || posixShells[t] || toolchainPrograms[t] {
		return t, handlerFor(t)
	}
	return n, nil
}
