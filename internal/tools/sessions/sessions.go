// Package sessions owns the interactive session tools — session_start,
// session_send, session_read, session_resize, session_signal, session_close
// and session_list — over the session registry. Each session belongs to the
// identity that started it.
//
// A session is no side door. What session_send types is classified by
// policy as the lines the session's shell will be handed: warden follows
// each session's input line through the terminal's edits, across sends,
// and with any unfinished command the lines continue (line.go says which
// edits it follows). A send holding a key whose effect warden cannot see
// is refused in a session started without writable=true; in a writable
// session, whose writes were approved, it is tier 3, so it needs approval
// in every mode. So is every send after a command that changes how the
// session reads keys or starts a shell whose language warden does not
// parse (rekey.go), and a line typed after a program that reads part of
// a line (partial.go). A session started without writable=true runs read-only
// (confine.Read) whatever is typed into it: the kernel holds what the
// classifier cannot see, such as a program that reads part of a line.
package sessions

import (
	"context"
	"errors"
	"fmt"
	"path"
	"path/filepath"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/shellword"
)

// Deps is what the session tools need.
type Deps struct {
	Registry *session.Registry
	// Env is the fixed base environment of every session program.
	Env []string
	// Shell is the program a session runs when no command is given.
	Shell string
	// Hosts resolves a host argument ("" or "local" or an inventory name)
	// to where its sessions start; nil means this machine only.
	Hosts hosts.Resolver
	// MaxReadBytes caps one session_read.
	MaxReadBytes int
	// MaxWait caps session_read's wait_s.
	MaxWait time.Duration

	book *book
}

// book remembers what warden knows of each session beyond the registry:
// its host, whether it was started writable, and its input line.
type book struct {
	mu sync.Mutex
	m  map[string]*tab
}

// tab is one session's entry in the book.
type tab struct {
	// host is the inventory name of a remote session, "" for local, so
	// that what is typed into it is admitted under that host's mode and
	// deny rules.
	host string
	// writable: started with writable=true, after approval.
	writable bool
	// unheld: nothing but the classifier holds what its shell runs (an
	// SSH host's session, a writable one), so what its prompt runs where
	// a send leaves it counts (policy.Input.Prompt).
	unheld bool
	// utf8: the session's locale is known to be UTF-8.
	utf8 bool
	// dirs are the working directories its shell may run what is typed
	// in, as policy.DirsAfter gives them: the start's cwd (none when none
	// was given) and those sends may have moved it to, or "." once one is
	// known only at run time. Read and written while holding turn.
	dirs []string

	// turn is held while a send reads the line state or types; typing and
	// gen are read and written only while holding it.
	turn   chan struct{}
	typing typing
	// gen counts the sends typed, so a send planned against an older
	// line does not run.
	gen uint64
	// prompted: the last line entered runs a command that reads a
	// secret on its input, here the terminal (mysql -p, passwd, sudo
	// -S): the next line typed is that secret.
	prompted bool
	// episode is the lines that left the session adrift and its reader
	// (held.go).
	episode episode
}

func newTab(host string, writable, utf8 bool) *tab {
	return &tab{host: host, writable: writable, utf8: utf8, turn: make(chan struct{}, 1)}
}

// take waits for the session's turn.
func (t *tab) take(ctx context.Context) error {
	select {
	case t.turn <- struct{}{}:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("waiting for another send to the session: %w", ctx.Err())
	}
}

func (t *tab) give() { <-t.turn }

// moved records where text, run by the session's shell, may leave it.
func (t *tab) moved(text string) {
	if dirs, ok := policy.DirsAfter(text, t.dirs); ok {
		t.dirs = dirs
	} else {
		t.dirs = []string{"."}
	}
}

func (b *book) add(id string, t *tab) {
	b.mu.Lock()
	b.m[id] = t
	b.mu.Unlock()
}

// get returns session id's entry, forgetting sessions the registry no
// longer has. A session it never saw starts local, read-only and with an
// empty line.
func (b *book) get(id string, live []session.Info) *tab {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.m) > 2*len(live)+16 {
		keep := map[string]*tab{}
		for _, s := range live {
			if t, ok := b.m[s.ID]; ok {
				keep[s.ID] = t
			}
		}
		b.m = keep
	}
	t, ok := b.m[id]
	if !ok {
		t = newTab("", false, false)
		t.dirs = []string{"."} // what was typed before is not known
		b.m[id] = t
	}
	return t
}

