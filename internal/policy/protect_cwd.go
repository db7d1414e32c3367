package policy

import (
	"path"
	"slices"
	"sort"
	"strings"
)

// Relative words are checked once the whole input is read, against every
// directory a cd in it can make current.

// protectVerdict checks the relative words of the input against every
// directory a cd in it can make current.
func (e *eval) protectVerdict() {
	ps := e.paths
	if ps == nil || len(ps.rel) == 0 && !ps.relMore && len(ps.recRel) == 0 {
		return
	}
	cwds, unknown := e.cwds()
	rels := e.relCwds()
	e.recursiveVerdict(cwds)
	words := make([]string, 0, len(ps.rel))
	for w := range ps.rel {
		words = append(words, w)
	}
	sort.Strings(words)
	for _, w := range words {
		glob := ps.rel[w]
		if len(ps.aliases) > 0 && e.aliasedPath(w, glob, cctx{}, w) {
			continue
		}
		for _, c := range cwds {
			e.absPath(c+"/"+w, glob, cctx{}, w)
		}
		if unknown || ps.initial == "" {
			e.unknownDirWord(w, glob)
			for _, d := range rels {
				e.unknownDirWord(path.Join(d, w), glob) // cd ../../dev; cat watchdog
			}
		}
		if unknown || ps.initial == "" && strings.HasPrefix(path.Clean(w), "..") {
			e.partialPath("$D/"+w, cctx{})
		}
	}
	if ps.relMore && (unknown || len(cwds) > 0) {
		e.note(unresolvedTier, false, "too many relative paths to check against the directories a cd makes current")
	}
	if ps.cdMore {
		e.note(unresolvedTier, false, "too many cd targets to follow for the input's relative paths")
	}
}

// maxCds is how many cd targets an input's walk follows. Past it the
// working directory is unknown, and a relative name is unresolved.
const maxCds = 256

// addCd adds a cd target. A target that cannot change the directory
// (cd ., cd a/..) is left out, and so is an absolute target already
// there: wherever it comes in the order, it makes the same directory
// current. So a script that cds to one place a thousand times keeps one
// target.
func (ps *pathState) addCd(a arg) {
	v := a.val
	abs := strings.HasPrefix(v, "/")
	switch {
	case ps.cdMore:
		return
	case abs && ps.cdAbs[a], !abs && path.Clean(v) == ".":
		return
	case len(ps.cds) == maxCds:
		ps.cdMore, ps.cdUnknown = true, true
		return
	}
	if abs {
		if ps.cdAbs == nil {
			ps.cdAbs = map[arg]bool{}
		}
		ps.cdAbs[a] = true
	}
	ps.cds = append(ps.cds, a)
}

// cwdsMemo keeps what cwds and relCwds computed, until a cd changes it:
// every relative word asks.
type cwdsMemo struct {
	key               cwdsKey
	dirs, rel         []string
	unknown           bool
	dirsDone, relDone bool
}

// cwdsKey is what cwds and relCwds depend on that changes during a walk:
// the cd targets only grow, so their number says whether they changed.
type cwdsKey struct {
	n       int
	unknown bool
	initial string
}

// memo returns the memo for the cd targets as they are now.
func (ps *pathState) memo() *cwdsMemo {
	key := cwdsKey{n: len(ps.cds), unknown: ps.cdUnknown || ps.cdSafeGlob, initial: ps.initial}
	if ps.cwdsMemo == nil || ps.cwdsMemo.key != key {
		ps.cwdsMemo = &cwdsMemo{key: key}
	}
	return ps.cwdsMemo
}

// cwds returns the absolute directories the input's commands can run in
// beyond the unknown starting one, and whether any is unknown. The slice
// is shared; callers must not change it.
func (e *eval) cwds() ([]string, bool) {
	m := e.paths.memo()
	if !m.dirsDone {
		m.dirs, m.unknown = e.composeCwds()
		m.dirsDone = true
	}
	return m.dirs, m.unknown
}

// composeCwds computes cwds.
func (e *eval) composeCwds() ([]string, bool) {
	ps := e.paths
	unknown := ps.cdUnknown || ps.cdSafeGlob
	var out []string
	seen := map[string]bool{}
	add := func(d string) {
		if !seen[d] {
			seen[d] = true
			out = append(out, d)
		}
	}
	if ps.initial != "" {
		add(ps.initial)
	}
	// Each cd may follow any earlier one: compose them twice.
	for round := 0; round < 2; round++ {
		for _, t := range ps.cds {
			v := t.val
			switch {
			case strings.HasPrefix(v, "/"):
				add(path.Clean(v))
			case strings.HasPrefix(v, "~"):
				user, rest, _ := strings.Cut(v[1:], "/")
				switch {
				case user == "" && e.p.protect.home != "" && e.local:
					add(path.Join(e.p.protect.home, rest))
				case user == "root":
					add(path.Join("/root", rest))
				default:
					unknown = true
				}
			default:
				if ps.initial == "" && path.Clean(v) != "." && strings.HasPrefix(path.Clean(v), "..") {
					unknown = true // above the unknown start
				}
				for _, d := range append([]string(nil), out...) {
					add(path.Join(d, v))
				}
			}
			if len(out) > maxCwds {
				return slices.Clip(out[:maxCwds]), true
			}
		}
	}
	return slices.Clip(out), unknown
}

// relCwds returns the directories relative cds lead to from a starting
// directory or a home the classifier cannot name: cd ..; cd ../dev is
// ../../dev, and so is cd ~/../../dev.
// Each is composed after any earlier one, up to maxCwds.
func (e *eval) relCwds() []string {
	m := e.paths.memo()
	if !m.relDone {
		m.rel, m.relDone = e.composeRelCwds(), true
	}
	return m.rel
}

