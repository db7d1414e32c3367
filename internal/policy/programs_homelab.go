package policy

import (
	"net"
	"strings"
)

// applianceTables are the subcommand tables of home-lab appliance tools:
// Home Assistant OS's ha, Proxmox VE's HA manager, firewall and Ceph
// front ends, containerd's ctr, OpenMediaVault's configuration tools and
// FreeBSD's camcontrol and geom. Only the subcommands that print state are tier 0; every
// other one is tier 2, and those that power off, restore or delete are
// tier 3.
var applianceTables = map[string]subTable{
	// ha talks to the Supervisor's API. Its info, logs and stats only
	// read; a bare group (ha addons, ha backups, ha store) lists.
	"ha": sub(`info|available-updates|help|--help|-h|version|--version|
		core info|core logs|core stats|supervisor info|supervisor logs|supervisor stats|
		host info|host logs|os info|network info|dns info|dns logs|dns stats|
		audio info|audio logs|audio stats|multicast info|multicast logs|multicast stats|
		observer info|observer logs|observer stats|cli info|cli stats|hardware info|hardware audio|
		resolution info|jobs info|security info|docker info|docker registries|
		addons|addons list|addons info|addons logs|addons stats|
		backups|backups list|backups info|store|store addons|store repositories`,
		``,
		`host reboot|host shutdown|backups remove|backups restore|addons uninstall|os datadisk wipe`,
		TierMutate, TierMutate, "", "--api-token --config --endpoint --log-level"),
	// ha-manager remove and crm-command stop take a guest out of HA or
	// stop it; node-maintenance moves every guest off the node.
	"ha-manager": sub(`status|config|groupconfig|help`, ``, `remove|crm-command stop|crm-command node-maintenance`, TierMutate, TierMutate, "", ""),
	// pve-firewall stop leaves the node and its guests unfiltered.
	"pve-firewall": sub(`status|compile|localnet|simulate|help`, ``, `stop`, TierMutate, TierMutate, "", ""),
	// containerd's client: listings read; exec and run start processes
	// in containers, and rm, kill and import change them.
	"ctr": sub(`version|info|--version|-v|help|--help|-h|events|
		containers ls|containers list|containers info|container ls|container list|container info|c ls|c list|c info|
		images ls|images list|images check|image ls|image list|image check|i ls|i list|i check|
		tasks ls|tasks list|tasks metrics|task ls|task list|task metrics|t ls|t list|t metrics|
		namespaces ls|namespaces list|namespace ls|ns ls|ns list|plugins ls|plugins list|plugin ls|
		snapshots ls|snapshots list|snapshots info|snapshots tree|snapshot ls|content ls|leases ls`,
		``,
		`run|tasks exec|task exec|t exec|containers rm|containers delete|container rm|c rm|c delete|images rm|images delete|image rm|i rm|
		tasks kill|task kill|t kill|namespaces rm|ns rm|snapshots rm|content rm|leases rm|images import|i import`,
		TierRead, TierMutate, "na", "--namespace --address --timeout --connect-timeout"),
	// OpenMediaVault's configuration database and environment.
	"omv-confdbadm": sub(`read|exists|--help|-h`, ``, `delete`, TierRead, TierMutate, "", ""),
	"omv-env":       sub(`list|get|help|--help`, ``, ``, TierRead, TierMutate, "", ""),
	// FreeBSD's CAM and GEOM tools (TrueNAS CORE, pfSense, OPNsense):
	// the listings read; camcontrol security, sanitize and format erase.
	"camcontrol": sub(`devlist|periphlist|identify|inquiry|readcap|help`, ``, `security|sanitize|format`,
		TierRead, TierMutate, "", ""),
	"geom": sub(`help|disk list|disk status|part list|part status|label list|label status|mirror list|mirror status|
		stripe list|stripe status|eli list|eli status|raid list|raid status|raid3 list|raid3 status|concat list|
		concat status|multipath list|multipath status|cache list|cache status|journal list|journal status`,
		``, ``, TierRead, TierMutate, "", ""),
	// k9s with no subcommand is its terminal UI, which deletes and execs.
	"k9s": sub(`version|info|help|--help|-h`, ``, ``, TierMutate, TierMutate, "", ""),
	// Pi-hole's status, query, chronometer and log; gravity updates,
	// reconfiguring and disabling change it.
	"pihole": sub(`status|-v|version|-q|query|-c|chronometer|-t|tail|-h|--help|help`, ``, `uninstall`,
		TierMutate, TierMutate, "", ""),
	// unbound-control's listings (stats resets the counters it prints).
	"unbound-control": sub(`status|stats_noreset|list_stubs|list_forwards|list_local_zones|list_local_data|
		list_auth_zones|list_insecure|get_option|lookup|dump_infra|view_list_local_zones|view_list_local_data`,
		``, `stop`, TierMutate, TierMutate, "s", ""),
	"pveceph": sub(`status|help`, ``, `purge|pool destroy|osd destroy|mon destroy|mgr destroy|mds destroy|fs destroy`,
		TierMutate, TierMutate, "", ""),
	// FreeBSD's iocage (TrueNAS CORE jails): list, get, df and snaplist
	// read; exec, console and chroot run commands in a jail, destroy,
	// clean and rollback drop jails, releases or their changes.
	"iocage": sub(`list|get|df|snaplist|version|--version|help|--help`, ``, `destroy|clean|rollback|exec|console|chroot`,
		TierRead, TierMutate, "", ""),
	// machinectl alone lists the machines; shell and login run commands
	// in one, poweroff, reboot, terminate and kill stop it, remove and
	// clean delete images.
	"machinectl": sub(`list|list-images|list-transfers|status|show|show-image|image-status|help|--version|--help`, ``,
		`shell|login|poweroff|reboot|terminate|kill|remove|clean`, TierRead, TierMutate, "HMpsno",
		"--host --machine --property --signal --kill-whom --lines --output --max-addresses --verify --format"),
	// dkms status lists the modules; the rest build, install or remove.
	"dkms": sub(`status|--version|-V|help|--help`, ``, ``, TierRead, TierMutate, "", ""),
	// bootctl alone is status; remove takes the boot loader off the ESP.
	"bootctl": sub(`status|list|is-installed|--version|help|--help`, ``, `remove`, TierRead, TierMutate, "",
		"--esp-path --boot-path --root --image --image-policy --install-source --make-entry-directory --entry-token"),
	// cpupower's reports; frequency-set and idle-set change the CPUs, and
	// monitor runs the command its words give.
	"cpupower": sub(`frequency-info|idle-info|info|--version|-v|help|--help`, ``, `monitor`, TierRead, TierMutate, "c", "--cpu"),
}

