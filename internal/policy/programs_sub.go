package policy

import (
	"sort"
	"strings"
)

// subTable describes a program driven by subcommands (docker ps, zfs list).
// Keys may be two words ("container ls"); the longest match wins, and
// danger beats read.
type subTable struct {
	read, benign, danger map[string]bool
	noSub                Tier     // tier with no subcommand
	def                  Tier     // tier of an unlisted subcommand
	valueShort           string   // global short options taking a value
	valueLong            []string // global long options taking a value

	// Derived from the phrases by sub, so a command does not re-split them.
	dangerFlags, benignFlags []flagPhrase    // "sub -flag" phrases
	twoWordFirst             map[string]bool // firsts for hasTwoWordKey
}

// flagPhrase is a two-word phrase whose second word is an option: "receive -F".
type flagPhrase struct{ key, sub, flag string }

func sub(read, benign, danger string, noSub, def Tier, valueShort string, valueLong string) subTable {
	t := subTable{read: phrases(read), benign: phrases(benign), danger: phrases(danger), noSub: noSub, def: def,
		valueShort: valueShort, valueLong: strings.Fields(valueLong)}
	t.dangerFlags, t.benignFlags = flagPhrases(t.danger), flagPhrases(t.benign)
	t.twoWordFirst = map[string]bool{}
	for _, m := range []map[string]bool{t.read, t.benign, t.danger} {
		for k := range m {
			for i := 0; i < len(k); i++ {
				if k[i] == ' ' && !strings.HasPrefix(k[i+1:], "-") {
					t.twoWordFirst[k[:i]] = true
				}
			}
		}
	}
	return t
}

// flagPhrases returns the phrases of m that are a word and an option, sorted.
func flagPhrases(m map[string]bool) []flagPhrase {
	var out []flagPhrase
	for k := range m {
		if w := strings.Fields(k); len(w) == 2 && strings.HasPrefix(w[1], "-") {
			out = append(out, flagPhrase{k, w[0], w[1]})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].key < out[j].key })
	return out
}

// phrases splits "a b|c|d e" into {"a b", "c", "d e"}.
func phrases(s string) map[string]bool {
	m := map[string]bool{}
	for _, p := range strings.Split(s, "|") {
		if p = strings.Join(strings.Fields(p), " "); p != "" {
			m[p] = true
		}
	}
	return m
}

var dockerTable = sub(`ps|images|logs|inspect|stats|version|info|top|port|diff|history|events|search|
	container ls|container ps|container list|container inspect|container logs|container top|container port|
	container diff|container stats|image ls|image list|image inspect|image history|network ls|network inspect|
	volume ls|volume inspect|system df|system info|system events|compose ps|compose logs|compose config|
	compose ls|compose images|compose top|compose version|context ls|context show|context inspect|node ls|
	service ls|service ps|service logs|service inspect|stack ls|stack ps|plugin ls|secret ls|config ls|
	buildx ls|manifest inspect|buildx version|pod ps|pod ls|machine list|healthcheck run|compose events|
	pod inspect|pod top|pod stats|pod logs`,
	`pull|image pull|compose pull`,
	`system prune|image prune|volume prune|container prune|network prune|builder prune|buildx prune|
	swarm leave|node rm|secret rm|volume rm|compose down -v|system reset|machine rm|plugin install`,
	TierRead, TierMutate, "Hcln", "--host --context --config --log-level --connection --url --identity --tlscacert --tlscert --tlskey "+
		"--root --runroot --storage-driver --storage-opt --cgroup-manager --runtime --runtime-flag --conmon --network-cmd-path "+
		"--network-config-dir --tmpdir --volumepath --imagestore --events-backend --hooks-dir --module --ssh --namespace "+
		"--address --snapshotter --cni-path --cni-netconfpath --data-root --host-gateway-ip --bridge-ip --hosts-dir")

// pipTable is pip's, under its versioned names too.
var pipTable = sub(`list|show|freeze|check|search|index|--version|-V|help|config list|config get|debug|inspect|cache list|cache info|hash`,
	`cache dir`, `uninstall`, TierRead, TierMutate, "", "--python --log --proxy --retries --timeout --exists-action --trusted-host --cert --client-cert --cache-dir")

