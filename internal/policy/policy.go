// Package policy decides whether a command may run.
//
// It owns tiers (how much a command can change), modes (how much a caller may
// do without approval), the built-in deny list (what nothing may run), the
// operator's regex rules and host deny rules, and the classifier that reads
// shell text as a syntax tree to find every program it would run.
//
// Evaluate classifies an Input into a Verdict; Admit turns a Verdict and a
// Mode into a Decision. The classifier fails closed: whatever it cannot see
// through — text that does not parse, a program name computed at run time, an
// interpreter payload, input nested or sized beyond its caps — is
// TierDestructive, and the deny matchers still run over the raw text.
//
// Choices worth knowing:
//
//   - TierBenign covers mkdir, touch under /tmp or /var/tmp, git ls-remote,
//     smartctl self-tests and an interactive shell with no input (its lines
//     are classified one by one); refreshing a package index or cache
//     writes under /var or ~ and is TierMutate.
//   - Firewall flushes, "ufw disable" and default-drop policies are
//     TierDestructive, not denied: firewall work is routine for the operators
//     warden serves and a human can approve it. Power-state changes, file
//     system creation, writes to block devices, recursive removal or
//     re-permissioning of system directories, killing init or every process,
//     fork bombs, deleting root, "crontab -r" and any modification of warden's
//     audit log are denied outright.
//   - Operator allow rules are anchored and must cover every part of an input
//     above tier 0; they never override a deny and never widen readonly.
//   - Payloads given to programs that run a shell (sh -c, ssh's remote
//     command and ProxyCommand, rsync -e and --rsync-path, find -exec, sed e,
//     tar --checkpoint-action, watch, flock -c, su -c, env -S, alias, trap,
//     eval of literal text) are parsed and classified; the wrapper takes at
//     least the tier of what it runs. Interpreter programs (python, perl,
//     node, …) cannot be read and are TierDestructive.
//   - Variables assigned literal values anywhere in a script are tried in
//     every command that uses them (X=reboot; $X), flow-insensitively, which
//     can only add findings.
package policy

import (
	"fmt"
	"os"
	"os/user"
	"path"
	"regexp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"
)

// Rules are the operator's additions to the built-in policy.
type Rules struct {
	// Deny are regexes over the normalised text of each simple command
	// (program basename and arguments joined by single spaces, redirections
	// appended) and over the whole input. A match anywhere denies. They add
	// to the built-in deny list.
	Deny []string
	// Allow are regexes over the normalised text of each simple command.
	// They are anchored: a rule must match the whole normalised command,
	// so "systemctl restart nginx" does not also allow
	// "systemctl restart nginx; rm -rf /srv". A command matched by an allow
	// rule skips approval; it never skips a deny rule, and it never widens
	// readonly mode.
	Allow []string
	// DenyHosts are host names, IP addresses (any notation) or CIDRs that
	// remote calls may never target. A name "*.example.com" also matches
	// its subdomains.
	DenyHosts []string
	// Protect are absolute paths of warden's own state: the state dir,
	// audit log, token, config and key files. A command word that names
	// one of them or a path inside one, in any spelling the shell would
	// resolve (globs, braces, "//", "/./", "..", "~", relative paths after
	// cd, symlinks on the local host unless KernelHolds), is denied.
	Protect []string
	// Home is the home directory "~" and "$HOME" stand for in local
	// commands. Empty leaves them unresolved.
	Home string
	// Dir is the working directory of local commands that do not set one.
	// Empty means it is unknown.
	Dir string
	// KernelHolds says the kernel refuses Protect to every local program
	// (warden's confinement is active), so a recursive read of a
	// directory above them (grep -r x /etc) and a symlink to them are
	// left to it: the one stays a read, the other costs no lstat. Words
	// that name a protected path are denied either way.
	KernelHolds bool
	// Path is the search path of local commands (exec.path). The
	// classifier reads the program files found on it that the deny list
	// names, to know their copies by content (programfiles.go). Empty
	// means the system's usual directories.
	Path string
	// Since is when warden started: a local script file changed since
	// may have been written by an earlier call, and what it runs meets
	// the deny list when a call runs it (localfiles.go). Zero means when
	// New is called.
	Since time.Time
}

