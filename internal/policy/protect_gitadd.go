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
	tree := ""
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return nil, false
		}
		v := a.val
		switch {
		case v == "-C" || v == "--work-tree":
			if i+1 >= len(args) || !args[i+1].known {
				return nil, false
			}
			i++
			tree = path.Join(tree, args[i].val)
			if strings.HasPrefix(args[i].val, "/") || v == "--work-tree" {
				tree = args[i].val
			}
			continue
		case strings.HasPrefix(v, "--work-tree="):
			tree = strings.TrimPrefix(v, "--work-tree=")
			continue
		case gitValueGlobals[v]:
			i++
			continue
		case strings.HasPrefix(v, "-"):
			continue
		}
		break
	}
	if i >= len(args) {
		return nil, false
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
	if tree == "" {
		return ops, true
	}
	out := make([]arg, 0, len(ops))
	for _, o := range ops {
		if o.known && !strings.HasPrefix(o.val, "/") {
			o.val = path.Join(tree, o.val)
		}
		out = append(out, o)
	}
	return out, true
}