// composeRelCwds computes relCwds.
func (e *eval) composeRelCwds() []string {
	ps := e.paths
	var out []string
	seen := map[string]bool{}
	for round := 0; round < 2; round++ {
		for _, t := range ps.cds {
			if len(out) >= maxCwds {
				return slices.Clip(out)
			}
			v := t.val
			from := append([]string{""}, out...)
			if rest, ok := strings.CutPrefix(v, "~/"); ok && (e.p.protect.home == "" || !e.local) {
				v, from = rest, []string{""} // from a home the classifier cannot name
			} else if strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~") || ps.initial != "" {
				continue
			}
			for _, d := range from {
				if j := path.Join(d, v); j != "." && !seen[j] && len(out) < maxCwds {
					seen[j] = true
					out = append(out, j)
				}
			}
		}
	}
	return slices.Clip(out)
}

// aboveAgentDir reports whether the absolute directory d holds a
// temporary directory below it (/, /var, /dev, /proc and the places
// agentDir takes as aliases), so that a relative cd from d can reach one.
func aboveAgentDir(d string) bool {
	switch foldCase(path.Clean(d)) {
	case "/", "/var", "/dev", "/usr", "/run", "/private", "/private/var":
		return true
	}
	return strings.HasPrefix(d, "/proc")
}

// relIntoAgent says where the relative path rel, which does not climb,
// leads into a temporary directory from a working directory above one
// (cd /; git -C tmp/x status), or returns "". Only where the input named
// such a directory are its working directories composed.
func (e *eval) relIntoAgent(rel string) string {
	ps := e.paths
	if ps == nil || ps.initial == "" && len(ps.cds) == 0 {
		return ""
	}
	e.agentCwdNow(true) // brings the memo's above up to date
	if !ps.agentMemo[1].above {
		return ""
	}
	cwds, _ := e.cwds()
	for _, w := range cwds {
		if j := path.Join(w, rel); agentDir(j) {
			return "under " + truncate(j, 64) + ", a temporary directory"
		}
	}
	return ""
}

// agentCwd says why the working directory may hold files the agent wrote
// without approval (python's modules, a project's .npmrc), or returns "":
// the input makes it a temporary directory, or one known only at run
// time. Where nothing names the directory it is taken as the operator's.
func (e *eval) agentCwd() string {
	return e.agentCwdOf(false)
}

// agentCwdOf is agentCwd; below says a relative cd that does not climb
// (cd src) stays below a start nothing names, which is taken as the
// operator's, where agentCwd takes it as anywhere.
func (e *eval) agentCwdOf(below bool) string {
	why := e.agentCwdNow(below)
	if why == "" && e.later.depth > 0 {
		e.later.ask(below)
	}
	return why
}

// agentCwdNow is agentCwdOf for the cds the walk has reached.
func (e *eval) agentCwdNow(below bool) string {
	ps := e.paths
	if ps == nil || ps.initial == "" && len(ps.cds) == 0 && !ps.cdUnknown {
		return "" // nothing says which directory it is
	}
	const unknownDir = "the working directory is known only at run time"
	if ps.cdUnknown {
		return unknownDir
	}
	if ps.cdSafeGlob && (ps.back || slices.ContainsFunc(ps.cds, func(t arg) bool {
		return !strings.HasPrefix(t.val, "/") && !strings.HasPrefix(t.val, "~")
	})) {
		return unknownDir // a relative cd or a cd - may leave the pattern's directories for any
	}
	// Only a temporary start, a temporary cd, a climb or a home can lead
	// to a temporary directory: without one, the directories need not be
	// composed. What the cds say is kept, so a script that runs git after
	// each of a thousand cds reads each cd once.
	b := 0
	if below {
		b = 1
	}
	m := &ps.agentMemo[b]
	if !m.set {
		m.set, m.compose, m.above = true, agentDir(ps.initial), ps.initial != "" && aboveAgentDir(ps.initial)
	}
	for _, t := range ps.cds[m.n:] {
		v := t.val
		abs := strings.HasPrefix(v, "/")
		// cd x from a start nothing names is anywhere.
		m.unknown = m.unknown || ps.initial == "" && !abs && !strings.HasPrefix(v, "~") &&
			!(below && !strings.HasPrefix(path.Clean(v), ".."))
		m.compose = m.compose || strings.Contains(v, "..") || strings.HasPrefix(v, "~") || abs && agentDir(v)
		m.above = m.above || abs && aboveAgentDir(v)
		// The kernel, env -C, sudo -D and cd -P take .. after a link:
		// /tmp/x may lead anywhere under /tmp, and /tmp/x/../../srv there.
		m.through = m.through || abs && strings.Contains(v, "/..") && agentPath(v) != ""
		m.rel = m.rel || !abs && !strings.HasPrefix(v, "~")
	}
	// cd /; cd tmp/x: a relative cd from a directory above a temporary
	// one may lead into it.
	m.compose = m.compose || m.above && m.rel
	m.n = len(ps.cds)
	if m.unknown {
		return unknownDir
	}
	if m.through {
		return "a directory it names climbs out of a temporary one, where a link may lead anywhere"
	}
	if !m.compose {
		return ""
	}
	dirs, unknown := e.cwds()
	if unknown {
		return unknownDir
	}
	for _, d := range dirs {
		if agentDir(d) {
			return path.Clean(d) + " is (or may be) a temporary directory"
		}
	}
	return ""
}
