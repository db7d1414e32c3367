package policy

import "testing"

// Forms of read-looking programs that are not reads. On an SSH host the
// classifier is all there is, and readonly mode admits whatever is tier 0
// without asking, so each case is checked for the local host and an SSH
// host.

// TestBlindSpotNftCommandLines: nft joins its words into one line and
// runs every ";"- or newline-separated command on it, so a listing
// followed by another command is that command, however it is quoted.
func TestBlindSpotNftCommandLines(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`nft 'list ruleset; flush ruleset'`,
		`nft 'list ruleset;flush ruleset'`,
		`nft list ruleset \; flush ruleset`,
		`nft list ruleset\;flush ruleset`,
		`nft list ruleset ';' flush ruleset`,
		`nft list ruleset ";delete table inet filter"`,
		`nft 'list tables;delete table inet filter'`,
		"nft $'list ruleset\\nflush ruleset'",
		"nft $'list ruleset\\ndelete table inet filter'",
		`nft -a list ruleset\;destroy table inet filter`,
		`nft 'list ruleset; flush chain inet filter input'`,
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`nft list ruleset ';' add table inet x`,
		`nft 'list tables; add rule inet filter input accept'`,
		`nft list tables\; insert rule inet filter input accept`,
		`nft 'list ruleset;reset counters'`,
		`nft 'list counters; reset counter inet filter c1'`,
		"nft $'list ruleset\\ndelete rule inet filter input handle 4'",
		`nft 'describe tcp; add element inet filter s { 10.0.0.1 }'`,
		`nft 'monitor; add table inet x'`,
	))
	runExactHosts(t, p, []exactCase{
		{"list ruleset", "nft list ruleset", TierRead},
		{"two listings", `nft 'list tables; list ruleset'`, TierRead},
		{"listing handles", "nft -a list ruleset", TierRead},
		{"json listing", "nft -j list ruleset", TierRead},
		{"list table", "nft list table inet filter", TierRead},
		{"list set", "nft list set inet filter blocklist", TierRead},
		{"monitor", "nft monitor trace", TierRead},
		{"describe", "nft describe tcp dport", TierRead},
		{"check a flush", `nft -c 'list ruleset; flush ruleset'`, TierRead},
	})
}

// TestBlindSpotCounterResets: statistics programs whose option zeroes the
// counters they print change what every monitor reads next (nfsstat -z,
// FreeBSD's netstat -z, chronyc clients -r), in every spelling getopt
// takes and when a computed word could become the option.
func TestBlindSpotCounterResets(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"nfsstat -z", "nfsstat -zs", "nfsstat -sz", "nfsstat -s -z", "nfsstat -cz",
		"nfsstat --zero", "nfsstat --ze", "nfsstat --z", "/usr/sbin/nfsstat -z",
		"sudo nfsstat -z", `nfsstat "$opt"`, "nfsstat $(echo -z)",
		"netstat -z", "netstat -s -z", "netstat -sz", "netstat -zs", "netstat -i -z",
		"netstat -ibz", "/usr/bin/netstat -sz", "netstat -s -p tcp -z", "netstat $opts",
		"chronyc clients -r", "chronyc clients -k -r", "chronyc clients -p 10 -r",
		"chronyc clients '-k -r'", "chronyc -n clients -r",
	))
	runExactHosts(t, p, []exactCase{
		{"nfsstat", "nfsstat", TierRead},
		{"nfsstat server", "nfsstat -s", TierRead},
		{"nfsstat client", "nfsstat -c", TierRead},
		{"nfsstat mounts", "nfsstat -m", TierRead},
		{"nfsstat category", "nfsstat -o all", TierRead},
		{"nfsstat sleep", "nfsstat -Z", TierRead},
		{"nfsstat list", "nfsstat -l", TierRead},
		{"netstat listening", "netstat -tulpn", TierRead},
		{"netstat all", "netstat -an", TierRead},
		{"netstat routes", "netstat -rn", TierRead},
		{"netstat stats", "netstat -s", TierRead},
		{"netstat interfaces", "netstat -i", TierRead},
		{"netstat context", "netstat -Z", TierRead},
		{"chronyc clients", "chronyc clients", TierRead},
		{"chronyc clients nts", "chronyc clients -k", TierRead},
		{"chronyc clients packets", "chronyc clients -p 10", TierRead},
		{"chronyc sources", "chronyc sources -v", TierRead},
	})
}

