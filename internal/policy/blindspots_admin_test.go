package policy

import "testing"

// TestBlindSpotSysctlFile: sysctl -f is procps' other name for -p (and the
// BSDs' only one): it loads every key=value in the file, so it is not a
// read however it is spelled.
func TestBlindSpotSysctlFile(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"sysctl -f /tmp/x.conf",
		"sysctl -qf /tmp/x.conf",
		"sysctl -f/tmp/x.conf",
		"sysctl -e -f /tmp/x.conf",
		"sudo sysctl -f /tmp/x.conf",
		"env LC_ALL=C sysctl -f /tmp/x.conf",
		"sh -c 'sysctl -f /tmp/x.conf'",
	))
	runExact(t, p, []exactCase{
		{"-a", "sysctl -a", TierRead},
		{"-n key", "sysctl -n net.ipv4.ip_forward", TierRead},
		{"key", "sysctl vm.swappiness", TierRead},
	})
}

// TestBlindSpotDriveSetters: options of drive tools that read alone but
// set with a value. hdparm -N with a count moves the host protected area
// (data past it vanishes; "p" makes it permanent) in every way hdparm
// takes the count; smartctl -l scterc,R,W and scttempint,N set the drive's
// error recovery and logging in every spelling of -l/--log.
func TestBlindSpotDriveSetters(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"hdparm -N p1000 /dev/sda",
		"hdparm -N 1000 /dev/sda",
		"hdparm -Np1000 /dev/sda",
		"hdparm -N1000 /dev/sda",
		"hdparm -qN p1000 /dev/sda",
		"hdparm --yes-i-know-what-i-am-doing -N p1000 /dev/sda",
		"sudo hdparm -N P1000 /dev/sda",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"smartctl -l scterc,70,70 /dev/sda",
		"smartctl -lscterc,70,70 /dev/sda",
		"smartctl -al scterc,70,70 /dev/sda",
		"smartctl --log=scterc,70,70 /dev/sda",
		"smartctl --log scterc,reset /dev/sda",
		"smartctl --lo=scterc,70,70,p /dev/sda",
		"smartctl -l scttempint,1,p /dev/sda",
		"smartctl -l SCTTEMPINT,10 /dev/sda",
	))
	runExact(t, p, []exactCase{
		{"hdparm -N alone", "hdparm -N /dev/sda", TierRead},
		{"hdparm -I", "hdparm -I /dev/sda", TierRead},
		{"smartctl -l scterc", "smartctl -l scterc /dev/sda", TierRead},
		{"smartctl -l selftest", "smartctl -l selftest /dev/sda", TierRead},
		{"smartctl --log=error", "smartctl --log=error /dev/sda", TierRead},
		{"smartctl -x", "smartctl -x /dev/sda", TierRead},
	})
}

// TestBlindSpotAdminScripts: zpool status/iostat -c run scripts looked up
// in ZPOOL_SCRIPTS_PATH (~/.zpool.d before /etc/zfs/zpool.d), and
// LVM_SYSTEM_DIR and ZPOOL_SCRIPTS_PATH choose where those programs find
// the configuration and scripts they run.
func TestBlindSpotAdminScripts(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"zpool status -c upath",
		"zpool status -vc upath",
		"zpool iostat -c upath",
		"zpool iostat -v -c upath,smart tank 1 2",
		"sudo zpool status -c x",
	))
	runBlind(t, p, sameCases(TierDestructive, false,
		"ZPOOL_SCRIPTS_PATH=/tmp zpool status",
		"env ZPOOL_SCRIPTS_PATH=/tmp zpool list",
		"LVM_SYSTEM_DIR=/tmp/lvm lvs",
		"export LVM_SYSTEM_DIR=/tmp/lvm; vgs",
	))
	runExact(t, p, []exactCase{
		{"zpool status -v", "zpool status -v", TierRead},
		{"zpool iostat -v", "zpool iostat -v 1 2", TierRead},
	})
}

