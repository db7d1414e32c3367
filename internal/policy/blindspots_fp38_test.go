package policy

import "testing"

// TestBlindSpotFp38InfoWords: a program asked only for its version, its
// help or what it has installed prints and exits, whatever it can do once
// it runs; its other words, a program under /tmp, a shim's directory and
// a start-up file from the environment keep their tier.
func TestBlindSpotFp38InfoWords(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"htop --version", "htop --version", TierRead},
		{"htop -V", "htop -V", TierRead},
		{"sudo htop -h", "sudo htop -h", TierRead},
		{"path htop", "/usr/bin/htop --version", TierRead},
		{"nice htop", "nice -n5 htop -V", TierRead},
		{"quoted", `htop "--version"`, TierRead},
		{"btop", "btop --version", TierRead},
		{"atop", "atop -V", TierRead},
		{"glances", "glances --version", TierRead},
		{"nano", "nano --version", TierRead},
		{"vim", "vim --version", TierRead},
		{"vim -h", "vim -h", TierRead},
		{"view", "view --version", TierRead},
		{"nvim -v", "nvim -v", TierRead},
		{"emacs", "emacs --version", TierRead},
		{"top -v", "top -v", TierRead},
		{"tmux -V", "tmux -V", TierRead},
		{"tmux ls", "tmux ls", TierRead},
		{"screen -ls", "screen -ls", TierRead},
		{"screen -v", "screen -v", TierRead},
		{"dotnet --info", "dotnet --info", TierRead},
		{"dotnet --list-sdks", "dotnet --list-sdks", TierRead},
		{"dotnet --list-runtimes", "sudo dotnet --list-runtimes", TierRead},
		{"dotnet path", "/usr/share/dotnet/dotnet --list-sdks", TierRead},
		{"k3s", "k3s --version", TierRead},
		{"ansible", "ansible --version", TierRead},
		{"ansible-playbook", "ansible-playbook --version", TierRead},
		{"mail -H", "mail -H", TierRead},
		{"mailx -H", "mailx -H", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"vim -v is Ex-less vi mode", "vim -v", TierMutate, false},
		{"vim -R", "vim -R /etc/hosts", TierMutate, false},
		{"view file", "view /etc/hosts", TierMutate, false},
		{"vim --version -c", "vim --version -c '!id'", TierDestructive, false},
		{"htop with more", "htop --version -d 10", TierMutate, false},
		{"htop bare", "htop", TierMutate, false},
		{"less --help", "less --help", TierMutate, false},
		{"tmux ls format", "tmux ls -F '#(id)'", TierDestructive, false},
		{"tmux new", "tmux new -d 'id'", TierDestructive, false},
		{"screen -dm", "screen -dm id", TierDestructive, false},
		{"dotnet run", "dotnet run", TierDestructive, false},
		{"dotnet --info extra", "dotnet --info x.dll", TierDestructive, false},
		{"dotnet shim dir", "cd /tmp/x && dotnet --info", TierDestructive, false},
		{"dotnet shim dir sdks", "cd /var/tmp/x; dotnet --list-sdks", TierDestructive, false},
		{"dotnet hooks", "DOTNET_STARTUP_HOOKS=/tmp/x.dll dotnet --info", TierDestructive, false},
		{"htop under tmp", "/tmp/x/htop --version", TierDestructive, false},
		{"vim under tmp", "/dev/shm/vim --version", TierDestructive, false},
		{"mailrc", "MAILRC=/tmp/x mail -H", TierDestructive, false},
		{"nailrc", "env NAILRC=/tmp/x s-nail -H", TierDestructive, false},
		{"mail send", "mail -s hi root", TierMutate, false},
		{"expect --version", "expect --version", TierDestructive, false},
		{"computed", `htop "$X"`, TierMutate, false},
	})
}