// TestBlindSpotHostnameSetters: hostname and its other names
// (dnsdomainname, domainname, nisdomainname, ypdomainname) set the host
// or NIS domain name from an operand, from -F FILE in every spelling
// getopt takes, or with -b.
func TestBlindSpotHostnameSetters(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"hostname -F/tmp/name", "hostname -vF /tmp/name", "hostname -vF/tmp/name",
		"hostname --file=/tmp/name", "hostname --fi=/tmp/name", "hostname --fil /tmp/name",
		"hostname -b", "hostname -bv", "hostname -vb", "hostname --bo", "hostname --boot web1",
		"hostname web1", "hostname -y nisdom",
		"dnsdomainname web1", "dnsdomainname -y nisdom", "dnsdomainname -F/tmp/name",
		"domainname nisdom", "nisdomainname -F /tmp/name", "ypdomainname -bF/tmp/name",
		"/bin/dnsdomainname -F /tmp/name",
	))
	runExactHosts(t, p, []exactCase{
		{"hostname", "hostname", TierRead},
		{"fqdn", "hostname -f", TierRead},
		{"short", "hostname -s", TierRead},
		{"addresses", "hostname -I", TierRead},
		{"all fqdns", "hostname -A", TierRead},
		{"domain", "hostname -d", TierRead},
		{"nis", "hostname -y", TierRead},
		{"long fqdn", "hostname --fqdn", TierRead},
		{"dnsdomainname", "dnsdomainname", TierRead},
		{"domainname", "domainname", TierRead},
		{"nisdomainname", "nisdomainname", TierRead},
	})
}

// TestBlindSpotMktempDirs: mktemp's --tmpdir=DIR creates its file in DIR
// under any abbreviation getopt_long takes (--tmpd=, --t=), and -p's
// value ends a cluster (-pu is -p u, not -u), so only a file under the
// temporary directories keeps it tier 1.
func TestBlindSpotMktempDirs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"mktemp --tmpd=/etc", "mktemp --tmp=/etc", "mktemp --t=/etc", "mktemp --tm=/etc x.XXXXXX",
		"mktemp -d --tmpdi=/root/.ssh", "mktemp -q --tmpd=/usr/local/bin",
		"mktemp -pu", "mktemp -dpu", "mktemp -qpetc",
		"mktemp --suf .sh /etc/cron.d/xXXXXX",
	))
	runExactHosts(t, p, []exactCase{
		{"bare", "mktemp", TierBenign},
		{"dir", "mktemp -d", TierBenign},
		{"tmpdir template", "mktemp --tmpdir x.XXXXXX", TierBenign},
		{"tmpd template", "mktemp --tmpd x.XXXXXX", TierBenign},
		{"tmpd tmp", "mktemp --tmpd=/tmp", TierBenign},
		{"tmpd var tmp", "mktemp --tmpd=/var/tmp x.XXXXXX", TierBenign},
		{"suffix abbreviated", "mktemp --suf .sh", TierBenign},
		{"dry run", "mktemp -up /etc", TierBenign},
		{"dry run abbreviated", "mktemp --dry /etc/xXXXX", TierBenign},
		{"p tmp", "mktemp -p /tmp", TierBenign},
		{"t", "mktemp -t x.XXXX", TierBenign},
	})
}

// TestBlindSpotCacheRefreshes: refreshing a package tool's database or
// cache writes under /var, outside the temporary directories a tier-1
// call may write, so it is tier 2 as apt-get update is: pacman -F's
// refresh in every spelling (-F -y, --files --refresh, --ref), pkg audit
// -F and apt-cache gencaches.
func TestBlindSpotCacheRefreshes(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"pacman -Fy", "pacman -Fyy", "pacman -F -y", "pacman -F -yy x", "pacman -F --refresh",
		"pacman -F --ref", "pacman -Fxy", "pacman --files -y", "pacman --files --refresh",
		"yay -Fy", "paru -F -y",
		"pkg audit -F", "pkg audit --fetch", "pkg audit -Fr",
		"apt-cache gencaches", "apt-cache -q gencaches",
	))
	runExactHosts(t, p, []exactCase{
		{"pacman -F", "pacman -F /usr/bin/ls", TierRead},
		{"pacman -Fl", "pacman -Fl bash", TierRead},
		{"pacman -Fx", "pacman -Fx 'bin/.*'", TierRead},
		{"pacman --files", "pacman --files ls", TierRead},
		{"pkg audit", "pkg audit -r", TierRead},
		{"apt-cache show", "apt-cache show bash", TierRead},
		{"apt-cache policy", "apt-cache policy nginx", TierRead},
	})
}

