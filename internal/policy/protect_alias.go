package policy

import (
	"path"
	"slices"
	"strings"
)

// A link, copy or bind mount the input makes of a directory above
// warden's state gives that state a second name: ln -s /etc /tmp/e; cat
// /tmp/e/warden/config.yaml reads the config, and so does cp -r /etc
// /tmp/x; cat /tmp/x/warden/config.yaml. Each is remembered as an alias,
// and a later word inside its new name is checked as the path it stands
// for: as the source itself (the new name did not exist) and as the
// source's name inside it (the new name was a directory).

// alias is a name the input gives a directory above a protected path.
type alias struct {
	dst string // the new name, clean; absolute or relative as written
	src string // the directory it stands for, clean and absolute
}

const maxAliases = 64

// aliasValued are the options of the programs that make aliases that take
// a value in the next word, and their target-directory option.
var aliasValued = map[string]struct{ short, long string }{
	"ln":     {"tS", "--target-directory --suffix"},
	"cp":     {"tS", "--target-directory --suffix"},
	"mv":     {"tS", "--target-directory --suffix"},
	"rsync":  {"efBT", "--rsh --filter --exclude --include --files-from --temp-dir --link-dest --copy-dest --compare-dest --backup-dir"},
	"mount":  {"otLUONT", "--options --types --label --uuid --test-opts --target --source"},
	"bindfs": {"ougpmM", "--user --group --perms --mirror --mirror-only --map"},
	"sshfs":  {"opF", "--port"},
}

// recordAliases remembers what a link, copy or mount command makes of a
// directory above a protected path.
func (e *eval) recordAliases(name string, args []arg) {
	spec, ok := aliasValued[name]
	ps := e.paths
	if !ok || len(ps.aliases) >= maxAliases {
		return
	}
	args = aliasWords(name, args)
	target := ""
	for i, a := range args {
		if !a.known {
			continue
		}
		v := a.val
		switch {
		case v == "--":
		case strings.HasPrefix(v, "--target-directory="):
			target = strings.TrimPrefix(v, "--target-directory=")
		case v == "--target-directory" && i+1 < len(args) && args[i+1].known:
			target = args[i+1].val
		case len(v) > 1 && v[0] == '-' && v[1] != '-' && name != "mount":
			// The first letter of a cluster that takes a value takes the
			// rest of the word or the next: -t DIR, -stDIR.
			j := 1
			for j < len(v) && strings.IndexByte(spec.short, v[j]) < 0 {
				j++
			}
			if j < len(v) && v[j] == 't' {
				if j+1 < len(v) {
					target = v[j+1:]
				} else if i+1 < len(args) && args[i+1].known {
					target = args[i+1].val
				}
			}
		}
	}
	ops := optionOperands(args, spec.short, spec.long)
	var dst string
	switch {
	case target != "":
		dst = target
	case len(ops) >= 2:
		if d := ops[len(ops)-1]; d.known {
			dst = d.val
		}
		ops = ops[:len(ops)-1]
	case len(ops) == 1 && name == "ln":
		dst = "." // ln -s /etc makes ./etc
	default:
		return
	}
	if dst == "" || strings.ContainsAny(dst, "$`") {
		return
	}
	dst = e.homePath(dst)
	// A symbolic link's relative target is read from the directory the
	// link is in (ln -s ../etc /tmp/e is /etc), which is dst's parent, or
	// dst itself when it is a directory the link is made in; every other
	// relative source is read from the working directory.
	var linkDirs []string
	if name == "ln" && hasFlag(argVals(args), 's', "--symbolic") && !hasFlag(argVals(args), 'r', "--relative") {
		switch {
		case target != "" || dst == ".":
			linkDirs = []string{dst}
		default:
			linkDirs = []string{path.Dir(path.Clean(dst)), dst}
		}
	}
	for _, s := range ops {
		if !s.known {
			continue
		}
		d := dst
		if d == "." {
			d = path.Base(path.Clean(s.val)) // ln -s /etc makes ./etc
		}
		dsts := e.absCandidates(path.Clean(d), false)
		if !strings.HasPrefix(d, "/") {
			dsts = append([]string{path.Clean(d)}, dsts...)
		}
		for _, src := range e.aliasSources(s, linkDirs) {
			if !strings.HasPrefix(src, cwdLink) && !e.holdsProtected(src) {
				continue
			}
			for _, d := range dsts {
				if a := (alias{dst: d, src: src}); len(ps.aliases) < maxAliases && !slices.Contains(ps.aliases, a) {
					ps.aliases = append(ps.aliases, a)
				}
			}
		}
	}
}

