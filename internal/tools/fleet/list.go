package fleet

import (
	"context"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/relay"
)

// HostsURI is the MCP resource that serves the inventory.
const HostsURI = "warden://hosts"

// Host is one inventory host as hosts_list shows it.
type Host struct {
	Name    string   `json:"name"`
	Address string   `json:"address,omitempty"`
	Port    int      `json:"port,omitempty"`
	User    string   `json:"user,omitempty"`
	Groups  []string `json:"groups,omitempty"`
	Tags    []string `json:"tags,omitempty"`
	Mode    string   `json:"mode,omitempty" jsonschema:"The host's own policy mode, which narrows the global one; empty means the global mode."`
	Source  string   `json:"source,omitempty" jsonschema:"warden (warden.yaml) or ssh_config."`
	Jump    []string `json:"jump,omitempty" jsonschema:"ProxyJump hops, in dial order."`
	Error   string   `json:"error,omitempty" jsonschema:"Why the host cannot be resolved; it cannot be used until fixed."`
	Files   string   `json:"files,omitempty" jsonschema:"How the file tools and snapshot sources reach the host's files: sftp, or exec (fixed POSIX commands over the SSH exec channel, for servers without SFTP such as dropbear routers); empty until the first file call has probed the server."`
	Packs   []string `json:"packs,omitempty" jsonschema:"Appliance packs detected on the host (openwrt, asuswrt-merlin, synology, freebsd, pfsense): its pack tools apply and its family's deny rules hold. Absent until a pack tool or appliance_packs has probed the host; until then every pack's deny rules hold there."`
	// Confinement is what holds the programs a call starts there.
	Confinement string `json:"confinement" jsonschema:"What confines the programs a call starts on the host: the kernel mechanisms, or none and why (SSH hosts are guarded by the classifier only; a host with agent: auto or required says which agent runs there and its confinement, or why it fell back to plain SSH)."`
}

// SSHConfinement is what an SSH host offers unless warden runs its agent
// there (hosts[].agent): commands run through the remote login shell, and nothing
// on the remote kernel holds what a call was admitted as.
const SSHConfinement = "none: classifier only"

// Group is one group as hosts_list shows it.
type Group struct {
	Name  string   `json:"name"`
	Hosts []string `json:"hosts"`
}

// Listing is hosts_list's result.
type Listing struct {
	// Local is this machine, reached as host "local".
	Local  Host    `json:"local"`
	Hosts  []Host  `json:"hosts"`
	Groups []Group `json:"groups"`
}

// Register adds the fleet tools and the warden://hosts resource to the
// relay and returns the Fleet, whose Close ends open forwards.
func Register(r *relay.Relay, d Deps) *Fleet {
	if d.Inventory == nil || d.Pool == nil {
		panic("fleet: Deps.Inventory and Deps.Pool are required")
	}
	if d.MaxForwards <= 0 {
		d.MaxForwards = DefaultMaxForwards
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	f := &Fleet{d: d, forwards: newForwards(d.MaxForwards)}
	ro := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(true)}
	relay.Add[struct{}, Listing](r, relay.Spec{
		Name: "hosts_list", Title: "List inventory hosts", Annotations: ro,
		Description: "List the hosts warden can reach — warden.yaml's inventory, then ~/.ssh/config aliases — with " +
			"address, port, user, groups, tags, policy mode and source, and the groups. Use these names as host " +
			"in other tools. Also served as the resource " + HostsURI + ".",
	}, func(ctx context.Context, _ *relay.Call, _ *struct{}) (*relay.Plan, error) {
		return &relay.Plan{Run: func(context.Context) *relay.Outcome {
			l := d.listing()
			return &relay.Outcome{Result: l, Text: l.text()}
		}}, nil
	})
	r.AddResource(&mcp.Resource{
		URI: HostsURI, Name: "hosts", Title: "Inventory hosts", MIMEType: "application/json",
		Description: "The hosts warden can reach and their groups, as hosts_list returns them.",
	}, func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
		b, err := json.MarshalIndent(d.listing(), "", "  ")
		if err != nil {
			return nil, err
		}
		return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: HostsURI, MIMEType: "application/json", Text: string(b)}}}, nil
	})
	f.registerFanout(r)
	f.registerKeyscan(r)
	f.registerForwards(r)
	return f
}