// TestBlindSpotQuietSetters: options that set up a device or write a
// cache in a cluster of flags (zramctl -fs1G, lspci -vQ), and variables
// that choose the terminal description whose init program tput init
// runs.
func TestBlindSpotQuietSetters(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"zramctl -fs1G", "zramctl -fs 1G", "zramctl -rf", "zramctl -s1G", "zramctl -fa lz4",
		"lspci -Q", "lspci -vQ", "lspci -Qv", "lspci -nnQ",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"TERMINFO_DIRS=/tmp/ti tput -Tx init", "TERMCAP=/tmp/tc tput reset",
		"export TERMINFO_DIRS=/tmp/ti; tput init", "env TERMINFO_DIRS=/tmp/ti tput init",
	))
	runExactHosts(t, p, []exactCase{
		{"zramctl", "zramctl", TierRead},
		{"zramctl output", "zramctl --output-all", TierRead},
		{"zramctl bytes", "zramctl -b", TierRead},
		{"lspci", "lspci -nnk", TierRead},
		{"lspci verbose", "lspci -vvv", TierRead},
		{"lspci dns", "lspci -q", TierRead},
		{"tput", "tput cols", TierRead},
		{"tput init", "tput init", TierRead},
	})
}

// TestBlindSpotListingVerbsThatWrite: listing verbs of package and
// platform tools with an option that refreshes an index under /var,
// exports a file, rewrites a database, clears a buffer or serves a page:
// apk -U, dnf/yum --refresh, zypper repos -e FILE, pkg check -B/-r/-d,
// xl dmesg -c, tailscale status --web and netplan generate (which writes
// under /run and reloads systemd).
func TestBlindSpotListingVerbsThatWrite(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"apk -U search nginx", "apk info -U", "apk --update-cache list", "apk -qU info", "apk --update-c list",
		"dnf list --refresh", "dnf --refresh repoquery nginx", "yum info --refresh nginx",
		"zypper lr -e /etc/zypp/repos.d/all.repo", "zypper lr --export /etc/x", "zypper repos --export=/etc/x",
		"zypper lr -eall.repo", "zypper -n repos -e /root/x.repo",
		"pkg check -B", "pkg check -Ba", "pkg check --shlibs -a", "pkg check -r -a", "pkg check --recompute nginx",
		"pkg check -d -y", "pkg check -da",
		"xl dmesg -c", "xl dmesg --clear",
		"tailscale status --web", "tailscale status -web", "tailscale status --web=true", "tailscale status --web=1",
		"tailscale status --web --listen 0.0.0.0:8384",
		"netplan generate", "netplan --debug generate",
	))
	runExactHosts(t, p, []exactCase{
		{"apk info", "apk info", TierRead},
		{"apk search", "apk search nginx", TierRead},
		{"dnf list", "dnf list installed", TierRead},
		{"dnf cache only", "dnf -C list", TierRead},
		{"zypper lr", "zypper lr -d", TierRead},
		{"zypper export stdout", "zypper lr -e -", TierRead},
		{"pkg check checksums", "pkg check -sa", TierRead},
		{"pkg check dry run", "pkg check -d -n", TierRead},
		{"xl dmesg", "xl dmesg", TierRead},
		{"tailscale status", "tailscale status --json", TierRead},
		{"tailscale status web off", "tailscale status --web=false", TierRead},
		{"netplan get", "netplan get", TierRead},
		{"netplan status", "netplan status", TierRead},
	})
}

