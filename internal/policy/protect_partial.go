package policy

import (
	"path"
	"strings"
)

// A path known only in part ($X/token, $HOME/.local/…, /proc/$PPID/root/…)
// is held to warden's protected paths by what is known of it: the literal
// directories before the first unknown one, and any component that names
// one of warden's own files.

// partialPath checks a word only partly known: $X/token, $HOME/.local/…,
// /root/.local/state/$D/token.
func (e *eval) partialPath(f string, ctx cctx) {
	if e.descPartial(f, ctx) {
		return
	}
	if link, rest, ok := procLink(lexClean(f)); ok && !strings.ContainsAny(rest, "$`") {
		// /proc/$PPID/root/… is / whatever the process: what follows is
		// known. Its cwd is this shell's or another's (procPath).
		if link == "root" {
			e.absPath("/"+rest, isPattern(rest), ctx, f)
		} else if rest != "" {
			e.addRel(rest, isPattern(rest))
			e.partialPath("$D/"+rest, ctx)
		}
		return
	}
	for _, h := range []string{"${HOME}", "$HOME"} {
		if rest, ok := strings.CutPrefix(f, h); ok && (rest == "" || rest[0] == '/') {
			if home := e.p.protect.home; home != "" && e.local && !strings.ContainsAny(rest, "$`") {
				e.absPath(home+rest, isPattern(rest), ctx, f)
				return
			}
			f = "$H" + rest
			break
		}
	}
	parts := strings.Split(f, "/")
	if f[0] == '/' {
		// The literal directories before the first unknown one.
		k := 1
		for k < len(parts) && !strings.ContainsAny(parts[k], "$`") {
			k++
		}
		prefix := splitPath(path.Clean(strings.Join(parts[:k], "/") + "/"))
		glob := isPattern(strings.Join(parts[:k], "/"))
		for _, p := range e.p.protect.paths {
			switch protMatch(prefix, p.parts, glob) {
			case matchInside:
				e.deny(p.why(f))
				return
			case matchAncestor:
				// /dev/$DISK is everyday work (watchdogPartial).
				if len(prefix) > 0 && !p.device {
					e.note(unresolvedTier, ctx.covered, "a path known only in part could name warden's own state: %s", truncate(f, 96))
					return
				}
			}
		}
	}
	for _, part := range parts {
		if part == "" {
			continue
		}
		if strings.ContainsAny(part, "$`") {
			// What an unknown piece yields may hold slashes: the
			// literal text between two of them may be a whole
			// component (${H:0:1}etc${H:0:1}warden${H:0:1}config.yaml).
			for _, piece := range unknownSplit(part) {
				if e.distinctive(piece) {
					e.note(unresolvedTier, ctx.covered, "a path known only in part could name warden's own state: %s", truncate(f, 96))
					return
				}
			}
			continue
		}
		if e.distinctive(part) {
			e.note(unresolvedTier, ctx.covered, "a path known only in part could name warden's own state: %s", truncate(f, 96))
			return
		}
	}
}

// distinctive reports whether a path component (or pattern) names one of
// warden's own files or directories.
func (e *eval) distinctive(part string) bool {
	for _, n := range e.p.protect.distinctive {
		if part == n {
			return true
		}
		if isPattern(part) {
			if ok, _ := shellMatch(part, n); ok {
				return true
			}
		}
	}
	return false
}

// homeRelative reports whether a word known only in part is the home
// and literal components, "$HOME"/x or ${HOME}/x, and returns them.
func homeRelative(a arg) (string, bool) {
	if a.known {
		return "", false
	}
	v := unquote.Replace(a.val)
	for _, h := range [...]string{"$HOME", "${HOME}"} {
		if rest, ok := strings.CutPrefix(v, h); ok && !strings.ContainsAny(rest, "$`") && (rest == "" || rest[0] == '/') {
			return rest, true
		}
	}
	return "", false
}

// unknownSplit returns the literal runs of a path component around its
// unknown expansions ($X, $NAME, each ended by any joinMark): each may be
// a whole component, as an expansion's value may begin or end with a
// slash.
func unknownSplit(part string) []string {
	var pieces []string
	start := 0
	for i := 0; i < len(part); i++ {
		if part[i] != '$' && part[i] != '`' {
			continue
		}
		if i > start {
			pieces = append(pieces, part[start:i])
		}
		j := i + 1
		for j < len(part) && nameByte(part[j]) {
			j++
		}
		if j < len(part) && part[j] == joinMark[0] {
			j++
		}
		start, i = j, j-1
	}
	if start < len(part) {
		pieces = append(pieces, part[start:])
	}
	return pieces
}