// listing builds hosts_list's result. It reads the inventory's
// resolved hosts once and indexes warden.yaml's groups by host once, so
// its cost grows with the hosts and group members, not their product.
func (d *Deps) listing() Listing {
	l := Listing{Local: Host{Name: "local", Confinement: d.LocalConfinement, Packs: d.packs("local")}, Hosts: []Host{}, Groups: []Group{}}
	yamlGroups := d.groupsByHost()
	groups := map[string][]string{}
	inGroup := map[string]map[string]bool{}
	add := func(g, host string) {
		if inGroup[g] == nil {
			inGroup[g] = map[string]bool{}
		}
		inGroup[g][host] = true
		groups[g] = append(groups[g], host)
	}
	hosts := d.Inventory.List()
	l.Hosts = make([]Host, 0, len(hosts))
	for _, e := range hosts {
		h := Host{Name: e.Name, Confinement: SSHConfinement}
		if e.Err != nil {
			h.Error = oneLine(e.Err.Error())
		}
		if t := e.Target; t != nil {
			h.Address, h.Port, h.User, h.Tags, h.Mode, h.Source = t.Host, t.Port, t.User, t.Tags, t.Mode, t.Source
			// One resolve gives the files transport and, for a host
			// served through warden's agent, its version and confinement
			// or why it fell back to plain SSH.
			if d.Hosts != nil {
				if rh, err := d.Hosts(context.Background(), e.Name); err == nil {
					h.Files = rh.FilesTransport()
					if rh.Confinement != "" {
						h.Confinement = rh.Confinement
					}
				}
			} else if d.FilesTransport != nil {
				h.Files = d.FilesTransport(e.Name)
			}
			h.Groups = withGroups(t.Groups, yamlGroups[e.Name])
			h.Packs = d.packs(e.Name)
			for _, j := range t.Jump {
				h.Jump = append(h.Jump, j.Name)
			}
		}
		for _, g := range h.Groups {
			add(g, h.Name)
		}
		l.Hosts = append(l.Hosts, h)
	}
	for g, members := range d.groups() {
		for _, m := range members {
			if !inGroup[g][m] {
				add(g, m)
			}
		}
	}
	for g, members := range groups {
		l.Groups = append(l.Groups, Group{Name: g, Hosts: members})
	}
	sort.Slice(l.Groups, func(i, j int) bool { return l.Groups[i].Name < l.Groups[j].Name })
	return l
}

// packs are the appliance packs detected on a host, if it was probed.
func (d *Deps) packs(host string) []string {
	if d.Packs == nil {
		return nil
	}
	return d.Packs(host)
}

// text renders a listing as a table.
func (l Listing) text() string {
	var b strings.Builder
	b.Grow(256 * (len(l.Hosts) + 1))
	w := func(ss ...string) {
		for _, s := range ss {
			b.WriteString(s)
		}
	}
	w("local\tconfinement: ", l.Local.Confinement, "\n")
	for _, h := range l.Hosts {
		if h.Error != "" {
			w(h.Name, "\tunusable: ", h.Error, "\n")
			continue
		}
		w(h.Name, "\t", h.User, "@", h.Address, ":", strconv.Itoa(h.Port))
		if len(h.Jump) > 0 {
			w(" via ", strings.Join(h.Jump, ","))
		}
		if len(h.Groups) > 0 {
			w(" groups=", strings.Join(h.Groups, ","))
		}
		if len(h.Tags) > 0 {
			w(" tags=", strings.Join(h.Tags, ","))
		}
		if h.Mode != "" {
			w(" mode=", h.Mode)
		}
		if h.Files != "" {
			w(" files=", h.Files)
		}
		if h.Confinement != SSHConfinement {
			w(" confinement: ", h.Confinement)
		}
		if len(h.Packs) > 0 {
			w(" packs=", strings.Join(h.Packs, ","))
		}
		w(" (", h.Source, ")\n")
	}
	if len(l.Hosts) == 0 {
		w("no hosts: add hosts: to warden.yaml or Host entries to ~/.ssh/config\n")
	} else {
		w("confinement on SSH hosts without an agent: ", SSHConfinement, " (the remote kernel holds nothing)\n")
	}
	for _, g := range l.Groups {
		w("group ", g.Name, ": ", strings.Join(g.Hosts, ", "), "\n")
	}
	return b.String()
}