// TestBlindSpotImageMounts: the systemd tools' --image mounts the disk
// image it names even to list what is inside, as journalctl's and
// systemd-analyze's do: systemctl, coredumpctl, systemd-tmpfiles and
// systemd-sysusers, in every spelling getopt_long takes.
func TestBlindSpotImageMounts(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"systemctl --image=/tmp/x.img list-unit-files", "systemctl --ima=/tmp/x.img status",
		"systemctl list-units --image /tmp/x.img", "systemctl --image /tmp/x.img cat sshd",
		"coredumpctl --image=/tmp/x.img list", "coredumpctl list --image /tmp/x.img", "coredumpctl info --ima=/tmp/x.img",
		"systemd-tmpfiles --image=/tmp/x.img --cat-config", "systemd-tmpfiles --cat-config --image /tmp/x.img",
		"systemd-sysusers --image=/tmp/x.img --cat-config", "systemd-sysusers --tldr --ima /tmp/x.img",
	))
	runExactHosts(t, p, []exactCase{
		{"systemctl status", "systemctl status nginx", TierRead},
		{"systemctl root", "systemctl --root=/srv/chroot list-unit-files", TierRead},
		{"systemctl image policy", "systemctl --image-policy=root=verity list-units", TierRead},
		{"coredumpctl list", "coredumpctl list", TierRead},
		{"coredumpctl info", "coredumpctl info 1234", TierRead},
		{"tmpfiles cat-config", "systemd-tmpfiles --cat-config", TierRead},
		{"sysusers cat-config", "systemd-sysusers --cat-config", TierRead},
	})
}

// TestBlindSpotBackupRepoWrites: restic init, backup and copy and borg
// init and create write the repository, so a local repository outside
// the temporary directories makes them tier 2 (restic -r /etc/x init
// creates /etc/x); a remote one, one under /tmp, or one the operator
// configured outside the command line keeps tier 1.
func TestBlindSpotBackupRepoWrites(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"restic -r /etc/x init", "restic --repo /srv/r init", "restic -r local:/srv/r init",
		"restic -r /srv/r backup /var/www", "restic --repo=/srv/r backup /var/www", "restic -r relative/repo init",
		"restic -r /srv/r copy --from-repo /srv/r2", "restic --repository-file /tmp/repo init",
		"borg init --encryption=none /etc/x", "borg init -e none /srv/r", "borg create /srv/r::a /var/www",
		"borg create --compression lz4 /srv/r::a /var/www", "borg create relative::a /var/www",
	))
	runExactHosts(t, p, []exactCase{
		{"restic tmp repo", "restic -r /tmp/r backup /var/www", TierBenign},
		{"restic sftp repo", "restic -r sftp:backup@nas:/srv/restic backup /var/www", TierBenign},
		{"restic s3 repo", "restic -r s3:s3.amazonaws.com/bucket backup /var/www", TierBenign},
		{"restic rest repo", "restic -r rest:https://backup.example.com/ backup /var/www", TierBenign},
		{"restic configured repo", "restic backup /srv/data", TierBenign},
		{"restic listing", "restic -r /srv/r snapshots", TierRead},
		{"borg tmp repo", "borg create /tmp/r::a /var/www", TierBenign},
		{"borg ssh repo", "borg create ssh://backup@nas/./repo::a /var/www", TierBenign},
		{"borg scp-like repo", "borg create backup@nas:repo::a /var/www", TierBenign},
		{"borg configured repo", "borg create ::a /var/www", TierBenign},
		{"borg listing", "borg list /srv/borg", TierRead},
	})
}