// TestBlindSpotLVMReports: lvs, vgs, pvs and the other reporting commands
// read, alone or under "lvm", except with --config or a profile (lvm.conf
// text whose log/file is a file every command appends to), config's
// --file, vgscan --mknodes and pvscan --cache/--activate.
func TestBlindSpotLVMReports(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		`lvs --config 'log{file="/root/.bashrc" level=7}'`,
		`lvs --config='log/file="/tmp/x"'`,
		`vgs --config 'log{file="/tmp/x"}' vg0`,
		`pvdisplay --config 'log{file="/tmp/x"}'`,
		`lvm lvs --config 'log{file="/tmp/x"}'`,
		`sudo pvs --config 'log{file="/tmp/x"}'`,
		"vgs --commandprofile x",
		"lvs --profile=x",
		"lvs --metadataprofile x",
		"lvm dumpconfig --file /etc/lvm/lvm.conf",
		"lvm config -f /etc/lvm/lvm.conf",
		"lvmconfig --file=/etc/lvm/lvm.conf",
		"lvmconfig --fi /etc/lvm/lvm.conf",
		"lvm vgscan --mknodes",
		"lvm vgscan --mknod",
		"lvm pvscan --cache",
		"lvm pvscan -aay",
		"lvm pvscan --activate ay",
	))
	runExact(t, p, []exactCase{
		{"lvs", "lvs", TierRead},
		{"lvs -o", "lvs -o +devices,seg_pe_ranges", TierRead},
		{"lvs --configreport", "lvs --configreport log", TierRead},
		{"lvs json", "lvs --reportformat json -a", TierRead},
		{"vgs", "vgs -v", TierRead},
		{"pvs", "pvs", TierRead},
		{"lvdisplay -m", "lvdisplay -m", TierRead},
		{"vgdisplay", "vgdisplay vg0", TierRead},
		{"lvscan", "lvscan", TierRead},
		{"lvm lvs", "lvm lvs", TierRead},
		{"lvm pvscan", "lvm pvscan", TierRead},
		{"lvmconfig", "lvmconfig --type full", TierRead},
		{"lvm dumpconfig", "lvm dumpconfig", TierRead},
	})
}

// TestBlindSpotBusAddress: a D-Bus address is a list of transports, and
// unixexec: runs the program it names, so DBUS_SYSTEM_BUS_ADDRESS and the
// other address variables before any systemd client (systemctl status,
// loginctl list-sessions), and a client's --address, run a program of the
// caller's choosing; tcp: hosts meet the host rules; plain unix: sockets
// stay reads.
func TestBlindSpotBusAddress(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/bin/sh,argv1=-c,argv2=id systemctl status",
		"DBUS_SESSION_BUS_ADDRESS=unixexec:path=/tmp/x systemctl --user status",
		"DBUS_STARTER_ADDRESS=unixexec:path=/tmp/x hostnamectl",
		"DBUS_SYSTEM_BUS_ADDRESS='unix:path=/nonexistent;unixexec:path=/tmp/x' timedatectl status",
		"export DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/tmp/x; systemctl status",
		"env DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/tmp/x loginctl list-sessions",
		"sudo DBUS_SYSTEM_BUS_ADDRESS=unixexec:path=/tmp/x systemctl status",
		"busctl --address=unixexec:path=/tmp/x list",
		"busctl --address unixexec:path=/tmp/x tree",
		"busctl --addr=unixexec:path=/tmp/x list",
		"gdbus introspect --address unixexec:path=/tmp/x -d a -o /",
		"gdbus introspect -a unixexec:path=/tmp/x -d a -o /",
		"dbus-send --address=unixexec:path=/tmp/x / a.b",
		"dbus-monitor --address unixexec:path=/tmp/x",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"DBUS_SYSTEM_BUS_ADDRESS=$(cat /tmp/addr) systemctl status",
		"A=unixexec:path=/tmp/x; DBUS_SYSTEM_BUS_ADDRESS=$A systemctl status",
		"DBUS_SESSION_BUS_ADDRESS=autolaunch: systemctl --user status",
		"busctl --address=autolaunch: list",
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"DBUS_SYSTEM_BUS_ADDRESS=tcp:host=169.254.169.254,port=80 systemctl status",
		"DBUS_SYSTEM_BUS_ADDRESS=nonce-tcp:host=%31%36%39.254.169.254,port=80 systemctl status",
		"busctl --address=tcp:host=169.254.169.254,port=80 list",
	))
	runExact(t, p, []exactCase{
		{"unix system bus", "DBUS_SYSTEM_BUS_ADDRESS=unix:path=/run/dbus/system_bus_socket systemctl status", TierRead},
		{"unix user bus", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1000/bus systemctl --user status", TierRead},
		{"busctl list", "busctl list", TierRead},
		{"busctl unix address", "busctl --address=unix:path=/run/dbus/system_bus_socket list", TierRead},
		{"dbus-monitor", "dbus-monitor --system", TierRead},
	})
}