// TestBlindSpotFp38OpMode: VyOS's op-mode show, typed over ssh or run
// through vyatta-op-cmd-wrapper, reads as vtysh's show does; the wrapper
// runs any other op-mode command as that command, and nmh's show, the
// other program of the name, runs the programs its options name.
func TestBlindSpotFp38OpMode(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"show interfaces", "show interfaces", TierRead},
		{"show configuration", "show configuration", TierRead},
		{"show configuration commands", "show configuration commands | grep eth0", TierRead},
		{"show ip route", "show ip route 10.0.0.0/8", TierRead},
		{"show brief", "show interfaces ethernet eth0 brief", TierRead},
		{"show log", "show log tail 50", TierRead},
		{"sudo show", "sudo show version", TierRead},
		{"wrapper", "/opt/vyatta/bin/vyatta-op-cmd-wrapper show interfaces", TierRead},
		{"wrapper config", "/opt/vyatta/bin/vyatta-op-cmd-wrapper show configuration", TierRead},
		{"wrapper bare", "vyatta-op-cmd-wrapper show version", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"wrapper reboot", "vyatta-op-cmd-wrapper reboot now", TierDestructive, true},
		{"wrapper poweroff", "/opt/vyatta/bin/vyatta-op-cmd-wrapper poweroff", TierDestructive, true},
		{"wrapper clear", "vyatta-op-cmd-wrapper clear ip bgp all", TierDestructive, false},
		{"wrapper reset", "vyatta-op-cmd-wrapper reset ip bgp all", TierMutate, false},
		{"wrapper image", "vyatta-op-cmd-wrapper add system image /tmp/x.iso", TierMutate, false},
		{"wrapper computed", `vyatta-op-cmd-wrapper "$X" interfaces`, TierDestructive, false},
		{"wrapper show piped to sh", "vyatta-op-cmd-wrapper show interfaces | sh", TierDestructive, false},
		{"show shutdown", "show interfaces shutdown", TierDestructive, false},
		{"nmh showproc", "show -showproc /tmp/x 12", TierMutate, false},
		{"nmh abbreviated", "show -showp /tmp/x", TierMutate, false},
		{"computed option", `show "$X" interfaces`, TierMutate, false},
		{"computed option unquoted", "show $X", TierMutate, false},
	})
}

// TestBlindSpotFp38AdminVerbs: the listing verbs of homelab cluster, VM,
// jail, boot and backup tools read; their deleting verbs, the verbs that
// run a command in a machine or jail, and the rest keep their tier.
func TestBlindSpotFp38AdminVerbs(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"procstat -a", "procstat -a", TierRead},
		{"procstat -f", "sudo procstat -f 1", TierRead},
		{"acpi -V", "acpi -V", TierRead},
		{"iocage list", "iocage list", TierRead},
		{"iocage list -t", "iocage list -t", TierRead},
		{"iocage get", "iocage get all jail", TierRead},
		{"iocage df", "sudo iocage df", TierRead},
		{"machinectl", "machinectl", TierRead},
		{"machinectl list", "machinectl list --all", TierRead},
		{"machinectl -H", "machinectl -H host list", TierRead},
		{"machinectl status", "machinectl status web", TierRead},
		{"dkms status", "dkms status", TierRead},
		{"bootctl", "bootctl", TierRead},
		{"bootctl status", "bootctl status", TierRead},
		{"cpupower", "cpupower frequency-info", TierRead},
		{"cpupower -c", "cpupower -c all frequency-info", TierRead},
		{"minikube status", "minikube status", TierRead},
		{"minikube version", "minikube version", TierRead},
		{"minikube --version", "minikube --version", TierRead},
		{"minikube profile list", "minikube profile list", TierRead},
		{"minikube addons list", "minikube addons list", TierRead},
		{"minikube ip", "minikube ip", TierRead},
		{"kind get clusters", "kind get clusters", TierRead},
		{"microk8s status", "microk8s status", TierRead},
		{"microk8s kubectl get", "microk8s kubectl get pods -A", TierRead},
		{"microk8s helm list", "microk8s helm list -A", TierRead},
		{"vagrant status", "vagrant status", TierRead},
		{"vagrant global-status", "vagrant global-status", TierRead},
		{"vagrant box list", "vagrant box list", TierRead},
		{"pbs snapshot list", "proxmox-backup-client snapshot list", TierRead},
		{"pbs list", "proxmox-backup-client list --repository root@pam@pbs:store", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"procstat under tmp", "/tmp/procstat -a", TierDestructive, false},
		{"iocage exec", "iocage exec jail id", TierDestructive, false},
		{"iocage console", "iocage console jail", TierDestructive, false},
		{"iocage destroy", "iocage destroy -f jail", TierDestructive, false},
		{"iocage stop", "iocage stop jail", TierMutate, false},
		{"iocage computed", `iocage "$V" jail`, TierDestructive, false},
		{"machinectl shell", "machinectl shell web", TierDestructive, false},
		{"machinectl poweroff", "machinectl poweroff web", TierDestructive, false},
		{"machinectl -M shell", "machinectl -M web shell", TierDestructive, false},
		{"machinectl start", "machinectl start web", TierMutate, false},
		{"dkms remove", "dkms remove zfs/2.2 --all", TierMutate, false},
		{"bootctl remove", "bootctl remove", TierDestructive, false},
		{"bootctl install", "bootctl install", TierMutate, false},
		{"cpupower monitor command", "cpupower monitor reboot", TierDestructive, false},
		{"cpupower set", "cpupower frequency-set -g performance", TierMutate, false},
		{"minikube profile set", "minikube profile dev", TierMutate, false},
		{"minikube addons enable", "minikube addons enable ingress", TierMutate, false},
		{"minikube delete", "minikube -p status delete", TierDestructive, false},
		{"kind delete", "kind delete cluster", TierDestructive, false},
		{"microk8s kubectl delete", "microk8s kubectl delete pod x", TierDestructive, false},
		{"microk8s kubectl exec", "microk8s kubectl exec x -- id", TierDestructive, false},
		{"microk8s reset", "microk8s reset", TierDestructive, false},
		{"vagrant up", "vagrant up", TierMutate, false},
		{"vagrant destroy", "vagrant destroy -f", TierDestructive, false},
		{"vagrant agent dir", "cd /tmp/x && vagrant status", TierDestructive, false},
		{"pbs forget", "proxmox-backup-client snapshot forget x", TierDestructive, false},
		{"pbs backup", "proxmox-backup-client backup root.pxar:/", TierMutate, false},
	})
}

