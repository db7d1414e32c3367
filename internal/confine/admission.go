// Package confine owns the kernel half of "classify, then confine": every
// command warden starts on this machine runs under a sandbox that holds
// what the policy admitted. A command admitted as a read runs where it
// cannot write; one admitted as benign can write only to the temporary
// directories; an approved one is unconfined but for warden's own state.
// No child, whatever its tier, can read or change warden's state
// directory, its config file, or its process.
package confine

import "context"

// Level is how far a started program is confined.
type Level string

// Levels, from the most confined.
const (
	// Read: the whole file system read-only.
	Read Level = "read"
	// Temp: as Read, plus writes under the temporary directories.
	Temp Level = "temp"
	// Inspect: as Read, for the typed probes warden builds itself (host
	// tools); they keep the capabilities inspection needs (reading
	// firewall rules, SMART data, other users' sockets).
	Inspect Level = "inspect"
	// Full: approved work; unconfined unless the operator's confine
	// block narrows it, and never able to reach warden's own state.
	Full Level = "full"
)

// ForTier is the level a call admitted at tier gets: 0 read, 1 temp, 2 and
// 3 full.
func ForTier(tier int) Level {
	switch {
	case tier <= 0:
		return Read
	case tier == 1:
		return Temp
	default:
		return Full
	}
}

// Admission is what the pipeline admitted a call as: the level its
// programs run at and the tool whose confine block applies.
type Admission struct {
	Level Level
	Tool  string
	// Daemons lets a call admitted at Read or Temp open Unix sockets, and
	// so ask a daemon behind a socket named by a path to act (dockerd,
	// systemd, a database): the classifier sets it when the command runs a
	// program whose reads are requests to a daemon (docker ps, systemctl
	// status). Without it, programs below tier 2 cannot make a Unix
	// socket, so a program started by a read that the command line does
	// not show (a repository's hook) cannot reach one. Inspect can, and
	// Full unless the operator's confine block narrows it.
	Daemons bool
	// Apart runs the call's programs below Full in a domain of Tool's own
	// at their level, shared with no other tool's: they carry what the calls of
	// other tools must not read. Programs of one domain can read one
	// another's /proc/PID/environ, fd and mem, so a declarative tool
	// given a value from warden's environment (run.env) would otherwise
	// show it to any read running meanwhile, a repository's hook included.
	Apart bool
	// Owner is who made the call (its identity). Below Full the calls of
	// different owners run in domains apart (up to maxOwnerDomains per
	// level), since programs of one domain read one another's
	// environment, descriptors and terminals: one client's read (a
	// repository's hook) would read what another's call was given.
	Owner string
}

// SessionTool is the tool whose programs are sessions: below tier 2 they
// run in a Landlock domain apart from the level's commands.
const SessionTool = "session_start"

type admissionKey struct{}

// With returns ctx carrying a.
func With(ctx context.Context, a Admission) context.Context {
	return context.WithValue(ctx, admissionKey{}, a)
}

// WithLevel returns ctx with its admission's level replaced by l (a
// session started without approval runs at Read whatever its tier).
func WithLevel(ctx context.Context, l Level) context.Context {
	a, _ := From(ctx)
	a.Level = l
	return With(ctx, a)
}

// WithApart returns ctx with its admission's programs run apart (see
// Admission.Apart).
func WithApart(ctx context.Context) context.Context {
	a, _ := From(ctx)
	a.Apart = true
	return With(ctx, a)
}

// From returns the admission ctx carries. A context without one is
// confined as Read: code that starts a program outside the pipeline gets
// the least, never the most.
func From(ctx context.Context) (Admission, bool) {
	a, ok := ctx.Value(admissionKey{}).(Admission)
	if !ok || a.Level == "" {
		a.Level = Read
	}
	return a, ok
}
