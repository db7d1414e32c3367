package policy

import "testing"

// TestEverydayDiagnosticTools: diagnostic programs the classifier did not
// know are tier 0 in their read-only forms (slabtop, avahi-browse,
// OpenWrt's jsonfilter, sg_inq, pmap, utmpdump, arping, drill, mii-tool,
// pfSense's clog, a bare iwconfig, systemd-resolve's queries,
// OpenMediaVault's omv-showkey, omv-confdbadm read and omv-env list,
// containerd's ctr listings and rbd's); the options that write, announce,
// reset or set, and the changing subcommands, stay tier 2 or 3.
func TestEverydayDiagnosticTools(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"slabtop -o",
		"slabtop -o -s c | head -20",
		"avahi-browse -atr | head",
		"avahi-browse -tp _ssh._tcp",
		"jsonfilter -i /etc/board.json -e '@.model.id'",
		"ubus call system board | jsonfilter -e '@.release.version'",
		"sg_inq /dev/sg0",
		"pmap -x 1234",
		"pmap -XX 1234 | tail -1",
		"utmpdump /var/log/wtmp | tail",
		"arping -c 3 -I eth0 192.168.1.1",
		"arping -D -c 2 -I eth0 192.168.1.50",
		"drill example.com",
		"drill -T example.com",
		"drill @192.168.1.1 nas.lan A",
		"mii-tool -v eth0",
		"clog /var/log/filter.log | tail",
		"clog -f /var/log/system.log & sleep 2; kill $!",
		"iwconfig",
		"iwconfig wlan0",
		"systemd-resolve --status",
		"systemd-resolve --statistics",
		"systemd-resolve -i eth0 example.com",
		"omv-showkey smb",
		"omv-confdbadm read conf.system.network.interface",
		"omv-confdbadm read --prettify conf.service.smb",
		"omv-env list",
		"omv-env get OMV_SSL_CERTIFICATE_DIR",
		"ctr -n k8s.io containers ls",
		"ctr images ls",
		"ctr -n k8s.io tasks ls",
		"ctr version",
		"rbd ls",
		"rbd ls -l rbd",
		"rbd info rbd/vm-100-disk-0",
		"rbd snap ls rbd/vm-100-disk-0",
		"rbd du -p rbd",
		"rbd showmapped",
	))
	runExactHosts(t, p, []exactCase{
		{"pmap create rc", "pmap -n 1234", TierMutate},
		{"pmap create rc to", "pmap -N /tmp/pmaprc 1234", TierMutate},
		{"utmpdump output", "utmpdump -o /tmp/wtmp /tmp/wtmp.txt", TierMutate},
		{"arping unsolicited", "arping -U -c 3 -I eth0 192.168.1.1", TierMutate},
		{"arping source", "arping -s 192.168.1.1 -c 3 192.168.1.5", TierMutate},
		{"arping answer", "arping -A -I eth0 192.168.1.1", TierMutate},
		{"drill write", "drill -w /tmp/answer example.com", TierMutate},
		{"mii-tool restart", "mii-tool -r eth0", TierMutate},
		{"mii-tool force", "mii-tool -F 10baseT-HD eth0", TierMutate},
		{"clog init", "clog -i -s 10000 /var/log/filter.log", TierMutate},
		{"iwconfig set", "iwconfig wlan0 essid x", TierMutate},
		{"iwconfig txpower", "iwconfig wlan0 txpower 0", TierMutate},
		{"systemd-resolve set", "systemd-resolve --set-dns=1.1.1.1 --interface=eth0", TierMutate},
		{"systemd-resolve flush", "systemd-resolve --flush-caches", TierMutate},
		{"omv populate", "omv-confdbadm populate", TierMutate},
		{"omv env set", "omv-env set OMV_X y", TierMutate},
		{"ctr pull", "ctr i pull docker.io/library/alpine:latest", TierMutate},
		{"rbd snap create", "rbd snap create rbd/x@s", TierMutate},
		{"rbd export", "rbd export rbd/x /tmp/x.img", TierMutate},
		{"rbd map", "rbd map rbd/x", TierMutate},
		{"rbd conf", "rbd -c /tmp/ceph.conf ls", TierMutate},
		{"rbd cluster", "rbd --cluster x ls", TierMutate},
		{"rbd snap alone", "rbd snap", TierMutate},
		{"computed option", "slabtop $(cat /tmp/x)", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ctr run docker.io/library/alpine:latest x sh",
		"ctr -n k8s.io tasks exec --exec-id x abc sh",
		"ctr images rm x",
		"ctr c rm x",
		"ctr $(cat /tmp/x) ls",
		"rbd rm rbd/x",
		"rbd snap purge rbd/x",
		"omv-confdbadm delete --uuid x conf.system.x",
		"CEPH_ARGS='--plugin-dir /tmp/x' rbd ls",
	))
}