// TestBlindSpotFp38RsyncDryRun: rsync -n and --list-only transfer and
// remove nothing on either side, so a dry run to or from another host is
// what ssh HOST is (tier 1), and --delete under -n only reports; a remote
// path a remote shell would act on, a remote shell other than ssh, the
// remote side's own options and a real copy keep their tier.
func TestBlindSpotFp38RsyncDryRun(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"list-only host", "rsync --list-only host:/path", TierBenign},
		{"list-only user", "rsync --list-only backup@nas:/volume1/", TierBenign},
		{"-n -a to host", "rsync -n -a src host:dst", TierBenign},
		{"-avn to host", "rsync -avn /srv/a/ host:/srv/b/", TierBenign},
		{"--dry-run from host", "rsync --dry-run -av nas:/srv/a/ /srv/b/", TierBenign},
		{"daemon module", "rsync -avn nas::module/ /srv/b/", TierBenign},
		{"rsync url", "rsync --list-only rsync://nas/module/", TierBenign},
		{"-e ssh", "rsync -avn -e 'ssh -p 2222' /srv/a/ nas:/b/", TierBenign},
		{"--rsh=ssh path", "rsync -avn --rsh=/usr/bin/ssh /srv/a/ nas:/b/", TierBenign},
		{"--delete to host", "rsync -avn --delete /srv/a/ nas:/b/", TierBenign},
		{"sudo", "sudo rsync -avn /srv/a/ nas:/b/", TierBenign},
		{"local --delete -n", "rsync -avn --delete /srv/a/ /srv/b/", TierRead},
		{"local --del --dry-run", "rsync -a --del --dry-run /srv/a/ /srv/b/", TierRead},
		{"local remove-source -n", "rsync -a --remove-source-files -n /srv/a/ /srv/b/", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"copy", "rsync -a src host:dst", TierMutate, false},
		{"copy -e ssh", "rsync -av -e ssh /srv/a/ nas:/b/", TierMutate, false},
		{"--delete copy", "rsync -a --delete /srv/a/ /srv/b/", TierDestructive, false},
		{"--delete remote copy", "rsync -a --delete /srv/a/ nas:/b/", TierDestructive, false},
		{"--no-n", "rsync -a --delete --no-n /srv/a/ /srv/b/", TierDestructive, false},
		{"--no-dry-run", "rsync -n --no-dry-run src host:dst", TierMutate, false},
		{"subst in path", "rsync -n src 'host:$(reboot)'", TierMutate, false},
		{"backticks in path", "rsync -n 'host:`id`' /tmp/x", TierMutate, false},
		{"semicolon in path", "rsync -n 'host:/a;id' /tmp/x", TierMutate, false},
		{"space in path", "rsync -n src host:'a b'", TierMutate, false},
		{"-e sh -c", "rsync -avn -e 'sh -c' /srv/a/ reboot:/b/", TierMutate, false},
		{"-e reboot", "rsync -n -e 'sh -c reboot' src host:dst", TierDestructive, true},
		{"-e ProxyCommand", "rsync -avn -e 'ssh -oProxyCommand=id' /srv/a/ nas:/b/", TierDestructive, false},
		{"--rsync-path", "rsync -n --rsync-path='sudo rsync' src host:dst", TierMutate, false},
		{"--rsync-path rm", "rsync -n --rsync-path='rm -rf /' src host:dst", TierDestructive, true},
		{"-M", "rsync -n -M--log-file=/etc/x src host:dst", TierMutate, false},
		{"--remote-option", "rsync -n --remote-option=--log-file=/etc/x src host:dst", TierMutate, false},
		{"log file", "rsync -n --log-file=/etc/x src host:dst", TierMutate, false},
		{"denied host", "rsync -n src 169.254.169.254:dst", TierDestructive, true},
		{"computed host", `rsync -n src "$H":dst`, TierDestructive, false},
		{"computed option", `rsync -avn --delete "$S" /srv/b/`, TierDestructive, false},
		{"list-only with dest", "rsync --list-only host:/path /srv/x", TierMutate, false},
	})
}

