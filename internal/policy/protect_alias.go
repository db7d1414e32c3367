package policy

import (
	"path"
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
}

// recordAliases remembers what a link, copy or mount command makes of a
// directory above a protected path.
func (e *eval) recordAliases(name string, args []arg) {
	spec, ok := aliasValued[name]
	ps := e.paths
	if !ok || len(ps.aliases) >= maxAliases {
		return
	}
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
	for _, s := range ops {
		src := e.homePath(s.val)
		if !s.known || s.glob || !strings.HasPrefix(src, "/") {
			continue
		}
		src = path.Clean(src)
		if e.holdsProtected(src) && len(ps.aliases) < maxAliases {
			ps.aliases = append(ps.aliases, alias{dst: path.Clean(dst), src: src})
		}
	}
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

// aliasedPath checks a path that may lie under a name an alias gave:
// absolute words against absolute names, relative against relative. It
// reports whether it denied the word.
func (e *eval) aliasedPath(f string, glob bool, ctx cctx, word string) bool {
	c := path.Clean(f)
	for _, a := range e.paths.aliases {
		if a.dst == "." {
			// ln -s SRC with no link name: ./base(SRC).
			if strings.HasPrefix(c, "/") {
				continue
			}
		} else if !Within(c, a.dst) || strings.HasPrefix(c, "/") != strings.HasPrefix(a.dst, "/") {
			continue
		}
		rest := strings.TrimPrefix(c, a.dst)
		if a.dst == "." {
			rest = "/" + c
		}
		if e.checkAbs(path.Clean(a.src+rest), glob, ctx, word) {
			return true
		}
		base := "/" + path.Base(a.src)
		if rest == base || strings.HasPrefix(rest, base+"/") {
			if e.checkAbs(path.Clean(a.src+strings.TrimPrefix(rest, base)), glob, ctx, word) {
				return true
			}
		}
	}
	return false
}
