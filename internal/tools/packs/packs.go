// Package packs owns appliance packs: typed tools for the appliances
// warden's users run — routers (OpenWrt, Asuswrt-Merlin), NAS (Synology
// DSM) and firewalls (FreeBSD, pfSense) — kept as data, not code paths.
//
// A pack is a YAML file: how to recognise the appliance on a host (one
// probe: a command that exits 0 with matching output), the tools it
// brings (name, parameters, tier, the argv of each step, the parser that
// turns their output into a structured result) and the commands nothing
// may run on it (deny rules, added to the policy per host by Guard).
// Built-in packs are embedded in the binary; an operator's file adds a
// pack or replaces one of the same name, and any tool can be switched off.
//
// Choices worth knowing:
//   - One tool name serves every pack that defines it (router_clients on
//     OpenWrt and on Asuswrt): the call detects the host's packs (once per
//     host until the inventory is reloaded, in bounded time) and runs the
//     first matching pack's version. Tools of one name must agree on
//     tier, parameters and result shape; enum values may differ.
//   - Parameters are typed (target: a host name or IP address; int with
//     bounds; enum) and only ever fill argv words. Nothing is run by a
//     shell built from input; the only shell is the detection script,
//     made of the packs' own constant probes.
//   - The plan shows the policy every argv the call may run, per pack,
//     before the host is contacted: the host is probed only once the call
//     is admitted.
//   - A built-in tier-3 tool with approval text (reboot) is the approved
//     way to do what its pack's deny rules forbid as typed text: its fixed
//     argv is not classified, it always needs approval (open mode too),
//     and the human reads the approval text. Operator packs cannot do this.
package packs

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/shellword"
)

// listTool is the tool that lists packs and detects them on a host.
const listTool = "appliance_packs"

// maxItems bounds how many times a step runs for the items of another.
const maxItems = 16

// Deps is what the pack tools need from the rest of warden.
type Deps struct {
	Hosts    hosts.Resolver
	Packs    []*Pack
	Detector *Detector
	// Disable are tool names not to register.
	Disable []string
	// Env is the fixed environment of every command.
	Env []string
	// Timeout bounds each command; zero means 30s.
	Timeout time.Duration
	// MaxBytes bounds each command's output; zero means 1 MiB.
	MaxBytes int
}

// version is one pack's definition of a tool.
type version struct {
	pack *Pack
	tool *Tool
}

// Register adds every pack tool that is not disabled, and appliance_packs.
func Register(r *relay.Relay, d Deps) {
	if d.Timeout <= 0 {
		d.Timeout = 30 * time.Second
	}
	if d.MaxBytes <= 0 {
		d.MaxBytes = 1 << 20
	}
	off := map[string]bool{}
	for _, n := range d.Disable {
		off[n] = true
	}
	byName := map[string][]version{}
	var names []string
	for _, p := range d.Packs {
		for i := range p.Tools {
			t := &p.Tools[i]
			if _, ok := byName[t.Name]; !ok {
				names = append(names, t.Name)
			}
			byName[t.Name] = append(byName[t.Name], version{p, t})
		}
	}
	for _, n := range names {
		if !off[n] {
			d.register(r, byName[n])
		}
	}
	if !off[listTool] {
		d.registerList(r)
	}
}

func (d *Deps) register(r *relay.Relay, vs []version) {
	t := vs[0].tool
	var packNames []string
	tools := make([]*Tool, len(vs))
	for i, v := range vs {
		packNames = append(packNames, v.pack.Name)
		tools[i] = v.tool
	}
	ann := &mcp.ToolAnnotations{Title: t.Title, OpenWorldHint: ptr(true)}
	if t.Tier == 0 {
		ann.ReadOnlyHint, ann.IdempotentHint, ann.DestructiveHint = true, true, ptr(false)
	} else {
		ann.DestructiveHint = ptr(t.Destructive)
	}
	spec := relay.Spec{
		Name: t.Name, Title: t.Title, Tier: policy.Tier(t.Tier), Annotations: ann,
		Description: fmt.Sprintf("%s Appliance pack tool for %s; the host's pack is detected on first use (see appliance_packs).", t.Description, strings.Join(packNames, ", ")),
	}
	parsers[t.Parse].register(r, spec, inputSchema(tools), func(ctx context.Context, _ *relay.Call, args *map[string]any) (*relay.Plan, error) {
		return d.plan(ctx, vs, *args)
	})
}

