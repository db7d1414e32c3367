package policy

import (
	"path"
	"strings"
)

// Paths whose directory the words do not name: through a process's root
// or working directory link (/proc/self/root/…, /proc/1/cwd/…), and
// relative to a working directory the classifier cannot name.

// unresolvedTier is the tier of a word the classifier cannot resolve that
// could name warden's own state ($X/token, a relative word after cd "$X"),
// and of a read of every file under a directory above it (grep -r x /etc):
// the same as unknown code, so that no mode admits it without a person's
// approval where the kernel does not hold those files.
const unresolvedTier = TierDestructive

// knownDir is the directory a cd or -C operand names when it is known: a
// literal, or a process's root link (/proc/$PPID/root/…) followed by
// literal components, which is that path from /.
func knownDir(a arg) (string, bool) {
	if a.known {
		return a.val, true
	}
	if link, rest, ok := procLink(a.val); ok && link == "root" && !strings.ContainsAny(rest, "$`") {
		return "/" + rest, true
	}
	return "", false
}

// procLink splits a path through a process's root or working directory
// link, /proc/P/root/rest or /proc/P/task/T/cwd/rest, whatever spells P
// and T (a number, self, $PPID, a pattern): the root is usually "/" and
// the working directory unknown. It reports the link's name and rest.
func procLink(p string) (link, rest string, ok bool) {
	parts := splitPath(p)
	if len(parts) < 3 || parts[0] != "proc" {
		return "", "", false
	}
	i := 2
	if parts[2] == "task" && len(parts) >= 5 {
		i = 4
	}
	switch parts[i] {
	case "root", "cwd":
		return parts[i], strings.Join(parts[i+1:], "/"), true
	}
	return "", "", false
}

// ownDescriptor reports whether p names a descriptor of the process that
// resolves it (/dev/fd/N, /dev/stdout, /proc/self/fd/N), which in warden
// is warden's own and in the child something else.
func ownDescriptor(p string) bool {
	for _, d := range []string{"/dev/fd", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/proc/self/fd", "/proc/thread-self/fd", "/proc/self/task"} {
		if Within(p, d) {
			return true
		}
	}
	return false
}

// procPath checks a path through a process's root or working directory
// link. The link is a symlink, so a ".." after it climbs from where it
// points, not back through /proc: /proc/self/root/../etc is /etc, and
// /proc/1/cwd/../../etc is above PID 1's directory, where path.Clean
// would make both /proc/…/etc. A working directory is this shell's (after
// any cd) or another process's, unknown: what follows the link is
// checked as a relative word either way. It reports whether it denied the
// word.
func (e *eval) procPath(f string, glob bool, ctx cctx, word string) bool {
	if !strings.HasPrefix(f, "/proc/") && !strings.Contains(f, "/proc/") {
		return false
	}
	link, rest, ok := procLink(lexClean(f))
	if !ok {
		return false
	}
	if link == "root" {
		return e.checkAbs(path.Clean("/"+rest), glob, ctx, word) ||
			len(e.paths.aliases) > 0 && e.aliasedPath("/"+rest, glob, ctx, word)
	}
	if rest != "" {
		e.addRel(rest, glob)
		e.partialPath("$D/"+rest, ctx)
	}
	return false
}

// lexClean drops the empty and "." components of an absolute path and
// keeps its "..", which only the file system can resolve after a link.
func lexClean(p string) string {
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, c := range parts {
		if c != "" && c != "." {
			out = append(out, c)
		}
	}
	return "/" + strings.Join(out, "/")
}

// addRel remembers a relative word to check against the directories the
// input can make current. A word seen as a glob anywhere (for f in *) stays
// one when its text comes again quoted ("$f").
func (e *eval) addRel(w string, glob bool) {
	ps := e.paths
	if ps.rel == nil {
		ps.rel = map[string]bool{}
	}
	if g, ok := ps.rel[w]; ok || len(ps.rel) < maxRelWords {
		ps.rel[w] = g || glob
	} else {
		ps.relMore = true
	}
}

// unknownDirWord checks a relative word against a working directory the
// classifier cannot name (where the input starts, or after cd "$X"): the
// shell could be anywhere, so a word whose leading components, after any
// "..", continue at least two components of a protected path names it
// wherever that path's parent is: warden/config.yaml, */audit.key under
// /etc, ../../etc/warden/config.yaml. One component alone (config.yaml,
// token) is too common a name to refuse.
func (e *eval) unknownDirWord(w string, glob bool) {
	rest := path.Clean(w)
	climbed := false
	for rest == ".." || strings.HasPrefix(rest, "../") {
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".."), "/")
		climbed = true
	}
	if climbed {
		// Above the directory: any protected path could continue it.
		e.tailMatch(rest, glob, 0, 1, w)
		return
	}
	e.tailMatch(rest, glob, 0, 2, w)
}

