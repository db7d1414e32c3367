// Package operator owns the tools that tell the agent about warden itself:
// server_info (version, mode, limits, transport, audit health) and
// audit_tail (recent audit records).
package operator

import (
	"context"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/audit/export"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/snapshot"
)

// Limits are the server-wide bounds server_info reports.
type Limits struct {
	DefaultTimeoutS int   `json:"default_timeout_s"`
	MaxTimeoutS     int   `json:"max_timeout_s"`
	DefaultMaxBytes int   `json:"default_max_bytes"`
	MaxBytes        int   `json:"max_bytes"`
	MaxStdinBytes   int   `json:"max_stdin_bytes"`
	MaxBodyBytes    int64 `json:"max_body_bytes,omitempty"`
}

// Deps is what the operator tools read.
type Deps struct {
	Version   string
	Transport string
	Limits    Limits
	Started   time.Time
	// AuditFiles lists the audit log's files in chain order.
	AuditFiles func() ([]string, error)
	// Confinement is what holds the programs calls start on this machine.
	Confinement Confinement
	// ConfigDigest is the digest of the config file the server runs
	// (changed by reloads); nil reports none.
	ConfigDigest func() string
	// Node is the name audit records and exports carry (audit.node).
	Node string
	// AuditExports reports the audit export sinks; nil reports none.
	AuditExports func() []export.Stats
	// SnapshotSources reports what each snapshot dataset can serve
	// with the permissions warden has; nil reports none.
	SnapshotSources func(ctx context.Context) []snapshot.Reach
	// Agents reports warden's agent on each inventory host that opts in
	// to it (hosts[].agent); nil reports none.
	Agents func() []Agent
	// WaitingLooks reports the looks at files, and the classifications,
	// left waiting on file systems that do not answer; nil reports none.
	WaitingLooks func() WaitingLooks
	Now          func() time.Time
}

// Agent is server_info's account of warden's agent on one host.
type Agent struct {
	Host        string `json:"host"`
	Mode        string `json:"mode" jsonschema:"The host's agent mode: auto (plain SSH where the agent cannot run) or required."`
	State       string `json:"state" jsonschema:"running; fallback (served over plain SSH under auto, see reason); failed (the last start under required, see reason); idle (starts on the first admitted call)."`
	Version     string `json:"version,omitempty"`
	PID         int    `json:"pid,omitempty"`
	Platform    string `json:"platform,omitempty" jsonschema:"The build's platform, from the host's uname -sm."`
	Path        string `json:"path,omitempty" jsonschema:"The agent binary running on the host."`
	Why         string `json:"why,omitempty" jsonschema:"Why that binary: uploaded from the build set (agent.builds) or warden's own executable, or the operator-installed agent_path and whether its SHA-256 was checked."`
	Confinement string `json:"confinement,omitempty" jsonschema:"The kernel confinement the agent applies there."`
	Reason      string `json:"reason,omitempty" jsonschema:"Why the agent is not running."`
}

// WaitingLooks is server_info's account of looks that wait on file
// systems that do not answer (exec.max_waiting_looks).
type WaitingLooks struct {
	Files           int64 `json:"files" jsonschema:"Looks at files (file and snapshot tools, working directories) that have not ended."`
	Classifications int64 `json:"classifications" jsonschema:"Classifications that have not ended."`
	Max             int   `json:"max" jsonschema:"exec.max_waiting_looks: past it, each kind is refused at once."`
}

// Confinement is server_info's account of local confinement.
type Confinement struct {
	Mechanism string   `json:"mechanism" jsonschema:"The kernel mechanisms that hold what a call was admitted as, or none and why."`
	Active    bool     `json:"active"`
	Required  bool     `json:"required" jsonschema:"The operator requires confinement; warden does not serve without it."`
	Warning   string   `json:"warning,omitempty" jsonschema:"Set when local programs run unconfined."`
	Gaps      []string `json:"gaps,omitempty" jsonschema:"What this kernel or user cannot hold."`
}

