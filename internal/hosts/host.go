// Package hosts owns warden's central noun: a host, resolved by name once
// per call into everything a tool group needs to act on it — run a
// command, reach its files, start a session, read snapshots — and what it
// supports. Every tool group receives the one Resolve function of a Set;
// none builds its own way to a host or asks whether a name means this
// machine.
//
// Each kind of host is a Provider in a subpackage of its own: localhost
// (this machine, or the host of a container entered through PID 1's
// namespaces), sshhost (inventory hosts over the shared SSH pool, files
// over SFTP or the exec channel) and agenthost (inventory hosts that opt
// in to warden's agent on the far side). Adding a kind is one subpackage
// and one line where the Set is built.
package hosts

import (
	"context"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/session"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// Kind is how warden reaches a host.
type Kind string

// Host kinds.
const (
	KindLocal   Kind = "local"
	KindEntered Kind = "entered"
	KindSSH     Kind = "ssh"
	// KindAgent is an inventory host served through warden's agent
	// there (or over plain SSH where it falls back).
	KindAgent Kind = "agent"
)

// Host is one resolved host. It is read-only once resolved; a call uses the
// Host it resolved at its start even if the inventory is reloaded meanwhile.
type Host struct {
	// Name is "local" or the inventory name.
	Name string
	Kind Kind
	// Runner runs commands (run_command, run_script, fan-out); on this
	// machine it confines each program to what its call was admitted as.
	Runner runner.Runner
	// Inspect runs warden's own typed probes (host tools, snapshot
	// metadata): read-only calls keep the capabilities inspection needs.
	Inspect runner.Runner
	// Shell is the absolute path of the host's POSIX shell.
	Shell string
	// Env is the base environment of programs on the host.
	Env []string
	// Addrs are the host's address and its jump hops', for host deny
	// rules; none for this machine.
	Addrs []string
	// Mode is the host's own policy mode, which narrows the global one.
	Mode policy.Mode
	// Root says commands run as root there: warden is root on this
	// machine, or the SSH login user is. The classifier then reads what
	// only root's programs do (tar keeping setuid modes) as under sudo.
	Root bool
	// Confinement names what holds an admitted program on the host beyond
	// the classifier, or says that nothing does.
	Confinement string
	// StageScripts says run_script bodies are staged in a private file of
	// warden's own file system; elsewhere they are passed with -c.
	StageScripts bool
	// Files returns the host's files. An SSH host picks its transport
	// (SFTP, else the exec channel) on first use, so call it only once the
	// call is admitted: a denied host is never contacted.
	Files func(ctx context.Context) (hostfs.FS, error)
	// Starter starts the host's sessions; nil is this machine's own,
	// confined per admission.
	Starter session.Starter
	// Transport is how the host's files are reached: local, sftp or exec,
	// or "" while an SSH host's has not been picked yet.
	Transport func() string
	// SnapshotFS opens snapshot roots on the host; nil is warden's own
	// file system.
	SnapshotFS engine.OpenFSFunc
}

// Local reports whether the host is this machine, entered or not.
func (h *Host) Local() bool { return h.Kind == KindLocal || h.Kind == KindEntered }

// FS returns the host's files.
func (h *Host) FS(ctx context.Context) (hostfs.FS, error) { return h.Files(ctx) }

// AbandonFiles tells the host's files that a call on them did not answer
// in time, where they want to know: over SFTP the stuck session is left to
// its request and the next call starts another (see hostfs.SFTP.Abandon).
func (h *Host) AbandonFiles(ctx context.Context) {
	if h.Files == nil {
		return
	}
	// The call may have ended because ctx did.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	fsys, err := h.Files(ctx)
	if a, ok := fsys.(interface{ Abandon() }); ok && err == nil {
		a.Abandon()
	}
}

// Sessions returns where the host's sessions run and the shell they run by
// default; a nil Starter is this machine's own, confined per admission.
func (h *Host) Sessions() (session.Starter, string) { return h.Starter, h.Shell }

// FilesTransport is how the host's files are reached.
func (h *Host) FilesTransport() string {
	if h.Transport == nil {
		return ""
	}
	return h.Transport()
}

// Resolver resolves a host argument ("" or "local" or an inventory name).
type Resolver func(ctx context.Context, name string) (*Host, error)

// IsLocal reports whether a host argument names this machine.
func IsLocal(name string) bool { return name == "" || name == "local" }
