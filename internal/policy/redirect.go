package policy

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// redirect is one classified redirection.
type redirect struct {
	text   string    // normalised, for operator rules: "> /etc/x"
	stdin  *stdinSrc // what the command reads instead of its stdin, if this redirects it
	file   arg       // the file a plain < or an output redirection of the standard descriptors names
	output bool      // file is written (standard output), not read (standard input)
	tier   Tier
	why    string
	deny   string
}

func (e *eval) redirect(r *syntax.Redirect, ctx cctx, sc *scope, out outWrite) redirect {
	if r.Word != nil {
		e.subst(r.Word, ctx, sc)
	}
	if r.N != nil && strings.HasPrefix(r.N.Value, "{") {
		// {NAME}>file sets NAME to the descriptor it opens.
		e.boundName(arg{val: strings.Trim(r.N.Value, "{}"), known: true}, ctx, "redirection")
	}
	if r.Hdoc != nil {
		e.subst(r.Hdoc, ctx, sc)
		e.quotedDefaults(r.Hdoc.Parts, ctx, sc) // a body expands like "…"
	}
	res := resolver{e: e, ctx: ctx, sc: sc}
	var t arg
	if r.Word != nil {
		t = res.lit(r.Word)
	}
	rd := redirect{text: r.Op.String() + " " + t.val}
	fd0 := redirFD(r) == 0
	switch {
	case r.Op == syntax.RdrIn && fd0:
		rd.file = t
	case stdoutFile(r):
		rd.file, rd.output = t, true
	}
	var in *stdinSrc // what descriptor 0 reads after this redirection
	unknown := func() { in = &stdinSrc{kind: stdinUnknown} }
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc:
		unknown()
		if r.Hdoc == nil {
			in = &stdinSrc{kind: stdinText}
		} else if v, ok := hdocText(r.Hdoc); ok {
			in = &stdinSrc{kind: stdinText, text: v}
		}
		rd.text = r.Op.String() + " " + t.val
	case syntax.WordHdoc:
		unknown()
		if !t.known {
			// read x <<< $HOME/.local/state/warden/token: a value known
			// only in part, which no later "$x" can be tried with.
			e.pathWord(t, ctx, "")
		}
		if t.known {
			in = &stdinSrc{kind: stdinText, text: t.val + "\n"}
		} else {
			// x=re; sh <<< "${x}boot": the text with each literal value
			// the script gives its variables, for the deny list's scan.
			for _, bind := range sc.bindings([]*syntax.Word{r.Word}) {
				alt := resolver{e: e, ctx: ctx, sc: sc, bind: bind}
				if v := alt.lit(r.Word); v.known && len(in.alts) < maxAlts {
					in.alts = append(in.alts, v.val+"\n")
				}
			}
		}
	case syntax.RdrIn:
		unknown()
		if isNetDev(t.val) {
			rd.tier, rd.why = TierDestructive, "redirection opens a network connection: "+t.val
			e.netHost(t.val)
		}
		if t.known && t.val == "/dev/null" {
			in = &stdinSrc{kind: stdinText}
		} else if text, ok := stdinLitText([]*syntax.Redirect{r}); ok {
			in = &stdinSrc{kind: stdinText, text: text} // < <(echo /var/lib)
		} else if ts := sc.fileTexts(t.val); t.known && len(ts) > 0 {
			in = &stdinSrc{kind: stdinText, text: ts[len(ts)-1]} // echo … > /tmp/l; xargs cat < /tmp/l
		} else if t.known {
			in.alts = e.localAlts(t.val) // sh < /srv/job, written by an earlier call
		}
		if e.local {
			e.noteInputFile(r.Word, t, ctx, sc)
		}
	case syntax.DplIn, syntax.DplOut:
		switch {
		case t.known && t.val == "-":
			// <&- closes the descriptor: nothing to read.
			in = &stdinSrc{kind: stdinText}
		case t.known && isFD(t.val):
			// <&3 reads whatever descriptor 3 was opened on (exec
			// 3</tmp/x); only <&0 keeps the input.
			if strings.TrimSuffix(t.val, "-") != "0" {
				unknown()
			}
		case r.Op == syntax.DplIn:
			unknown()
		default:
			rd.tier, rd.why, rd.deny = e.writeTarget(t)
			e.writeValues(&rd, t, r.Word, ctx, sc)
			unknown()
		}
	default: // > >> >| <> &> &>> and zsh variants
		// What reaches the file is read when it is the statement's
		// standard output alone, and that is text the scope keeps for
		// the file or a copy of files named (unread.go).
		read := redirFD(r) == 1 && (r.Op == syntax.RdrOut || r.Op == syntax.AppOut || r.Op == syntax.RdrClob) &&
			(out == outCopy && e.local || out == outText && t.known && len(sc.fileTexts(t.val)) > 0)
		rd.tier, rd.why, rd.deny = e.writeTo(t, read)
		e.writeValues(&rd, t, r.Word, ctx, sc)
		if rest, ok := homeRelative(t); ok && homeDotfile("~"+rest) {
			for _, text := range sc.fileTexts("~" + rest) {
				e.scanText(text)
			}
		}
		if t.known && textRunsLater(rd.tier, t.val) {
			// echo '* * * * * root reboot' > /etc/cron.d/x: what root
			// runs later meets the deny list, as crontab's input does;
			// so does what a program reads from its file in a home at
			// start (~/.rtorrent.rc's execute, ~/.config/procps/toprc's
			// pipe).
			for _, text := range sc.fileTexts(t.val) {
				e.scanText(text)
			}
		}
		unknown() // 0>x and <>x leave the input on that file
	}
	if fd0 && in != nil {
		rd.stdin = in
	}
	if r.Op == syntax.RdrIn || r.Op == syntax.RdrInOut {
		e.openedFD(redirFD(r), t) // exec 3</etc: /dev/fd/3/… is under /etc
	}
	switch r.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
	case syntax.DplIn, syntax.DplOut:
		if !isFD(t.val) {
			e.pathWord(t, ctx, "")
		}
	default:
		e.pathWord(t, ctx, "")
		e.deviceRead(t, ctx)
		if !t.known && r.Word != nil {
			// f=/etc/…; cat < $f opens what cat $f would read.
			for _, v := range e.wordValues(r.Word, ctx, sc) {
				e.pathWord(v, ctx, "")
			}
		}
	}
	return rd
}

