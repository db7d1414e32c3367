package policy

import "testing"

// exactRead makes one tier-0 case per command.
func exactRead(cmds ...string) []exactCase {
	cases := make([]exactCase, len(cmds))
	for i, c := range cmds {
		cases[i] = exactCase{c, c, TierRead}
	}
	return cases
}

// TestEverydayHomeAssistant: Home Assistant OS's ha reads the
// Supervisor's state with info, logs and stats, and lists with a bare
// group; restarts, updates and installs are tier 2, and power, restoring
// a backup or removing an add-on tier 3.
func TestEverydayHomeAssistant(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"ha core info",
		"ha core logs",
		"ha core logs --follow & sleep 2; kill $!",
		"ha supervisor info",
		"ha supervisor logs | tail -50",
		"ha host info",
		"ha network info",
		"ha os info",
		"ha resolution info",
		"ha addons",
		"ha addons info core_ssh",
		"ha addons logs core_mosquitto",
		"ha backups",
		"ha backups list",
		"ha --raw-json core stats | jq .data.memory_percent",
		"ha --log-level debug dns info",
		"ha info",
	))
	runExactHosts(t, p, []exactCase{
		{"ha core restart", "ha core restart", TierMutate},
		{"ha core update", "ha core update", TierMutate},
		{"ha addons install", "ha addons install core_ssh", TierMutate},
		{"ha addons start", "ha addons start core_ssh", TierMutate},
		{"ha unknown group verb", "ha addons frobnicate x", TierMutate},
		{"ha supervisor repair", "ha supervisor repair", TierMutate},
		{"ha core check", "ha core check", TierMutate},
	})
	// The host's power is denied, as midclt call system.reboot and
	// pvesh … --command reboot are.
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"ha host reboot",
		"ha host shutdown",
		"ha --api-token x host reboot",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"ha backups restore 1a2b3c4d",
		"ha backups remove 1a2b3c4d",
		"ha addons uninstall core_ssh",
		"ha $(cat /tmp/group) info",
	))
}

// TestEverydayProxmoxAndCeph: Proxmox VE's HA manager, firewall and Ceph
// front ends and the ceph client report state at tier 0 in their status
// forms; their changes stay tier 2 and removals tier 3, and a ceph
// option that writes a file, names another configuration or feeds it a
// command is not a read.
func TestEverydayProxmoxAndCeph(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"pveversion -v",
		"ha-manager status",
		"ha-manager config",
		"pve-firewall status",
		"pve-firewall compile | head",
		"pveceph status",
		"ceph -s",
		"ceph status",
		"ceph -s -f json-pretty",
		"ceph --format json health detail | jq .",
		"ceph health detail",
		"ceph osd tree",
		"ceph osd df tree",
		"ceph df detail",
		"ceph osd pool ls detail",
		"ceph --id admin mon stat",
		"ceph fs status",
		"ceph versions",
	))
	runExactHosts(t, p, []exactCase{
		{"ha-manager add", "ha-manager add vm:100", TierMutate},
		{"ha-manager migrate", "ha-manager migrate vm:100 pve2", TierMutate},
		{"pve-firewall restart", "pve-firewall restart", TierMutate},
		{"ceph config set", "ceph config set osd osd_max_backfills 4", TierMutate},
		{"ceph osd out", "ceph osd out 3", TierMutate},
		{"ceph -o", "ceph -o /tmp/out status", TierMutate},
		{"ceph --out-file", "ceph --out-file=/tmp/out health", TierMutate},
		{"ceph -c", "ceph -c /tmp/ceph.conf -s", TierMutate},
		{"ceph --cluster", "ceph --cluster ../../tmp/x -s", TierMutate},
		{"ceph -i", "ceph -i /tmp/map osd setcrushmap", TierMutate},
		{"ceph --admin-daemon", "ceph --admin-daemon /run/ceph/osd.0.asok status", TierMutate},
		{"ceph daemon", "ceph daemon osd.0 config set debug_osd 20", TierMutate},
		{"ceph tell", "ceph tell osd.* injectargs --osd-max-backfills=8", TierMutate},
		{"ceph interactive", "ceph", TierMutate},
		{"ceph format only", "ceph --format json", TierMutate},
		{"ceph user only", "ceph --user admin", TierMutate},
		{"ceph health mute", "ceph health mute OSD_DOWN", TierMutate},
		{"ceph osd tree extra", "ceph osd tree set x", TierMutate},
	})
	runBlindHosts(t, p, append(sameCases(TierDestructive, false,
		"pve-firewall stop",
		"pveceph purge",
		"pveceph pool destroy rbd",
		"pveceph osd destroy 3",
		"ceph osd pool delete rbd rbd --yes-i-really-really-mean-it",
		"ceph osd purge 3 --yes-i-really-mean-it",
		"ceph fs rm cephfs --yes-i-really-mean-it",
		"ceph $(cat /tmp/cmd)",
		`CEPH_ARGS="--plugin-dir /tmp/x" ceph -s`,
		"CEPH_CONF=/tmp/ceph.conf ceph health",
		"env CEPH_ARGS=--log-file=/etc/x ceph -s",
		"ha-manager remove vm:100",
	), sameCases(TierMutate, false,
		"export CEPH_ARGS='--plugin-dir /tmp/x'; ceph -s",
	)...))
}