// directoryTables are the tables of identity and intrusion-prevention
// clients: realm and sssctl (joined domains and SSSD's view of them) and
// CrowdSec's cscli. Their listings and status read; leaving a domain and
// removing SSSD's cache or CrowdSec's decisions and alerts do not.
var directoryTables = map[string]subTable{
	"realm": sub(`list|discover|help|--help`, ``, `leave`, TierRead, TierMutate, "", ""),
	"sssctl": sub(`domain-list|domain-status|user-show|group-show|netgroup-show|config-check|help|--help`, ``,
		`cache-remove|logs-remove`, TierRead, TierMutate, "", ""),
	"cscli": sub(`version|metrics|help|--help|decisions list|alerts list|alerts inspect|bouncers list|machines list|
		hub list|collections list|parsers list|scenarios list|postoverflows list|config show|lapi status|capi status|
		console status`, ``,
		`decisions delete|alerts delete|bouncers delete|machines delete|hub remove|collections remove|parsers remove|scenarios remove`,
		TierMutate, TierMutate, "o", "--output --color"),
}

// joinTables returns one map holding the tables of all of ms.
func joinTables(ms ...map[string]subTable) map[string]subTable {
	out := map[string]subTable{}
	for _, m := range ms {
		for k, v := range m {
			out[k] = v
		}
	}
	return out
}

// cephReads are the ceph commands that only report the cluster's state,
// as whole operand lists.
var cephReads = phrases(`status|health|health detail|df|df detail|osd tree|osd df|osd df tree|osd stat|osd status|
	osd pool ls|osd pool ls detail|osd lspools|osd dump|osd perf|osd pool stats|osd blocked-by|osd versions|
	mon stat|mon dump|mgr stat|mgr services|mgr module ls|fs ls|fs status|fs dump|mds stat|pg stat|
	quorum_status|versions|version|features|orch ps|orch ls|orch host ls|orch device ls|orch status|crash ls|crash stat`)

// cephRead reports whether c is a ceph command that only prints the
// cluster's state: ceph -s, ceph health detail, ceph osd tree. Options
// are limited to output format and identity (--cluster names the
// configuration file to load): -o writes the reply to a
// file, -i sends one, and -c or --admin-daemon can name a configuration
// that loads plugins or a daemon socket that takes other commands.
func cephRead(c *call) bool {
	identity := set(`--format --name --id --user --keyring --connect-timeout`)
	ops, seen, ok := c.readOpts(optSpec{flags: "swhv", valueShort: "fnk",
		longFlags: set(`--status --watch --help --version --watch-debug --watch-info --watch-sec --watch-warn --watch-error`),
		longVals:  identity})
	if !ok {
		return false
	}
	if len(ops) > 0 {
		return cephReads[strings.Join(ops, " ")]
	}
	// With no command ceph reads commands from its input instead.
	for _, f := range strings.Fields(seen) {
		if strings.HasPrefix(f, "--") {
			if !identity[f] {
				return true
			}
		} else if strings.ContainsAny(f, "swhv") {
			return true
		}
	}
	return false
}

// rbdReads are the rbd commands that only list or describe images.
var rbdReads = phrases(`ls|list|info|du|disk-usage|status|showmapped|children|device list|device ls|
	snap ls|snap list|pool stats|namespace ls|namespace list|mirror pool status|mirror image status`)