// writeValues raises rd to the worst of the values the script gives a
// target named at run time: f=/dev/sda; cat x > $f writes the disk, as
// dd of=$f and tee $f do.
func (e *eval) writeValues(rd *redirect, t arg, w *syntax.Word, ctx cctx, sc *scope) {
	if t.known || w == nil {
		return
	}
	for _, v := range e.wordValues(w, ctx, sc) {
		if vt, why, deny := e.writeTarget(v); deny != "" && rd.deny == "" || vt > rd.tier {
			rd.tier, rd.why, rd.deny = vt, why, deny
		}
	}
}

// stdoutFile reports whether r sends standard output to a file: >, >>,
// >|, &> or &>> with no other descriptor named.
func stdoutFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		return redirFD(r) == 1
	}
	return false
}

// redirFD is the descriptor a redirection opens: its explicit number, 0 for
// input operators and 1 for output ones; -1 for a named descriptor ({fd}<x)
// or one the classifier cannot read.
func redirFD(r *syntax.Redirect) int {
	if r.N != nil {
		n, err := strconv.Atoi(r.N.Value)
		if err != nil || n < 0 {
			return -1
		}
		return n
	}
	switch r.Op {
	case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut, syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		return 0
	}
	return 1
}

// hdocText returns a here-document body if it is literal.
func hdocText(w *syntax.Word) (string, bool) {
	var b strings.Builder
	for _, p := range w.Parts {
		l, ok := p.(*syntax.Lit)
		if !ok {
			return "", false
		}
		b.WriteString(unescapeDouble(l.Value))
	}
	return b.String(), true
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	s = strings.TrimSuffix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// isNetDev reports whether s is a /dev/tcp or /dev/udp path, also as
// the quoted text of a word known only at run time ("/dev/tcp/$h/80").
func isNetDev(s string) bool {
	s = strings.TrimLeft(s, `"'`)
	return strings.HasPrefix(s, "/dev/tcp/") || strings.HasPrefix(s, "/dev/udp/")
}

// netHost applies host deny rules to a /dev/tcp/HOST/PORT path.
func (e *eval) netHost(p string) {
	parts := strings.Split(p, "/")
	if len(parts) >= 4 {
		if r, ok := e.p.destDenied(parts[3]); ok {
			e.deny(fmt.Sprintf("connection to %q is denied by host rule %q", parts[3], r))
		}
	}
}

// writeTarget classifies writing to a file, and keeps its name among
// those the call writes (noteWritten) with what the classifier cannot
// read (noteUnread).
func (e *eval) writeTarget(t arg) (Tier, string, string) {
	return e.writeTo(t, false)
}

// writeTo is writeTarget for a writer whose content the classifier reads
// (read): text it knows, a copy of a file the text names.
func (e *eval) writeTo(t arg, read bool) (Tier, string, string) {
	tier, why, deny := e.writeTargetText(t)
	if t.known && tier > TierRead {
		e.noteWritten(t.val)
		if !read {
			e.noteUnread(t.val)
		}
	} else if !t.known && !read && tier > TierRead {
		e.namedWrite = true // met when the statement ends (namedWritten)
	}
	for _, w := range writeVariants(t.val) {
		if deny != "" {
			break
		}
		glob := t.glob || isPattern(w)
		if wt, wwhy, wdeny := e.writeTargetText(arg{val: w, known: true, glob: glob}); wdeny != "" || wt > tier {
			tier, why, deny = wt, wwhy+" ("+truncate(t.val, 96)+")", wdeny
			if deny != "" {
				deny = why
			}
		}
	}
	return tier, why, deny
}

// writeTargetText is writeTarget for the target's text alone.
func (e *eval) writeTargetText(t arg) (Tier, string, string) {
	v := t.val
	if !t.known {
		if h := hostPath(v); h != v && !strings.ContainsAny(h, "$`*?[") {
			// /proc/$PID/root/proc/sysrq-trigger: the root is the host's.
			return e.writeTargetText(arg{val: path.Clean(h), known: true})
		}
		// An unknown word keeps its quotes: "/dev/tcp/$h/80" is a
		// device path all the same.
		if strings.HasPrefix(strings.TrimLeft(v, `"'`), "/dev/") {
			if t.glob && globBlockDevice(v) {
				why := "write to block device " + v
				return TierDestructive, why, why
			}
			return TierDestructive, "write to a device named at run time: " + v, ""
		}
		if pt, why, deny := protectedPath(v); deny {
			return TierDestructive, why, why
		} else if pt > TierMutate {
			return pt, why, ""
		}
		return TierMutate, "write to a file named at run time: " + truncate(v, 64), ""
	}
	c := v
	if strings.HasPrefix(c, "/") {
		c = path.Clean(c)
		if h := hostPath(c); h != c {
			// Through a process's root: what the rest names, and at
			// least what any other write under /proc is.
			ht, hwhy, hdeny := e.writeTargetText(arg{val: h, known: true, glob: t.glob})
			if hdeny == "" && ht < TierDestructive {
				ht, hwhy = TierDestructive, "write to kernel state "+c
			}
			return ht, hwhy, hdeny
		}
	}
	if t.glob && strings.HasPrefix(c, "/") && isPattern(c) {
		if gt, why, deny, ok := e.globWriteTarget(c, v); ok {
			return gt, why, deny
		}
	}
	switch {
	case safeSink(c):
		return TierRead, "", ""
	case powerFiles[c] != "":
		why := powerFiles[c]
		return TierDestructive, why, why
	case isNetDev(c):
		e.netHost(c)
		return TierDestructive, "redirection opens a network connection: " + c, ""
	case blockDevice(c):
		why := "write to block device " + c
		return TierDestructive, why, why
	case strings.HasPrefix(c, "/dev/"):
		return TierDestructive, "write to device " + c, ""
	case strings.HasPrefix(c, "/proc/") || strings.HasPrefix(c, "/sys/"):
		return TierDestructive, "write to kernel state " + c, ""
	}
	if pt, why, deny := protectedPath(c); deny {
		return TierDestructive, why, why
	} else if pt > TierMutate {
		return pt, why, ""
	}
	if why := systemProgramFile(c); why != "" {
		return TierDestructive, why + truncate(v, 96), ""
	}
	if ps := e.pathsFor(); ps != nil && !strings.HasPrefix(c, "/") {
		ps.addRelWrite(c)
		ps.addRelMutate(c, mutSensitive|mutProgram)
	}
	if e.localSetid(c) {
		// Written in place, the file keeps its setuid or setgid bit (root
		// has CAP_FSETID): new content runs with its owner's rights.
		return TierDestructive, "writes setuid or setgid file " + truncate(v, 96) + ", which keeps its bit", ""
	}
	return TierMutate, "writes " + truncate(v, 96), ""
}

// runsLater reports whether the file at p holds what root runs later
// (a cron table, rc.local, a profile script, a unit): one of the
// sensitive files protectedPath knows.
func runsLater(p string) bool {
	l := strings.ToLower(p)
	if strings.HasPrefix(l, "/") {
		l = hostPath(path.Clean(l))
	}
	return sensitivePath(l)
}

// textRunsLater reports whether what is written to p, a write of tier t,
// is text a program runs later, whose deny list scan it meets: a file root
// runs later (a cron table), or a program's start-up file in a home.
func textRunsLater(t Tier, p string) bool {
	return t >= TierDestructive && runsLater(p) || homeDotfile(p)
}

// runsLaterArg reports whether the file a names holds text a program runs
// later (textRunsLater), $HOME/… spellings included.
func runsLaterArg(a arg) bool {
	if rest, ok := homeRelative(a); ok {
		return homeDotfile("~" + rest)
	}
	return a.known && textRunsLater(TierDestructive, a.val)
}

// runsLaterText meets the deny list with what a command prints into a
// file a program runs later (runsLaterArg), where a filter computes it
// from what the script shows: x=reboot; echo $x >> ~/.bashrc, echo … |
// base64 -d > /etc/cron.d/x, rev <<< … >> ~/.profile. redirs are s's.
func (e *eval) runsLaterText(s *syntax.Stmt, redirs []redirect, ctx cctx, sc *scope) {
	var keep []*syntax.Redirect
	for i, r := range s.Redirs {
		if !stdoutFile(r) || !runsLaterArg(redirs[i].file) {
			keep = append(keep, r)
		}
	}
	if len(keep) == len(s.Redirs) {
		return
	}
	c := *s
	c.Redirs = keep
	stages := 0
	if out, ok := e.stmtOutput(&c, ctx.stdin, ctx, sc, &stages); ok {
		e.scanText(out)
	}
}

// scanAdded meets text an editing program adds (added) with the deny
// list when one of the files it writes (writes) is text a program runs
// later: a line inserted into a cron table or a start-up file.
func (c *call) scanAdded(writes []arg, added []string) {
	if len(added) == 0 || !slices.ContainsFunc(writes, runsLaterArg) {
		return
	}
	for _, a := range added {
		c.e.scanText(a)
	}
}

// homeDotfile reports whether p is a file or directory a program reads at
// start from a home: a name beginning with a dot directly in it, and
// everything below one (~/.rtorrent.rc, ~/.config/procps/toprc).
func homeDotfile(p string) bool {
	var rest string
	switch {
	case strings.HasPrefix(p, "~/"):
		rest = p[2:]
	case strings.HasPrefix(p, "$HOME/"):
		rest = p[6:]
	case strings.HasPrefix(p, "/root/"):
		rest = p[6:]
	case strings.HasPrefix(p, "/home/"):
		_, rest, _ = strings.Cut(p[6:], "/")
	default:
		return false
	}
	return strings.HasPrefix(rest, ".") && !strings.HasPrefix(rest, "./") && !strings.HasPrefix(rest, "../")
}

// powerFiles are the kernel files whose writes change the machine's power
// state, denied as reboot and systemctl suspend are: sysrq's requests
// (reboot, crash, power off) and the sleep states, which leave the host
// answering nobody until something wakes it.
var powerFiles = map[string]string{
	"/proc/sysrq-trigger":  "write to /proc/sysrq-trigger (raw kernel request: reboot, crash, power off)",
	"/sys/power/state":     "write to /sys/power/state (suspends or hibernates the machine, which then answers nobody)",
	"/sys/power/autosleep": "write to /sys/power/autosleep (the machine suspends itself whenever it is idle, and then answers nobody)",
}

// addRelWrite remembers a relative write target whose name is that of a
// power file or a block device: a cd earlier in the input may make it one
// (cd /proc && echo b > sysrq-trigger, cd /sys/power; echo mem > state, cd
// /dev; cp x sda). Only such names are kept, so the set stays small in any
// script.
func (ps *pathState) addRelWrite(w string) {
	base := path.Base(w)
	if base != "sysrq-trigger" && base != "state" && base != "autosleep" && !blockDevice("/dev/"+base) {
		return
	}
	if ps.relWrites == nil {
		ps.relWrites = map[string]bool{}
	}
	ps.relWrites[w] = true
}

// relWriteVerdict checks the relative write targets against every
// directory a cd in the input can make current, as a redirection there.
func (e *eval) relWriteVerdict() {
	ps := e.paths
	if ps == nil || len(ps.relWrites) == 0 {
		return
	}
	cwds, _ := e.cwds()
	for _, w := range slices.Sorted(maps.Keys(ps.relWrites)) {
		for _, d := range cwds {
			t, why, deny := e.writeTo(arg{val: path.Join(d, w), known: true}, true) // kept when written
			if deny != "" {
				e.deny(deny + " (" + w + " after cd " + d + ")")
				return
			}
			if t >= TierDestructive {
				e.note(t, false, "%s (%s after cd %s)", why, w, d)
			}
		}
	}
}

// safeSink reports whether writing to p discards or shows output.
func safeSink(p string) bool {
	switch p {
	case "/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty", "/dev/zero", "/dev/full":
		return true
	}
	return strings.HasPrefix(p, "/dev/fd/") && isFD(p[len("/dev/fd/"):]) ||
		strings.HasPrefix(p, "/proc/self/fd/") && isFD(p[len("/proc/self/fd/"):])
}

func redirText(rs []redirect) string {
	var parts []string
	for _, r := range rs {
		parts = append(parts, r.text)
	}
	return strings.Join(parts, " ")
}

func (e *eval) redirFindings(rs []redirect, covered, ran bool) {
	for _, r := range rs {
		if r.deny != "" {
			e.deny(r.deny)
		}
		switch {
		case r.tier <= TierRead:
		case ran && r.output && r.tier <= TierMutate && e.apartFromRun([]arg{r.file}):
			// A script run's output to another file (./job.sh >
			// out.log) cannot change the script: settleScriptRuns does
			// not count it among the call's writes.
			e.noteRun(r.tier, covered, r.why)
		default:
			e.note(r.tier, covered, "%s", r.why)
		}
	}
}