// TestBlindSpotAnsibleAdhocReads: an ad hoc command with a module that
// only reads (setup, ping, stat, debug…) is tier 1 only while nothing in
// its options runs code here or in the module's place: templated module
// arguments and extra variables (a lookup('pipe', …) runs on this
// machine), debug's var expression, setup's fact_path, extra variables
// that choose the interpreter or a vars file, a module path, ssh's extra
// arguments, a vault password file or script; --tree writes a file per
// host.
func TestBlindSpotAnsibleAdhocReads(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`ansible localhost -m debug -a 'msg={{ lookup("pipe","id") }}'`,
		`ansible localhost -m stat -a 'path={{ lookup("pipe","id") }}'`,
		`ansible localhost -m debug -a "var=lookup('pipe','id')"`,
		`ansible all -m ping -e 'x={{ lookup("pipe","id") }}'`,
		`ansible all -m ping -e '{% for x in [1] %}{% endfor %}'`,
		"ansible localhost -m setup -a 'fact_path=/tmp/facts'",
		"ansible localhost -m gather_facts -a fact_path=/tmp/f",
		"ansible all -m setup -e ansible_python_interpreter=/tmp/evil",
		`ansible all -m setup -e '{"ansible_ssh_common_args":"-o ProxyCommand=sh"}'`,
		"ansible all -m setup -e @/tmp/vars.yml",
		"ansible all -m setup --extra-vars=@/tmp/vars.yml",
		"ansible all -m setup -M /tmp/mods", "ansible all -m ping --module-path=/tmp/mods",
		"ansible all -m setup --ssh-common-args='-o ProxyCommand=sh'",
		"ansible all -m setup -T 5 --ssh-extra-args '-o ProxyCommand=x'",
		"ansible all -m setup --scp-extra-args '-S /tmp/x'",
		"ansible all -m setup --vault-password-file /tmp/x.sh",
		"ansible all -m setup --vault-id dev@/tmp/x.sh",
		`ansible all -m setup -a "$ARGS"`,
		"ansible all -m ping -vvvM /tmp/mods", "ansible all -m setup --module-p /tmp/mods",
		"ansible all -m setup --ssh-c='-o ProxyCommand=x'", "ansible all -m setup --ext=@/tmp/x",
		"ansible all -m setup -e@/tmp/x",
	))
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"ansible all -m setup -t /etc/x", "ansible all -m setup --tree /etc/x", "ansible all -m setup --tr /etc/x",
		"ansible all -m ping -bt /etc/x",
	))
	runExactHosts(t, p, []exactCase{
		{"ping", "ansible all -m ping", TierBenign},
		{"setup", "ansible all -m setup", TierBenign},
		{"setup filter", "ansible all -m setup -a 'filter=ansible_distribution*'", TierBenign},
		{"setup subset", "ansible all -m setup -a 'gather_subset=!all,network'", TierBenign},
		{"stat", "ansible all -m stat -a 'path=/etc/passwd'", TierBenign},
		{"become", "ansible web -m ping -u deploy --become", TierBenign},
		{"plain extra var", "ansible all -m ping -e 'foo=bar'", TierBenign},
		{"forks", "ansible all -m ping -f 10 -o", TierBenign},
		{"limit", "ansible all -m service_facts -l web1", TierBenign},
		{"host list", "ansible -i 'h1,h2,' all -m ping", TierBenign},
		{"debug var", "ansible all -m debug -a 'var=ansible_host'", TierBenign},
		{"vault prompt", "ansible all -m setup --vault-id dev@prompt", TierBenign},
		{"list hosts", "ansible all --list-hosts", TierRead},
		{"module name abbreviated", "ansible all --mod ping", TierBenign},
		{"verbose", "ansible all -m ping -vvv", TierBenign},
		{"become ask", "ansible all -m ping -b -K", TierBenign},
	})
}

// TestBlindSpotBenignThatWrite: tier-1 subcommands whose own process
// writes outside the temporary directories or that zero counters:
// podman, which has no daemon, writes its image store when it pulls;
// npm cache verify rewrites ~/.npm; resolvectl reset-statistics zeroes
// resolved's counters, as nfsstat -z does the kernel's.
func TestBlindSpotBenignThatWrite(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"podman pull docker.io/library/nginx", "podman image pull nginx", "podman compose pull",
		"podman --log-level debug pull nginx",
		"npm cache verify", "npm --loglevel silent cache verify",
		"resolvectl reset-statistics", "resolvectl --json=short reset-statistics",
	))
	runExactHosts(t, p, []exactCase{
		{"docker pull", "docker pull nginx", TierBenign},
		{"nerdctl pull", "nerdctl pull nginx", TierBenign},
		{"podman ps", "podman ps -a", TierRead},
		{"npm cache ls", "npm cache ls", TierBenign},
		{"resolvectl flush", "resolvectl flush-caches", TierBenign},
		{"resolvectl statistics", "resolvectl statistics", TierRead},
	})
}

// TestBlindSpotContainerStateDirs: container clients create the state
// directories their options name even to list: podman's image store and
// volume path, nerdctl's data root.
func TestBlindSpotContainerStateDirs(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"podman --imagestore /etc/x images", "podman --imagestore=/srv/img ps",
		"podman --volumepath /etc/x volume ls", "podman --volumepath=/etc/x ps",
		"nerdctl --data-root /etc/x ps", "nerdctl --data-root=/etc/x images",
	))
	runExactHosts(t, p, []exactCase{
		{"podman ps", "podman ps -a", TierRead},
		{"podman images", "podman images", TierRead},
		{"nerdctl ps", "nerdctl ps", TierRead},
		{"nerdctl namespace", "nerdctl --namespace k8s.io ps", TierRead},
	})
}