// plan validates the arguments for every pack's version and describes
// every argv the call may run.
func (d *Deps) plan(ctx context.Context, vs []version, args map[string]any) (*relay.Plan, error) {
	host, _ := args["host"].(string)
	if host == "" {
		return nil, errors.New("host is required")
	}
	t, err := d.Hosts(ctx, host)
	if err != nil {
		return nil, err
	}
	described := [][]string{d.Detector.Argv()}
	var firstErr error
	ok := 0
	for _, v := range vs {
		vals, err := v.tool.values(args)
		if err != nil {
			firstErr = cmpErr(firstErr, err)
			continue
		}
		ok++
		for _, s := range v.tool.Steps {
			if !s.runs(vals) {
				continue
			}
			argv, _ := expand(s.Argv, vals, "IFNAME")
			described = append(described, argv)
		}
	}
	if ok == 0 {
		return nil, firstErr
	}
	p := &relay.Plan{Host: host, Input: describe(described), Run: func(ctx context.Context) *relay.Outcome {
		return d.run(ctx, t, vs, args)
	}}
	if a := vs[0].tool.Approval; a != "" {
		// The typed action its packs deny as text: nothing is classified,
		// and the human reads why it needs approval.
		p.Input = policy.Input{}
		p.Tier = policy.TierDestructive
		p.Why = strings.ReplaceAll(a, "{host}", host)
	}
	return p, nil
}

func cmpErr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// describe is every argv as the policy reads it.
func describe(argvs [][]string) policy.Input {
	lines := make([]string, 0, len(argvs))
	for _, a := range argvs {
		lines = append(lines, shellword.Join(a))
	}
	return policy.Input{Command: strings.Join(lines, "\n")}
}

// run detects the host's packs and runs the first matching version.
func (d *Deps) run(ctx context.Context, t *hosts.Host, vs []version, args map[string]any) *relay.Outcome {
	detected, err := d.Detector.Detect(ctx, t)
	if err != nil {
		return relay.Fail(relay.StatusError, "%v", err)
	}
	var v *version
	for _, name := range detected {
		for i := range vs {
			if vs[i].pack.Name == name && v == nil {
				v = &vs[i]
			}
		}
	}
	if v == nil {
		var want []string
		for _, x := range vs {
			want = append(want, x.pack.Name)
		}
		return relay.Fail(relay.StatusError, "host %s runs none of the packs that provide %s (%s); detected: %s",
			t.Name, vs[0].tool.Name, strings.Join(want, ", "), listOr(detected, "none"))
	}
	vals, err := v.tool.values(args)
	if err != nil {
		return relay.Fail(relay.StatusInvalid, "%s on %s (%s): %v", v.tool.Name, t.Name, v.pack.Name, err)
	}
	o := outs{}
	var probes []Probe
	var failed []string
	for _, s := range v.tool.Steps {
		if !s.runs(vals) {
			continue
		}
		items := []string{""}
		if s.Each != "" {
			items = d.items(v.tool, s.Each, o)
		}
		for _, it := range items {
			argv, err := expand(s.Argv, vals, it)
			if err != nil {
				return relay.Fail(relay.StatusError, "%s: %v", s.ID, err)
			}
			x := d.exec(ctx, t, argv)
			x.item = it
			o[s.ID] = append(o[s.ID], x)
			p := Probe{Command: shellword.Join(argv), Status: "ok"}
			if x.why != "" {
				p.Status, p.Reason = Unknown, x.why
				if !s.Optional {
					failed = append(failed, x.why)
				}
			}
			probes = append(probes, p)
		}
	}
	res := parsers[v.tool.Parse].parse(vals, o, probes)
	out := &relay.Outcome{Result: res, Extra: map[string]any{"pack": v.pack.Name}}
	if len(failed) > 0 {
		out.Status, out.Reason = relay.StatusError, strings.Join(failed, "; ")
	}
	return out
}