// aliasWords returns args with the words the shell or the program
// resolves to a local path made that path: "$HOME"/x is ~/x (as cd takes
// it), and sshfs's localhost:/root is /root, this machine's directory. It
// copies args only when one changes.
func aliasWords(name string, args []arg) []arg {
	out := args
	for i, a := range args {
		b := a
		if rest, ok := homeRelative(a); ok {
			b = arg{val: "~" + rest, known: true}
		} else if host, p, ok := sshfsSource(a.val); ok && name == "sshfs" && a.known && localHost(host) {
			b = arg{val: p, known: true, glob: a.glob}
			if p == "" {
				b.val = "~" // sshfs localhost: mounts the login's home
			}
		}
		if b == a {
			continue
		}
		if &out[0] == &args[0] {
			out = slices.Clone(args)
		}
		out[i] = b
	}
	return out
}

// sshfsSource splits sshfs's [user@]host:[dir], host perhaps a bracketed
// IPv6 address.
func sshfsSource(v string) (host, dir string, ok bool) {
	if i := strings.Index(v, "]:"); i > 0 && strings.Contains(v[:i], "[") {
		return v[:i+1], v[i+2:], true
	}
	return strings.Cut(v, ":")
}

// localHost reports whether an sshfs host part is this machine.
func localHost(h string) bool {
	if _, after, ok := strings.Cut(h, "@"); ok {
		h = after
	}
	h = strings.Trim(h, "[]")
	return h == "localhost" || h == "::1" || h == "0.0.0.0" || strings.HasPrefix(h, "127.") || strings.HasPrefix(h, "localhost.")
}

// cwdLink starts the source of a link to /proc/PID/cwd: what follows it
// is relative to the working directory of the program that follows it.
const cwdLink = "\x00cwd"

// aliasSources returns the absolute directories a link, copy or mount
// source may name: a relative one from every directory it can be read in
// (linkDirs for a symbolic link's target, else the working directory),
// ~user as that home, /proc/PID/root/… as /, /proc/PID/cwd/… from every
// working directory, a glob as each directory above a protected path it
// matches, and each of these through the aliases made before it (ln -s
// /etc /tmp/a; ln -s /tmp/a/warden /tmp/b).
func (e *eval) aliasSources(s arg, linkDirs []string) []string {
	v := e.tildeDir(s.val)
	if s.glob && isPattern(v) {
		if !strings.HasPrefix(v, "/") {
			return nil
		}
		return e.ancestorsMatching(path.Clean(v))
	}
	var out []string
	switch {
	case strings.HasPrefix(v, "/"):
		if link, rest, ok := procLink(lexClean(v)); ok {
			if link == "root" {
				out = append(out, path.Clean("/"+rest))
			} else {
				// The working directory of whoever follows the link.
				out = append(out, cwdLink+path.Clean("/"+rest))
			}
		} else {
			out = append(out, path.Clean(v))
		}
	case len(linkDirs) > 0:
		for _, d := range linkDirs {
			if strings.HasPrefix(d, "/") {
				out = append(out, path.Join(d, v))
			} else {
				out = append(out, e.absCandidates(path.Join(d, v), true)...)
			}
		}
	default:
		out = e.absCandidates(path.Clean(v), true)
	}
	for _, c := range slices.Clone(out) {
		out = append(out, e.aliasTargets(c, false)...)
	}
	return out
}

// tildeDir resolves a leading ~ or ~user.
func (e *eval) tildeDir(v string) string {
	if !strings.HasPrefix(v, "~") {
		return v
	}
	user, rest, _ := strings.Cut(v[1:], "/")
	switch {
	case user == "":
		return e.homePath(v)
	case user == "root":
		return path.Join("/root", rest)
	case !strings.ContainsAny(user, "+-"):
		return path.Join("/home", user, rest)
	}
	return v
}

// absCandidates returns the absolute paths a relative one names from
// every working directory the input can have. Where that directory is
// not known and climb is set, enough ".." reach the root: ../../etc may
// be /etc.
func (e *eval) absCandidates(rel string, climb bool) []string {
	if strings.HasPrefix(rel, "/") {
		return []string{rel}
	}
	cwds, unknown := e.cwds()
	var out []string
	for _, c := range cwds {
		out = append(out, path.Join(c, rel))
	}
	if climb && (unknown || e.paths.initial == "") && (rel == ".." || strings.HasPrefix(rel, "../")) {
		rest := rel
		for rest == ".." || strings.HasPrefix(rest, "../") {
			rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".."), "/")
		}
		out = append(out, path.Clean("/"+rest))
	}
	return out
}