// TestBlindSpotClientConfigDirs: docker's configuration directory
// (--config, DOCKER_CONFIG) is where it finds the CLI plugins it runs for
// compose, buildx and the rest, and HELM_PLUGINS and HELM_DATA_HOME choose
// helm's plugins (downloaders, post-renderers): they choose code, like
// KUBECONFIG. kubectl --profile writes profile.pprof or --profile-output,
// and klog's --log-file/--log-dir write logs.
func TestBlindSpotClientConfigDirs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"DOCKER_CONFIG=/tmp/c docker compose ps",
		"export DOCKER_CONFIG=/tmp/c; docker buildx ls",
		"env DOCKER_CONFIG=/tmp/c docker ps",
		"docker --config /tmp/c compose ps",
		"docker --config=/tmp/c ps",
		"sudo docker --config /tmp/c compose ls",
		"HELM_PLUGINS=/tmp/p helm list",
		"HELM_DATA_HOME=/tmp/d helm template x ./chart",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"kubectl get pods --profile=cpu",
		"kubectl get pods --profile heap --profile-output /etc/x",
		"kubectl --profile=goroutine --profile-output=/root/.bashrc version",
		"k3s kubectl get pods --profile=cpu",
		"kubectl get pods --log-file=/etc/x --logtostderr=false",
		"kubectl get pods --log_file /etc/x",
		"kubectl get pods --log-dir=/etc --logtostderr=false",
	))
	runExact(t, p, []exactCase{
		{"docker ps", "docker ps -a", TierRead},
		// A saved context may reach its host through ssh, as -H ssh:// does.
		{"docker context", "docker -c prod ps", TierBenign},
		{"docker compose ps", "docker compose ps", TierRead},
		{"kubectl get", "kubectl get pods -A", TierRead},
		{"kubectl --profile=none", "kubectl get pods --profile=none", TierRead},
		{"helm list", "helm list -A", TierRead},
	})
}