// subcommandTables: a benign subcommand (tier 1) writes nothing outside the
// temporary directories, since tier 1 runs where only they are writable;
// one that updates a package index, a cache or a snapshot, or writes
// under /run (netplan generate), is tier 2.
var subcommandTables = joinTables(applianceTables, directoryTables, opsQueryTables, map[string]subTable{
	"docker":         dockerTable,
	"podman":         dockerTable,
	"nerdctl":        dockerTable,
	"docker-compose": sub(`ps|logs|config|ls|images|top|version|port|events`, `pull`, `down -v|down --volumes|rm`, TierRead, TierMutate, "fp", "--file --project-name --project-directory --env-file --profile"),
	"systemctl": sub(`status|show|is-active|is-enabled|is-failed|is-system-running|list-units|list-unit-files|
		list-timers|list-sockets|list-dependencies|list-jobs|list-machines|list-paths|list-automounts|cat|
		get-default|help|show-environment|version|--version|show-environment`,
		`reset-failed|daemon-reload`, `isolate|kill|set-default|switch-root|default|mask|daemon-reexec|
		set-property|revert|edit|preset-all|link|unset-environment`,
		TierRead, TierMutate, "tpPnosHMC", "--type --property --state --signal --kill-whom --kill-value --lines --output --host --machine --capsule --root --image --image-policy --job-mode --what --boot-loader-entry --boot-loader-menu --reboot-argument --timestamp --preset-mode --message --drop-in --when --legend --check-inhibitors"),
	// varlinkctl asks a service over its varlink socket: describing it
	// reads; call runs any method with the service's privileges
	// (io.systemd.Manager's included), as busctl call does.
	// GSettings and dconf read the settings database; set, reset,
	// load, write, update and compile change it or write files.
	"gsettings": sub(`get|list-schemas|list-relocatable-schemas|list-keys|list-children|list-recursively|
		range|describe|writable|monitor|help|--help|--version`, ``, ``, TierRead, TierMutate, "", "--schemadir"),
	"dconf": sub(`read|list|dump|watch|blame|help|--help`, ``, ``, TierRead, TierMutate, "", ""),
	"varlinkctl": sub(`info|list-interfaces|list-methods|introspect|validate-idl|help|--help|--version`, ``, `call`,
		TierRead, TierMutate, "j", "--graceful --timeout --json"),
	"kubectl": sub(`get|describe|logs|top|version|explain|api-resources|api-versions|cluster-info|
		config view|config get-contexts|config current-context|config get-clusters|auth can-i|auth whoami|diff|events|wait|
		rollout status|rollout history`, ``,
		`delete|drain|replace|exec|debug|cp|attach|proxy|port-forward|plugin|certificate approve`,
		TierRead, TierMutate, "nclsofxv", "--namespace --context --kubeconfig --cluster --user --server --token --selector --output --filename --container --as --as-group "+
			"--as-uid --cache-dir --certificate-authority --client-certificate --client-key --request-timeout --tls-server-name --username --password "+
			"--log-file --log-dir --profile --profile-output --vmodule --v --log-backtrace-at --log-file-max-size --stderrthreshold --kuberc"),
	"helm": sub(`list|ls|status|get|history|show|inspect|search|version|env|template|lint|dependency list|
		repo list|plugin list|verify`, ``,
		`uninstall|delete|del|un|rollback|plugin install`, TierRead, TierMutate, "n", "--namespace --kube-context --kubeconfig --burst-limit "+
			"--kube-apiserver --kube-as-group --kube-as-user --kube-ca-file --kube-tls-server-name --kube-token --qps --registry-config "+
			"--repository-cache --repository-config"),
	"zpool": sub(`status|list|iostat|get|history|events|version|help|wait`, ``,
		`destroy|labelclear|create|split|remove|detach|replace|offline|reguid|checkpoint|export|clear|upgrade|initialize`,
		TierRead, TierMutate, "", ""),
	"zfs": sub(`list|get|userspace|groupspace|projectspace|diff|holds|version|help|send|bookmark list`,
		``, `destroy|rollback|promote|redact|change-key|unload-key|receive -F|recv -F`,
		TierRead, TierMutate, "", ""),
	"btrfs": sub(`subvolume list|subvolume show|subvolume get-default|subvolume find-new|filesystem show|filesystem df|filesystem usage|filesystem du|filesystem label|
		device stats|device usage|scrub status|balance status|qgroup show|property get|property list|
		inspect-internal|version|replace status|send|help|--version`,
		``,
		`subvolume delete|filesystem resize|device remove|device delete|device add|check|rescue|replace start|
		balance start|filesystem defragment|subvolume set-default|property set|receive|restore|quota disable|qgroup destroy|zero-log|select-super`,
		TierRead, TierMutate, "", ""),
	"apt": sub(`list|search|show|showsrc|policy|depends|rdepends|changelog|madison|help|--version|-v|moo`,
		``, ``, TierRead, TierMutate, "ocqt", "--option --config-file --target-release"),
	"apt-get":  sub(`check|changelog|indextargets|help|--version|-v|moo`, ``, ``, TierRead, TierMutate, "ocqt", "--option --config-file --target-release"),
	"aptitude": sub(`search|show|versions|why|why-not|changelog|help`, ``, ``, TierMutate, TierMutate, "", ""),
	"dnf": sub(`list|info|search|repolist|repoquery|provides|history|history list|history info|deplist|--version|help|
		updateinfo|check|check-update|check-upgrade|alias list|module list|module info|group list|group info|repoinfo`,
		``, ``, TierRead, TierMutate, "cdex", "--setopt --releasever --repo --enablerepo --disablerepo --installroot --config --exclude --forcearch --disableplugin --enableplugin --disableexcludes --repofrompath --debuglevel --errorlevel --rpmverbosity --color --comment --destdir --downloaddir"),
	"yum": sub(`list|info|search|repolist|provides|history|history list|history info|deplist|--version|help|check|updateinfo|check-update`,
		``, ``, TierRead, TierMutate, "cdex", "--setopt --releasever --repo --enablerepo --disablerepo --installroot --config --exclude --forcearch --disableplugin --enableplugin --disableexcludes --repofrompath --debuglevel --errorlevel --rpmverbosity --color --comment --destdir --downloaddir"),
	"microdnf": sub(`repoquery|repolist|--version|help`, ``, ``, TierRead, TierMutate, "", ""),
	"zypper": sub(`search|se|info|if|list-updates|lu|packages|pa|repos|lr|patches|lp|patch-check|pchk|locks|ll|services|ls|products|pd|--version|help`,
		``, ``, TierRead, TierMutate, "cRDC", "--config --root --reposd-dir --cache-dir --raw-cache-dir --solv-cache-dir --pkg-cache-dir --userdata --installroot"),
	"apk": sub(`info|search|list|policy|stats|version|dot|-V|--version|audit|manifest`, ``, ``, TierRead, TierMutate, "Xp", "--repository --root --cache-dir --keys-dir --arch --repositories-file --wait --progress-fd"),
	"pkg": sub(`version|info|query|rquery|audit|which|check|stats|search|help|-v|--version`,
		``, `delete|remove|autoremove|clean`, TierRead, TierMutate, "jcrCRo", "--jail --chroot --rootdir --config --repo-conf-dir --option"),
	"snap": sub(`list|find|info|version|services|connections|changes|change|logs|whoami|known|refresh --list|aliases|interfaces|warnings|get|model|tasks|help|--version`,
		``, `remove|revert|disable|remove-user`, TierRead, TierMutate, "", ""),
	"flatpak": sub(`list|info|search|remotes|history|remote-ls|ps|remote-info|documents|permissions|--version|help|config`,
		``, `uninstall|remove|repair`, TierRead, TierMutate, "", "--installation"),
	"brew": sub(`list|ls|info|search|outdated|deps|doctor|config|--version|leaves|uses|desc|home|--prefix|--cellar|
		services list|services info|tap-info|commands|help|shellenv|log`, ``, `uninstall|remove|rm|untap|cleanup|autoremove`, TierRead, TierMutate, "", ""),
	"pip":  pipTable,
	"pip3": pipTable,
	"crictl": sub(`ps|pods|images|image|img|inspect|inspecti|inspectp|logs|stats|statsp|info|version|imagefsinfo|help|--version`,
		`pull`, ``, TierRead, TierMutate, "cirt", "--config --image-endpoint --runtime-endpoint --timeout"),
	"pipx": sub(`list|environment|--version|help|completions`, ``, `run|runpip|uninstall|uninstall-all|reinstall-all`, TierRead, TierMutate, "", ""),
	"npm": sub(`ls|list|ll|la|view|info|show|v|outdated|--version|-v|help|config get|config list|doctor|audit|audit signatures|explain|why|
		search|root|prefix|bin|whoami|ping|query|fund|docs|repo|bugs|help-search|pkg get`,
		`cache ls|cache verify`, `exec|x|unpublish|deprecate|owner rm|access|token revoke|cache clean`, TierRead, TierMutate, "Cw",
		"--prefix --workspace --registry --loglevel --cache --userconfig --globalconfig --tag --otp --scope --access --omit --include --before --node-options --script-shell --shell --editor --browser --viewer --cafile --proxy --https-proxy --noproxy --location --auth-type --fetch-retries --fetch-timeout --logs-dir --logs-max --init-module"),
	"yarn": sub(`list|info|why|outdated|--version|-v|help|config get|config list|licenses list|workspaces info|audit|bin|cache dir`,
		``, `dlx|exec|unplug|cache clean`, TierMutate, TierMutate, "", "--cwd"),
	"pnpm": sub(`list|ls|ll|la|outdated|why|view|info|--version|-v|help|config get|config list|audit|root|bin|licenses list|store path`,
		``, `dlx|exec|store prune`, TierRead, TierMutate, "C", "--dir --filter"),
	"gem": sub(`list|search|info|contents|environment|env|--version|query|specification|help|which|dependency|outdated`,
		``, `uninstall|cleanup`, TierRead, TierMutate, "", ""),
	"cargo": sub(`--version|-V|version|search|tree|metadata|pkgid|verify-project|locate-project|help|read-manifest`,
		``, `uninstall|clean|publish|yank|owner`, TierRead, TierMutate, "Z", "--manifest-path --color --config"),
	"go": sub(`version|env|list|doc|help|tool dist list`, ``, `generate|tool|clean -cache|clean -modcache`, TierRead, TierMutate, "C", ""),
	"terraform": sub(`version|show|output|state list|state show|validate|providers|graph|workspace list|workspace show|fmt -check|console|metadata|-version|--version|-help`,
		``, `destroy|apply -destroy|import|taint|untaint|state rm|state mv|state push|state replace-provider|force-unlock|workspace delete`,
		TierRead, TierMutate, "", "-chdir"),
	"tofu": sub(`version|show|output|state list|state show|validate|providers|graph|workspace list|workspace show|-version`,
		``, `destroy|apply -destroy|import|taint|untaint|state rm|state mv|state push|force-unlock|workspace delete`,
		TierRead, TierMutate, "", "-chdir"),
	"virsh": sub(`list|dominfo|domstate|dumpxml|nodeinfo|capabilities|net-list|pool-list|vol-list|version|uri|
		hostname|sysinfo|domblklist|domiflist|vcpuinfo|dommemstat|domstats|snapshot-list|net-info|pool-info|vol-info|
		domifaddr|domblkstat|domifstat|nodememstats|nodecpustats|help|net-dumpxml|pool-dumpxml|snapshot-info|snapshot-dumpxml`,
		``, `destroy|undefine|pool-destroy|pool-delete|vol-delete|vol-wipe|snapshot-delete|net-destroy|net-undefine|pool-undefine|reset|managedsave-remove|
		shutdown|reboot|suspend|managedsave`,
		TierRead, TierMutate, "cdeklK", "--connect --debug --escape --keepalive-interval --keepalive-count --log"),
	// Xen's toolstack: shutdown -a and destroy stop every guest or one.
	"xl": sub(`list|info|dmesg|vcpu-list|uptime|network-list|block-list|pci-list|vm-list|cpupool-list|help|-V`, ``,
		`destroy|shutdown|reboot|pause|save|migrate|trigger|sysrq|block-detach|network-detach|pci-detach|cpupool-destroy|vcpu-set|mem-set|mem-max|debug-keys`,
		TierRead, TierMutate, "", ""),
	"lxc": sub(`list|ls|info|config show|image list|image ls|storage list|network list|profile list|remote list|version|
		config get|file pull|operation list|project list|cluster list|warning list|query`, ``,
		`delete|rm|storage delete|network delete|image delete|profile delete|project delete|exec|console|file push|file delete`,
		TierRead, TierMutate, "", "--project"),
	"incus": sub(`list|ls|info|config show|image list|image ls|storage list|network list|profile list|remote list|version|config get|query`, ``,
		`delete|rm|storage delete|network delete|image delete|profile delete|project delete|exec|console|file push|file delete`,
		TierRead, TierMutate, "", "--project"),
	"qm": sub(`list|status|config|pending|showcmd|listsnapshot|guest cmd|cloudinit dump|help`, ``,
		`destroy|delsnapshot|rollback|unlink|disk unlink|guest exec|guest passwd|monitor|terminal|mtunnel|importdisk|disk import|
		stop|shutdown|reset|reboot|suspend|restore --force|restore -force`,
		TierRead, TierMutate, "", ""),
	"pct": sub(`list|status|config|pending|listsnapshot|df|help`, ``,
		`destroy|delsnapshot|rollback|exec|enter|console|push|fsck|unlock|restore --force|restore -force|
		stop|shutdown|reboot|suspend`, TierRead, TierMutate, "", ""),
	"timedatectl": sub(`status|show|list-timezones|show-timesync|timesync-status|help`, ``, ``, TierRead, TierMutate, "HMpP", "--host --machine --property"),
	"hostnamectl": sub(`status|help|--version`, ``, ``, TierRead, TierMutate, "HM", "--host --machine --json"),
	"localectl":   sub(`status|list-locales|list-keymaps|list-x11-keymap-models|list-x11-keymap-layouts|list-x11-keymap-variants|list-x11-keymap-options|help`, ``, ``, TierRead, TierMutate, "HM", "--host --machine"),
	"loginctl": sub(`list-sessions|list-users|list-seats|show-session|show-user|show-seat|session-status|user-status|seat-status|help`,
		`lock-session|lock-sessions|unlock-session|unlock-sessions`, `terminate-session|terminate-user|terminate-seat|kill-session|kill-user|disable-linger|flush-devices`,
		TierRead, TierMutate, "HMpPsno", "--host --machine --property --signal --kill-whom --lines --output"),
	"networkctl": sub(`list|status|lldp|label|help|cat`, `renew`, `down|delete|forcerenew|reconfigure`, TierRead, TierMutate, "n", "--lines --json --drop-in"),
	"resolvectl": sub(`status|query|statistics|show-cache|show-server-state|log-level|service|openpgp|tlsa|help|monitor`,
		`flush-caches|reset-server-features`, `revert`, TierRead, TierMutate, "itcp", "--interface --type --class --protocol --service-address --service-txt --cname --validate --synthesize --cache --zone --trust-anchor --network --search --stale-data --relax-single-label --json --legend"),
	"tailscale": sub(`status|ip|netcheck|version|whois|ping|serve status|funnel status|dns status|exit-node list|bugreport|licenses|metrics print|
		debug prefs|debug daemon-goroutines|debug daemon-logs|debug metrics|debug netmap|debug env|debug stat|debug hostinfo|
		debug watch-ipn|debug derp-map|debug local-creds|debug peer-endpoint-changes|debug via|debug derp`,
		``, `down|logout|set --ssh=false|switch|lock`, TierRead, TierMutate, "", "--socket"),
	"fwupdmgr": sub(`get-devices|get-updates|get-upgrades|get-history|get-remotes|get-releases|get-topology|get-details|security|get-bios-setting|--version|help`,
		``, `install|local-install|update|upgrade|downgrade|reinstall|switch-branch|activate|unlock|set-bios-setting`, TierRead, TierMutate, "", ""),
	"fwupdtool": sub(`get-devices|get-plugins|get-topology|get-details|get-history|security|--version|help`,
		``, `install|install-blob|update|activate|switch-branch|reinstall`, TierRead, TierMutate, "", ""),
	"wifi":         sub(`status|detect|help`, ``, `down`, TierMutate, TierMutate, "", ""), // OpenWrt: down cuts wireless access
	"wg":           sub(`show|showconf|genkey|pubkey|genpsk|help|--version`, ``, `setconf|syncconf`, TierRead, TierMutate, "", ""),
	"wg-quick":     sub(`strip|help`, ``, `down`, TierRead, TierMutate, "", ""),
	"zerotier-cli": sub(`info|listnetworks|listpeers|peers|listmoons|get|-v|help`, ``, `leave|deorbit`, TierRead, TierMutate, "", ""),
	"fail2ban-client": sub(`status|ping|version|get|banned|-V|--version|help|-h|--dp|--dump`, ``, `stop|unban --all|flushlogs`,
		TierRead, TierMutate, "", ""),
	"certbot":           sub(`certificates|plugins|--version|-h|--help|show_account`, ``, `delete|revoke|unregister`, TierRead, TierMutate, "", ""),
	"supervisorctl":     sub(`status|avail|pid|version|tail|help|maintail`, ``, `shutdown|remove`, TierRead, TierMutate, "csupr", "--configuration --serverurl --username --password --history-file"),
	"pm2":               sub(`list|ls|l|status|show|describe|info|logs|monit|jlist|prettylist|-v|--version|ping|env|report`, ``, `delete|del|kill|flush|deploy|update`, TierRead, TierMutate, "", ""),
	"netplan":           sub(`get|info|status|help`, ``, `apply|try`, TierRead, TierMutate, "", "--root-dir"),
	"nmcli":             sub(`general|general status|general permissions|general logging|general hostname|g|device|device status|device show|device wifi list|dev|d|connection|connection show|con show|c show|c|con|radio|networking connectivity|monitor|-v|--version|help`, `device wifi rescan|connection reload|general reload`, `networking off|networking|radio all off|radio wifi off|connection down|con down|c down|device disconnect|dev disconnect|d disconnect|connection delete|con delete|c delete|device down|device delete`, TierRead, TierMutate, "cefgmw", "--colors --escape --fields --get-values --mode --wait"),
	"apt-mark":          sub(`showauto|showmanual|showhold|showinstall|showremove|showpurge|showdeinstall|help|--version|-v`, ``, ``, TierRead, TierMutate, "oc", "--option --config-file"),
	"apt-cache":         sub(``, ``, ``, TierRead, TierRead, "oc", "--option --config-file"),
	"ansible-galaxy":    sub(`list|info|search|--version`, ``, `remove|role remove|collection remove`, TierRead, TierMutate, "", ""),
	"ansible-inventory": sub(``, ``, ``, TierRead, TierRead, "il", "--inventory --limit --vault-password-file --vault-id --playbook-dir --output"),
	"ansible-doc":       sub(``, ``, ``, TierRead, TierRead, "", ""),
	"ansible-config":    sub(`list|dump|view|--version`, `init`, ``, TierRead, TierMutate, "", ""),
	"restic":            sub(`snapshots|ls|stats|check|find|diff|cat|version|help|key list|list|dump|tag --help|cache`, `backup|init|copy`, `forget|prune|key remove|unlock|rewrite|restore|repair`, TierRead, TierMutate, "rp", "--repo --password-file --repository-file --cache-dir"),
	"borg":              sub(`list|info|check|diff|--version|help|version|key export|config`, `create|init`, `compact|delete|prune|recreate|extract|break-lock|key change-passphrase|upgrade|import-tar|rdelete|repo-delete`, TierRead, TierMutate, "", "--lock-wait --umask --remote-path --upload-ratelimit --upload-buffer --debug-topic --debug-profile --rsh --remote-ratelimit"),
	"lvm":               sub(`lvs|vgs|pvs|lvdisplay|vgdisplay|pvdisplay|lvscan|vgscan|pvscan|version|help|fullreport|segtypes|config|dumpconfig`, ``, `lvremove|vgremove|pvremove|lvreduce|vgreduce|pvmove|vgsplit|vgmerge`, TierRead, TierMutate, "", ""),
})