// Policy is a compiled rule set. It is immutable and safe for concurrent use.
type Policy struct {
	deny      []rule
	allow     []rule
	denyHosts []hostRule
	protect   *protection
	files     *programFiles
	since     time.Time // Rules.Since
	// rootHome is root's home directory when warden's own user is not
	// root: what sudo and su run reads its configuration there.
	rootHome string
}

type rule struct {
	src string
	re  *regexp.Regexp
}

// New compiles rules. An invalid regex, CIDR or host is an error naming the rule.
func New(r Rules) (*Policy, error) {
	p := &Policy{}
	for _, s := range r.Deny {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("policy: deny rule %q: %w", s, err)
		}
		p.deny = append(p.deny, rule{s, re})
	}
	for _, s := range r.Allow {
		re, err := regexp.Compile(`^(?:` + s + `)$`)
		if err != nil {
			return nil, fmt.Errorf("policy: allow rule %q: %w", s, err)
		}
		p.allow = append(p.allow, rule{s, re})
	}
	for _, s := range r.DenyHosts {
		h, err := parseHostRule(s)
		if err != nil {
			return nil, err
		}
		p.denyHosts = append(p.denyHosts, h)
	}
	pr, err := newProtection(r)
	if err != nil {
		return nil, err
	}
	p.protect = pr
	p.files, p.since = newProgramFiles(r.Path), r.Since
	if os.Geteuid() != 0 {
		p.rootHome = "/root"
		if u, err := user.LookupId("0"); err == nil && u.HomeDir != "" {
			p.rootHome = u.HomeDir
		}
	}
	if p.since.IsZero() {
		p.since = time.Now()
	}
	return p, nil
}

// WithDeny returns p with more deny rules, applied exactly as p's own: one
// evaluation of the result answers for p and the rules together, where
// evaluating p and then a policy of the rules alone classifies the input
// twice. p is unchanged.
func (p *Policy) WithDeny(deny []string) (*Policy, error) {
	q := *p
	q.deny = slices.Clip(p.deny)
	for _, s := range deny {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("policy: deny rule %q: %w", s, err)
		}
		q.deny = append(q.deny, rule{s, re})
	}
	return &q, nil
}

// Input is one thing a caller wants to run. Fill the fields that apply.
type Input struct {
	// Command is shell text that will be run by a POSIX shell: run_command,
	// a line sent to a session shell, a rendered declarative template.
	Command string
	// Argv is a program and arguments run without a shell (built-in tools).
	Argv []string
	// Interpreter is run_script's interpreter: "sh", "bash" or "python3".
	Interpreter string
	// Script is run_script's body.
	Script string
	// Stdin is what the command reads on standard input. When the command is
	// a shell or interpreter reading its program from stdin, Stdin is
	// classified as that program.
	Stdin string
	// Env is the per-call environment the child will get.
	Env map[string]string
	// Host is "", "local", an inventory name, or an address.
	Host string
	// HostAddrs are the resolved addresses of Host, if known.
	HostAddrs []string
	// Dir is the absolute working directory the command starts in, if the
	// caller sets one. One not absolute (".") says it is known only at
	// run time.
	Dir string
	// Dirs are other absolute directories the command may start in: a
	// session's shell after a cd that may or may not have run.
	Dirs []string
	// Prompt says Command is typed to an interactive shell, or starts
	// one, whose prompt may run programs in the directory the command
	// leaves it in (a git prompt runs git status there), where nothing
	// else holds what they run: an SSH host's session, a writable one.
	Prompt bool
	// Shell is the interactive shell a session starts when it is given
	// no command: its startup files (~/.bashrc) run first
	// (configcode.go).
	Shell string
	// HostShell is the shell that runs Command, and a script for sh, on
	// the host: an SSH host's configured shell (warden's "sh -c" runs
	// there as it). Empty is sh. zsh's own grammar counts too when it is
	// zsh; text for a shell outside the POSIX family is not read.
	HostShell string
	// Root says the command runs as root: warden itself is root on this
	// machine, or an SSH host's login user is. What only root's programs
	// do (tar, cp and rsync keeping setuid modes) is then classified as
	// it is under sudo.
	Root bool
}