// ancestorsMatching returns the directories above protected paths that a
// clean absolute pattern matches: /var/li? is /var/lib.
func (e *eval) ancestorsMatching(pat string) []string {
	parts := splitPath(pat)
	var out []string
	for _, p := range e.p.protect.paths {
		if p.device || len(parts) == 0 || len(parts) >= len(p.parts) {
			continue
		}
		if slices.Contains(parts, "**") || compMatch(parts, p.parts[:len(parts)], true) {
			for n := len(parts); n < len(p.parts); n++ {
				if d := "/" + strings.Join(p.parts[:n], "/"); !slices.Contains(out, d) {
					out = append(out, d)
				}
				if !slices.Contains(parts, "**") {
					break
				}
			}
		}
	}
	return out
}

// aliasTargets returns the paths a clean path (or pattern) stands for
// through the aliases: as the source itself (the new name did not exist)
// and as the source's name inside it (the new name was a directory).
// Absolute words are compared with absolute names, relative with
// relative; a pattern matches a name component by component.
func (e *eval) aliasTargets(c string, glob bool) []string {
	var out []string
	for _, a := range e.paths.aliases {
		var rest string
		if strings.HasPrefix(c, "/") != strings.HasPrefix(a.dst, "/") {
			continue
		} else if Within(c, a.dst) {
			rest = strings.TrimPrefix(c, a.dst)
		} else if r, ok := globWithin(c, a.dst, glob); ok {
			rest = r
		} else {
			continue
		}
		out = append(out, path.Clean(a.src+rest))
		base := "/" + path.Base(a.src)
		if rest == base || strings.HasPrefix(rest, base+"/") {
			out = append(out, path.Clean(a.src+strings.TrimPrefix(rest, base)))
		} else if glob && rest != "" {
			// A pattern's first component may match the source's name.
			first, more, _ := strings.Cut(rest[1:], "/")
			if ok, _ := shellMatch(first, base[1:]); ok {
				out = append(out, path.Clean(a.src+"/"+more))
			}
		}
	}
	return out
}

// globWithin reports whether a pattern's leading components match every
// component of dir, and returns the rest of the pattern ("" or "/…").
func globWithin(c, dir string, glob bool) (string, bool) {
	if !glob || !isPattern(c) {
		return "", false
	}
	parts, want := strings.Split(strings.TrimPrefix(c, "/"), "/"), strings.Split(strings.TrimPrefix(dir, "/"), "/")
	if slices.Contains(parts, "**") || !compMatch(parts, want, true) {
		return "", false
	}
	if len(parts) == len(want) {
		return "", true
	}
	return "/" + strings.Join(parts[len(want):], "/"), true
}

// bindAlias records a sandbox's bind of src at dst (bwrap --ro-bind SRC
// DEST, firejail --bind=SRC,DEST): inside the sandbox DEST names SRC, so
// bwrap --ro-bind /etc /mnt/e cat /mnt/e/warden/config.yaml reads the
// config.
func (e *eval) bindAlias(src, dst arg) {
	ps := e.pathsFor()
	if ps == nil || !src.known || !dst.known || src.glob || len(ps.aliases) >= maxAliases {
		return
	}
	from, to := path.Clean(e.homePath(src.val)), e.homePath(dst.val)
	if strings.HasPrefix(from, "/") && to != "" && !strings.ContainsAny(to, "$`") && e.holdsProtected(from) {
		ps.aliases = append(ps.aliases, alias{dst: path.Clean(to), src: from})
	}
}

// homePath resolves a leading ~ where the home is known.
func (e *eval) homePath(p string) string {
	if (p == "~" || strings.HasPrefix(p, "~/")) && e.p.protect.home != "" && e.local {
		return e.p.protect.home + p[1:]
	}
	return p
}

// holdsProtected reports whether dir is a directory above a protected
// path (a name for the path itself is denied where it is written).
func (e *eval) holdsProtected(dir string) bool {
	for _, p := range e.p.protect.paths {
		if p.clean != dir && Within(p.clean, dir) {
			return true
		}
	}
	return false
}

// aliasedPath checks a path that may lie under a name an alias gave. It
// reports whether it denied the word.
func (e *eval) aliasedPath(f string, glob bool, ctx cctx, word string) bool {
	for _, t := range e.aliasTargets(path.Clean(f), glob) {
		if rest, ok := strings.CutPrefix(t, cwdLink); ok {
			if rest = strings.TrimPrefix(rest, "/"); rest != "" {
				e.addRel(rest, glob) // as /proc/self/cwd/… is
				e.partialPath("$D/"+rest, ctx)
			}
			continue
		}
		if e.checkAbs(t, glob, ctx, word) {
			return true
		}
	}
	return false
}