// TestBlindSpotDecompressorsRemoveSource: zstd's, lz4's and brotli's
// --rm (brotli's -j) delete each file read, and zstd before 1.5.5 and lz4
// do even when the output is standard output, so the reading forms
// (zstd -dc, zstdcat, unzstd -c) are not reads with it.
func TestBlindSpotDecompressorsRemoveSource(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"zstdcat --rm x.zst", "zstd -dc --rm x.zst", "zstd -d --rm -c x.zst", "unzstd -c --rm x.zst",
		"zstdmt -dc --rm x.zst", "lz4 -dc --rm x.lz4", "lz4cat --rm x.lz4",
		"brotli -dc -j x.br", "brotli -djc x.br", "brotli -dc --rm x.br",
	))
	runExactHosts(t, p, []exactCase{
		{"zstd -dc", "zstd -dc x.zst", TierRead},
		{"zstdcat", "zstdcat x.zst", TierRead},
		{"lz4 -dc", "lz4 -dc x.lz4", TierRead},
		{"brotli -dc", "brotli -dc x.br", TierRead},
		{"after --", "zstd -dc -- --rm", TierRead},
	})
}

// TestBlindSpotReadFormsComputed: a word computed at run time can become
// the option that makes these listings act (pacman -F's -y, dnf's
// --refresh, apk's -U, zypper repos -e, pkg check -B, xl dmesg -c,
// tailscale status --web, zstd -dc's -o and --rm, an ansible option that
// runs code), or in nft a "; flush ruleset"; the operands of the verbs
// that take no acting option, and option values, stay what they are.
func TestBlindSpotReadFormsComputed(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"pacman -F $x", `pacman -F "$x"`, "zypper lr $x /etc/x", "pkg check $x", "pkg audit $x",
		"xl dmesg $x", "tailscale status $x", "dnf list $x", `dnf info "$p"`, `apk info "$p"`,
		"nft list $x", `nft list table inet "$t"`, "zstd -dc $x", `zstd -dc "$f"`, `brotli -dc $x`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ansible all -m setup $x", `ansible "$h" -m ping`,
	))
	runExactHosts(t, p, []exactCase{
		{"pacman -Qi", `pacman -Qi "$p"`, TierRead},
		{"zypper search", `zypper se "$q"`, TierRead},
		{"pkg info", `pkg info "$p"`, TierRead},
		{"xl list", `xl list "$d"`, TierRead},
		{"tailscale ping", `tailscale ping "$h"`, TierRead},
		{"nft literal", "nft list table inet filter", TierRead},
		{"ansible limit", `ansible all -m ping -l "$h"`, TierBenign},
		{"ansible user", `ansible all -m ping -u "$u"`, TierBenign},
	})
}

// TestBlindSpotDnsmasqConfScript: dnsmasq runs a configuration's
// conf-script to read more configuration, --test included, so a
// configuration a benign call could have written is tier 3, as nginx -t
// -c and unbound-checkconf given one are.
func TestBlindSpotDnsmasqConfScript(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"dnsmasq --test -C /tmp/x.conf", "dnsmasq --test --conf-file=/tmp/x.conf", "dnsmasq --test -C/var/tmp/x",
		"dnsmasq --test --conf-file /tmp/d/x.conf", "cd /tmp && dnsmasq --test -C x.conf", `dnsmasq --test -C "$f"`,
	))
	runExactHosts(t, p, []exactCase{
		{"test", "dnsmasq --test", TierRead},
		{"system config", "dnsmasq --test --conf-file=/etc/dnsmasq.conf", TierRead},
	})
}

// TestBlindSpotLoggerJournaldFile: logger --journald=FILE sends a file's
// lines into the journal as -f does, in every abbreviation getopt_long
// takes; its value is optional, so a separate word is a message.
func TestBlindSpotLoggerJournaldFile(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"logger --journald=/tmp/x", "logger --journ=/srv/app/fields", "logger --j=/srv/app/fields",
		"logger -t app --journald=/srv/app/fields",
	))
	runExactHosts(t, p, []exactCase{
		{"stdin", "logger --journald", TierBenign},
		{"stdin dash", "logger --journald=-", TierBenign},
		{"message word", "logger --journald hello", TierBenign},
		{"after --", "logger -- --journald=/srv/x", TierBenign},
		{"message", "logger -t app hello", TierBenign},
	})
}
