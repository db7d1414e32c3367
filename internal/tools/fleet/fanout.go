package fleet

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultConcurrency is how many hosts a fan-out runs at once by default.
const DefaultConcurrency = 8

// minHostBytes is the least output kept per host however many hosts share
// the fan-out's output budget.
const minHostBytes = 4 << 10

// FanoutArgs are fanout's arguments.
type FanoutArgs struct {
	Command     string   `json:"command" jsonschema:"Shell command line run with the host's shell -c on every host."`
	Hosts       []string `json:"hosts" jsonschema:"Inventory host names and group names (see hosts_list); at most 100 hosts after expanding groups."`
	Concurrency int      `json:"concurrency,omitempty" jsonschema:"Hosts run at once, 1 to 32 (default 8)."`
	TimeoutS    int      `json:"timeout_s,omitempty" jsonschema:"Timeout per host in seconds; capped by the server maximum."`
	MaxBytes    int      `json:"max_bytes,omitempty" jsonschema:"Cap on stdout+stderr kept per host; may only narrow the server limit."`
}

// HostResult is one host's part of a fan-out.
type HostResult struct {
	Host     string `json:"host"`
	Status   string `json:"status" jsonschema:"This host's own outcome: ok, denied, approval_required, timeout, invalid_argument or error."`
	Reason   string `json:"reason,omitempty"`
	Decision string `json:"decision" jsonschema:"The policy's decision for this host: allow, approved, approve, denied or invalid."`
	Tier     int    `json:"tier"`
	Ran      bool   `json:"ran" jsonschema:"Whether the command was started on this host."`
	command.Result
}

// FanoutResult is fanout's result.
type FanoutResult struct {
	Results []HostResult `json:"results" jsonschema:"One entry per host, in the order named."`
	OK      int          `json:"ok" jsonschema:"Hosts where the command ran and exited 0."`
	Failed  int          `json:"failed" jsonschema:"Hosts where it ran and failed, timed out, or could not be reached."`
	Refused int          `json:"refused" jsonschema:"Hosts refused by policy or not in the inventory; nothing ran there."`
}

// CheckArgs are hosts_check's arguments.
type CheckArgs struct {
	Hosts []string `json:"hosts" jsonschema:"Inventory host names and group names (see hosts_list)."`
}

// Check is one host's health.
type Check struct {
	Host        string `json:"host"`
	Status      string `json:"status"`
	Address     string `json:"address,omitempty"`
	Reachable   bool   `json:"reachable" jsonschema:"An SSH server answered."`
	AuthOK      bool   `json:"auth_ok" jsonschema:"warden logged in."`
	HostKey     string `json:"host_key,omitempty" jsonschema:"known, unknown, changed or added."`
	Fingerprint string `json:"fingerprint,omitempty" jsonschema:"SHA256 fingerprint of the host key the server offered."`
	LatencyMS   int64  `json:"latency_ms" jsonschema:"One keepalive round trip."`
	Error       string `json:"error,omitempty"`
}

// CheckResult is hosts_check's result.
type CheckResult struct {
	Results []Check `json:"results"`
}

func (f *Fleet) registerFanout(r *relay.Relay) {
	d := &f.d
	relay.AddFanout[FanoutArgs, FanoutResult](r, relay.Spec{
		Name: "fanout", Title: "Run a command on many hosts",
		Description: "Run one shell command on many inventory hosts or groups at once (at most 100 hosts, 1–32 at a time) " +
			"and return each host's exit code and bounded output. Each host is checked by policy under its own mode: " +
			"hosts the policy refuses are reported as denied and nothing runs there; if any host needs approval, the " +
			"whole call does. A host that cannot be reached reports its error; the others still run.",
		Annotations: &mcp.ToolAnnotations{Title: "Run a command on many hosts", DestructiveHint: ptr(true), OpenWorldHint: ptr(true)},
	}, d.planFanout)
	relay.AddFanout[CheckArgs, CheckResult](r, relay.Spec{
		Name: "hosts_check", Title: "Check hosts",
		Description: "Connect to inventory hosts or groups and report for each: reachable, logged in, host key status " +
			"(known, unknown, changed) with its fingerprint, and latency. Runs nothing on the hosts.",
		Annotations: &mcp.ToolAnnotations{Title: "Check hosts", ReadOnlyHint: true, OpenWorldHint: ptr(true)},
	}, d.planCheck)
}