// TestBlindSpotLibvirtURI: a libvirt URI's ext transport runs its
// command= program and the ssh transport runs command= in place of ssh
// (and netcat= on the far host), in virsh -c and in LIBVIRT_DEFAULT_URI
// or VIRSH_DEFAULT_CONNECT_URI before any libvirt client, with the
// parameter names unescaped as libvirt does; a URI or daemon address
// computed at run time is tier 3 like ssh's destination; a file log
// output and dommemstat --period write.
func TestBlindSpotLibvirtURI(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"virsh -c qemu+ext:///system?command=/tmp/x list",
		"virsh --connect=qemu+ext:///system?command=/tmp/x list",
		"virsh -c 'qemu+ssh://h/system?command=/tmp/x' list",
		"virsh -c 'qemu+ssh://h/system?comm%61nd=/tmp/x' list",
		"virsh -c 'qemu+ssh://h/system?netcat=/tmp/x' dominfo vm",
		"virsh -c 'xen+EXT:///?command=/tmp/x' list",
		`virsh -c "$(cat /tmp/u)" list`,
		"LIBVIRT_DEFAULT_URI=qemu+ext:///system?command=/tmp/x virsh list",
		"VIRSH_DEFAULT_CONNECT_URI=qemu+ext:///system?command=/tmp/x virsh list",
		"export LIBVIRT_DEFAULT_URI='qemu+ssh://h/system?command=/tmp/x'; virsh list",
		`LIBVIRT_DEFAULT_URI="$(cat /tmp/u)" virsh list`,
		`kubectl -s "$(cat /tmp/u)" get pods`,
		`docker -H "$(cat /tmp/h)" ps`,
	))
	runBlind(t, p, sameCases(TierDestructive, true,
		"LIBVIRT_DEFAULT_URI=qemu+ssh://169.254.169.254/system virsh list",
		"virsh -c qemu+ssh://169.254.169.254/system list",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"LIBVIRT_LOG_OUTPUTS=1:file:/etc/x virsh list",
		"virsh dommemstat vm --period 10",
	))
	runExact(t, p, []exactCase{
		{"system URI", "virsh -c qemu:///system list --all", TierRead},
		{"default URI", "LIBVIRT_DEFAULT_URI=qemu:///system virsh list", TierRead},
		{"stderr log", "LIBVIRT_LOG_OUTPUTS=1:stderr virsh list", TierRead},
		{"dommemstat", "virsh dommemstat vm", TierRead},
		{"ssh keyfile", "virsh -c 'qemu+ssh://h/system?keyfile=/root/.ssh/k' list", TierBenign},
		{"docker socket", "docker -H unix:///var/run/docker.sock ps", TierRead},
	})
}

// TestBlindSpotIwCommands: iw reads only with the commands that report
// (info, link, scan, station dump, get, reg get …); the many that
// configure a radio, start an access point, send vendor frames or leave
// the channel are tier 2, whatever device spelling precedes them.
func TestBlindSpotIwCommands(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"iw dev wlan0 ap start x",
		"iw dev wlan0 vendor send 0x001374 0x1 0x2",
		"iw dev wlan0 offchannel 2412 100",
		"iw dev wlan0 switch channel 1",
		"iw dev wlan0 roc start 2412 100",
		"iw dev wlan0 cqm rssi -50 2",
		"iw phy0 wowlan enable any",
		"iw phy phy0 coalesce enable /tmp/x",
		"iw wlan0 disconnect",
		"iw dev wlan0 scan abort",
		"iw reg reload",
		"iw --debug dev wlan0 ap stop",
		"sudo iw wdev 0x1 ftm start_responder",
	))
	runExact(t, p, []exactCase{
		{"dev", "iw dev", TierRead},
		{"link", "iw dev wlan0 link", TierRead},
		{"short link", "iw wlan0 link", TierRead},
		{"station dump", "iw dev wlan0 station dump", TierRead},
		{"scan", "iw dev wlan0 scan -u freq 2412", TierBenign},
		{"scan trigger", "iw dev wlan0 scan trigger", TierBenign},
		{"scan dump", "iw wlan0 scan dump", TierRead},
		{"get", "iw dev wlan0 get power_save", TierRead},
		{"phy info", "iw phy phy0 info", TierRead},
		{"list", "iw list", TierRead},
		{"reg get", "iw reg get", TierRead},
		{"phy reg get", "iw phy phy0 reg get", TierRead},
		{"wowlan show", "iw phy phy0 wowlan show", TierRead},
		{"event", "iw event -t", TierRead},
	})
}

