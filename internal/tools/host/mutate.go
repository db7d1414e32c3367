package host

import (
	"context"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
)

func (d *Deps) registerMutate(r *relay.Relay) {
	relay.Add[ContainerArgs, Restarted](r, relay.Spec{
		Name: "restart_container", Title: "Restart a container",
		Description: "Restart one Docker or Podman container by name or ID and report its state afterwards. Changes the host, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Restart a container", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planRestartContainer)
	relay.Add[ServiceArgs, Restarted](r, relay.Spec{
		Name: "restart_service", Title: "Restart a service",
		Description: "Restart one service under systemd, OpenRC or SysV init and report its state afterwards. Changes the host, so it may need approval.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Restart a service", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planRestartService)
	relay.Add[BlockArgs, BlockResult](r, relay.Spec{
		Name: "firewall_block", Title: "Block an address",
		Description: "Drop inbound and forwarded traffic from one IP address or CIDR by adding it to warden's own block list: " +
			"a set in its nftables table, an ipset (or, without ipset, a chain) under iptables, or a PF table; the backend is detected per host. " +
			"A lock-out guard refuses addresses overlapping the configured management sources or a current SSH client " +
			"unless override=true, and the host's own addresses, loopback and unspecified addresses always.",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Block an address", DestructiveHint: ptr(false), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planBlock)
	relay.Add[BlockArgs, BlockResult](r, relay.Spec{
		Name: "firewall_unblock", Title: "Unblock an address",
		Description: "Remove an address or CIDR that firewall_block added from warden's block list (nftables set, ipset, iptables chain or PF table).",
		Tier:        policy.TierMutate,
		Annotations: &mcp.ToolAnnotations{Title: "Unblock an address", DestructiveHint: ptr(true), IdempotentHint: true, OpenWorldHint: ptr(false)},
	}, d.planUnblock)
}

// ContainerArgs name one container.
type ContainerArgs struct {
	Name string `json:"name" jsonschema:"Container name or ID."`
	Host string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// Restarted is the result of a restart.
type Restarted struct {
	Name    string `json:"name"`
	Manager string `json:"manager" jsonschema:"docker, podman, systemd, openrc or sysv."`
	// State is the state reported after the restart, or unknown.
	State  string `json:"state"`
	Reason string `json:"reason,omitempty"`
}

func (d *Deps) planRestartContainer(ctx context.Context, _ *relay.Call, a *ContainerArgs) (*relay.Plan, error) {
	if !containerNameRE.MatchString(a.Name) {
		return nil, fmt.Errorf("container name %q is not a valid name or ID", a.Name)
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	restart := func(rt string) []string { return []string{rt, "restart", "--", a.Name} }
	inspect := func(rt string) []string {
		return []string{rt, "inspect", "--format", "{{.State.Status}}", "--", a.Name}
	}
	// The runtime is found at run time, so the policy sees both spellings.
	in := input(detectArgv("docker", "podman"), restart("docker"), inspect("docker"), restart("podman"), inspect("podman"))
	return &relay.Plan{Host: host, Input: in, Run: func(ctx context.Context) *relay.Outcome {
		rt, why := d.runtimeOf(ctx, t)
		if rt == "" {
			return relay.Fail(relay.StatusError, "%s", why)
		}
		if o := d.exec(ctx, t, restart(rt)); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res := Restarted{Name: a.Name, Manager: rt, State: Unknown}
		if o := d.exec(ctx, t, inspect(rt)); o.ok() {
			res.State = strings.TrimSpace(o.stdout)
		} else {
			res.Reason = o.why
		}
		return &relay.Outcome{Result: res}
	}}, nil
}

func serviceRestartArgv(mgr, name string) []string {
	switch mgr {
	case "systemd":
		return []string{"systemctl", "restart", "--", name}
	case "openrc":
		return []string{"rc-service", name, "restart"}
	case "sysv":
		return []string{"service", name, "restart"}
	}
	return nil
}

func (d *Deps) planRestartService(ctx context.Context, _ *relay.Call, a *ServiceArgs) (*relay.Plan, error) {
	if err := checkService(a.Name); err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	argvs := [][]string{initArgv}
	for _, m := range []string{"systemd", "openrc", "sysv"} {
		argvs = append(argvs, serviceRestartArgv(m, a.Name), serviceStatusArgv(m, a.Name))
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome {
		mgr := strings.TrimSpace(d.exec(ctx, t, initArgv).stdout)
		argv := serviceRestartArgv(mgr, a.Name)
		if mgr == "busybox" {
			return relay.Fail(relay.StatusError, "BusyBox init has no service manager; restart_service does not run init scripts, whose actions follow no convention there")
		}
		if argv == nil {
			return relay.Fail(relay.StatusError, "no systemd, OpenRC or SysV service command found")
		}
		if o := d.exec(ctx, t, argv); !o.ok() {
			return relay.Fail(relay.StatusError, "%s", o.why)
		}
		res := Restarted{Name: a.Name, Manager: mgr, State: Unknown}
		o := d.exec(ctx, t, serviceStatusArgv(mgr, a.Name), anyCode...)
		switch mgr {
		case "systemd":
			res.State = parseSystemctlShow(a.Name, o.stdout).Active
		case "openrc":
			res.State = parseOpenRCStatus(a.Name, o.stdout+o.stderr, o.code).Active
		default:
			res.State = parseSysVStatus(a.Name, o.stdout+o.stderr, o.code).Active
		}
		return &relay.Outcome{Result: res}
	}}, nil
}
