package policy

import (
	"path"
	"strings"
)

// gitRecordOperands returns the directories whose every file git copies
// into its object store: git add . or -A, git stash -u/-a (untracked
// files too) and git commit -a, in the work tree that -C, --work-tree or
// the working directory names. cd /var/lib && git init && git add . puts
// /var/lib/warden/token in a repository as tar c /var/lib does.
func gitRecordOperands(args []arg) ([]arg, bool) {
	dir, tree, i, ok := gitGlobals(args)
	if !ok {
		return nil, false
	}
	if tree != "" {
		dir = path.Join(dir, tree)
		if strings.HasPrefix(tree, "/") {
			dir = tree
		}
	}
	sub, rest := args[i].val, args[i+1:]
	vals := argVals(rest)
	var ops []arg
	switch sub {
	case "add":
		ops = nonEmpty(optionOperands(rest, "", "--chmod --pathspec-from-file"))
		if len(ops) == 0 && !(hasFlag(vals, 'A', "--all") || hasFlag(vals, 'u', "--update")) {
			return nil, false
		}
	case "stash":
		if !(hasFlag(vals, 'u', "--include-untracked") || hasFlag(vals, 'a', "--all")) {
			return nil, false
		}
	case "commit":
		if !hasFlag(vals, 'a', "--all") {
			return nil, false
		}
	default:
		return nil, false
	}
	if len(ops) == 0 {
		ops = []arg{{val: ".", known: true}}
	}
	return joinedTo(dir, ops), true
}

// gitGlobals reads git's options before its subcommand: dir, where its
// -C options lead (each relative one from the last), tree, the work tree
// --work-tree names (git takes a relative one in dir), and the index of
// the subcommand; ok is false when a word is not known or no subcommand
// follows.
func gitGlobals(args []arg) (dir, tree string, sub int, ok bool) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return "", "", 0, false
		}
		v := a.val
		switch {
		case v == "-C" || v == "--work-tree":
			if i+1 >= len(args) || !args[i+1].known {
				return "", "", 0, false
			}
			i++
			d := args[i].val
			switch {
			case v == "--work-tree":
				tree = d
			case strings.HasPrefix(d, "/"):
				dir = d
			default:
				dir = path.Join(dir, d)
			}
		case strings.HasPrefix(v, "--work-tree="):
			tree = strings.TrimPrefix(v, "--work-tree=")
		case gitValueGlobals[v]:
			i++
		case strings.HasPrefix(v, "-"):
		default:
			return dir, tree, i, true
		}
	}
	return "", "", 0, false
}

// joinedTo returns ops with each relative path they name taken in dir.
func joinedTo(dir string, ops []arg) []arg {
	if dir == "" {
		return ops
	}
	out := make([]arg, 0, len(ops))
	for _, o := range ops {
		if o.known && !strings.HasPrefix(o.val, "/") {
			o.val = path.Join(dir, o.val)
		}
		out = append(out, o)
	}
	return out
}