// TestBlindSpotCertbotDirs: every certbot run writes its log to
// --logs-dir and locks --config-dir and --work-dir, creating them, and a
// --config file can set all three, so they are not reads however
// abbreviated.
func TestBlindSpotCertbotDirs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"certbot certificates --logs-dir /etc/cron.d",
		"certbot certificates --logs-d=/etc/cron.d",
		"certbot certificates --config-dir /etc/x",
		"certbot certificates --work-dir=/etc/x",
		"certbot plugins -c /tmp/cli.ini",
		"sudo certbot certificates --logs-dir /etc",
	))
	runExact(t, p, []exactCase{
		{"certificates", "certbot certificates", TierRead},
		{"certificates name", "certbot certificates --cert-name example.com", TierRead},
	})
}

// TestBlindSpotReadByDefault: programs that read by default but set with
// options a deny list kept missing are read-only by an allow list:
// nvidia-smi's options per subcommand (clock locks, accounting, driver
// and GPU operation modes, MIG instances, -f files), ifconfig with any
// word after the interface (-arp, -promisc), route with any command but
// get, show and monitor (change), and arp's setters in clusters (-Ds).
func TestBlindSpotReadByDefault(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"nvidia-smi --lock-gpu-clocks=1000,1000",
		"nvidia-smi -am 1",
		"nvidia-smi --accounting-mode=1",
		"nvidia-smi -caa",
		"nvidia-smi -dm 1",
		"nvidia-smi --gom=1",
		"nvidia-smi --auto-boost-default=0",
		"nvidia-smi -q -f /etc/x",
		"nvidia-smi --filename=/etc/x",
		"nvidia-smi --debug=/tmp/x",
		"nvidia-smi -i 0 -pm 1",
		"nvidia-smi mig -cgi 9,9 -C",
		"nvidia-smi mig -dgi",
		"nvidia-smi nvlink -sc 0bz",
		"nvidia-smi nvlink -r 0",
		"nvidia-smi dmon -f /etc/x",
		"nvidia-smi clocks --lock-gpu 1000",
		"nvidia-smi drain -p 0 -m 1",
		"nvidia-smi boost-slider --vboost 1",
		"ifconfig eth0 -arp",
		"ifconfig eth0 -promisc",
		"ifconfig -a eth0 -alias",
		"route change default 192.0.2.1",
		"route -n change default 192.0.2.1",
		"route -T 1 add default 192.0.2.1",
		"arp -Ds 192.0.2.1 eth0 pub",
		"arp -da",
		"arp -S 192.0.2.1 aa:bb:cc:dd:ee:ff",
		"arp -i eth0 -d 192.0.2.1",
	))
	runExact(t, p, []exactCase{
		{"nvidia-smi", "nvidia-smi", TierRead},
		{"nvidia-smi -q", "nvidia-smi -q -d MEMORY -i 0", TierRead},
		{"nvidia-smi query", "nvidia-smi --query-gpu=name,utilization.gpu --format=csv,noheader -l 1", TierRead},
		{"nvidia-smi -L", "nvidia-smi -L", TierRead},
		{"nvidia-smi topo", "nvidia-smi topo -m", TierRead},
		{"nvidia-smi dmon", "nvidia-smi dmon -s pucvmet -c 5", TierRead},
		{"nvidia-smi mig -lgi", "nvidia-smi mig -lgi", TierRead},
		{"nvidia-smi nvlink -s", "nvidia-smi nvlink -s", TierRead},
		{"ifconfig", "ifconfig -a", TierRead},
		{"ifconfig eth0", "ifconfig eth0", TierRead},
		{"route -n", "route -n", TierRead},
		{"route -A", "route -A inet6", TierRead},
		{"route get", "route -n get default", TierRead},
		{"arp -an", "arp -an", TierRead},
	})
}