// subcommandProgram classifies a program by its subcommand table, then
// applies the few rules that depend on more than the subcommand.
func subcommandProgram(c *call) (Tier, string) {
	t, why := subcommandTier(c)
	if c.name == "ansible-inventory" {
		if it, iwhy := ansibleInventory(c); it > t {
			return it, iwhy
		}
	}
	if c.name == "supervisorctl" {
		if st, swhy := supervisorctlShell(c); st > t {
			t, why = st, swhy
		}
	}
	if rt, rwhy := c.readCode(); rt > t {
		t, why = rt, rwhy
	}
	if ht, hwhy := c.daemonHost(); ht > t {
		t, why = ht, hwhy
	}
	if st, swhy := c.clientSettings(); st > t {
		return st, swhy
	}
	return t, why
}

// subcommandTier is subcommandProgram's tier before the daemon host.
func subcommandTier(c *call) (Tier, string) {
	tab, ok := subcommandTables[c.name]
	if !ok {
		// A program sent here without a table has no read-only subcommand
		// known; the zero table would make all of it tier 0.
		return TierMutate, c.name + ": changes the system"
	}
	args := c.args
	i := 0
	for i < len(args) {
		v := args[i].val
		if !args[i].known {
			if strings.HasPrefix(v, "-") || i == 0 {
				c.e.opaque = true
				return TierDestructive, c.name + ": subcommand computed at run time"
			}
			break
		}
		if v == "--" {
			i++
			break
		}
		if !strings.HasPrefix(v, "-") || (tab.read[v] || tab.danger[v] || tab.benign[v]) {
			break
		}
		if subOptTakesNext(c.name, tab, v) {
			i++
		}
		i++
	}
	if i >= len(args) {
		// fail2ban-client -i: each line of its input is a command.
		if promptPrograms[c.name] || c.name == "fail2ban-client" && hasFlag(c.vals(), 'i', "--interactive") {
			return c.commandPrompt()
		}
		return tab.noSub, c.name
	}
	rest := argVals(args[i:])
	if c.name == "nmcli" {
		rest = append([]string{nmcliObject(rest[0])}, rest[1:]...)
	} else if rest[0] == "compose" && (c.name == "docker" || c.name == "podman" || c.name == "nerdctl") {
		rest = append([]string{"compose"}, composeGlobals(rest[1:])...)
	}
	ops := operands(rest)
	first := rest[0]
	second := ""
	if len(ops) > 1 && ops[0] == first {
		second = ops[1]
	}
	// A strict client's global option between the words takes its value
	// (kubectl rollout -n status restart X is rollout restart).
	if g, ok := strictGlobals[c.name]; ok && len(ops) > 1 && ops[0] == first {
		second = g.secondWord(rest)
	}
	// Flags that matter for a subcommand: "compose down -v", "receive -F".
	flagged := func(f flagPhrase) bool {
		if f.sub != first && !(len(ops) > 1 && ops[0]+" "+ops[1] == f.sub) {
			return false
		}
		for _, r := range rest {
			if r == f.flag || strings.HasPrefix(f.flag, "--") && strings.HasPrefix(r, f.flag+"=") {
				return true
			}
			// A one-letter flag counts in a cluster too: receive -Fu.
			if len(f.flag) == 2 && shortFlag(r, f.flag[1]) {
				return true
			}
			if perlGetoptTables[c.name] && perlAbbrev(r, f.flag) {
				return true
			}
		}
		return false
	}
	if c.name == "btrfs" || c.name == "nmcli" {
		first = expandAbbrev(tab, first, 0, "")
		second = expandAbbrev(tab, second, 1, first)
	}
	two := first + " " + second
	// The label names the subcommand and its first operand (systemctl
	// restart nginx), unless that may be the value of a credential option:
	// in "docker login --password X" it is the secret.
	label := c.name + " " + first
	if second != "" && !afterCredential(rest, second) {
		label = c.name + " " + two
	}
	for _, f := range tab.dangerFlags {
		if flagged(f) {
			return TierDestructive, c.name + " " + f.key
		}
	}
	t, listed := tab.phraseTier(first, second)
	if !listed {
		if dt, dwhy := c.dangerAfterValue(tab, i, ops); dt > t {
			return dt, dwhy
		}
	}
	for _, f := range tab.benignFlags {
		if flagged(f) && t > TierBenign {
			t = TierBenign
		}
	}
	t, label = c.subRules(first, second, ops, rest, t, label)
	return t, label
}