// substPieces replaces each command substitution in the text of a word
// known only in part, $(…) or `…`, with one unknown piece: what it prints
// continues into the text after it, so $(dirname $f)/config.yaml is a
// path whose last component is known. The code inside is classified as a
// command of its own. A substitution left open runs to the end.
func substPieces(v string) string { return replaceSubsts(v, "$C"+joinMark) }

// replaceSubsts replaces each command substitution in v, $(…) or `…`,
// with piece; one left open runs to the end.
func replaceSubsts(v, piece string) string {
	if !strings.Contains(v, "$(") && !strings.Contains(v, "`") {
		return v
	}
	var b strings.Builder
	for i := 0; i < len(v); {
		switch {
		case strings.HasPrefix(v[i:], "$("):
			depth, j := 0, i+1
			for ; j < len(v); j++ {
				if v[j] == '(' {
					depth++
				} else if v[j] == ')' {
					if depth--; depth == 0 {
						break
					}
				}
			}
			b.WriteString(piece)
			i = j + 1
		case v[i] == '`':
			j := strings.IndexByte(v[i+1:], '`')
			if j < 0 {
				j = len(v) - i - 1
			}
			b.WriteString(piece)
			i += j + 2
		default:
			b.WriteByte(v[i])
			i++
		}
	}
	return b.String()
}

// setsNocase reports whether a shopt turns on nocaseglob, or may (an
// option name computed at run time). -s may be clustered (-qs).
func setsNocase(args []arg) bool {
	set := false
	for _, a := range args {
		switch {
		case !a.known:
			return true
		case len(a.val) > 1 && a.val[0] == '-' && a.val[1] != '-' && strings.ContainsRune(a.val, 's'):
			set = true
		case set && a.val == "nocaseglob":
			return true
		}
	}
	return false
}

// nocaseOn records that patterns from here on match either case.
func (e *eval) nocaseOn() {
	if ps := e.pathsFor(); ps != nil {
		ps.nocase = true
	}
}

// zshNocase reports whether a zsh option name, as setopt (on) or unsetopt
// (!on), set -o or +o, or zsh -o or +o give it, turns off CASE_GLOB:
// zsh ignores case and underscores in option names, and each leading
// "no" inverts (setopt NO_CASE_GLOB, unsetopt caseglob, +o CaseGlob).
func zshNocase(name string, on bool) bool {
	n := strings.ToLower(strings.NewReplacer("_", "", "-", "").Replace(name))
	for strings.HasPrefix(n, "no") {
		n, on = n[2:], !on
	}
	return n == "caseglob" && !on
}

// setsZshNocase reports whether setopt, unsetopt or zsh's set turns off
// CASE_GLOB, or may (a name computed at run time).
func setsZshNocase(name string, args []arg) bool {
	for i, a := range args {
		switch {
		case !a.known:
			return true
		case name == "setopt" || name == "unsetopt":
			if !strings.HasPrefix(a.val, "-") && !strings.HasPrefix(a.val, "+") && zshNocase(a.val, name == "setopt") {
				return true
			}
		case (a.val == "-o" || a.val == "+o") && i+1 < len(args):
			if zshNocase(args[i+1].val, a.val == "-o") {
				return true
			}
		}
	}
	return false
}

// foldPattern makes the pattern components of a path match letters of
// either case, as bash's nocaseglob does: Warden/* -> [wW]arden/* only
// where the component is a pattern (a literal one is opened as written).
// Inside brackets each letter gains its other case (ranges widen).
func foldPattern(f string) string {
	parts := strings.Split(f, "/")
	for i, c := range parts {
		if !isPattern(c) {
			continue
		}
		var b strings.Builder
		in := false
		for j := 0; j < len(c); j++ {
			ch := c[j]
			lower, upper := ch|0x20, ch&^0x20
			letter := lower >= 'a' && lower <= 'z'
			switch {
			case ch == '[' && !in:
				in = true
				b.WriteByte(ch)
			case ch == ']' && in:
				in = false
				b.WriteByte(ch)
			case letter && in:
				b.WriteByte(lower)
				b.WriteByte(upper)
			case letter:
				b.WriteByte('[')
				b.WriteByte(lower)
				b.WriteByte(upper)
				b.WriteByte(']')
			default:
				b.WriteByte(ch)
			}
		}
		parts[i] = b.String()
	}
	return strings.Join(parts, "/")
}
