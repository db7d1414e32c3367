package policy

import (
	"path"
	"strings"
)

// Archivers and recursive copies read every file under the directories
// they are given, as grep -r does: tar c /etc, zip -r x.zip /etc,
// cp -r /etc /tmp/x, rsync -a /etc/ host:, scp -r /etc host: all carry
// warden's config along. Their sources are recursive operands.

// archiveOperands returns the directories an archiver or recursive copy
// reads every file under, and whether the command is one.
func archiveOperands(name string, args []arg) ([]arg, bool) {
	switch name {
	case "tar", "bsdtar", "gtar":
		return tarSources(args)
	case "zip":
		if !hasFlag(argVals(args), 'r', "--recurse-paths") && !hasFlag(argVals(args), 'R', "--recurse-patterns") {
			return nil, false
		}
		ops := nonEmpty(optionOperands(args, "bnOtx", "--temp-path --suffixes --output-file --exclude --include"))
		if len(ops) < 2 {
			return nil, false
		}
		return ops[1:], true // the first is the archive
	case "7z", "7za", "7zr":
		for i, a := range args {
			if a.known && a.val == "a" {
				ops := nonEmpty(optionOperands(args[i+1:], "", ""))
				if len(ops) < 2 {
					return nil, false
				}
				return ops[1:], true
			}
			if !a.known || !strings.HasPrefix(a.val, "-") {
				return nil, false
			}
		}
	case "cp", "scp", "rsync":
		vals := argVals(args)
		if !hasFlag(vals, 'r', "--recursive") && !hasFlag(vals, 'R', "") && (name == "scp" || !hasFlag(vals, 'a', "--archive")) {
			return nil, false
		}
		valued, long := "tS", "--target-directory --suffix"
		switch name {
		case "scp":
			valued, long = "cFiJloPS", ""
		case "rsync":
			valued, long = "efBT", "--rsh --filter --exclude --include --files-from --temp-dir --link-dest --copy-dest --compare-dest --backup-dir"
		}
		ops := nonEmpty(optionOperands(args, valued, long))
		target := hasFlag(vals, 't', "--target-directory") && name == "cp"
		if !target && len(ops) > 0 {
			ops = ops[:len(ops)-1] // the destination
		}
		var local []arg
		for _, o := range ops {
			if o.known && remoteSpec(o.val) {
				continue
			}
			local = append(local, o)
		}
		return local, len(local) > 0
	}
	return nil, false
}

// remoteSpec reports whether a copy operand names another host's file
// (host:path, user@host:path, rsync://…).
func remoteSpec(v string) bool {
	i := strings.IndexByte(v, ':')
	return i > 0 && !strings.Contains(v[:i], "/")
}

// nonEmpty drops the empty stand-in optionOperands leaves when an option
// it reads as a pattern's (-e, -f) appears.
func nonEmpty(ops []arg) []arg {
	out := ops[:0]
	for _, o := range ops {
		if o.val != "" {
			out = append(out, o)
		}
	}
	return out
}

// tarValued are tar's options that take the next word, in a cluster or in
// the first word's old style (tar czf out.tgz /etc).
const tarValued = "fbCTXKNLVgHI"

// tarSources returns the operands of a tar that creates or adds to an
// archive, joined with the -C directory before them when it is known.
func tarSources(args []arg) ([]arg, bool) {
	create := false
	chdir := ""
	var ops []arg
	for i := 0; i < len(args); i++ {
		a := args[i]
		v := a.val
		switch {
		case !a.known:
			ops = append(ops, a)
		case v == "--create" || v == "--append" || v == "--update":
			create = true
		case strings.HasPrefix(v, "--directory="):
			chdir = strings.TrimPrefix(v, "--directory=")
		case v == "--directory" || v == "--file" || v == "--files-from" || v == "--exclude-from" || v == "--use-compress-program" || v == "--exclude":
			if v == "--directory" && i+1 < len(args) {
				chdir = args[i+1].val
			}
			i++
		case strings.HasPrefix(v, "--"):
		case strings.HasPrefix(v, "-") || i == 0 && v != "" && !strings.Contains(v, "/"):
			// -czf, or the old style's first word czf.
			letters := strings.TrimPrefix(v, "-")
			if strings.ContainsAny(letters, "cru") && !strings.HasPrefix(v, "-") || strings.HasPrefix(v, "-") && strings.ContainsAny(letters[:valuedEnd(letters)], "cru") {
				create = true
			}
			i = tarClusterValues(args, i, func(c byte, val string) {
				if c == 'C' {
					chdir = val
				}
			})
		default:
			if chdir != "" && strings.HasPrefix(chdir, "/") && !strings.HasPrefix(v, "/") {
				a = arg{val: path.Join(chdir, v), known: true, glob: a.glob}
			}
			ops = append(ops, a)
		}
	}
	if !create {
		return nil, false
	}
	return ops, true
}

// tarClusterValues reads the option cluster args[i] (-czf, or the old
// style's first word czf, where each valued letter takes the next word),
// calls got with each valued letter and its value, and returns the index
// of the last word it used.
func tarClusterValues(args []arg, i int, got func(letter byte, val string)) int {
	v := args[i].val
	letters := strings.TrimPrefix(v, "-")
	if !strings.HasPrefix(v, "-") {
		for _, c := range []byte(letters) {
			if strings.IndexByte(tarValued, c) >= 0 && i+1 < len(args) {
				i++
				got(c, args[i].val)
			}
		}
		return i
	}
	if j := valuedEnd(letters); j < len(letters) {
		val := letters[j+1:]
		if val == "" && i+1 < len(args) {
			i++
			val = args[i].val
		}
		got(letters[j], val)
	}
	return i
}

// valuedEnd is the index of the first letter of a tar option cluster that
// takes a value, or len(letters).
func valuedEnd(letters string) int {
	for j := 0; j < len(letters); j++ {
		if strings.IndexByte(tarValued, letters[j]) >= 0 {
			return j
		}
	}
	return len(letters)
}
