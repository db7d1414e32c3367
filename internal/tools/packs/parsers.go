package packs

import (
	"sort"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/warden-mcp/warden/internal/relay"
)

// Unknown is how a result says a probe could not tell.
const Unknown = "unknown"

// Probe says whether one command answered.
type Probe struct {
	Command string `json:"command"`
	// Status is ok or unknown.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// ran is one run of a step.
type ran struct {
	argv   []string
	item   string // the each item it ran for
	stdout string
	stderr string
	code   int
	// why is set when the command could not tell (not found, failed,
	// timed out).
	why string
}

// outs are a call's runs by step id.
type outs map[string][]ran

// first returns the output of a step's first run and whether it answered.
func (o outs) first(id string) (string, bool) {
	r := o[id]
	if len(r) == 0 || r[0].why != "" {
		return "", false
	}
	return r[0].stdout, true
}

// parser turns a call's runs into its structured result. kind names the
// result's shape, which tools of one name in several packs share.
type parser struct {
	kind     string
	parse    func(vals map[string]string, o outs, probes []Probe) any
	register func(r *relay.Relay, s relay.Spec, in *jsonschema.Schema, plan relay.PlanFunc[map[string]any])
}

// parserOf builds a parser whose result is T.
func parserOf[T any](kind string, parse func(vals map[string]string, o outs) T) parser {
	return parser{
		kind: kind,
		parse: func(v map[string]string, o outs, probes []Probe) any {
			res := parse(v, o)
			if p, ok := any(&res).(interface{ setProbes([]Probe) }); ok {
				p.setProbes(probes)
			}
			return res
		},
		register: func(r *relay.Relay, s relay.Spec, in *jsonschema.Schema, plan relay.PlanFunc[map[string]any]) {
			relay.AddSchema[T](r, s, in, plan)
		},
	}
}

// Leases is dhcp_leases' result.
type Leases struct {
	Leases []Lease  `json:"leases"`
	Probes []Probe  `json:"probes"`
	Notes  []string `json:"notes,omitempty"`
}

// Clients is router_clients' result.
type Clients struct {
	Clients []Client `json:"clients"`
	// Wireless is ok, or unknown when no association list could be read
	// (then wired and wireless clients cannot be told apart).
	Wireless string  `json:"wireless"`
	Probes   []Probe `json:"probes"`
}

// WANStatus is wan_status' result.
type WANStatus struct {
	WAN
	Probes []Probe `json:"probes"`
}

// Interfaces is interfaces' result.
type Interfaces struct {
	Interfaces []Interface `json:"interfaces"`
	Probes     []Probe     `json:"probes"`
}

// Diagnostics is diagnostics' result.
type Diagnostics struct {
	Tool      string       `json:"tool"`
	Target    string       `json:"target"`
	Ping      *PingSummary `json:"ping,omitempty"`
	Hops      []Hop        `json:"hops,omitempty"`
	Addresses []string     `json:"addresses,omitempty"`
	// Output is the program's own output, bounded.
	Output string  `json:"output"`
	Probes []Probe `json:"probes"`
}

// Action is the result of a tool that changes the router.
type Action struct {
	ExitCode int     `json:"exit_code"`
	Output   string  `json:"output"`
	Probes   []Probe `json:"probes"`
}

// DSMService is dsm_service_status' result.
type DSMService struct {
	ServiceState
	Probes []Probe `json:"probes"`
}

// Pools is storage_pools' result: every layer of DSM's storage (md
// arrays, LVM, btrfs), each layer ok or unknown with the reason.
type Pools struct {
	Arrays         []MDArray       `json:"arrays"`
	LVM            Part            `json:"lvm"`
	VolumeGroups   []VolumeGroup   `json:"volume_groups"`
	LogicalVolumes []LogicalVolume `json:"logical_volumes"`
	Btrfs          Part            `json:"btrfs"`
	Filesystems    []BtrfsFS       `json:"btrfs_filesystems"`
	Volumes        []BtrfsVolume   `json:"btrfs_volumes"`
	// Degraded names what is not ok, for a quick verdict: md arrays by
	// name, volume groups as vg:NAME, logical volumes as lv:VG/NAME,
	// btrfs file systems as btrfs:LABEL and volumes by mount point.
	Degraded []string `json:"degraded"`
	Probes   []Probe  `json:"probes"`
}

// parsers are every parser a pack may name.
var parsers = map[string]parser{
	"dsm_service": parserOf("dsm_service", func(v map[string]string, o outs) DSMService {
		st := ServiceState{Service: v["service"], Active: Unknown, Enabled: Unknown}
		// The exit status says inactive or disabled; the word says which.
		for _, r := range o["active"] {
			st.Active = parseStateWord(r.stdout, activeWords)
		}
		for _, r := range o["enabled"] {
			st.Enabled = parseStateWord(r.stdout, enabledWords)
		}
		return DSMService{ServiceState: st}
	}),
	"md_pools":             parserOf("pools", parsePools),
	"dsm_update":           parserOf("dsm_update", parseDSMUpdate),
	"dsm_exposure":         parserOf("dsm_exposure", parseExposure),
	"router_updates_opkg":  parserOf("router_updates", parseRouterUpdatesOpenWrt),
	"router_updates_nvram": parserOf("router_updates", parseRouterUpdatesAsus),
	"dhcp_leases": parserOf("leases", func(_ map[string]string, o outs) Leases {
		res := Leases{Leases: []Lease{}}
		if s, ok := o.first("leases"); ok {
			res.Leases = parseLeases(s)
		}
		return res
	}),
	"router_clients": parserOf("clients", func(_ map[string]string, o outs) Clients {
		var arp []Neighbor
		var leases []Lease
		var stations []Station
		if s, ok := o.first("arp"); ok {
			arp = parseARP(s)
		}
		if s, ok := o.first("leases"); ok {
			leases = parseLeases(s)
		}
		wireless := Unknown
		for _, r := range o["assoc"] {
			if r.why == "" {
				wireless = "ok"
				stations = append(stations, parseAssoc(r.item, r.stdout)...)
			}
		}
		return Clients{Clients: mergeClients(arp, leases, stations), Wireless: wireless}
	}),
	"ubus_wan": parserOf("wan", func(_ map[string]string, o outs) WANStatus {
		w := WAN{State: Unknown, IPv4: []string{}, IPv6: []string{}, DNS: []string{}}
		if s, ok := o.first("status"); ok {
			if p, err := parseUbusWAN(s); err == nil {
				w = p
			}
		}
		return WANStatus{WAN: w}
	}),
	"nvram_wan": parserOf("wan", func(_ map[string]string, o outs) WANStatus {
		w := WAN{State: Unknown, IPv4: []string{}, IPv6: []string{}, DNS: []string{}}
		if s, ok := o.first("nvram"); ok {
			w = nvramWAN(parseNvram(s))
		}
		return WANStatus{WAN: w}
	}),
	"interfaces": parserOf("interfaces", func(_ map[string]string, o outs) Interfaces {
		res := Interfaces{Interfaces: []Interface{}}
		if s, ok := o.first("addr"); ok {
			res.Interfaces = parseIPAddr(s)
		}
		if s, ok := o.first("dev"); ok {
			c := parseNetDev(s)
			for i := range res.Interfaces {
				if v, ok := c[res.Interfaces[i].Name]; ok {
					f := &res.Interfaces[i]
					f.RxBytes, f.TxBytes, f.RxErrs, f.TxErrs = ptr(v.rx), ptr(v.tx), ptr(v.rxErr), ptr(v.txErr)
				}
			}
		}
		return res
	}),
	"diagnostics": parserOf("diagnostics", func(v map[string]string, o outs) Diagnostics {
		d := Diagnostics{Tool: v["tool"], Target: v["target"]}
		for _, r := range o[v["tool"]] {
			d.Output = strings.TrimSpace(r.stdout + "\n" + r.stderr)
			switch v["tool"] {
			case "ping":
				if p, ok := parsePing(r.stdout); ok {
					d.Ping = &p
				}
			case "traceroute":
				d.Hops = parseTraceroute(r.stdout)
			case "nslookup":
				d.Addresses = parseNslookup(r.stdout)
			}
		}
		return d
	}),
	"action": parserOf("action", func(_ map[string]string, o outs) Action {
		a := Action{}
		for _, rs := range o {
			for _, r := range rs {
				a.ExitCode = max(a.ExitCode, r.code)
				a.Output += r.stdout + r.stderr
			}
		}
		a.Output = strings.TrimSpace(a.Output)
		return a
	}),
}

func parserNames() []string {
	var n []string
	for k := range parsers {
		n = append(n, k)
	}
	sort.Strings(n)
	return n
}

func (r *Leases) setProbes(p []Probe)        { r.Probes = nonNil(p) }
func (r *Clients) setProbes(p []Probe)       { r.Probes = nonNil(p) }
func (r *WANStatus) setProbes(p []Probe)     { r.Probes = nonNil(p) }
func (r *Interfaces) setProbes(p []Probe)    { r.Probes = nonNil(p) }
func (r *Diagnostics) setProbes(p []Probe)   { r.Probes = nonNil(p) }
func (r *Action) setProbes(p []Probe)        { r.Probes = nonNil(p) }
func (r *DSMService) setProbes(p []Probe)    { r.Probes = nonNil(p) }
func (r *Pools) setProbes(p []Probe)         { r.Probes = nonNil(p) }
func (r *DSMUpdate) setProbes(p []Probe)     { r.Probes = nonNil(p) }
func (r *DSMExposure) setProbes(p []Probe)   { r.Probes = nonNil(p) }
func (r *RouterUpdates) setProbes(p []Probe) { r.Probes = nonNil(p) }

func nonNil(p []Probe) []Probe {
	if p == nil {
		return []Probe{}
	}
	return p
}