// TestEverydayFirewallAndBSD: nft monitor and describe, the -legacy and
// -nft builds of iptables-save, pvesh get on a path computed at run time,
// docker compose events and podman's pod reads, FreeBSD's service
// onestatus, kldstat, freebsd-version, camcontrol and geom listings,
// OpenWrt's ifstatus and the RAS and MCE clients' reports are tier 0;
// the -restore builds, pvesh's other verbs on computed paths, FreeBSD's
// onestop of sshd and the erasing camcontrol verbs are tier 3.
func TestEverydayFirewallAndBSD(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"nft monitor & sleep 2; kill $!",
		"nft monitor trace",
		"nft describe tcp dport",
		"iptables-legacy-save",
		"iptables-nft-save -t nat | grep -i masq",
		"ip6tables-legacy-save",
		"pvesh get /nodes/$(hostname)/disks/list --output-format json-pretty",
		`pvesh get "/nodes/$node/qemu"`,
		"docker compose events --json & sleep 2; kill $!",
		"podman pod inspect web",
		"podman pod top web",
		"service sshd onestatus",
		"service ntpd rcvar",
		"kldstat -v",
		"ntpstat",
		"freebsd-version -ku",
		"camcontrol devlist",
		"camcontrol identify ada0",
		"geom disk list",
		"geom part status",
		"ifstatus wan",
		"ifstatus lan | jsonfilter -e '@.up'",
		"ras-mc-ctl --summary",
		"mcelog --client",
		"midclt call smart.test.results",
	))
	runExactHosts(t, p, []exactCase{
		{"nft add", "nft add rule inet filter input tcp dport 22 accept", TierMutate},
		{"iptables-legacy-save -f", "iptables-legacy-save -f /tmp/rules", TierMutate},
		{"service onestart", "service nginx onestart", TierMutate},
		{"freebsd-version -j", "freebsd-version -j jail1", TierMutate},
		{"camcontrol tags set", "camcontrol tags da0 -N 32", TierMutate},
		{"geom mirror stop", "geom mirror stop gm0", TierMutate},
		{"geom label create", "geom label create x ada0", TierMutate},
		{"ifstatus extra", "ifstatus wan x", TierMutate},
		{"ras-mc-ctl register", "ras-mc-ctl --register-labels", TierMutate},
		{"mcelog daemon", "mcelog --daemon", TierMutate},
		{"mcelog logfile", "mcelog --logfile /tmp/mce.log", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"iptables-legacy-restore /tmp/rules",
		"ip6tables-nft-restore < /tmp/rules",
		"pvesh delete /nodes/$(hostname)/qemu/100",
		"pvesh create /nodes/$(hostname)/qemu/100/status/stop",
		"pvesh set /nodes/$n/config --description x",
		"pvesh $(cat /tmp/verb) /nodes",
		"service sshd onestop",
		"camcontrol security ada0 -U user -s pass -e pass",
		"camcontrol format da0",
		"camcontrol sanitize da0 -a block",
		"nft monitor; nft flush ruleset",
	))
}