// Verdict is what the classifier found.
type Verdict struct {
	// Tier is the highest tier of anything the input would run.
	Tier Tier
	// Denied is set by a built-in or operator deny rule or a denied host:
	// nothing may run the input, whatever the mode or approval.
	Denied bool
	// Allowed is set when operator allow rules matched every part of the
	// input above tier 0.
	Allowed bool
	// Reason says briefly which program or rule decided. It is shown to the
	// agent and audited.
	Reason string
	// Daemons is set when the input runs a program whose reads are
	// requests to a daemon over a Unix socket (docker ps, systemctl
	// status): only then may a call admitted below tier 2 make a Unix
	// socket on a host whose kernel holds the admission (daemons.go).
	Daemons bool
}

// Evaluate classifies an input. It is pure and safe for concurrent use.
// A classifier fault fails closed: the input is TierDestructive.
func (p *Policy) Evaluate(in Input) (v Verdict) {
	defer func() {
		if r := recover(); r != nil {
			v = Verdict{Tier: TierDestructive, Reason: fmt.Sprintf("classifier fault: %v", r)}
		}
	}()
	return p.evaluate(in)
}

// evaluate is Evaluate without the fault guard, for fuzzing.
func (p *Policy) evaluate(in Input) Verdict {
	e := newEval(p)
	e.input(&in)
	v := e.verdict()
	e.release() // not on a fault: tools a fault left half-way are dropped
	return v
}

// input classifies every field of in.
func (e *eval) input(in *Input) {
	e.local = in.Host == "" || in.Host == "local"
	e.startDir(in.Dir)
	for _, d := range in.Dirs {
		e.alsoDir(d)
	}
	start := e.cdMark()
	if h := in.Host; h != "" && h != "local" {
		if !validHost(h) {
			e.deny(fmt.Sprintf("host %q is not a valid host name", truncate(h, 64)))
		} else if r, ok := e.p.hostDenied(h); ok {
			e.deny(fmt.Sprintf("host %q is denied by rule %q", h, r))
		}
		for _, a := range in.HostAddrs {
			if r, ok := e.p.hostDenied(a); ok {
				e.deny(fmt.Sprintf("host %q resolves to %s, denied by rule %q", h, a, r))
			}
		}
	}
	names := make([]string, 0, len(in.Env))
	for k := range in.Env {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		e.envVar(k, in.Env[k], false, "env")
		e.pathWord(arg{val: in.Env[k], known: true}, cctx{}, "")
	}
	stdin := stdinSrc{kind: stdinNone}
	if in.Stdin != "" {
		stdin = stdinSrc{kind: stdinText, text: in.Stdin}
	}
	ctx := cctx{stdin: stdin, root: in.Root}
	run, unread := hostShell(ctx, in.HostShell)
	if in.Shell != "" {
		// A session's own interactive shell runs its startup files
		// before the first line typed to it.
		sh := call{e: e, name: normaliseName(path.Base(in.Shell)), ctx: ctx}
		sh.shellStartup(false, true)
	}
	empty := true
	if in.Command != "" {
		empty = false
		e.wholeText(in.Command)
		e.hostText(in.Command, "command", run, unread)
	}
	if len(in.Argv) > 0 {
		empty = false
		e.wholeText(strings.Join(in.Argv, " "))
		args := make([]arg, len(in.Argv))
		for i, a := range in.Argv {
			args[i] = arg{val: a, known: true}
		}
		e.simple(args, ctx, "")
	}
	if in.Script != "" || in.Interpreter != "" {
		empty = false
		e.wholeText(in.Script)
		if i := strings.TrimSpace(in.Interpreter); i == "" || i == "sh" {
			e.hostText(in.Script, "script", run, unread)
		} else {
			e.runScript(in.Interpreter, in.Script, ctx)
		}
	}
	if empty {
		e.note(TierRead, false, "empty input")
	}
	e.promptDir(in, start)
	e.codeValuesWritten()
	e.settleScriptRuns()
	if e.opaque {
		// Something ran that the classifier cannot see into; look for
		// catastrophic commands anywhere in the raw text.
		for _, t := range []string{in.Command, in.Script, strings.Join(in.Argv, " ")} {
			e.scanText(t)
		}
		e.namedFiles(ctx, true, append([]string{in.Command, in.Script, strings.Join(in.Argv, " ")}, e.codeValues...)...)
	} else if len(e.codeValues) > 0 || len(e.unseen) > 0 {
		// What the files a variable that makes programs load code names
		// run, and those that text walked aside names, meets the deny
		// list; the rest of the text is seen.
		e.namedFiles(ctx, false, e.codeValues...)
	}
}

