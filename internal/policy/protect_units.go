package policy

import (
	"path"
	"strings"
)

// warden's own service and container, named as their managers name them.
// The bare word "warden" is one of warden's own names wherever a mutating
// command has it (wardenPath), but a service manager also takes it as
// warden.service, warden@x.service, warden.socket or a glob, and compose
// names the container <project>-warden-1 (<project>_warden_1 before v2):
// restart_service and restart_container pass such names straight on.
// Restarting, freezing or stopping any of them stops warden itself (its
// sessions, approvals and forwards with it), as kill $PPID does, and
// reading the container's or unit's configuration reads its environment,
// where a deployment passes WARDEN_TOKEN. So each is tier 3, as acting on
// warden by its process id is, and a human decides.

// unitActsOnWarden are the systemctl verbs that act on a running unit or
// rewrite what it runs with; unitReadsWarden show what it runs with.
var (
	unitActsOnWarden = set(`restart try-restart reload-or-restart try-reload-or-restart force-reload condrestart
		condreload reload freeze stop kill mask disable clean set-property revert edit bind mount-image`)
	unitReadsWarden = set(`show cat`)
	// unitCutVerbs are those subRules already holds for a unit that cuts
	// access, warden's bare name among them.
	unitCutVerbs = set(`stop kill mask disable`)
)

// containerActsOnWarden are the container runtimes' verbs that act on a
// named container or read its configuration (inspect shows Config.Env) or
// files. exec's later words are its command's, and options' values are
// not told from names, so every operand is tried: a command word that is
// a warden name as a whole (docker exec app ls warden) counts too.
var containerActsOnWarden = set(`restart stop kill pause rm remove update inspect exec cp export commit attach
	checkpoint`)

// wardenSamples are what a glob must not match: warden's unit and
// container names in each manager's spelling.
var wardenSamples = []string{"warden", "warden.service", "warden.socket", "warden@x.service", "deploy-warden-1", "deploy_warden_1"}

// wardenUnit reports whether a unit or container name may be warden's own:
// the word warden as a whole part of it (warden.service, warden@1,
// deploy-warden-1, warden_1; not vaultwarden), or a glob that matches one.
func wardenUnit(name string) bool {
	n := strings.TrimSuffix(name, "/")
	if strings.ContainsAny(n, "*?[") {
		n = strings.ToLower(n)
		for _, s := range wardenSamples {
			if ok, _ := path.Match(n, s); ok {
				return true
			}
		}
		return false
	}
	// Checked in place, in any case, since every restart and inspect of
	// a long script passes here.
	const word = "warden"
	for i := 0; i+len(word) <= len(n); i++ {
		if !strings.EqualFold(n[i:i+len(word)], word) {
			continue
		}
		end := i + len(word)
		if (i == 0 || unitSep(n[i-1])) && (end == len(n) || unitSep(n[end])) {
			return true
		}
	}
	return false
}

// unitSep separates the parts of a unit or container name: warden.service,
// warden@1, deploy-warden-1, deploy_warden_1, a cp operand's warden:/path.
func unitSep(b byte) bool { return strings.IndexByte("-_.@:", b) >= 0 }

// actsOnWarden classifies a systemctl or container runtime subcommand
// that names warden's own unit or container; ops are the subcommand's
// operands, ops[0] the verb.
func (c *call) actsOnWarden(ops []string) (Tier, string) {
	if len(ops) < 2 {
		return TierRead, ""
	}
	verb, names := ops[0], ops[1:]
	switch c.name {
	case "systemctl":
		if !unitActsOnWarden[verb] && !unitReadsWarden[verb] {
			return TierRead, ""
		}
	case "docker", "podman", "nerdctl":
		if verb == "container" {
			verb, names = ops[1], ops[2:]
		}
		if !containerActsOnWarden[verb] {
			return TierRead, ""
		}
	default:
		return TierRead, ""
	}
	for _, n := range names {
		if strings.Contains(n, "/") && !strings.Contains(n, ":/") {
			continue // a path: a command's word after exec, not a name
		}
		if c.name == "systemctl" && unitCutVerbs[verb] && cutsAccess(n) {
			continue // systemctl's own rule says it cuts access, in its words
		}
		if name, _, _ := strings.Cut(n, ":/"); wardenUnit(name) {
			if unitReadsWarden[verb] && c.name == "systemctl" && c.propertiesOnly() {
				return TierRead, ""
			}
			return TierDestructive, c.name + " " + verb + " " + truncate(n, 64) +
				": acts on warden's own service or container (stops or restarts warden, or reads the environment that holds its token)"
		}
	}
	return TierRead, ""
}

// propertiesOnly reports whether systemctl show names only properties
// other than the environment (-p ActiveState,SubState): the everyday
// health read of a unit.
func (c *call) propertiesOnly() bool {
	props := c.optVals(c.args, "-p", "--property")
	if len(props) == 0 {
		return false
	}
	for _, p := range props {
		if !p.known {
			return false
		}
		for _, name := range strings.Split(p.val, ",") {
			if strings.Contains(strings.ToLower(name), "environment") || name == "" {
				return false
			}
		}
	}
	return true
}