// TestBlindSpotHaproxyCheck: haproxy -c parses the configuration and runs
// its lua-load scripts, whose Lua can call os.execute, so a check of a
// file outside /etc/haproxy is not a read, like nginx -t -c.
func TestBlindSpotHaproxyCheck(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"haproxy -c -f /tmp/x.cfg",
		"haproxy -cf /tmp/x.cfg",
		"haproxy -c -f /etc/haproxy/../../tmp/x.cfg",
		"haproxy -c -f /etc/haproxy/haproxy.cfg -f /tmp/x.cfg",
		`haproxy -c -f "$F"`,
		"sudo haproxy -c -f /home/u/h.cfg",
	))
	runExact(t, p, []exactCase{
		{"system config", "haproxy -c -f /etc/haproxy/haproxy.cfg", TierRead},
		{"system dir", "haproxy -c -f /etc/haproxy/conf.d", TierRead},
	})
}

// TestBlindSpotFirewallModprobe: the iptables family's --modprobe (-M)
// names the program run as root to load a missing table's module, in
// every tool that takes it and in getopt's spellings; ebtables'
// --atomic-save and --atomic-init write the atomic file and
// --atomic-commit loads it in place of the tables.
func TestBlindSpotFirewallModprobe(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"iptables -t raw -L --modprobe=/tmp/x",
		"iptables --modprobe /tmp/x -L",
		"iptables -L -M /tmp/x",
		"iptables -nL -M/tmp/x",
		"iptables -nM /tmp/x -L",
		"iptables -L --modp=/tmp/x",
		"ip6tables -S -M /tmp/x",
		"iptables-legacy -L --modprobe=/tmp/x",
		"iptables-nft -L --modprobe=/tmp/x",
		"iptables-save -M /tmp/x",
		"ip6tables-save --modprobe=/tmp/x",
		"iptables-restore --test -M /tmp/x /etc/iptables/rules.v4",
		"ebtables -M /tmp/x -L",
		"arptables -L --modprobe=/tmp/x",
		"sudo iptables -L -M /tmp/x",
		"ebtables --atomic-commit",
		"ebtables --atomic-file /tmp/x --atomic-c",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"ebtables --atomic-file /etc/x --atomic-save",
		"ebtables --atomic-save",
		"ebtables --atomic-init",
	))
	runExact(t, p, []exactCase{
		{"iptables -L", "iptables -nvL --line-numbers", TierRead},
		{"iptables -S", "iptables -t nat -S", TierRead},
		{"iptables-save", "iptables-save -c", TierRead},
		{"ebtables -L", "ebtables -t nat -L --Lc", TierRead},
		{"ebtables atomic file list", "ebtables --atomic-file /tmp/x -L", TierRead},
		{"arptables -L", "arptables -L", TierRead},
	})
}

// TestBlindSpotQueryServers: whois sends its query text to the server -h
// or QUERY@SERVER names, on any port with -p (an HTTP request to a
// metadata service, like nc), and upsc and apcaccess query the host they
// name: the host rules apply to those servers.
func TestBlindSpotQueryServers(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, true,
		"whois -h 169.254.169.254 -p 80 'GET /latest/meta-data/ HTTP/1.0'",
		"whois -h169.254.169.254 x",
		"whois --host=169.254.169.254 x",
		"whois --ho 169.254.169.254 x",
		"whois x@169.254.169.254",
		"whois -h metadata.google.internal x",
		"upsc ups@169.254.169.254:3493",
		"apcaccess -h 169.254.169.254:3551",
		"apcaccess status 169.254.169.254:3551",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		`whois -h "$H" x`,
		`whois $(cat /tmp/q)`,
	))
	runExact(t, p, []exactCase{
		{"whois", "whois example.com", TierRead},
		{"whois -h", "whois -h whois.ripe.net 192.0.2.1", TierRead},
		{"upsc", "upsc ups@localhost", TierRead},
		{"upsc -l", "upsc -l", TierRead},
		{"apcaccess", "apcaccess", TierRead},
	})
}