// hostShell is ctx for text a host's shell runs (Input.HostShell), or,
// for a shell outside the POSIX family (fish, csh), whose grammar the
// classifier does not read, that shell's description.
func hostShell(ctx cctx, shell string) (cctx, string) {
	if shell == "" {
		return ctx, ""
	}
	name := normaliseName(path.Base(shell))
	ctx.funcWordNext = funcWordShells[name]
	switch {
	case name == "zsh":
		ctx.zsh = true
	case !posixShells[name]:
		return ctx, fmt.Sprintf("the host's shell %s (not a POSIX shell)", truncate(shell, 64))
	}
	return ctx, ""
}

// hostText classifies text the host's shell runs, in run, the context
// hostShell gives it; unread names a shell whose grammar is not read.
func (e *eval) hostText(text, what string, run cctx, unread string) {
	if unread != "" {
		e.opaquePayload(text, "a "+what+" for "+unread)
		return
	}
	e.script(text, run, what)
}

// runScript classifies a run_script body by its interpreter.
func (e *eval) runScript(interp, body string, ctx cctx) {
	name := normaliseName(strings.TrimSpace(interp))
	switch {
	case name == "" || posixShells[name]:
		ctx.funcWordNext = funcWordShells[name]
		e.script(body, ctx, "script")
	case interpreters[name]:
		e.opaquePayload(body, name+" script")
	default:
		e.opaquePayload(body, fmt.Sprintf("script for unknown interpreter %q", truncate(interp, 32)))
	}
}

// wholeText applies operator deny rules to a whole input text.
func (e *eval) wholeText(s string) {
	if len(e.p.deny) == 0 {
		return
	}
	e.operatorDeny(s)
	if c := collapseSpace(s); c != s {
		e.operatorDeny(c)
	}
}

// collapseSpace is strings.Join(strings.Fields(s), " ") without a slice
// of every field: 20 ms less on a 1 MiB script.
func collapseSpace(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	gap := false
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			gap = b.Len() > 0
		} else {
			if gap {
				b.WriteByte(' ')
				gap = false
			}
			b.WriteString(s[i : i+n]) // an invalid byte as it is
		}
		i += n
	}
	return b.String()
}

// operatorDeny applies operator deny rules to one text.
func (e *eval) operatorDeny(s string) {
	if i := firstMatch(e.p.deny, s); i >= 0 {
		e.deny(fmt.Sprintf("operator deny rule %q matched", e.p.deny[i].src))
	}
}

// firstMatch returns the index of the first rule that matches s, or -1.
// On a text the size of a piece (see scriptInPieces) the rules are tried
// on every processor at once.
func firstMatch(rules []rule, s string) int {
	if len(s) < pieceMin || len(rules) < 2 {
		for i, r := range rules {
			if r.re.MatchString(s) {
				return i
			}
		}
		return -1
	}
	hit := make([]bool, len(rules))
	each(len(rules), runtime.GOMAXPROCS(0), func(i int) { hit[i] = rules[i].re.MatchString(s) })
	return slices.Index(hit, true)
}

// allowMatch reports whether an operator allow rule matches a normalised command.
func (e *eval) allowMatch(s string) bool {
	for _, r := range e.p.allow {
		if r.re.MatchString(s) {
			e.allowHit = true
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