// TestEverydayBackupAndUITools: Proxmox Backup Server's manager listings,
// k9s's version and info, omv-sysinfo and a bare opnsense-version read;
// creating, initialising and removing, and k9s's terminal UI, do not.
func TestEverydayBackupAndUITools(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"proxmox-backup-manager datastore list",
		"proxmox-backup-manager task list --output-format json",
		"proxmox-backup-manager task log 'UPID:pbs:0000:x'",
		"proxmox-backup-manager versions",
		"proxmox-backup-manager disk list",
		"k9s version",
		"k9s info",
		"omv-sysinfo",
		"opnsense-version",
	))
	runExactHosts(t, p, []exactCase{
		{"pbs create", "proxmox-backup-manager datastore create x /mnt/x", TierMutate},
		{"pbs disk init", "proxmox-backup-manager disk initialize sdb", TierMutate},
		{"pbs cert update", "proxmox-backup-manager cert update", TierMutate},
		{"k9s ui", "k9s -n prod", TierMutate},
		{"opnsense-version option", "opnsense-version -x", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"proxmox-backup-manager datastore remove x --destroy-data",
		"proxmox-backup-manager prune-job remove x",
	))
}

// TestEverydayServiceClients: the reads of cluster, identity and service
// clients (kubeadm certs check-expiration, multipass list, flux get, php
// -m, a database client's --version, update-alternatives --display,
// mountpoint, lsfd, filefrag, vgck, pvck, klist, varnishstat, lxc-ls,
// realm list, sssctl domain-list, cscli decisions list) are tier 0; their
// renewing, pulling, reconciling, setting, repairing and removing forms,
// a query with the version option, klist -K and cscli with another
// configuration are not.
func TestEverydayServiceClients(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"kubeadm certs check-expiration",
		"kubeadm config print init-defaults",
		"kubeadm version -o short",
		"multipass list",
		"multipass info vm1",
		"flux get kustomizations -A",
		"flux logs --level=error",
		"php -m",
		"php -i | grep memory_limit",
		"mysql --version",
		"psql --version",
		"redis-cli --version",
		"sqlite3 -version",
		"update-alternatives --display editor",
		"update-alternatives --query java",
		"alternatives --display java",
		"mountpoint -q /mnt/data && echo mounted",
		"lsfd -p 1",
		"filefrag -v /var/lib/mysql/ibdata1",
		"e2freefrag /dev/sda1",
		"vgck vg0",
		"pvck /dev/sda2",
		"klist",
		"klist -k /etc/krb5.keytab",
		"varnishstat -1",
		"lxc-ls -f",
		"lxc-info -n web",
		"disown -a 2>/dev/null; true",
		"pg_lsclusters",
		"realm list",
		"sssctl domain-list",
		"cscli decisions list",
		"cscli alerts list -o json",
	))
	runExactHosts(t, p, []exactCase{
		{"kubeadm renew", "kubeadm certs renew all", TierMutate},
		{"kubeadm pull", "kubeadm config images pull", TierMutate},
		{"multipass exec", "multipass exec vm1 -- id", TierMutate},
		{"flux reconcile", "flux reconcile kustomization x", TierMutate},
		{"redis-cli -V", "redis-cli -V", TierMutate},
		{"alternatives set", "update-alternatives --set editor /usr/bin/vim.basic", TierMutate},
		{"alternatives config", "update-alternatives --config editor", TierMutate},
		{"alternatives install", "update-alternatives --install /usr/bin/x x /opt/x/bin/x 100", TierMutate},
		{"vgck update", "vgck --updatemetadata vg0", TierMutate},
		{"pvck repair", "pvck --repair /dev/sda2", TierMutate},
		{"pvck dump file", "pvck --dump metadata -f /tmp/x /dev/sda2", TierMutate},
		{"klist keys", "klist -K -k /etc/krb5.keytab", TierMutate},
		{"realm join", "realm join example.com", TierMutate},
		{"cscli add", "cscli decisions add --ip 192.0.2.1", TierMutate},
		{"cscli config", "cscli -c /tmp/config.yaml decisions list", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"kubeadm reset -f",
		"multipass delete vm1",
		"php -r 'echo 1;'",
		"php -m x.php",
		"mysql --version -e 'drop database x'",
		"realm leave",
		"sssctl cache-remove",
		"cscli decisions delete --all",
	))
}