// TestBlindSpotArchiveLogs: list and test modes that still write: rar and
// unrar's -ilog[FILE] and -log[=FILE] (and the RAR variable, which holds
// default switches), zstd's --trace FILE in every mode.
func TestBlindSpotArchiveLogs(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"unrar t x.rar -ilog/etc/x",
		"unrar l -ilog x.rar",
		"rar l x.rar -log=/etc/x",
		"rar lt x.rar -logf=/etc/x",
		"RAR=-ilog/etc/x unrar t x.rar",
		"zstd -t --trace /etc/x x.zst",
		"zstd -t --trace=/etc/x x.zst",
		"zstd --trace /etc/x -dc x.zst",
		"unzstd --trace /etc/x x.zst",
	))
	runExact(t, p, []exactCase{
		{"unrar l", "unrar l x.rar", TierRead},
		{"unrar t", "unrar t x.rar", TierRead},
		{"7z l", "7z l -slt x.7z", TierRead},
		{"zstd -t", "zstd -t x.zst", TierRead},
		{"zstd -dc", "zstd -dc x.zst", TierRead},
	})
}

// TestBlindSpotAdminEnv: variables that choose the code or the remote
// host of administration tools are tier 3 before any command.
func TestBlindSpotAdminEnv(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"CONTAINER_HOST=ssh://root@h/run/podman/podman.sock podman ps",
		"CONTAINERS_CONF=/tmp/c podman ps",
		"CONTAINERS_CONF_OVERRIDE=/tmp/c podman ps",
		"KRB5_CONFIG=/tmp/k ssh h id",
		"SASL_PATH=/tmp ldapsearch -x",
		"GIO_EXTRA_MODULES=/tmp gsettings list-schemas",
		"ZIPOPT='-TT id' zip -T x.zip",
		"export CONTAINERS_CONF=/tmp/c; podman ps",
		"env KRB5_CONFIG=/tmp/k kinit -k",
	))
}

// TestBlindSpotPackageQueries: package queries that run or write: an rpm
// macro built to run a shell through %{expand:…} (whose result is
// expanded again), %{load:FILE} or %[…], and apt-cache's -p/-s cache
// files, which it rewrites when stale.
func TestBlindSpotPackageQueries(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"rpm -q --define 'p %' --define '_dbpath %{expand:%{p}(id)}' x",
		"rpm -qa -D '_dbpath %{expand:%%%(id)}'",
		"rpm -q --define '_dbpath %{load:/tmp/m}' x",
		"rpm -q --define '_dbpath %[ 1 ]' x",
		"rpm -q --define '_dbpath %{LUA:os.execute(\"id\")}' x",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"apt-cache -p /etc/x show x",
		"apt-cache --pkg-cache=/etc/x show x",
		"apt-cache -s /etc/x show x",
		"apt-cache --src-cache=/etc/x policy",
	))
	runExact(t, p, []exactCase{
		{"rpm -qa", "rpm -qa", TierRead},
		{"rpm --eval", "rpm --eval '%{_arch}'", TierRead},
		{"rpm define", "rpm -q --define '_dbpath /var/lib/rpm' bash", TierRead},
		{"apt-cache show", "apt-cache show bash", TierRead},
		{"apt-cache policy", "apt-cache policy", TierRead},
	})
}