// items are the words of step id's output that a later step runs for,
// each a safe interface name, at most maxItems.
func (d *Deps) items(t *Tool, id string, o outs) []string {
	var re = func() *Step {
		for i := range t.Steps {
			if t.Steps[i].ID == id {
				return &t.Steps[i]
			}
		}
		return nil
	}()
	var words []string
	for _, r := range o[id] {
		if r.why != "" {
			continue
		}
		if re != nil && re.items != nil {
			for _, m := range re.items.FindAllStringSubmatch(r.stdout, -1) {
				words = append(words, m[1])
			}
		} else {
			words = append(words, strings.Fields(r.stdout)...)
		}
	}
	seen := map[string]bool{}
	var out []string
	for _, w := range words {
		if safeWordRe.MatchString(w) && !seen[w] && len(out) < maxItems {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// exec runs argv on t and says why it could not tell, if it could not.
func (d *Deps) exec(ctx context.Context, t *hosts.Host, argv []string) ran {
	res, err := t.Inspect.Run(ctx, runner.Request{Argv: argv, Env: d.Env, Timeout: d.Timeout, MaxBytes: d.MaxBytes})
	x := ran{argv: argv, stdout: command.ValidUTF8(res.Stdout), stderr: command.ValidUTF8(res.Stderr), code: res.ExitCode}
	x.why = command.Unanswered(argv, res, err, d.Timeout, d.MaxBytes)
	return x
}

func listOr(xs []string, none string) string {
	if len(xs) == 0 {
		return none
	}
	return strings.Join(xs, ", ")
}

// PackInfo is one pack as appliance_packs shows it.
type PackInfo struct {
	Name        string   `json:"name"`
	Family      string   `json:"family"`
	Description string   `json:"description"`
	Source      string   `json:"source" jsonschema:"builtin:FILE or the operator's file."`
	Detected    bool     `json:"detected"`
	Tools       []string `json:"tools"`
	Deny        []string `json:"deny"`
}

// PackList is appliance_packs' result.
type PackList struct {
	Host     string     `json:"host"`
	Detected []string   `json:"detected"`
	Packs    []PackInfo `json:"packs"`
}

type listArgs struct {
	Host string `json:"host" jsonschema:"An inventory host name (see hosts_list), or local."`
}

func (d *Deps) registerList(r *relay.Relay) {
	relay.Add[listArgs, PackList](r, relay.Spec{
		Name: listTool, Title: "Appliance packs",
		Description: "The appliance packs warden knows (router, NAS and firewall families), which of them a host runs (detected once per host), each pack's tools and the commands its deny rules forbid there.",
		Annotations: &mcp.ToolAnnotations{Title: "Appliance packs", ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(true)},
	}, func(ctx context.Context, _ *relay.Call, a *listArgs) (*relay.Plan, error) {
		if a.Host == "" {
			return nil, errors.New("host is required")
		}
		t, err := d.Hosts(ctx, a.Host)
		if err != nil {
			return nil, err
		}
		return &relay.Plan{Host: a.Host, Input: describe([][]string{d.Detector.Argv()}), Run: func(ctx context.Context) *relay.Outcome {
			found, err := d.Detector.Detect(ctx, t)
			if err != nil {
				return relay.Fail(relay.StatusError, "%v", err)
			}
			res := PackList{Host: a.Host, Detected: found, Packs: []PackInfo{}}
			on := map[string]bool{}
			for _, f := range found {
				on[f] = true
			}
			for _, p := range d.Packs {
				info := PackInfo{Name: p.Name, Family: p.Family, Description: p.Description, Source: p.source, Detected: on[p.Name], Tools: []string{}, Deny: append([]string{}, p.Deny...)}
				for _, t := range p.Tools {
					info.Tools = append(info.Tools, t.Name)
				}
				sort.Strings(info.Tools)
				res.Packs = append(res.Packs, info)
			}
			return &relay.Outcome{Result: res}
		}}, nil
	})
}
