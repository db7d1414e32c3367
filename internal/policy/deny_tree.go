package policy

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Removing the root tree or a system directory is denied whichever tool
// removes it, as rm -rf /usr and find / -delete are: mv with the
// directory given as a source after -t (mv -t /tmp /usr), rsync --delete
// into one (rsync -a --delete empty/ /usr/: the destination keeps only
// what the source has) or --remove-source-files from one, and find
// -delete or -exec rm where the tests given do not narrow what is found
// (-mindepth, -type f, -name '*', -user root all leave everything).

// mvSources returns mv's sources: every operand with -t DIR (the
// directory is an option's value), else all but the last.
func mvSources(args []string) []string {
	ops := getoptOperands(args, "tS", []string{"--target-directory", "--suffix"})
	for i, a := range args {
		if a == "--" {
			break
		}
		if strings.HasPrefix(a, "--") && longFlag(a, "--target-directory") || getoptFlag(args[i:i+1], 't', "", "S") {
			return ops
		}
	}
	if len(ops) < 2 {
		return nil
	}
	return ops[:len(ops)-1]
}

// rsyncValueLong are rsync's long options that may take their value as
// the next word.
var rsyncValueLong = []string{"--rsh", "--filter", "--exclude", "--include", "--exclude-from", "--include-from",
	"--files-from", "--temp-dir", "--compare-dest", "--copy-dest", "--link-dest", "--backup-dir", "--suffix",
	"--chmod", "--chown", "--usermap", "--groupmap", "--timeout", "--contimeout", "--bwlimit", "--max-size",
	"--min-size", "--max-delete", "--partial-dir", "--log-file", "--log-file-format", "--password-file", "--port",
	"--remote-option", "--out-format", "--info", "--debug", "--compress-level", "--compress-choice",
	"--checksum-choice", "--skip-compress", "--iconv", "--modify-window", "--block-size", "--sockopts",
	"--outbuf", "--stop-after", "--stop-at", "--copy-as", "--rsync-path", "--address", "--write-batch",
	"--only-write-batch", "--read-batch", "--protocol", "--checksum-seed", "--early-input", "--max-alloc"}

// rsyncDeleters are rsync's options that delete at the destination.
var rsyncDeleters = []string{"--delete", "--del", "--delete-before", "--delete-during", "--delete-delay",
	"--delete-after", "--delete-excluded", "--delete-missing-args"}

// rsyncPath is the path part of an rsync operand: host:path and
// user@host:path name path on that host (which is as much a machine);
// rsync:// URLs and host::module name a daemon's module, not a path.
func rsyncPath(op string) string {
	if strings.Contains(op, "::") || strings.HasPrefix(op, "rsync://") {
		return ""
	}
	if h, p, ok := strings.Cut(op, ":"); ok && !strings.Contains(h, "/") {
		if p == "" {
			return "" // host: is the login's home
		}
		return p
	}
	return op
}

// rsyncDeny denies rsync emptying the root or a system directory.
func rsyncDeny(args []string) string {
	if getoptFlag(args, 'n', "--dry-run", "eBfTM@") || hasFlag(args, 0, "--list-only") {
		return ""
	}
	ops := getoptOperands(args, "eBfTM@", rsyncValueLong)
	if len(ops) < 2 {
		return ""
	}
	for _, d := range rsyncDeleters {
		if !hasFlag(args, 0, d) {
			continue
		}
		dest := rsyncPath(ops[len(ops)-1])
		// A disk mounted under /mnt or /media is where a whole system
		// is cloned to (rsync -a --delete / /mnt/).
		if c := path.Clean(dest); criticalPath(dest) && c != "/mnt" && c != "/media" {
			return "rsync " + d + " " + dest + ": removes whatever the source lacks from a system directory"
		}
		break
	}
	if hasFlag(args, 0, "--remove-source-files") {
		for _, s := range ops[:len(ops)-1] {
			if p := rsyncPath(s); criticalPath(p) {
				return "rsync --remove-source-files " + s + ": removes every file of a system directory"
			}
		}
	}
	return ""
}

// findNarrowing reports whether a find test narrows what is found so
// that removing it is not removing everything: a name or path that is
// not a match-all pattern, a time, size, owner other than root, and the
// like. The depth, type, file system and permission-to-read tests do not.
func findNarrowing(test, val string) bool {
	switch test {
	case "-mindepth", "-type", "-xtype", "-readable", "-writable", "-executable", "-fstype", "-context":
		return false
	case "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename":
		return strings.Trim(val, "*") != ""
	case "-regex", "-iregex":
		return val != ".*" && val != ".*.*" && val != ".+"
	case "-user", "-group", "-uid", "-gid":
		return val != "root" && val != "0"
	}
	return findFilters[test]
}

// findExecEveryFile returns why find's -exec command, run on every file
// under the system directory start, is what the deny list refuses
// recursively (chmod, chown, chgrp, chattr, setfacl as -R on start) or
// empties every program, library or configuration file (truncate), or "".
func findExecEveryFile(cmd []arg, start string) string {
	if !criticalPath(start) {
		return ""
	}
	var vals []string
	for _, a := range cmd {
		if !a.known {
			return ""
		}
		vals = append(vals, strings.ReplaceAll(a.val, "{}", start))
	}
	for len(vals) > 0 && (vals[0] == "sudo" || vals[0] == "doas" || vals[0] == "nice" || vals[0] == "command") {
		vals = vals[1:]
	}
	if len(vals) == 0 {
		return ""
	}
	switch name := path.Base(vals[0]); name {
	case "chmod", "chown", "chgrp", "chattr", "setfacl":
		if why := denyCheck(name, append([]string{"-R"}, vals[1:]...)); why != "" {
			return name + ": " + why
		}
	case "truncate":
		// Emptying every log under /var/log is housekeeping; every
		// program, library or configuration file is not.
		if c := path.Clean(start); isRoot(c) || systemFile(c) {
			return "truncate: empties every file under " + start
		}
	}
	return ""
}