// TestEverydayTrueNASLists: midclt's list methods, a form's *_choices
// and the named getters read; creating and changing stay tier 2.
func TestEverydayTrueNASLists(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"midclt call alert.list",
		"midclt call alert.list | jq '.[] | .formatted'",
		"midclt call alert.list_categories",
		"midclt call pool.dataset.compression_choices",
		"midclt call disk.temperatures",
		"midclt call boot.get_state",
		"midclt call system.ready",
		"/usr/local/bin/midclt call disk.get_unused",
	))
	runExactHosts(t, p, []exactCase{
		{"midclt create", "midclt call user.create '{}'", TierMutate},
		{"midclt update", "midclt call alert.dismiss abc", TierMutate},
		{"midclt bare list", "midclt call list", TierMutate},
		{"midclt choices odd", "midclt call x.y/_choices", TierMutate},
		{"midclt restore list", "midclt call alertservice.update 1 '{}'", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"midclt call pool.dataset.delete tank/x",
		"midclt call pool.export 1",
	))
}

// TestEverydayProcessQueries: chrt, taskset, ionice and prlimit asked
// about a running process only print its setting (tier 0); given a new
// value they change it (tier 2), and given a command they run it.
func TestEverydayProcessQueries(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"chrt -p 1234",
		"chrt -ap 1234",
		"chrt --pid 1234",
		"chrt -m",
		"taskset -p 1234",
		"taskset -cp 1234",
		"taskset -a -p 1234",
		"ionice -p 1234",
		"ionice -p 1234 5678",
		"ionice -p1234",
		"ionice -P 1234",
		"prlimit --pid 1234",
		"prlimit -p 1234",
		"prlimit --pid=1234 --nofile",
		"prlimit -p 1234 -n -o RESOURCE,SOFT,HARD",
	))
	runExactHosts(t, p, []exactCase{
		{"chrt set", "chrt -p 99 1234", TierMutate},
		{"chrt set fifo", "chrt -f -p 99 1234", TierMutate},
		{"chrt set pid long", "chrt --pid 99 1234", TierMutate},
		{"taskset set", "taskset -p 0x3 1234", TierMutate},
		{"taskset set list", "taskset -cp 0-3 1234", TierMutate},
		{"taskset set pid long", "taskset --pid 0x1 1234", TierMutate},
		{"ionice set", "ionice -c 3 -p 1234", TierMutate},
		{"ionice set data", "ionice -n7 -p 1234", TierMutate},
		{"ionice set long", "ionice --pid 1234 --class 3", TierMutate},
		{"prlimit set", "prlimit --pid 1234 --nofile=65536", TierMutate},
		{"prlimit set eq", "prlimit --pid=1234 --nofile=10:10", TierMutate},
		{"prlimit set short", "prlimit -p 1234 -n1024", TierMutate},
		{"prlimit set abbrev", "prlimit --pi=1234 --core=unlimited", TierMutate},
	})
	// A process id computed at run time may split into a value and an
	// id, and after -p nothing is run.
	runExactHosts(t, p, []exactCase{
		{"chrt computed pid", "chrt -p $(pgrep -o nginx)", TierMutate},
		{"taskset unquoted pid", "for p in $(pgrep nginx); do taskset -cp $p; done", TierMutate},
		{"chrt -p then words", "chrt -p 1234 rm -rf ./cache", TierMutate},
		{"taskset computed pid", "taskset -p $(cat /tmp/x)", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"chrt 10 rm -rf ./cache",
		"taskset -c 0 rm -rf ./cache",
		"ionice -c3 rm -rf ./cache",
		"prlimit --nofile=10 rm -rf ./cache",
	))
}

// TestEverydayRouterAndNASShapes: pfctl's display flags clustered with -s
// (-vvsr), conntrack -E with its event mask, OpenWrt's fw3 print, a lone
// status to an init script run by path and synospace --enum read; the
// same clusters with -F or -d, the changing verbs and actions, and an
// init script named after a power command stay high.
func TestEverydayRouterAndNASShapes(t *testing.T) {
	p := testPolicy(t)
	runExactHosts(t, p, exactRead(
		"pfctl -vvsr",
		"pfctl -vsr",
		"pfctl -vvs rules",
		"pfctl -gsr | head",
		"pfctl -vvsTables",
		"conntrack -E -e NEW -o timestamp & sleep 2; kill $!",
		"conntrack -E -e NEW,DESTROY -p tcp",
		"fw3 print",
		"fw3 -q print | grep -i zone",
		"/etc/init.d/nginx status",
		"/etc/init.d/dnsmasq status",
		"/etc/rc.d/rc.samba status",
		"/usr/local/etc/rc.d/nginx status",
		"synospace --enum",
		"synospace --enum -a",
	))
	runExactHosts(t, p, []exactCase{
		{"pfctl -ve", "pfctl -ve", TierMutate},
		{"pfctl -vf", "pfctl -vf /etc/pf.conf", TierMutate},
		{"pfctl -vt add", "pfctl -vt bruteforce -T add 192.0.2.1", TierMutate},
		{"pfctl -vs no word", "pfctl -vs", TierMutate},
		{"conntrack update", "conntrack -U -e NEW", TierMutate},
		{"conntrack delete", "conntrack -D -p tcp", TierMutate},
		{"fw3 check", "fw3 check", TierMutate},
		{"fw3 reload", "fw3 reload", TierMutate},
		{"init stop", "/etc/init.d/nginx stop", TierMutate},
		{"init status extra", "/etc/init.d/nginx status --force", TierMutate},
		{"synospace other", "synospace --enum -a -x", TierMutate},
	})
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"pfctl -vFa",
		"pfctl -vvF all",
		"pfctl -vd",
		"pfctl -gd",
		"pfctl -vvsr -F all",
		"/etc/init.d/sshd stop",
		"/etc/init.d/nginx $(cat /tmp/x)",
		"synospace --enum --delete",
		"synospace --delete --enum",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"/etc/init.d/reboot status",
		"/etc/init.d/halt status",
	))
}
