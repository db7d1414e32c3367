package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/relay"
)

// Verdicts of a diagnose check.
const (
	VerdictOK   = "ok"
	VerdictWarn = "warn"
	VerdictFail = "fail"
)

// Check is one item of firewall_diagnose's checklist.
type Check struct {
	// Name is firewall, tables, listeners, tailnet or rule_file.
	Name string `json:"name"`
	// Verdict is ok, warn, fail or unknown (with the reason).
	Verdict  string   `json:"verdict"`
	Detail   string   `json:"detail,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Commands []string `json:"commands"`
	// Data holds what the check read, under a key naming it (backends,
	// nftables/ipset/pf, listeners, interface/status, files): an object, so
	// the output schema stays portable.
	Data map[string]any `json:"data,omitempty"`
}

// Diagnosis is firewall_diagnose's result.
type Diagnosis struct {
	// Platform is linux or freebsd (from uname -s).
	Platform string `json:"platform"`
	// Verdict is the worst of the checks: fail, warn, unknown, ok.
	Verdict string  `json:"verdict"`
	Checks  []Check `json:"checks"`
}

// PfTableSize is one PF table and how many entries it holds.
type PfTableSize struct {
	Name    string `json:"name"`
	Entries int    `json:"entries"`
	Reason  string `json:"reason,omitempty"`
}

var (
	unameSArgv    = []string{"uname", "-s"}
	ipsetTerse    = []string{"ipset", "list", "-t"}
	pfTablesArgv  = []string{"pfctl", "-s", "Tables"}
	bsdListenArgv = []string{"sockstat", "-4", "-6", "-l"}
	tsStatusArgv  = []string{"tailscale", "status"}
	tsIfArgv      = []string{"ifconfig", "tailscale0"}
	// DefaultRuleFiles are where distributions keep the rules loaded at
	// boot: Debian and RHEL nftables, iptables-persistent, RHEL iptables
	// services, and pf.
	DefaultRuleFiles = []string{"/etc/nftables.conf", "/etc/sysconfig/nftables.conf", "/etc/iptables/rules.v4",
		"/etc/iptables/rules.v6", "/etc/sysconfig/iptables", "/etc/sysconfig/ip6tables", "/etc/pf.conf"}
	diagDetect = []string{"nft", "iptables", "ip6tables", "ipset", "ufw", "pfctl", "tailscale"}
	// maxPfTables bounds the tables counted one pfctl call each.
	maxPfTables = 32
)

// ruleFilesArgv lists which of files exist; the names are configuration
// (absolute paths checked at startup), passed as arguments, never spliced
// into the script.
func ruleFilesArgv(files []string) []string {
	return append([]string{"sh", "-c", `for f in "$@"; do [ -f "$f" ] && echo "$f"; done; true`, "sh"}, files...)
}

func (d *Deps) ruleFiles() []string {
	if len(d.RuleFiles) > 0 {
		return d.RuleFiles
	}
	return DefaultRuleFiles
}

// parseCheckArgv is the parse-only check of a rule file: nothing loads.
func parseCheckArgv(file string) []string {
	switch {
	case strings.HasSuffix(file, "pf.conf"):
		return []string{"pfctl", "-n", "-f", file}
	case strings.Contains(file, "nftables"):
		return []string{"nft", "-c", "-f", file}
	case strings.HasSuffix(file, "rules.v6") || strings.HasSuffix(file, "ip6tables"):
		return []string{"ip6tables-restore", "--test", file}
	}
	return []string{"iptables-restore", "--test", file}
}

func (d *Deps) registerDiagnose(r *relay.Relay) {
	relay.Add[HostArg, Diagnosis](r, relay.Spec{
		Name: "firewall_diagnose", Title: "Diagnose the firewall",
		Description: "The checklist an operator runs by hand, in one call, with a verdict per item (ok, warn, fail, or unknown and why): " +
			"firewall state (backends, enabled), tables and sets with their sizes (nftables sets, ipsets, PF tables), what listens where " +
			"(ss or sockstat), the tailnet interface and `tailscale status` when present, and a parse-only check of the boot rule file " +
			"(nft -c -f, iptables-restore --test, pfctl -n -f), which loads nothing.",
		Annotations: readOnly("Diagnose the firewall"),
	}, d.planDiagnose)
}

func (d *Deps) planDiagnose(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argvs := [][]string{unameSArgv, detectArgv(diagDetect...), nftListArgv, iptSArgv, ip6tSArgv, ufwArgv, pfInfoArgv, pfRuleArgv,
		ipsetTerse, pfTablesArgv, pfTableArgv("<each table>", "show"), ssListenArgv, bsdListenArgv, ownAddrArgv, tsIfArgv, tsStatusArgv, ruleFilesArgv(d.ruleFiles())}
	for _, f := range d.ruleFiles() {
		argvs = append(argvs, parseCheckArgv(f))
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		return &relay.Outcome{Result: d.diagnose(ctx, t)}
	}}, nil
}

// diagnose runs the checklist on t.
func (d *Deps) diagnose(ctx context.Context, t *hosts.Host) Diagnosis {
	res := Diagnosis{Platform: "linux", Checks: []Check{}}
	if o := d.exec(ctx, t, unameSArgv); o.ok() && strings.HasPrefix(strings.TrimSpace(o.stdout), "FreeBSD") {
		res.Platform = "freebsd"
	}
	found := d.detect(ctx, t, diagDetect...)
	bsd := res.Platform == "freebsd"
	fw := d.checkFirewall(ctx, t, found)
	res.Checks = append(res.Checks, fw, d.checkTables(ctx, t, found), d.checkListeners(ctx, t, bsd, fw.Verdict == VerdictOK),
		d.checkTailnet(ctx, t, found, bsd), d.checkRuleFile(ctx, t, found))
	res.Verdict = worst(res.Checks)
	return res
}

func worst(cs []Check) string {
	rank := map[string]int{VerdictOK: 0, Unknown: 1, VerdictWarn: 2, VerdictFail: 3}
	w := VerdictOK
	for _, c := range cs {
		if rank[c.Verdict] > rank[w] {
			w = c.Verdict
		}
	}
	return w
}

func (d *Deps) checkFirewall(ctx context.Context, t *hosts.Host, found map[string]bool) Check {
	c := Check{Name: "firewall", Commands: []string{}}
	var backends []Backend
	for _, n := range []string{"nft", "iptables", "ufw", "pfctl"} {
		if !found[n] {
			continue
		}
		for _, argv := range fwArgv(n, false) {
			c.Commands = append(c.Commands, strings.Join(argv, " "))
		}
		b, _ := d.readBackend(ctx, t, n, false)
		backends = append(backends, b)
	}
	c.Data = map[string]any{"backends": backends}
	var active, unknown, names []string
	for _, b := range backends {
		names = append(names, b.Name)
		switch {
		case b.Status != "ok" || b.Active == Unknown:
			unknown = append(unknown, b.Name+": "+b.Reason)
		case b.Active == "active":
			active = append(active, b.Name)
		}
	}
	switch {
	case len(backends) == 0:
		c.Verdict, c.Detail = VerdictFail, "no nft, iptables, ufw or pfctl found: nothing filters traffic"
	case len(active) > 0:
		c.Verdict, c.Detail = VerdictOK, "filtering: "+strings.Join(active, ", ")
	case len(unknown) == len(backends):
		c.Verdict, c.Reason = Unknown, strings.Join(unknown, "; ")
	default:
		c.Verdict, c.Detail = VerdictWarn, "found "+strings.Join(names, ", ")+" but none filters input"
		if len(unknown) > 0 {
			c.Reason = strings.Join(unknown, "; ")
		}
	}
	return c
}

func (d *Deps) checkTables(ctx context.Context, t *hosts.Host, found map[string]bool) Check {
	c := Check{Name: "tables", Verdict: VerdictOK, Commands: []string{}}
	data := map[string]any{}
	var why, parts []string
	if found["nft"] {
		c.Commands = append(c.Commands, strings.Join(nftListArgv, " "))
		if o := d.exec(ctx, t, nftListArgv); o.ok() {
			sets := parseNftSets(o.stdout)
			data["nftables"] = sets
			parts = append(parts, fmt.Sprintf("%d nftables set(s)", len(sets)))
		} else {
			why = append(why, o.why)
		}
	}
	if found["ipset"] {
		c.Commands = append(c.Commands, strings.Join(ipsetTerse, " "))
		if o := d.exec(ctx, t, ipsetTerse); o.ok() {
			sets := parseIpsetTerse(o.stdout)
			data["ipset"] = sets
			parts = append(parts, fmt.Sprintf("%d ipset(s)", len(sets)))
		} else {
			why = append(why, o.why)
		}
	}
	if found["pfctl"] {
		c.Commands = append(c.Commands, strings.Join(pfTablesArgv, " "))
		if o := d.exec(ctx, t, pfTablesArgv); o.ok() {
			var sizes []PfTableSize
			names := parsePfTables(o.stdout)
			for i, n := range names {
				if i == maxPfTables {
					why = append(why, fmt.Sprintf("%d more PF tables not counted", len(names)-maxPfTables))
					break
				}
				argv := pfTableArgv(n, "show")
				c.Commands = append(c.Commands, strings.Join(argv, " "))
				s := PfTableSize{Name: n}
				if o := d.exec(ctx, t, argv); o.ok() {
					s.Entries = len(parsePfTableShow(o.stdout))
				} else {
					s.Entries, s.Reason = -1, o.why
				}
				sizes = append(sizes, s)
			}
			data["pf"] = sizes
			parts = append(parts, fmt.Sprintf("%d PF table(s)", len(sizes)))
		} else {
			why = append(why, o.why)
		}
	}
	c.Data = data
	switch {
	case len(c.Commands) == 0:
		c.Detail = "no nft, ipset or pfctl: no sets or tables to list"
	case len(parts) == 0:
		c.Verdict = Unknown
	default:
		c.Detail = strings.Join(parts, ", ")
	}
	c.Reason = strings.Join(why, "; ")
	return c
}

func (d *Deps) checkListeners(ctx context.Context, t *hosts.Host, bsd, filtered bool) Check {
	c := Check{Name: "listeners", Verdict: VerdictOK}
	argv := ssListenArgv
	if bsd {
		argv = bsdListenArgv
	}
	c.Commands = []string{strings.Join(argv, " ")}
	o := d.exec(ctx, t, argv)
	if !o.ok() {
		c.Verdict, c.Reason = Unknown, o.why
		return c
	}
	var socks []Socket
	if bsd {
		socks = sockstatListeners(parseSockstat(o.stdout))
	} else {
		socks = parseSS(o.stdout)
	}
	c.Data = map[string]any{"listeners": socks}
	wild := 0
	for _, s := range socks {
		if s.Scope == "all" {
			wild++
		}
	}
	c.Detail = fmt.Sprintf("%d socket(s) beyond loopback, %d on every address", len(socks), wild)
	if wild > 0 && !filtered {
		c.Verdict = VerdictWarn
		c.Reason = "sockets listen on every address and no firewall is known to filter input"
	}
	return c
}

// sockstatListeners turns sockstat rows into sockets, dropping loopback.
func sockstatListeners(rows []SockRow) []Socket {
	out := []Socket{}
	for _, r := range rows {
		s := Socket{Proto: strings.TrimRight(r.Proto, "46"), Address: r.Local, Port: r.Port, Scope: "address"}
		if r.PID != 0 {
			s.Processes = []string{fmt.Sprintf("%s/%d", r.Command, r.PID)}
		}
		if r.Local == "*" {
			s.Scope = "all"
		} else if p, ok := parsePrefix(r.Local); !ok || p.Addr().IsLoopback() {
			continue
		}
		out = append(out, s)
	}
	return out
}

func (d *Deps) checkTailnet(ctx context.Context, t *hosts.Host, found map[string]bool, bsd bool) Check {
	c := Check{Name: "tailnet", Verdict: VerdictOK, Commands: []string{}}
	ifArgv := ownAddrArgv
	if bsd {
		ifArgv = tsIfArgv
	}
	c.Commands = append(c.Commands, strings.Join(ifArgv, " "))
	o := d.exec(ctx, t, ifArgv)
	hasIf := false
	switch {
	case bsd:
		hasIf = o.ok()
	case o.ok():
		hasIf = strings.Contains(o.stdout, " tailscale0 ") || strings.Contains(o.stdout, " tailscale0:")
	}
	if !found["tailscale"] {
		if hasIf {
			c.Verdict, c.Detail = VerdictWarn, "a tailscale0 interface exists but no tailscale program was found"
		} else {
			c.Detail = "no tailscale program and no tailscale0 interface: no tailnet to check"
		}
		return c
	}
	c.Commands = append(c.Commands, strings.Join(tsStatusArgv, " "))
	st := d.exec(ctx, t, tsStatusArgv)
	text := strings.TrimSpace(st.stdout + st.stderr)
	lines := strings.Split(text, "\n")
	if len(lines) > 20 {
		lines = append(lines[:20], fmt.Sprintf("… %d more lines", len(lines)-20))
	}
	c.Data = map[string]any{"interface": hasIf, "status": lines}
	switch {
	case !st.ok() && st.code == 0:
		c.Verdict, c.Reason = Unknown, st.why
	case !st.ok():
		c.Verdict, c.Detail = VerdictWarn, "tailscale status: "+command.FirstLine(st.stdout, st.stderr)
	case !hasIf:
		c.Verdict, c.Detail = VerdictWarn, "tailscale answers but there is no tailscale0 interface (userspace networking?)"
	default:
		c.Detail = "tailscale0 is up and tailscale status answers"
	}
	return c
}

func (d *Deps) checkRuleFile(ctx context.Context, t *hosts.Host, found map[string]bool) Check {
	argv := ruleFilesArgv(d.ruleFiles())
	c := Check{Name: "rule_file", Commands: []string{strings.Join(argv, " ")}}
	o := d.exec(ctx, t, argv)
	if !o.ok() {
		c.Verdict, c.Reason = Unknown, o.why
		return c
	}
	files := strings.Split(strings.TrimSpace(o.stdout), "\n")
	if files[0] == "" {
		files = nil
	}
	if len(files) == 0 {
		c.Verdict, c.Reason = Unknown, "no rule file at "+strings.Join(d.ruleFiles(), ", ")
		return c
	}
	type fileCheck struct {
		File    string `json:"file"`
		Verdict string `json:"verdict"`
		Output  string `json:"output,omitempty"`
	}
	var checks []fileCheck
	var bad, unknown []string
	for _, f := range files {
		argv := parseCheckArgv(f)
		c.Commands = append(c.Commands, strings.Join(argv, " "))
		fc := fileCheck{File: f, Verdict: VerdictOK}
		prog := map[string]string{"nft": "nft", "pfctl": "pfctl", "iptables-restore": "iptables", "ip6tables-restore": "ip6tables"}[argv[0]]
		if !found[prog] {
			fc.Verdict, fc.Output = Unknown, prog+" not found"
			unknown = append(unknown, f+": "+fc.Output)
			checks = append(checks, fc)
			continue
		}
		r := d.exec(ctx, t, argv)
		switch {
		case r.ok():
		case r.code > 0 && !strings.Contains(r.why, "permission denied") && !strings.Contains(r.stderr+r.stdout, "Operation not permitted"):
			fc.Verdict, fc.Output = VerdictFail, firstLines(r.stderr+r.stdout, 5)
			bad = append(bad, f+": "+command.FirstLine(r.stderr, r.stdout))
		default:
			fc.Verdict, fc.Output = Unknown, r.why
			unknown = append(unknown, f+": "+r.why)
		}
		checks = append(checks, fc)
	}
	c.Data = map[string]any{"files": checks}
	switch {
	case len(bad) > 0:
		c.Verdict, c.Detail = VerdictFail, strings.Join(bad, "; ")
	case len(unknown) == len(files):
		c.Verdict, c.Reason = Unknown, strings.Join(unknown, "; ")
	default:
		c.Verdict, c.Detail = VerdictOK, "parses: "+strings.Join(files, ", ")
		c.Reason = strings.Join(unknown, "; ")
	}
	return c
}

// firstLines keeps the first n non-empty lines of s.
func firstLines(s string, n int) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.TrimSpace(l) == "" {
			continue
		}
		out = append(out, strings.TrimSpace(l))
		if len(out) == n {
			break
		}
	}
	return strings.Join(out, "\n")
}