// TestBlindSpotConfigPrograms: mdadm --monitor runs a configuration's
// PROGRAM line on each event as it runs --program, so a one-shot monitor
// with a configuration outside /etc is not a read; cryptsetup's dumps
// write the volume key to --volume-key-file (--master-key-file).
func TestBlindSpotConfigPrograms(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierMutate, false,
		"mdadm --monitor --scan --oneshot --config=/tmp/x",
		"mdadm --monitor --oneshot --scan -c /tmp/x",
		"mdadm -F -1 --scan -c /tmp/x",
		"mdadm --mon --one --scan --conf=/tmp/x",
		"cryptsetup luksDump --volume-key-file /etc/k --dump-volume-key /dev/sda",
		"cryptsetup luksDump --master-key-file=/etc/k --dump-master-key /dev/sda",
		"cryptsetup bitlkDump --volume-key-file /etc/k --dump-volume-key /dev/sda",
	))
	runExact(t, p, []exactCase{
		{"oneshot", "mdadm --monitor --scan --oneshot", TierRead},
		{"oneshot system config", "mdadm --monitor --scan --oneshot -c /etc/mdadm/mdadm.conf", TierRead},
		{"test alerts", "mdadm --monitor --scan --oneshot --test", TierBenign},
		{"test alerts abbreviated", "mdadm --monitor --scan --oneshot --te", TierBenign},
		{"test alerts clustered", "mdadm -F1ts", TierBenign},
		{"journal of an image", "journalctl --image=/tmp/disk.img -b", TierMutate},
		{"journal of an image abbreviated", "journalctl --ima /tmp/disk.img", TierMutate},
		{"journal of a directory", "journalctl --directory=/var/log/journal -n 5", TierRead},
		{"detail scan config", "mdadm -Ds --config=/tmp/x", TierRead},
		{"luksDump", "cryptsetup luksDump /dev/sda", TierRead},
	})
}

// TestBlindSpotDestructiveAdmin: commands that destroy data, flash
// firmware or cut access were tier 2, which open mode runs unasked:
// router and NAS flash and factory-reset tools, sg3_utils and sedutil
// erasers, LVM commands that drop or move physical volumes, hdparm's
// sector, firmware, capacity and password options, badblocks -w,
// dmsetup suspend/reload, zfs receive -F in a cluster, btrfs
// subcommands abbreviated within their group, and stopping dropbear.
func TestBlindSpotDestructiveAdmin(t *testing.T) {
	p := testPolicy(t)
	runBlind(t, p, sameCases(TierDestructive, false,
		"mtd -r write /tmp/fw.bin firmware",
		"sysupgrade -n /tmp/fw.bin",
		"flashcp /tmp/x /dev/mtd0",
		"nandwrite /dev/mtd0 /tmp/x",
		"fw_setenv bootcmd x",
		"sg_raw /dev/sda 04 00 00 00 00 00",
		"sg_write_buffer --in=/tmp/fw --mode=dmc_save /dev/sg0",
		"sedutil-cli --PSIDrevert x /dev/sda",
		"vgreduce --removemissing --force vg",
		"vgsplit a b /dev/sda",
		"pvmove /dev/sda",
		"pvcreate -ff /dev/sda",
		"vgcfgrestore -f /tmp/x vg",
		"hdparm --write-sector 0 --yes-i-know-what-i-am-doing /dev/sda",
		"hdparm --repair-sector 0 --yes-i-know-what-i-am-doing /dev/sda",
		"hdparm --fwdownload-mode3 /tmp/x --yes-i-know-what-i-am-doing --please-destroy-my-drive /dev/sda",
		"hdparm --security-set-pass x /dev/sda",
		"hdparm --user-master u --security-disable x /dev/sda",
		"hdparm --dco-restore /dev/sda",
		"dmsetup suspend vg-root",
		"dmsetup reload vg-root /tmp/t",
		"zfs receive -Fu tank/x",
		"zfs recv -uF tank/x",
		"btrfs su de /a",
		"btrfs sub del /a",
		"/etc/init.d/dropbear stop",
		"service dropbear stop",
		"sudo sysupgrade /tmp/fw.bin",
	))
	runBlind(t, p, sameCases(TierMutate, false,
		"badblocks -n /dev/sda",
		"badblocks -o /etc/x /dev/sda",
	))
	runExact(t, p, []exactCase{
		{"badblocks read", "badblocks -b 4096 -sv /dev/sda", TierRead},
		{"btrfs su li", "btrfs su li /", TierRead},
		{"dmsetup ls", "dmsetup ls --tree", TierRead},
		{"hdparm -I", "hdparm -I /dev/sda", TierRead},
		{"zfs recv -u", "zfs recv -u tank/x", TierMutate},
	})
}