// Info is server_info's result.
type Info struct {
	Version      string         `json:"version"`
	Mode         string         `json:"mode"`
	Transport    string         `json:"transport"`
	Limits       Limits         `json:"limits"`
	AuditHealthy bool           `json:"audit_healthy"`
	AuditReason  string         `json:"audit_reason,omitempty"`
	Tools        []string       `json:"tools"`
	Started      time.Time      `json:"started"`
	LastActivity time.Time      `json:"last_activity"`
	InFlight     int            `json:"in_flight"`
	Confinement  Confinement    `json:"confinement"`
	ConfigDigest string         `json:"config_digest,omitempty" jsonschema:"sha256: and the hex SHA-256 of the config file this server runs (of the embedded default without one); warden doctor --url compares it with the file on disk."`
	Node         string         `json:"node" jsonschema:"The name this warden gives itself in every audit record and export (audit.node, default the host name)."`
	AuditExport  []export.Stats `json:"audit_export,omitempty" jsonschema:"Each audit export sink: records sent, dropped because its queue was full (they are still in the local log), retried, queued, and whether it is connected."`
	// SnapshotSources is what each snapshot dataset can serve, on this
	// machine or on the inventory host that holds it.
	Agents          []Agent          `json:"agents,omitempty" jsonschema:"warden's agent on each inventory host with agent: auto or required: its version, path and confinement, or why it is not running."`
	WaitingLooks    *WaitingLooks    `json:"waiting_looks,omitempty" jsonschema:"Set while looks at files or classifications have not ended: a mount whose server does not answer (a hard NFS mount, a stopped FUSE daemon) keeps them waiting, each holding a thread, until it answers."`
	SnapshotSources []snapshot.Reach `json:"snapshot_sources,omitempty" jsonschema:"Per snapshot dataset, local or on an inventory host (host): the checks run (listing, reading, zfs list/get, zpool list, zfs allow), the tools it cannot fully serve and why, its zfs allow delegations and any delegated permission that changes data (more than warden needs); status is probed, or unknown with the reason when a host could not be reached or did not answer in time. Probed at most once a minute."`
}

// TailArgs are audit_tail's arguments.
type TailArgs struct {
	N        int    `json:"n,omitempty" jsonschema:"How many records (default 20, at most 200)."`
	Tool     string `json:"tool,omitempty" jsonschema:"Only records of this tool."`
	Tier     *int   `json:"tier,omitempty" jsonschema:"Only records of this tier."`
	Decision string `json:"decision,omitempty" jsonschema:"Only records with this decision (allow, denied, approval_required, approved)."`
}

// TailResult is audit_tail's result.
type TailResult struct {
	Records []audit.Record `json:"records"`
}

// Register adds server_info and audit_tail to the relay.
func Register(r *relay.Relay, d Deps) {
	if d.Now == nil {
		d.Now = time.Now
	}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: ptr(false)}
	relay.Add[struct{}, Info](r, relay.Spec{
		Name:        "server_info",
		Title:       "About this warden",
		Description: "Report warden's version, policy mode, limits, transport, audit log health and tools.",
		Annotations: readOnly,
	}, func(ctx context.Context, c *relay.Call, _ *struct{}) (*relay.Plan, error) {
		return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
			ok, why := r.AuditHealthy()
			last, n := r.Activity().Last()
			digest := ""
			if d.ConfigDigest != nil {
				digest = d.ConfigDigest()
			}
			var exports []export.Stats
			if d.AuditExports != nil {
				exports = d.AuditExports()
			}
			var snaps []snapshot.Reach
			if d.SnapshotSources != nil {
				snaps = d.SnapshotSources(ctx)
			}
			var agents []Agent
			if d.Agents != nil {
				agents = d.Agents()
			}
			var waiting *WaitingLooks
			if d.WaitingLooks != nil {
				if w := d.WaitingLooks(); w.Files+w.Classifications > 0 {
					waiting = &w
				}
			}
			return &relay.Outcome{Result: Info{
				Agents:          agents,
				Node:            d.Node,
				AuditExport:     exports,
				Version:         d.Version,
				Mode:            string(r.Mode()),
				Transport:       d.Transport,
				Limits:          d.Limits,
				AuditHealthy:    ok,
				AuditReason:     why,
				Tools:           r.Tools(),
				Started:         d.Started,
				LastActivity:    last,
				InFlight:        n,
				Confinement:     d.Confinement,
				ConfigDigest:    digest,
				SnapshotSources: snaps,
				WaitingLooks:    waiting,
			}}
		}}, nil
	})
	relay.Add[TailArgs, TailResult](r, relay.Spec{
		Name:        "audit_tail",
		Title:       "Recent audit records",
		Description: "Return the most recent audit records (bounded), optionally filtered by tool, tier or decision. Arguments in records are already redacted.",
		Annotations: readOnly,
	}, func(ctx context.Context, c *relay.Call, a *TailArgs) (*relay.Plan, error) {
		n := a.N
		switch {
		case n <= 0:
			n = 20
		case n > 200:
			n = 200
		}
		return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
			files, err := d.AuditFiles()
			if err != nil {
				return relay.Fail(relay.StatusError, "audit log: %v", err)
			}
			recs, err := audit.Tail(files, n, audit.Filter{Tool: a.Tool, Tier: a.Tier, Decision: a.Decision})
			if err != nil {
				return relay.Fail(relay.StatusError, "audit log: %v", err)
			}
			if recs == nil {
				recs = []audit.Record{}
			}
			return &relay.Outcome{Result: TailResult{Records: recs}}
		}}, nil
	})
}

func ptr[T any](v T) *T { return &v }