// rbdRead reports whether c is an rbd listing (rbd ls -l pool, rbd info
// pool/img, rbd snap ls img) with only pool, image, format and identity
// options; -c and --cluster name another configuration, and export,
// import and map are not listings.
func rbdRead(c *call) bool {
	ops, _, ok := c.readOpts(optSpec{flags: "l", valueShort: "pnk",
		longFlags: set(`--long --pretty-format --all`),
		longVals:  set(`--pool --namespace --image --snap --format --id --name --user --keyring`)})
	if !ok || len(ops) == 0 {
		return false
	}
	if len(ops) > 1 && rbdReads[ops[0]+" "+ops[1]] {
		return true
	}
	if len(ops) > 2 && rbdReads[ops[0]+" "+ops[1]+" "+ops[2]] {
		return true
	}
	return rbdReads[ops[0]] && !hasTwoWordRead(ops[0])
}

// hasTwoWordRead reports whether w begins a two-word rbd read (snap ls):
// then w alone (snap create) is not a read.
func hasTwoWordRead(w string) bool {
	for k := range rbdReads {
		if len(k) > len(w) && k[:len(w)+1] == w+" " {
			return true
		}
	}
	return false
}

// infraReadForm is the read-only form of a cluster client in
// infraPrograms: whole commands that report state, how many operands
// (a job, node or allocation) may follow them, and the options they may
// take: for Go's flag syntax (-format=json, -address ADDR) the names in
// goFlags and goVals, for GNU syntax spec.
type infraReadForm struct {
	reads    map[string]bool
	trailing int
	goFlags  map[string]bool
	goVals   map[string]bool
	spec     optSpec
	gnu      bool
}

// infraReadForms lists the reads of Vault, Consul, Nomad, etcd, GlusterFS
// and RADOS.
// Reading a secret's value (vault kv get, vault read, consul kv get,
// etcdctl get) is left out with everything else; vault list and kv list
// name the keys under a path (the one operand a trailing word may be),
// not their values.
var infraReadForms = map[string]infraReadForm{
	"vault": {reads: phrases(`status|version|secrets list|auth list|policy list|audit list|namespace list|
		token lookup|operator raft list-peers|operator members|list|kv list`), trailing: 1,
		goFlags: set(`detailed tls-skip-verify`), goVals: set(`format address namespace ca-cert`)},
	"consul": {reads: phrases(`members|info|version|catalog services|catalog nodes|catalog datacenters|
		operator raft list-peers|operator autopilot state`),
		goFlags: set(`detailed wan stale tags`), goVals: set(`http-addr datacenter status format namespace partition segment`)},
	"nomad": {reads: phrases(`status|version|node status|job status|alloc status|alloc logs|server members|
		operator raft list-peers|deployment list|deployment status`), trailing: 2,
		goFlags: set(`json verbose short stderr tail f self all-allocs`), goVals: set(`address namespace region n`)},
	// GlusterFS's and Ceph RADOS's reports: a volume's or peer's state,
	// a pool's usage (rados ls is left out: a second operand is a file
	// it writes); a volume name or status detail may follow gluster's.
	"gluster": {reads: phrases(`volume info|volume status|volume list|peer status|pool list|snapshot list|snapshot info|
		snapshot status|volume heal info|volume quota list|--version`), trailing: 2,
		goFlags: set(`xml`), goVals: set(`mode remote-host`)},
	"rados": {reads: phrases(`df|lspools|--version|-v`), goVals: set(`format id cluster name p pool`)},
	"etcdctl": {reads: phrases(`version|endpoint health|endpoint status|endpoint hashkv|member list|alarm list`), gnu: true,
		spec: optSpec{valueShort: "w",
			longFlags: set(`--cluster --insecure-skip-tls-verify --insecure-transport --hex`),
			longVals:  set(`--endpoints --write-out --cacert --cert --key --dial-timeout --command-timeout`)}},
}

// infraRead reports whether c is one of infraReadForms' reads with only
// the options listed for it.
func infraRead(c *call) bool {
	f, ok := infraReadForms[c.name]
	if !ok {
		return false
	}
	var ops []string
	if f.gnu {
		if ops, _, ok = c.readOpts(f.spec); !ok {
			return false
		}
	} else {
		for i := 0; i < len(c.args); i++ {
			a := c.args[i]
			if !a.known {
				return false
			}
			if !strings.HasPrefix(a.val, "-") {
				ops = append(ops, a.val)
				continue
			}
			name, _, eq := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
			switch {
			case f.goFlags[name] && !eq:
			case f.goVals[name]:
				if !eq {
					i++
				}
			default:
				return false
			}
		}
	}
	if c.name == "etcdctl" {
		// An endpoint without a scheme is not a URL the generic host
		// check sees.
		for _, v := range c.optVals(c.args, "--endpoints") {
			for _, ep := range strings.Split(v.val, ",") {
				if _, rest, ok := strings.Cut(ep, "://"); ok {
					ep = rest
				}
				if h, _, err := net.SplitHostPort(ep); err == nil {
					ep = h
				}
				c.checkHost(ep)
			}
		}
	}
	for n := 0; n <= f.trailing && n < len(ops); n++ {
		if f.reads[strings.Join(ops[:len(ops)-n], " ")] {
			return true
		}
	}
	return false
}
