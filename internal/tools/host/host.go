// Package host owns the host inspection and mutation tools — system_info,
// disk_usage, storage_health, containers, services, internet_exposure,
// performance, pending_updates, the firewall readers and the few typed
// mutations (restart_container, restart_service, firewall_block and
// firewall_unblock) — and the parsers that turn each program's output into
// structured results.
//
// Every tool runs fixed argv through the target's runner, never a shell
// line with arguments interpolated, so the same code serves the local host,
// a host reached through nsenter and, once wired, SSH hosts. Files such as
// /proc/meminfo are read with cat through the runner for the same reason.
// What a probe could not tell is reported as "unknown" with the reason,
// never as "none" or "disabled". Parsers are pure functions over text.
package host

import (
	"context"
	"net/netip"
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

// Deps is what the host tools need from the rest of warden.
type Deps struct {
	// Hosts resolves a host argument ("" or "local" or an inventory name),
	// or explains why it cannot; probes run on its Inspect runner.
	Hosts hosts.Resolver
	// Env is the fixed environment of every probe (PATH, LANG …).
	Env []string
	// Timeout bounds each probe; zero means 30s.
	Timeout time.Duration
	// Wait bounds how long disk_usage waits on df of every mount before
	// it measures each on its own, and each of those (maxDFWait at most);
	// zero means Timeout.
	Wait time.Duration
	// MaxBytes bounds each probe's output; zero means 1 MiB.
	MaxBytes int
	// Management are the sources the operator manages hosts from;
	// firewall_block refuses to block them unless overridden.
	Management []netip.Prefix
	// NFTTable is the nftables table (family inet) warden manages for
	// firewall_block; zero means DefaultNFTTable.
	NFTTable string
	// RuleFiles are the boot rule files firewall_diagnose checks (parse
	// only) when they exist; empty means DefaultRuleFiles.
	RuleFiles []string
	// Sleep waits between the two samples of performance; nil waits on a
	// timer (tests inject an immediate return).
	Sleep func(ctx context.Context, d time.Duration) error
}

// DefaultNFTTable is the table firewall_block manages. It avoids the word
// "warden" so the policy's self-protection rule does not read it as the
// agent editing warden itself.
const DefaultNFTTable = "agent_blocklist"

// Register adds every host tool to the relay.
func Register(r *relay.Relay, d Deps) {
	if d.Timeout <= 0 {
		d.Timeout = 30 * time.Second
	}
	if d.Wait <= 0 {
		d.Wait = d.Timeout
	}
	if d.MaxBytes <= 0 {
		d.MaxBytes = 1 << 20
	}
	if d.NFTTable == "" {
		d.NFTTable = DefaultNFTTable
	}
	if d.Sleep == nil {
		d.Sleep = sleep
	}
	d.registerInspect(r)
	d.registerMutate(r)
	d.registerPfTables(r)
	d.registerDiagnose(r)
}

func ptr[T any](v T) *T { return &v }

// readOnly annotates a tier-0 tool.
func readOnly(title string) *mcp.ToolAnnotations {
	return &mcp.ToolAnnotations{Title: title, ReadOnlyHint: true, IdempotentHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
}

// HostArg is the host argument every tool takes.
type HostArg struct {
	Host string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

// Unknown is how a result says a probe could not tell.
const Unknown = "unknown"

// Probe says whether one source of facts answered.
type Probe struct {
	Command string `json:"command"`
	// Status is ok or unknown.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// out is one probe's output.
type out struct {
	argv   []string
	stdout string
	stderr string
	code   int
	// why is non-empty when the probe could not tell: missing command,
	// permission denied, failure, empty output, timeout.
	why      string
	timedOut bool
}

func (o out) ok() bool { return o.why == "" }

func (o out) probe() Probe {
	p := Probe{Command: strings.Join(o.argv, " "), Status: "ok"}
	if !o.ok() {
		p.Status, p.Reason = Unknown, o.why
	}
	return p
}

// exec runs argv on t and classifies the outcome. okCodes lists exit codes
// besides 0 that still mean the command answered (dnf check-update's 100).
func (d *Deps) exec(ctx context.Context, t *hosts.Host, argv []string, okCodes ...int) out {
	return d.execWithin(ctx, t, argv, d.Timeout, okCodes...)
}

// execWithin is exec bounded by timeout rather than Deps.Timeout.
func (d *Deps) execWithin(ctx context.Context, t *hosts.Host, argv []string, timeout time.Duration, okCodes ...int) out {
	res, err := t.Inspect.Run(ctx, runner.Request{Argv: argv, Env: d.Env, Timeout: timeout, MaxBytes: d.MaxBytes})
	o := out{argv: argv, stdout: string(res.Stdout), stderr: string(res.Stderr), code: res.ExitCode, timedOut: res.TimedOut}
	o.why = command.Unanswered(argv, res, err, timeout, d.MaxBytes, okCodes...)
	return o
}

// runRaw runs argv on t and returns the bounded result as is.
func (d *Deps) runRaw(ctx context.Context, t *hosts.Host, argv []string) (runner.Result, error) {
	return t.Inspect.Run(ctx, runner.Request{Argv: argv, Env: d.Env, Timeout: d.Timeout, MaxBytes: d.MaxBytes})
}

// detectScript lists which of names exist on the target; names are
// constants of this package, never arguments.
func detectArgv(names ...string) []string {
	return []string{"sh", "-c", "for p in " + strings.Join(names, " ") + "; do command -v \"$p\" >/dev/null 2>&1 && echo \"$p\"; done; true"}
}

// detect reports which programs exist on t.
func (d *Deps) detect(ctx context.Context, t *hosts.Host, names ...string) map[string]bool {
	o := d.exec(ctx, t, detectArgv(names...))
	found := map[string]bool{}
	for _, l := range strings.Fields(o.stdout) {
		found[l] = true
	}
	return found
}

// input describes every argv a call will run, for the policy.
func input(argvs ...[]string) policy.Input {
	if len(argvs) == 1 {
		return policy.Input{Argv: argvs[0]}
	}
	lines := make([]string, 0, len(argvs))
	for _, a := range argvs {
		lines = append(lines, shellword.Join(a))
	}
	return policy.Input{Command: strings.Join(lines, "\n")}
}

// target resolves the host argument.
func (d *Deps) target(ctx context.Context, host string) (*hosts.Host, string, error) {
	if host == "" {
		host = "local"
	}
	t, err := d.Hosts(ctx, host)
	return t, host, err
}

func sleep(ctx context.Context, dur time.Duration) error {
	tm := time.NewTimer(dur)
	defer tm.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-tm.C:
		return nil
	}
}