// StartArgs are session_start's arguments.
type StartArgs struct {
	Command string            `json:"command,omitempty" jsonschema:"Program to run, as a shell command line; default: an interactive shell."`
	Host    string            `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Cwd     string            `json:"cwd,omitempty" jsonschema:"Absolute working directory."`
	Env     map[string]string `json:"env,omitempty" jsonschema:"Extra environment variables."`
	Cols    int               `json:"cols,omitempty" jsonschema:"Terminal width (default 80)."`
	Rows    int               `json:"rows,omitempty" jsonschema:"Terminal height (default 24)."`
	PTY     *bool             `json:"pty,omitempty" jsonschema:"Run in a terminal (default true); false runs a background job with pipes, for long work."`
	// Writable is part of the call, so an approval is for a writable
	// session and not for another.
	Writable bool `json:"writable,omitempty" jsonschema:"Start a session whose programs may write; this needs approval like a mutation (tier 2). Without it the session is read-only, whatever is later typed."`
}

// SendArgs are session_send's arguments.
type SendArgs struct {
	SessionID string `json:"session_id"`
	Data      string `json:"data" jsonschema:"Text to type. The lines it completes are checked by policy like commands, after the terminal's edits (DEL, Ctrl-U, Ctrl-W, Ctrl-C) and with earlier text not yet entered. Other control keys (Tab, arrows, Ctrl-A, …) are refused unless the session is writable."`
	Enter     *bool  `json:"enter,omitempty" jsonschema:"Press Enter after the text (default true)."`
}

// ReadArgs are session_read's arguments.
type ReadArgs struct {
	SessionID string `json:"session_id"`
	WaitS     int    `json:"wait_s,omitempty" jsonschema:"Wait up to this many seconds for output; returns early once output goes quiet or the program exits."`
	MaxBytes  int    `json:"max_bytes,omitempty" jsonschema:"Cap on bytes returned; the rest stays for the next read."`
	Raw       bool   `json:"raw,omitempty" jsonschema:"Keep terminal escape sequences (default: stripped)."`
}

// ResizeArgs are session_resize's arguments.
type ResizeArgs struct {
	SessionID string `json:"session_id"`
	Cols      int    `json:"cols"`
	Rows      int    `json:"rows"`
}

// SignalArgs are session_signal's arguments.
type SignalArgs struct {
	SessionID string `json:"session_id"`
	Signal    string `json:"signal" jsonschema:"INT (Ctrl-C), TERM, KILL, HUP, QUIT, TSTP, CONT, WINCH, USR1 or USR2."`
}

// IDArgs name a session.
type IDArgs struct {
	SessionID string `json:"session_id"`
}

// Started is session_start's result.
type Started struct {
	SessionID string `json:"session_id"`
	PTY       bool   `json:"pty"`
	Cols      uint16 `json:"cols"`
	Rows      uint16 `json:"rows"`
	Writable  bool   `json:"writable"`
}

// Ack is the result of a call that only acknowledges.
type Ack struct {
	SessionID string `json:"session_id"`
}

// List is session_list's result.
type List struct {
	Sessions []Listed `json:"sessions"`
}

// Listed is one session in session_list.
type Listed struct {
	session.Info
	Host     string `json:"host,omitempty"`
	Writable bool   `json:"writable"`
}

// Register adds the session tools to the relay.
func Register(r *relay.Relay, d Deps) {
	if d.MaxReadBytes <= 0 {
		d.MaxReadBytes = 256 << 10
	}
	if d.MaxWait <= 0 {
		d.MaxWait = 60 * time.Second
	}
	if d.Shell == "" {
		d.Shell = "/bin/sh"
	}
	d.book = &book{m: map[string]*tab{}}
	acts := &mcp.ToolAnnotations{DestructiveHint: ptr(true), OpenWorldHint: ptr(true)}
	reads := &mcp.ToolAnnotations{ReadOnlyHint: true, OpenWorldHint: ptr(false)}
	relay.Add[StartArgs, Started](r, relay.Spec{
		Name: "session_start", Title: "Start an interactive session", Tier: policy.TierBenign, Annotations: acts,
		Description: "Start a program (default: a shell) in a real terminal, or with pty=false as a background job " +
			"that outlives one request. Returns a session_id for session_send and session_read. The session is " +
			"read-only unless writable=true, which needs approval. Sessions are recorded, bounded and closed after idling.",
	}, d.planStart)
	relay.Add[SendArgs, Ack](r, relay.Spec{
		Name: "session_send", Title: "Type into a session", Annotations: acts,
		Description: "Type text into a session, followed by Enter unless enter=false. Each line the shell will run " +
			"(after the terminal's edits, and with text typed earlier) is checked by policy like a command: what " +
			"policy would refuse to run, it refuses to type. Keys whose effect warden cannot see (Tab, arrows, " +
			"Ctrl-A, ^H, …) are refused unless the session is writable.",
	}, d.planSend)
	relay.Add[ReadArgs, session.ReadResult](r, relay.Spec{
		Name: "session_read", Title: "Read a session's output", Annotations: reads,
		Description: "Return the session's output since the last read, waiting up to wait_s for output and returning " +
			"once it goes quiet. Reports the exit status once the program ended and how many bytes were dropped " +
			"if the buffer overflowed. Escape sequences are stripped unless raw=true.",
	}, d.planRead)
	relay.Add[ResizeArgs, Ack](r, relay.Spec{
		Name: "session_resize", Title: "Resize a session's terminal", Tier: policy.TierBenign, Annotations: acts,
		Description: "Change a terminal session's size in columns and rows.",
	}, d.planResize)
	relay.Add[SignalArgs, Ack](r, relay.Spec{
		Name: "session_signal", Title: "Signal a session", Tier: policy.TierBenign, Annotations: acts,
		Description: "Send a signal to what the session is running in the foreground: INT is Ctrl-C.",
	}, d.planSignal)
	relay.Add[IDArgs, session.CloseInfo](r, relay.Spec{
		Name: "session_close", Title: "Close a session", Tier: policy.TierBenign, Annotations: acts,
		Description: "End a session, killing everything it started, and report its exit status and recording.",
	}, d.planClose)
	relay.Add[struct{}, List](r, relay.Spec{
		Name: "session_list", Title: "List sessions", Annotations: reads,
		Description: "List your open sessions.",
	}, d.planList)
}

func ptr[T any](v T) *T { return &v }

func (d *Deps) planStart(ctx context.Context, c *relay.Call, a *StartArgs) (*relay.Plan, error) {
	if a.Cwd != "" && !filepath.IsAbs(a.Cwd) {
		return nil, fmt.Errorf("cwd must be an absolute path, got %q", a.Cwd)
	}
	if a.Cols < 0 || a.Rows < 0 || a.Cols > 1000 || a.Rows > 1000 {
		return nil, errors.New("cols and rows must be between 1 and 1000")
	}
	if strings.ContainsRune(a.Command, 0) {
		return nil, errors.New("command contains a NUL byte")
	}
	// As run_command's: a name with "=" in it ("LD_PRELOAD=/x") sets the
	// variable after the "=" once joined as NAME=value, and a remote
	// session refuses what is no name; both are the agent's to fix.
	for k, v := range a.Env {
		if !shellword.ValidName(k) {
			return nil, fmt.Errorf("env: %q is not a valid variable name", truncate(k, 64))
		}
		if strings.ContainsRune(v, 0) {
			return nil, fmt.Errorf("env: value of %s contains a NUL byte", k)
		}
	}
	var starter session.Starter
	var addrs []string
	shell, remote, agent := "/bin/sh", false, false
	switch {
	case d.Hosts != nil:
		h, err := d.Hosts(ctx, a.Host)
		if err != nil {
			return nil, err
		}
		starter, shell = h.Sessions()
		addrs, remote, agent = h.Addrs, !h.Local(), h.Kind == hosts.KindAgent
	case !hosts.IsLocal(a.Host):
		return nil, fmt.Errorf("unknown host %q: not in the inventory (see hosts_list)", a.Host)
	}
	argv := []string{d.Shell}
	if starter != nil {
		argv = []string{shell}
	}
	if a.Command != "" {
		argv = []string{shell, "-c", a.Command}
	}
	pty := a.PTY == nil || *a.PTY
	// A pager that git log, journalctl or man start in the terminal reads
	// the keys typed next: in secure mode it runs no commands (less's
	// "!touch x" after a harmless-looking ": ") and writes no files.
	// rekey.go counts a change of it.
	env := append([]string{"LESSSECURE=1"}, d.Env...)
	// A pager reads keys with the terminal's editing off, and a plain
	// shell then gets what was typed while it ran unedited: after git
	// log, "qtouch x #^Uecho hi" quits less and dash runs touch. So the
	// programs that start one by themselves get none; rekey.go counts a
	// change of these.
	env = append(env, pagerEnv...)
	for k, v := range a.Env {
		env = append(env, k+"="+v)
	}
	// Only a local session's locale is known; a remote one's is the far
	// side's.
	host, utf8 := "", utf8Locale(env)
	if remote {
		host, utf8 = a.Host, false
	}
	tier := policy.TierBenign
	if a.Writable {
		tier = policy.TierMutate
	}
	unheld := a.Writable || remote && !agent
	started := "" // the shell started for want of a command, which reads its startup files
	if a.Command == "" {
		started = argv[0]
	}
	return &relay.Plan{
		Host: a.Host,
		// An SSH host's shell, or a writable session's, is held by
		// nothing but the classifier (warden's agent confines a read on
		// its host): what its prompt runs where it starts counts
		// (policy's prompt.go).
		Input: policy.Input{Command: a.Command, Env: a.Env, HostAddrs: addrs, Dir: a.Cwd, Prompt: unheld, Shell: started},
		Tier:  tier,
		Run: func(ctx context.Context) *relay.Outcome {
			// The session's programs are confined by its start's
			// admission, whatever is typed later.
			level := confine.Read
			if a.Writable {
				level = confine.Full
			}
			ctx = confine.WithLevel(ctx, level)
			info, err := d.Registry.Start(ctx, session.Spec{
				Argv: argv, Env: env, Dir: a.Cwd, Cols: uint16(a.Cols), Rows: uint16(a.Rows),
				PTY: pty, Starter: starter, Owner: c.Identity,
			})
			if err != nil {
				return fail(err)
			}
			tb := newTab(host, a.Writable, utf8)
			tb.unheld = unheld
			if a.Cwd != "" {
				tb.dirs = []string{a.Cwd}
			}
			tb.moved(a.Command)
			tb.typing = startTyping(a.Command, startRekeys(a, argv[0]))
			// The command runs in the session's own process group, no
			// shell's at its prompt.
			tb.episode = episode{text: a.Command}
			d.book.add(info.ID, tb)
			return &relay.Outcome{
				Result: Started{SessionID: info.ID, PTY: info.PTY, Cols: info.Cols, Rows: info.Rows, Writable: a.Writable},
				Extra:  map[string]any{"session_id": info.ID, "writable": a.Writable},
			}
		},
	}, nil
}

// startRekeys says why a session started with a's command and
// environment, or else the shell program, does not read keys the way
// warden follows them or reads a language it does not parse, or "".
func startRekeys(a *StartArgs, shell string) string {
	for k := range a.Env {
		if why := rekeyVars[k]; why != "" {
			return why
		}
	}
	if a.Command == "" {
		q, err := syntax.Quote(shell, syntax.LangBash)
		if err != nil {
			return "the session's shell " + truncate(shell, 64) + " is not a name warden can read"
		}
		if why := rekeys(q); why != "" {
			return why
		}
		// A host's shell is configured freely: one of another language
		// (rc, ion, tclsh) or line editor (ksh's Ctrl-W) reads what is
		// typed otherwise than warden classifies it.
		if !followedShells[path.Base(shell)] {
			return "the session's shell " + truncate(path.Base(shell), 32) + " is not one whose language and line editing " +
				"warden follows (sh, bash, dash, ash); configure the host's shell as one of them"
		}
		return ""
	}
	command := envSpelled(a.Command)
	if why := rekeys(command); why != "" {
		return why
	}
	// A session whose program reads its lines in another language
	// (mysql, python3, vi) gets none of its sends as shell.
	return readsLines(command)
}

// followedShells are the shells whose language warden classifies and
// whose line editing it follows (line.go).
var followedShells = map[string]bool{"sh": true, "bash": true, "dash": true, "ash": true, "rbash": true}

// utf8Locale reports whether env's locale (LC_ALL, else LC_CTYPE, else
// LANG) names UTF-8.
func utf8Locale(env []string) bool {
	for _, k := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		v := ""
		for _, kv := range env {
			if val, ok := strings.CutPrefix(kv, k+"="); ok {
				v = val
			}
		}
		if v != "" {
			v = strings.ToLower(v)
			return strings.Contains(v, "utf-8") || strings.Contains(v, "utf8")
		}
	}
	return false
}

// addrs are the addresses of a session's host for host deny rules, as the
// inventory resolves it now; none for this machine.
func (d *Deps) addrs(ctx context.Context, host string) []string {
	if hosts.IsLocal(host) || d.Hosts == nil {
		return nil
	}
	h, err := d.Hosts(ctx, host)
	if err != nil {
		return nil
	}
	return h.Addrs
}

// owned finds a session the caller started; others' sessions do not exist
// for it.
func (d *Deps) owned(c *relay.Call, id string) (session.Info, error) {
	if id == "" {
		return session.Info{}, errors.New("session_id is required")
	}
	for _, s := range d.Registry.List() {
		if s.ID == id && s.Owner == c.Identity {
			return s, nil
		}
	}
	return session.Info{}, fmt.Errorf("no session %q (closed, expired or never started)", id)
}

func (d *Deps) planSend(ctx context.Context, c *relay.Call, a *SendArgs) (*relay.Plan, error) {
	info, err := d.owned(c, a.SessionID)
	if err != nil {
		return nil, err
	}
	if !utf8.ValidString(a.Data) || strings.ContainsRune(a.Data, 0) {
		return nil, errors.New("data must be valid UTF-8 without NUL bytes")
	}
	data := a.Data
	if a.Enter == nil || *a.Enter {
		if info.PTY {
			data += "\r"
		} else {
			data += "\n"
		}
	}
	tb := d.book.get(a.SessionID, d.Registry.List())
	if err := tb.take(ctx); err != nil {
		return nil, err
	}
	before, gen, prompted, dirs, ep := tb.typing, tb.gen, tb.prompted, tb.dirs, tb.episode
	tb.give()
	var secrets []string
	// A terminal reading a line without echo is at a password prompt,
	// whichever program asked (ssh, a script's getpass).
	if !prompted && d.Registry != nil && d.Registry.Silent(a.SessionID) {
		prompted = true
	}
	if prompted {
		if line, _, _ := strings.Cut(strings.ReplaceAll(a.Data, "\r", "\n"), "\n"); line != "" {
			secrets = append(secrets, line)
			c.KnownSecret(line) // the answer to mysql -p's prompt
		}
	}
	before, held := d.stillHeld(ctx, a.SessionID, before, ep)
	ty := before.feed(data, keyboard{pty: info.PTY, utf8: tb.utf8})
	if held != "" && ty.unseen == "" {
		ty.unseen = held
	}
	// A line after one that prompts for a secret in this same send
	// (mysql -p⏎S3cret) answers that prompt: the next line entered, or
	// what is left typed after it.
	for k, line := range ty.lines {
		if !readsSecret(line) {
			continue
		}
		answer := ty.next.line
		if k+1 < len(ty.lines) {
			answer = ty.lines[k+1]
		}
		if part := sentPart(answer, a.Data); answer != "" && part != "" {
			secrets = append(secrets, part)
			c.KnownSecret(part)
		}
	}
	// A secret this send finishes may have been started by an earlier
	// one (export PGPASSWORD= then S3cret, chpasswd <<EOF then its
	// lines): found in the text the shell reads, it is one of this call's.
	for _, v := range audit.SecretsIn(ty.text) {
		if part := sentPart(v, a.Data); part != "" {
			secrets = append(secrets, part)
			c.KnownSecret(part)
		}
	}
	plan := &relay.Plan{
		// What is typed into a session is what its shell will run, on
		// the session's host.
		Host:  tb.host,
		Input: policy.Input{Command: ty.text, HostAddrs: d.addrs(ctx, tb.host), Prompt: tb.unheld},
	}
	// The shell runs it where earlier sends left it.
	if len(dirs) > 0 {
		plan.Input.Dir, plan.Input.Dirs = dirs[0], dirs[1:]
	}
	if ty.unseen != "" {
		if !tb.writable {
			return nil, relay.Refuse("%s. Send plain text (DEL, Ctrl-U, Ctrl-W and Ctrl-C are followed), "+
				"or start the session with writable=true after approval", ty.unseen)
		}
		// Its writes were approved, but not what this send does; the
		// human asked to approve it reads why.
		plan.Tier = policy.TierDestructive
		plan.Why = "warden cannot follow what this send makes the session run: " + ty.unseen
	}
	plan.Run = func(ctx context.Context) *relay.Outcome {
		if err := tb.take(ctx); err != nil {
			return relay.Fail(relay.StatusError, "%v", err)
		}
		defer tb.give()
		if tb.gen != gen {
			return relay.Fail(relay.StatusDenied, "another session_send typed into the session while this one was checked; "+
				"nothing was typed, send it again")
		}
		tb.gen++
		d.follow(ctx, a.SessionID, tb, before, ty)
		if err := d.Registry.SendSecret(ctx, a.SessionID, []byte(data), secrets...); err != nil {
			const why = "a send to the session failed part way"
			tb.typing = typing{lost: why, adrift: why, rekeyed: ty.next.rekeyed, renamed: ty.next.renamed, modes: ty.next.modes,
				notUTF8: ty.next.notUTF8, dialect: ty.next.dialect}
			tb.moved(ty.text)
			return fail(err)
		}
		tb.typing = ty.next
		tb.moved(ty.text)
		for k := len(ty.lines) - 1; k >= 0; k-- {
			if strings.TrimSpace(ty.lines[k]) != "" {
				// The last command entered; an empty Enter after it
				// does not answer its prompt.
				tb.prompted = readsSecret(ty.lines[k])
				break
			}
		}
		extra := map[string]any{"session_id": a.SessionID}
		if len(ty.lines) > 0 {
			// The answers this send types are replaced before the cut,
			// which would leave a part of one no longer found whole.
			extra["lines"] = truncate(audit.Secrets(nil).With(secrets...).Redact(strings.Join(ty.lines, "\n")), 4096)
		}
		if ty.unseen != "" {
			extra["unseen"] = ty.unseen
		}
		return &relay.Outcome{Result: Ack{SessionID: a.SessionID}, Extra: extra}
	}
	return plan, nil
}

func (d *Deps) planRead(ctx context.Context, c *relay.Call, a *ReadArgs) (*relay.Plan, error) {
	if _, err := d.owned(c, a.SessionID); err != nil {
		return nil, err
	}
	if a.WaitS < 0 || a.MaxBytes < 0 {
		return nil, errors.New("wait_s and max_bytes must not be negative")
	}
	opts := session.ReadOptions{
		Wait:     min(time.Duration(a.WaitS)*time.Second, d.MaxWait),
		MaxBytes: d.MaxReadBytes,
		Raw:      a.Raw,
	}
	if a.MaxBytes > 0 {
		opts.MaxBytes = min(a.MaxBytes, d.MaxReadBytes)
	}
	return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
		res, err := d.Registry.Read(ctx, a.SessionID, opts)
		if err != nil {
			return fail(err)
		}
		return &relay.Outcome{Result: res, Output: []byte(res.Data), Text: readText(res), Extra: map[string]any{"session_id": a.SessionID}}
	}}, nil
}

func readText(r session.ReadResult) string {
	var b strings.Builder
	b.WriteString(r.Data)
	var notes []string
	if r.Dropped > 0 {
		notes = append(notes, fmt.Sprintf("%d bytes dropped: the buffer overflowed", r.Dropped))
	}
	if r.More {
		notes = append(notes, "more output buffered")
	}
	if r.Exited {
		switch {
		case r.ExitCode != nil:
			notes = append(notes, fmt.Sprintf("exited with code %d", *r.ExitCode))
		case r.Signal != "":
			notes = append(notes, "killed by SIG"+r.Signal)
		default:
			notes = append(notes, "exited")
		}
	}
	if len(notes) > 0 {
		if b.Len() > 0 && !strings.HasSuffix(r.Data, "\n") {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "[%s]", strings.Join(notes, "; "))
	}
	return b.String()
}

func (d *Deps) planResize(ctx context.Context, c *relay.Call, a *ResizeArgs) (*relay.Plan, error) {
	if _, err := d.owned(c, a.SessionID); err != nil {
		return nil, err
	}
	if a.Cols < 1 || a.Rows < 1 || a.Cols > 1000 || a.Rows > 1000 {
		return nil, errors.New("cols and rows must be between 1 and 1000")
	}
	return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
		if err := d.Registry.Resize(a.SessionID, uint16(a.Cols), uint16(a.Rows)); err != nil {
			return fail(err)
		}
		return &relay.Outcome{Result: Ack{SessionID: a.SessionID}, Extra: map[string]any{"session_id": a.SessionID}}
	}}, nil
}

func (d *Deps) planSignal(ctx context.Context, c *relay.Call, a *SignalArgs) (*relay.Plan, error) {
	info, err := d.owned(c, a.SessionID)
	if err != nil {
		return nil, err
	}
	sig := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(a.Signal)), "SIG")
	return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
		if info.PTY && sig != "WINCH" && sig != "CONT" {
			// An interrupt changes what the shell makes of the next
			// lines, as Ctrl-C does, and a signal that stops or kills
			// a program may leave the terminal in its modes; no send
			// may interleave.
			tb := d.book.get(a.SessionID, d.Registry.List())
			if err := tb.take(ctx); err != nil {
				return relay.Fail(relay.StatusError, "%v", err)
			}
			defer tb.give()
			tb.gen++
			if sig == "INT" {
				tb.typing = tb.typing.signalled()
			} else {
				tb.typing = tb.typing.stopped(sig)
			}
		}
		if err := d.Registry.Signal(a.SessionID, a.Signal); err != nil {
			return fail(err)
		}
		return &relay.Outcome{Result: Ack{SessionID: a.SessionID}, Extra: map[string]any{"session_id": a.SessionID, "signal": a.Signal}}
	}}, nil
}

func (d *Deps) planClose(ctx context.Context, c *relay.Call, a *IDArgs) (*relay.Plan, error) {
	if _, err := d.owned(c, a.SessionID); err != nil {
		return nil, err
	}
	return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
		info, err := d.Registry.Close(a.SessionID)
		if err != nil {
			return fail(err)
		}
		return &relay.Outcome{Result: info, ExitCode: info.ExitCode, Extra: map[string]any{
			"session_id":       info.ID,
			"recording":        info.Recording,
			"recording_bytes":  info.RecordingBytes,
			"recording_sha256": info.RecordingSHA256,
		}}
	}}, nil
}

func (d *Deps) planList(ctx context.Context, c *relay.Call, _ *struct{}) (*relay.Plan, error) {
	return &relay.Plan{Run: func(ctx context.Context) *relay.Outcome {
		mine := []Listed{}
		live := d.Registry.List()
		for _, s := range live {
			if s.Owner == c.Identity {
				tb := d.book.get(s.ID, live)
				mine = append(mine, Listed{Info: s, Host: tb.host, Writable: tb.writable})
			}
		}
		return &relay.Outcome{Result: List{Sessions: mine}}
	}}, nil
}

// fail maps registry errors to what the agent sees.
func fail(err error) *relay.Outcome {
	switch {
	case errors.Is(err, session.ErrTooManySessions):
		return relay.Fail(relay.StatusDenied, "%v: close a session first (session_list shows yours)", err)
	case errors.Is(err, session.ErrNotFound), errors.Is(err, session.ErrNoTerminal), errors.Is(err, session.ErrUnknownSignal):
		return relay.Fail(relay.StatusInvalid, "%v", err)
	case errors.Is(err, session.ErrExited):
		return relay.Fail(relay.StatusInvalid, "%v; session_read shows its last output, session_close ends it", err)
	default:
		return relay.Fail(relay.StatusError, "%v", err)
	}
}

// sentPart returns the part of data, one send, that is the secret v found
// in the text the shell reads: all of v when data holds it, or the
// first word of data when v ends with it (the rest of a value an earlier
// send began); "" when v lies in earlier sends only.
func sentPart(v, data string) string {
	if strings.Contains(data, v) {
		return v
	}
	w := data
	if e := strings.IndexAny(w, " \t\r\n;|&"); e >= 0 {
		w = w[:e]
	}
	if w != "" && strings.HasSuffix(v, w) {
		return w
	}
	return ""
}
