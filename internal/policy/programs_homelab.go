package policy

import "strings"

// applianceTables are the subcommand tables of home-lab appliance tools:
// Home Assistant OS's ha, and Proxmox VE's HA manager, firewall and Ceph
// front ends. Only the subcommands that print state are tier 0; every
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
	"ha-manager": sub(`status|config|groupconfig|help`, ``, ``, TierMutate, TierMutate, "", ""),
	// pve-firewall stop leaves the node and its guests unfiltered.
	"pve-firewall": sub(`status|compile|localnet|simulate|help`, ``, `stop`, TierMutate, TierMutate, "", ""),
	"pveceph": sub(`status|help`, ``, `purge|pool destroy|osd destroy|mon destroy|mgr destroy|mds destroy|fs destroy`,
		TierMutate, TierMutate, "", ""),
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
