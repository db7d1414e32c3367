package host

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
)

// pfTableRE is a PF table name: pf allows up to 31 bytes; warden takes
// letters, digits, _ . and - and never a leading dash, so a name cannot
// read as a flag.
var pfTableRE = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_.-]{0,30}$`)

func checkPfTable(name string) error {
	if !pfTableRE.MatchString(name) {
		return fmt.Errorf("table %q is not a PF table name (1-31 letters, digits, _ . -; no leading -)", name)
	}
	return nil
}

// The PF table tools' specs: show is tier 0, delete tier 2, flush tier 3.
var (
	pfShowSpec = relay.Spec{
		Name: "pf_table_show", Title: "Show a PF table",
		Description: "The addresses in one PF table (pfctl -t TABLE -T show), such as the brute-force overload table sshguard or a pf.conf overload rule fills.",
		Annotations: readOnly("Show a PF table"),
	}
	pfDeleteSpec = relay.Spec{
		Name: "pf_table_delete", Title: "Delete an address from a PF table",
		Description: "Remove one address or CIDR from a PF table (pfctl -t TABLE -T delete ADDRESS), e.g. to release an operator caught by the brute-force overload table. Changes the firewall, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Delete an address from a PF table", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}
	pfFlushSpec = relay.Spec{
		Name: "pf_table_flush", Title: "Flush a PF table",
		Description: "Remove every address from a PF table (pfctl -t TABLE -T flush). Tier 3: a flushed block table lets every address it held back in.",
		Tier:        policy.TierDestructive,
		Annotations: &mcp.ToolAnnotations{Title: "Flush a PF table", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}
)

func (d *Deps) registerPfTables(r *relay.Relay) {
	relay.Add[PfTableArgs, PfTable](r, pfShowSpec, d.planPfTableShow)
	relay.Add[PfTableAddrArgs, PfTableEdit](r, pfDeleteSpec, d.planPfTableDelete)
	relay.Add[PfTableArgs, PfTableEdit](r, pfFlushSpec, d.planPfTableFlush)
}

// PfTableArgs name one PF table.
type PfTableArgs struct {
	Table string `json:"table" jsonschema:"PF table name, e.g. bruteforce or sshguard."`
	Host  string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// PfTableAddrArgs name one address of a PF table.
type PfTableAddrArgs struct {
	Table   string `json:"table" jsonschema:"PF table name, e.g. bruteforce or sshguard."`
	Address string `json:"address" jsonschema:"An IPv4 or IPv6 address, or a CIDR."`
	Host    string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// PfTable is pf_table_show's result.
type PfTable struct {
	Table string `json:"table"`
	// Exists is false when pfctl says the table does not exist.
	Exists    bool     `json:"exists"`
	Count     int      `json:"count"`
	Addresses []string `json:"addresses"`
}

// PfTableEdit is the result of pf_table_delete and pf_table_flush.
type PfTableEdit struct {
	Table   string `json:"table"`
	Address string `json:"address,omitempty"`
	// Removed is how many addresses pfctl reports deleted.
	Removed int  `json:"removed"`
	Exists  bool `json:"exists"`
}

func pfTableArgv(table, verb string, more ...string) []string {
	return append([]string{"pfctl", "-t", table, "-T", verb}, more...)
}

// pfNoTable reports whether pfctl's answer says the table is missing.
func pfNoTable(o out) bool {
	return strings.Contains(o.stderr+o.stdout, "Table does not exist")
}

func (d *Deps) planPfTableShow(ctx context.Context, _ *relay.Call, a *PfTableArgs) (*relay.Plan, error) {
	if err := checkPfTable(a.Table); err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argv := pfTableArgv(a.Table, "show")
	return &relay.Plan{Host: host, Input: input(argv), Run: func(ctx context.Context) *relay.Outcome {
		res := PfTable{Table: a.Table, Addresses: []string{}}
		o := d.exec(ctx, t, argv)
		if !o.ok() {
			if pfNoTable(o) {
				return &relay.Outcome{Result: res}
			}
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res.Exists = true
		res.Addresses = parsePfTableShow(o.stdout)
		res.Count = len(res.Addresses)
		return &relay.Outcome{Result: res}
	}}, nil
}

func (d *Deps) planPfTableDelete(ctx context.Context, _ *relay.Call, a *PfTableAddrArgs) (*relay.Plan, error) {
	if err := checkPfTable(a.Table); err != nil {
		return nil, err
	}
	// Deleting unblocks, so width is no concern; the spelling rules hold.
	p, err := ParseBlockAddress(a.Address, true)
	if err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argv := pfTableArgv(a.Table, "delete", elem(p))
	return &relay.Plan{Host: host, Input: input(argv), Run: func(ctx context.Context) *relay.Outcome {
		return d.pfEdit(ctx, t, argv, PfTableEdit{Table: a.Table, Address: p.String()})
	}}, nil
}

func (d *Deps) planPfTableFlush(ctx context.Context, _ *relay.Call, a *PfTableArgs) (*relay.Plan, error) {
	if err := checkPfTable(a.Table); err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argv := pfTableArgv(a.Table, "flush")
	return &relay.Plan{Host: host, Input: input(argv), Run: func(ctx context.Context) *relay.Outcome {
		return d.pfEdit(ctx, t, argv, PfTableEdit{Table: a.Table})
	}}, nil
}

// pfEdit runs a delete or flush and reads pfctl's count of what went.
func (d *Deps) pfEdit(ctx context.Context, t *hosts.Host, argv []string, res PfTableEdit) *relay.Outcome {
	o := d.exec(ctx, t, argv)
	if !o.ok() {
		if pfNoTable(o) {
			return &relay.Outcome{Result: res}
		}
		return relay.Fail(relay.StatusError, "%s", o.why)
	}
	res.Exists = true
	n, _, ok := parsePfTableChange(o.stderr+o.stdout, "deleted")
	if !ok {
		return relay.Fail(relay.StatusError, "pfctl -T %s: unexpected answer %q", argv[4], strings.TrimSpace(o.stderr+o.stdout))
	}
	res.Removed = n
	return &relay.Outcome{Result: res}
}