// phraseTier is the tier tab gives the subcommand first second (second
// may be ""), and whether tab lists it; danger beats read, and the longer
// phrase the shorter.
func (tab subTable) phraseTier(first, second string) (Tier, bool) {
	two := first + " " + second
	switch {
	case second != "" && tab.danger[two]:
		return TierDestructive, true
	case second != "" && tab.read[two]:
		return TierRead, true
	case second != "" && tab.benign[two]:
		return TierBenign, true
	case tab.danger[first]:
		return TierDestructive, true
	case tab.read[first] && !(second != "" && hasTwoWordKey(tab, first)):
		return TierRead, true
	case tab.benign[first]:
		return TierBenign, true
	}
	return tab.def, false
}

// dangerAfterValue classifies a subcommand the table does not know that
// follows an option without "=": it may be the value of a global option
// the table does not list (borg --lock-wait 5 delete, restic
// --password-command CMD forget, kubectl --request-timeout 5 delete), and
// then the next word is the subcommand. A danger phrase there counts; the
// reading ones do not, since the word may be an operand after all.
func (c *call) dangerAfterValue(tab subTable, i int, ops []string) (Tier, string) {
	if i == 0 || i > len(c.args) || len(ops) < 2 {
		return TierRead, ""
	}
	prev := c.args[i-1].val
	if !strings.HasPrefix(prev, "-") || prev == "--" || strings.Contains(prev, "=") {
		return TierRead, ""
	}
	next := ops[1]
	if len(ops) > 2 && tab.danger[next+" "+ops[2]] {
		next += " " + ops[2]
	} else if !tab.danger[next] {
		return TierRead, ""
	}
	return TierDestructive, c.name + " " + next + " (after " + truncate(prev, 32) + "'s value)"
}