// pipedRemove denies a pipeline that lists a system directory's entries
// (ls /, find /usr with no narrowing test) and hands them to xargs rm:
// each entry then goes as rm -rf / would take it.
func (e *eval) pipedRemove(chain []*syntax.Stmt, ctx cctx, sc *scope) {
	lister := func(st *syntax.Stmt) bool {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			return false
		}
		n := path.Base(c.Args[0].Lit())
		return n == "ls" || n == "find" || n == ""
	}
	remover := func(st *syntax.Stmt) bool {
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 || !xargsLike(path.Base(c.Args[0].Lit())) {
			return false
		}
		return slices.ContainsFunc(c.Args[1:], func(w *syntax.Word) bool {
			l := w.Lit()
			return l == "" || path.Base(l) == "rm" || everyFileChangers[path.Base(l)]
		})
	}
	if !slices.ContainsFunc(chain, remover) || !slices.ContainsFunc(chain, lister) {
		return // most pipelines: nothing resolved, nothing allocated
	}
	r := resolver{e: e, ctx: ctx, sc: sc}
	rec, removes, via := false, false, ""
	var change []string        // xargs chmod 000: the command each entry is given to
	for _, st := range chain { // right to left
		c, ok := st.Cmd.(*syntax.CallExpr)
		if !ok || len(c.Args) == 0 {
			removes = false
			continue
		}
		args := r.fieldsAll(c.Args)
		if !args[0].known {
			removes = false
			continue
		}
		vals := argVals(args[1:])
		switch name := path.Base(args[0].val); {
		case xargsLike(name):
			removes, rec, change, via = false, false, nil, name
			for k, v := range vals {
				if path.Base(v) == "rm" {
					removes = true
					rec = hasFlag(vals[k+1:], 'r', "--recursive") || hasFlag(vals[k+1:], 'R', "")
				}
				if everyFileChangers[path.Base(v)] && change == nil {
					removes, change = true, vals[k:]
				}
			}
		case !removes:
		case change != nil && (name == "ls" || name == "find"):
			// find /usr | xargs chmod 000 changes every entry, as
			// chmod -R 000 /usr does; ls / hands the top level on.
			starts, narrowed := findStarts(vals)
			if name == "ls" {
				starts, narrowed = operands(vals), false
			}
			for _, s := range starts {
				cmd := path.Base(change[0])
				if why := denyCheck(cmd, append(append([]string{"-R"}, change[1:]...), s)); why != "" && !narrowed {
					e.deny(name + " " + s + " | " + via + " " + cmd + ": " + why)
					return
				}
			}
		case name == "ls":
			ops := operands(vals)
			if len(ops) == 0 {
				ops = []string{"."}
			}
			for _, o := range ops {
				if rec && criticalPath(o) {
					e.deny("ls " + o + " | " + via + " rm -r: removes everything under " + o)
					return
				}
				// Without -r, every file of the directory listed
				// (ls /etc, ls -d /etc/*), as rm -f /etc/* removes.
				d := strings.TrimSuffix(o, "/")
				if everyName(path.Base(d)) {
					d = path.Dir(d)
				}
				if strings.HasPrefix(d, "/") && everyFileDirs[path.Clean(d)] {
					e.deny("ls " + o + " | " + via + " rm: removes every file of " + path.Clean(d))
					return
				}
				switch {
				case rec && relWipeWord(o):
					e.relWipe = "ls " + o + " | " + via + " rm -r"
				case o == "." || everyName(o):
					e.relFiles = "ls " + o + " | " + via + " rm"
				}
			}
		case name == "find":
			starts, narrowed := findStarts(vals)
			if len(starts) == 0 {
				starts = []string{"."}
			}
			for _, s := range starts {
				if !narrowed && criticalPath(s) {
					e.deny("find " + s + " | " + via + " rm: removes everything under " + s)
					return
				}
				if !narrowed && relWipeWord(s) {
					e.relWipe = "find " + s + " | " + via + " rm"
				}
			}
		default:
			removes = passesAll[name]
		}
	}
}

// xargsLike reports whether a program runs its command on each name its
// input holds: xargs, and GNU parallel given no ::: values.
func xargsLike(name string) bool { return name == "xargs" || name == "parallel" }

// everyFileChangers are the programs whose every-entry run is their -R.
var everyFileChangers = set(`chmod chown chgrp chattr setfacl`)

// findStarts returns find's start paths and whether a test narrows what
// it finds, from its words.
func findStarts(vals []string) (starts []string, narrowed bool) {
	i := 0
	for i < len(vals) && (vals[i] == "-H" || vals[i] == "-L" || vals[i] == "-P") {
		i++
	}
	for ; i < len(vals) && !strings.HasPrefix(vals[i], "-") && vals[i] != "(" && vals[i] != "!"; i++ {
		starts = append(starts, vals[i])
	}
	for j := i; j < len(vals); j++ {
		if findFilters[vals[j]] {
			v := ""
			if j+1 < len(vals) {
				v = vals[j+1]
			}
			narrowed = narrowed || findNarrowing(vals[j], v)
		}
	}
	return starts, narrowed
}