// TestEverydayClusterClients: Vault's, Consul's, Nomad's and etcd's
// status reads are tier 0 with only their output and scope options;
// reading a secret's value, other options, sealing, leaving, stopping,
// draining and deleting are not, and an etcd endpoint without a scheme is
// checked against the host rules like a URL.
func TestEverydayClusterClients(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"vault status",
		"vault status -format=json | jq .sealed",
		"vault secrets list -detailed",
		"consul members",
		"consul members -detailed -status=alive",
		"consul catalog services",
		"nomad status",
		"nomad job status web",
		"nomad alloc logs -stderr abc123 web",
		"etcdctl endpoint health",
		"etcdctl --endpoints=https://127.0.0.1:2379 --cacert /etc/kubernetes/pki/etcd/ca.crt endpoint status -w table",
		"etcdctl member list -w json",
	))
	runExactHosts(t, p, []exactCase{
		{"vault kv get", "vault kv get secret/x", TierMutate},
		{"vault read", "vault read secret/x", TierMutate},
		{"vault seal", "vault operator seal", TierMutate},
		{"vault other option", "vault status -output-curl-string", TierMutate},
		{"consul kv get", "consul kv get x", TierMutate},
		{"consul leave", "consul leave", TierMutate},
		{"nomad drain", "nomad node drain -enable x", TierMutate},
		{"nomad too many", "nomad alloc logs abc web extra", TierMutate},
		{"etcdctl get", "etcdctl get / --prefix --keys-only", TierMutate},
		{"etcdctl extra", "etcdctl endpoint health extra", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"consul kv delete -recurse x",
		"nomad job stop web",
		"etcdctl del --prefix /",
		"etcdctl member remove x",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"etcdctl --endpoints=169.254.169.254:2379 endpoint health",
		"etcdctl --endpoints 10.1.2.3:2379,127.0.0.1:2379 member list",
		"vault status -address=http://169.254.169.254",
	))
}

// TestEverydayDNSChecks: the DNS servers' configuration checks (named-checkzone, unbound-checkconf,
// dnsmasq --test), unbound-control's listings, Pi-hole's status and
// query, and httpd -t are tier 0; the checks' output
// and directory options, dnsmasq without --test, unbound-control stats
// (which resets counters), Pi-hole's gravity update and httpd with
// another configuration are not.
func TestEverydayDNSChecks(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"named-checkzone example.com /etc/bind/db.example.com",
		"unbound-checkconf",
		"unbound-checkconf /etc/unbound/unbound.conf",
		"dnsmasq --test",
		"dnsmasq --test -C /etc/dnsmasq.conf",
		"unbound-control status",
		"unbound-control list_forwards",
		"pihole status",
		"pihole -c -e",
		"pihole -q example.com",
		"httpd -t",
		"httpd -S",
		"apache2 -t",
	))
	runExactHosts(t, p, []exactCase{
		{"checkzone -o", "named-checkzone -o /tmp/zone example.com /etc/bind/db.example.com", TierMutate},
		{"checkzone -t", "named-checkzone -t /tmp example.com db", TierMutate},
		{"dnsmasq server", "dnsmasq -C /etc/dnsmasq.conf", TierMutate},
		{"dnsmasq test script", "dnsmasq --test --dhcp-script=/tmp/x", TierMutate},
		{"unbound stats", "unbound-control stats", TierMutate},
		{"unbound flush", "unbound-control flush_zone example.com", TierMutate},
		{"pihole gravity", "pihole -g", TierMutate},
		{"pihole disable", "pihole disable", TierMutate},
		{"httpd -f", "httpd -f /etc/httpd/conf/httpd.conf -t", TierMutate},
		// A configuration under /tmp may load a module a tier 1 write put
		// there (projectdirs_config.go).
		{"httpd -f tmp", "httpd -f /tmp/x.conf -t", TierDestructive},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"unbound-control stop",
		"pihole uninstall",
		"httpd -k stop",
	))
}