// afterCredential reports whether op, the second operand in rest, follows
// an option that may carry a credential (-p, --password, --token …).
func afterCredential(rest []string, op string) bool {
	for i := 1; i < len(rest); i++ {
		if rest[i] != op {
			continue
		}
		prev := strings.ToLower(strings.TrimLeft(rest[i-1], "-"))
		if !strings.HasPrefix(rest[i-1], "-") || rest[i-1] == "--" {
			return false
		}
		if prev == "p" || strings.Contains(prev, "pass") || strings.Contains(prev, "token") ||
			strings.Contains(prev, "secret") || strings.Contains(prev, "key") || strings.Contains(prev, "auth") ||
			strings.Contains(prev, "cred") || strings.Contains(prev, "pw") {
			return true
		}
		return false
	}
	return false
}

// expandAbbrev expands a unique prefix of a subcommand word at position
// pos (btrfs sub del → subvolume delete); a second word is matched among
// the words after first only, as btrfs matches it (su de is subvolume
// delete although filesystem defragment also begins "de").
func expandAbbrev(tab subTable, w string, pos int, first string) string {
	if w == "" || strings.HasPrefix(w, "-") {
		return w
	}
	words := map[string]bool{}
	for _, m := range []map[string]bool{tab.read, tab.benign, tab.danger} {
		for k := range m {
			if f := strings.Fields(k); len(f) > pos && (pos == 0 || f[0] == first) {
				words[f[pos]] = true
			}
		}
	}
	if words[w] {
		return w
	}
	match := ""
	for k := range words {
		if strings.HasPrefix(k, w) {
			if match != "" {
				return w
			}
			match = k
		}
	}
	if match == "" {
		return w
	}
	return match
}

// hasTwoWordKey reports whether the table lists any "first x" phrase, in
// which case "first" alone only covers the bare form.
func hasTwoWordKey(tab subTable, first string) bool {
	return tab.twoWordFirst[first]
}