// TestBlindSpotFp38PackageReports: apt's simulation and dnf's and yum's
// check-update only report; an option that could undo the simulation,
// the verbs -s does not stop and a metadata refresh keep their tiers.
func TestBlindSpotFp38PackageReports(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"apt-get -s upgrade", "apt-get -s upgrade", TierRead},
		{"apt-get --simulate", "apt-get --simulate dist-upgrade", TierRead},
		{"apt -s", "apt -s full-upgrade", TierRead},
		{"after verb", "apt-get install -s nginx", TierRead},
		{"--dry-run", "sudo apt-get --dry-run install nginx", TierRead},
		{"--just-print", "apt-get --just-print remove nginx", TierRead},
		{"-q", "apt-get -qq -s upgrade", TierRead},
		{"dnf check-update", "dnf check-update", TierRead},
		{"dnf -q check-update", "sudo dnf -q check-update", TierRead},
		{"yum check-update", "yum check-update", TierRead},
		{"apt list", "apt list --upgradable", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"upgrade", "apt-get upgrade", TierMutate, false},
		{"-o undoes", "apt-get -s -o APT::Get::Simulate=false upgrade", TierMutate, false},
		{"-o joined", "apt-get -s -oAPT::Get::Simulate=0 upgrade", TierMutate, false},
		{"--option", "apt-get -s --option=APT::Get::Simulate=false upgrade", TierMutate, false},
		{"-c", "apt-get -s -c /etc/apt/x.conf upgrade", TierMutate, false},
		{"--no-simulate", "apt-get -s --no-simulate upgrade", TierMutate, false},
		{"after --", "apt-get upgrade -- -s", TierMutate, false},
		{"update", "apt-get -s update", TierMutate, false},
		{"clean", "apt-get -s clean", TierMutate, false},
		{"computed", `apt-get -s "$V" upgrade`, TierMutate, false},
		{"pre-invoke", "apt-get -s -oDpkg::Pre-Invoke::=id upgrade", TierDestructive, false},
		{"dnf refresh", "dnf check-update --refresh", TierMutate, false},
		{"dnf upgrade", "dnf upgrade", TierMutate, false},
	})
}

// TestBlindSpotFp38ClusterReports: GlusterFS's and RADOS's state and
// usage reports and dnf's history list read; stopping or deleting a
// volume, removing a pool and undoing a transaction do not.
func TestBlindSpotFp38ClusterReports(t *testing.T) {
	p := protectedPolicy(t)
	runExactHosts(t, p, []exactCase{
		{"gluster volume info", "gluster volume info", TierRead},
		{"gluster volume info vol", "gluster volume info gv0", TierRead},
		{"gluster status detail", "gluster volume status gv0 detail", TierRead},
		{"gluster peer status", "sudo gluster peer status", TierRead},
		{"gluster script mode", "gluster --mode=script volume info", TierRead},
		{"rados df", "rados df", TierRead},
		{"rados lspools", "rados lspools", TierRead},
		{"dnf history", "dnf history", TierRead},
		{"yum history", "yum history", TierRead},
	})
	runBlindHosts(t, p, []blindCase{
		{"gluster stop", "gluster volume stop gv0", TierDestructive, false},
		{"gluster delete", "gluster volume delete gv0", TierDestructive, false},
		{"gluster log file", "gluster --log-file=/etc/x volume info", TierMutate, false},
		{"rados rmpool", "rados rmpool x x --yes-i-really-really-mean-it", TierDestructive, false},
		{"rados purge", "rados purge pool --yes-i-really-really-mean-it", TierDestructive, false},
		{"rados ls outfile", "rados -p pool ls /etc/x", TierMutate, false},
		{"dnf history undo", "dnf history undo 5", TierMutate, false},
		{"dnf history rollback", "dnf history rollback 3", TierMutate, false},
	})
}
