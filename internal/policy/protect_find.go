package policy

import (
	"path"
	"strings"
)

// findProtect looks at find's name tests below start paths that hold a
// protected path: find / -name token reaches it.
func (e *eval) findProtect(args []arg, ctx cctx) {
	e.findWatchdog(args)
	var starts []string
	i := 0
	for i < len(args) && args[i].known && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P") {
		i++
	}
	for ; i < len(args); i++ {
		v := args[i].val
		if args[i].known && (strings.HasPrefix(v, "-") || v == "(" || v == "!") {
			break
		}
		if !args[i].known || !strings.HasPrefix(v, "/") {
			starts = append(starts, e.relStarts(args[i])...)
			continue
		}
		starts = append(starts, path.Clean(v))
		if len(e.paths.aliases) > 0 {
			// A name the input gave a directory above one: ln -s /var/lib /tmp/l.
			starts = append(starts, e.aliasTargets(path.Clean(v), false)...)
		}
	}
	if len(starts) == 0 {
		starts = e.relStarts(arg{val: ".", known: true})
	}
	for _, p := range e.p.protect.paths {
		if p.device {
			continue
		}
		under := false
		for _, s := range starts {
			if s == "" || Within(p.clean, s) {
				under = true
			}
		}
		if !under {
			continue
		}
		for k := i; k+1 < len(args); k++ {
			test, pat := args[k].val, args[k+1]
			var hit bool
			switch test {
			case "-name", "-iname", "-lname", "-ilname":
				hit = e.findNameHit(pat, p, strings.HasPrefix(test, "-i"))
			case "-path", "-ipath", "-wholename", "-iwholename":
				hit = findPathHit(pat, p.clean, strings.HasPrefix(test, "-i"))
			case "-regex", "-iregex":
				hit = strings.Contains(pat.val, path.Base(p.clean)) || !pat.known
			default:
				continue
			}
			if hit {
				e.deny("find " + test + " " + truncate(pat.val, 64) + ": reaches warden's own state")
				return
			}
		}
	}
}

// findNameHit reports whether find -name pat matches a protected path or
// one of the directories it lies in that is specific to it.
func (e *eval) findNameHit(pat arg, p protPath, fold bool) bool {
	if !pat.known {
		return true
	}
	pv := pat.val
	for k := len(p.parts) - 1; k >= 0; k-- {
		name := p.parts[k]
		if k < len(p.parts)-1 && !strings.Contains(strings.ToLower(name), "warden") {
			break
		}
		if fold {
			pv, name = strings.ToLower(pv), strings.ToLower(name)
		}
		if ok, _ := shellMatch(pv, name); ok || pv == name {
			return true
		}
	}
	return false
}

// findPathHit reports whether find -path pat (where * also matches /)
// matches a protected path.
func findPathHit(pat arg, p string, fold bool) bool {
	if !pat.known {
		return true
	}
	pv := pat.val
	if fold {
		pv, p = strings.ToLower(pv), strings.ToLower(p)
	}
	// Replace / on both sides so that * crosses directories as in find.
	ok, _ := shellMatch(strings.ReplaceAll(pv, "/", "\x01"), strings.ReplaceAll(p, "/", "\x01"))
	return ok
}

// relStarts returns the directories a relative start path of find can
// be: under each directory the input can make current when all of them
// are known (the caller gave the starting one), or "" for anywhere.
func (e *eval) relStarts(a arg) []string {
	if !a.known || e.paths.initial == "" {
		return []string{""}
	}
	cwds, unknown := e.cwds()
	if unknown || len(cwds) == 0 {
		return []string{""}
	}
	out := make([]string, len(cwds))
	for i, c := range cwds {
		out[i] = path.Join(c, a.val)
	}
	return out
}