func (d *Deps) planFanout(ctx context.Context, _ *relay.Call, a *FanoutArgs) (*relay.FanoutPlan, error) {
	if strings.TrimSpace(a.Command) == "" {
		return nil, errors.New("command is empty")
	}
	if strings.ContainsRune(a.Command, 0) {
		return nil, errors.New("command contains a NUL byte")
	}
	if a.Concurrency < 0 || a.Concurrency > relay.MaxFanoutConcurrency {
		return nil, fmt.Errorf("concurrency must be between 1 and %d", relay.MaxFanoutConcurrency)
	}
	if a.TimeoutS < 0 || a.MaxBytes < 0 {
		return nil, errors.New("timeout_s and max_bytes must not be negative")
	}
	names, err := d.expand(a.Hosts)
	if err != nil {
		return nil, err
	}
	timeout := d.Limits.DefaultTimeout
	if a.TimeoutS > 0 {
		timeout = min(time.Duration(a.TimeoutS)*time.Second, d.Limits.MaxTimeout)
	}
	// Each host keeps what run_command would, but together the hosts keep
	// about one run_command ceiling, so a 100-host fan-out cannot hold a
	// hundred times the limit in memory.
	perHost := d.Limits.DefaultMaxBytes
	if a.MaxBytes > 0 {
		perHost = min(a.MaxBytes, d.Limits.MaxBytes)
	}
	perHost = min(perHost, max(d.Limits.MaxBytes/len(names), minHostBytes))
	conc := a.Concurrency
	if conc == 0 {
		conc = DefaultConcurrency
	}
	plans := make([]relay.HostPlan, len(names))
	for i, name := range names {
		hp := relay.HostPlan{Host: name, Input: policy.Input{Command: a.Command, Host: name}}
		if name == "local" {
			hp.Err = errors.New("fanout runs on inventory hosts; use run_command for local")
			plans[i] = hp
			continue
		}
		t, err := d.Hosts(ctx, name)
		if err != nil {
			hp.Err = err
			plans[i] = hp
			continue
		}
		hp.Input.HostAddrs = t.Addrs
		hp.Run = func(ctx context.Context) *relay.Outcome {
			res, err := t.Runner.Run(ctx, runner.Request{
				Argv:     []string{t.Shell, "-c", a.Command},
				Env:      t.Env,
				Timeout:  timeout,
				MaxBytes: perHost,
			})
			if err != nil {
				return relay.Fail(relay.StatusError, "%s", oneLine(err.Error()))
			}
			return command.Outcome(res)
		}
		plans[i] = hp
	}
	return &relay.FanoutPlan{Hosts: plans, Concurrency: conc, Combine: combineFanout}, nil
}

func combineFanout(results []relay.HostOutcome) *relay.Outcome {
	res := FanoutResult{Results: make([]HostResult, 0, len(results))}
	var b strings.Builder
	var output []byte
	for _, r := range results {
		hr := HostResult{Host: r.Host, Status: string(r.Status), Reason: r.Reason, Decision: r.Decision, Tier: int(r.Tier), Ran: r.Ran}
		er, ran := r.Result.(command.Result)
		if ran {
			hr.Result = er
		}
		switch {
		case !r.Ran:
			res.Refused++
		case r.Status == relay.StatusOK && hr.ExitCode == 0:
			res.OK++
		default:
			res.Failed++
		}
		fmt.Fprintf(&b, "=== %s: ", r.Host)
		if ran {
			fmt.Fprintf(&b, "exit %d", hr.ExitCode)
			if hr.TimedOut {
				b.WriteString(", timed out")
			}
			if hr.Truncated {
				b.WriteString(", truncated")
			}
			b.WriteString("\n" + hr.Stdout)
			if hr.Stderr != "" {
				if hr.Stdout != "" && !strings.HasSuffix(hr.Stdout, "\n") {
					b.WriteByte('\n')
				}
				b.WriteString("[stderr]\n" + hr.Stderr)
			}
			if !strings.HasSuffix(b.String(), "\n") {
				b.WriteByte('\n')
			}
			output = append(append(output, hr.Stdout...), hr.Stderr...)
		} else {
			fmt.Fprintf(&b, "%s: %s\n", r.Status, r.Reason)
		}
		res.Results = append(res.Results, hr)
	}
	fmt.Fprintf(&b, "[%d ok, %d failed, %d refused]", res.OK, res.Failed, res.Refused)
	return &relay.Outcome{Result: res, Text: b.String(), Output: output}
}

func (d *Deps) planCheck(ctx context.Context, _ *relay.Call, a *CheckArgs) (*relay.FanoutPlan, error) {
	names, err := d.expand(a.Hosts)
	if err != nil {
		return nil, err
	}
	plans := make([]relay.HostPlan, len(names))
	for i, name := range names {
		hp := relay.HostPlan{Host: name, Input: policy.Input{Host: name}}
		t, err := d.Inventory.Resolve(name)
		if err != nil {
			hp.Err = fmt.Errorf("host %q: %w (see hosts_list)", name, err)
			plans[i] = hp
			continue
		}
		hp.Input.HostAddrs = addrsOf(t)
		hp.Run = func(ctx context.Context) *relay.Outcome {
			c := d.Pool.Check(ctx, t)
			out := Check{
				Host: name, Address: c.Addr, Reachable: c.Reachable, AuthOK: c.AuthOK,
				HostKey: string(c.HostKey), Fingerprint: c.Fingerprint, LatencyMS: c.Latency.Milliseconds(),
			}
			if c.Err != nil {
				out.Error = oneLine(c.Err.Error())
				o := relay.Fail(relay.StatusError, "%s", out.Error)
				o.Result = out
				return o
			}
			return &relay.Outcome{Result: out}
		}
		plans[i] = hp
	}
	return &relay.FanoutPlan{Hosts: plans, Concurrency: DefaultConcurrency, Combine: combineCheck}, nil
}

func combineCheck(results []relay.HostOutcome) *relay.Outcome {
	res := CheckResult{Results: make([]Check, 0, len(results))}
	var b strings.Builder
	for _, r := range results {
		c, ok := r.Result.(Check)
		if !ok {
			c = Check{Host: r.Host, Error: r.Reason}
		}
		c.Status = string(r.Status)
		res.Results = append(res.Results, c)
		if c.AuthOK {
			fmt.Fprintf(&b, "%s\tok\t%s\thost key %s\t%d ms\n", c.Host, c.Address, c.HostKey, c.LatencyMS)
		} else {
			fmt.Fprintf(&b, "%s\t%s\t%s\n", c.Host, r.Status, c.Error)
		}
	}
	return &relay.Outcome{Result: res, Text: b.String()}
}
