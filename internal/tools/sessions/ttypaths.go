package sessions

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"github.com/warden-mcp/warden/internal/policy"
)

// The terminal has more names than /dev/tty and /dev/stdin: it is the
// shell's descriptors 0, 1 and 2 (and bash's 255), so /dev/stderr,
// /dev/fd/2 and /proc/self/fd/1 read it too; /dev/char/136:0 and
// /proc/self/root/dev/tty reach it through links; "../../dev/tty" and,
// in /dev, "tty" are relative names of it. "head -n 1 < /dev/stderr" took
// the line typed next as surely as "< /dev/tty". terminalPath takes a
// name to be the terminal unless it can be seen not to be.

// quietDevices are the device names under /dev that are never a terminal
// and that reads name (a disk's first sector, a random key).
var quietDevices = setOf("/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom", "/dev/kmsg", "/dev/mem",
	"/dev/port", "/dev/log")

// quietDeviceDirs hold no terminal.
var quietDeviceDirs = []string{"/dev/shm/", "/dev/disk/", "/dev/mapper/", "/dev/hugepages/", "/dev/mqueue/", "/dev/block/",
	"/dev/bus/", "/dev/dri/", "/dev/snd/", "/dev/net/", "/dev/cpu/", "/dev/vfio/"}

// blockPrefixes are the names of block devices and the like, which are
// never a terminal.
var blockPrefixes = []string{"sd", "nvme", "vd", "xvd", "hd", "md", "dm-", "loop", "sr", "mmcblk", "zram", "nbd", "mtd", "rbd", "nullb"}

// terminalPath reports whether a file named p may be the session's
// terminal: anything under /dev but disks and the memory-like devices, a
// process's descriptors or its view of the tree under /proc, a path
// through a "dev" directory to a terminal's name, a relative name a
// terminal has in /dev (tty, pts/0, stdin), a glob that may match one, or
// a name computed at run time.
func terminalPath(p string) bool {
	if strings.ContainsRune(p, 0) {
		return true
	}
	if alts := braceWords(p); len(alts) != 1 || alts[0] != p {
		// bash's brace expansion: head -n 1 /de{v,x}/tty reads
		// /dev/tty and then /dex/tty.
		return len(alts) == 0 || slices.ContainsFunc(alts, terminalPath)
	}
	if strings.ContainsAny(p, "*?[") {
		return globMayNameTerminal(p)
	}
	clean := path.Clean(p)
	parts := strings.Split(strings.Trim(p, "/"), "/")
	if k := slices.Index(parts, "proc"); k >= 0 || strings.HasPrefix(clean, "/proc/") {
		for _, c := range parts[max(k, 0):] {
			switch c {
			case "fd", "root", "cwd", "map_files":
				return true
			}
		}
	}
	if clean == "/dev" || strings.HasPrefix(clean, "/dev/") {
		return !quietDevice(clean)
	}
	for i, c := range parts {
		if c == "dev" && i+1 < len(parts) && ttyName(parts[i+1]) {
			return true
		}
	}
	if strings.HasPrefix(p, "/") {
		return false
	}
	if strings.HasPrefix(p, "~") {
		// ~+/tty, ~-/0: the directory is $PWD's or $OLDPWD's at run
		// time, which an assignment sets (PWD=/dev).
		return computedTerminal(p)
	}
	// ./tty, x/../fd/0
	return ttyName(strings.Split(path.Clean(p), "/")[0])
}

// computedTerminal reports whether a file named p, whose directory or name
// is known only at run time ($(tty), "$f", /proc/$$/fd/0, ~-/tty), may be
// the terminal: its last name is computed too, or is one the terminal has
// in its directory (tty, 0, 136:0). A literal last name no terminal has
// ("$HOME/notes.txt"), or one ending in what none ends in ("$LOG.log":
// the terminal's names are letters, digits and ':'), is not one, wherever
// the directory is.
func computedTerminal(p string) bool {
	base := p[strings.LastIndexByte(p, '/')+1:]
	if k := strings.LastIndexByte(base, 0); k >= 0 {
		return strings.Trim(base[k+1:], "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789:") == ""
	}
	if ttyName(base) {
		return true
	}
	a, b, _ := strings.Cut(base, ":")
	return digits(a) && (b == "" || digits(b))
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// maxBraceWords bounds the words braceWords makes of one.
const maxBraceWords = 64

// braceWords is the words bash's brace expansion makes of w (a{b,c}d is
// abd and acd), with a sequence ({1..9}, {a..z}) a glob's "*"; nil past
// maxBraceWords. A word without a brace pair of either kind is itself.
func braceWords(w string) []string {
	if !strings.Contains(w, "{") {
		return []string{w}
	}
	out := []string{}
	var walk func(w string) bool
	walk = func(w string) bool {
		for i := 0; i < len(w); i++ {
			if w[i] != '{' {
				continue
			}
			depth, commas := 0, []int{}
			for j := i; j < len(w); j++ {
				switch w[j] {
				case '{':
					depth++
				case ',':
					if depth == 1 {
						commas = append(commas, j)
					}
				case '}':
					depth--
				}
				if depth > 0 {
					continue
				}
				inner := w[i+1 : j]
				if len(commas) == 0 {
					if !strings.Contains(inner, "..") {
						break // {x} stays as it is
					}
					return walk(w[:i] + "*" + w[j+1:])
				}
				from := i + 1
				for _, c := range append(commas, j) {
					if !walk(w[:i] + w[from:c] + w[j+1:]) {
						return false
					}
					from = c + 1
				}
				return true
			}
		}
		out = append(out, w)
		return len(out) <= maxBraceWords
	}
	if !walk(w) {
		return nil
	}
	return out
}

func quietDevice(p string) bool {
	if quietDevices[p] {
		return true
	}
	for _, d := range quietDeviceDirs {
		if strings.HasPrefix(p, d) {
			return true
		}
	}
	name := strings.TrimPrefix(p, "/dev/")
	for _, b := range blockPrefixes {
		if strings.HasPrefix(name, b) && !strings.Contains(name, "/") {
			return true
		}
	}
	return false
}

// ttyName reports whether c is the name of a terminal, or of a directory
// of terminals or descriptors, as it stands in /dev.
func ttyName(c string) bool {
	switch c {
	case "stdin", "stdout", "stderr", "console", "ptmx", "pts", "fd", "char", "serial", "vc", "tty":
		return true
	}
	for _, pre := range []string{"tty", "pts", "hvc", "vcs"} {
		if rest, ok := strings.CutPrefix(c, pre); ok && strings.Trim(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789") == "" && len(rest) <= 8 {
			return true
		}
	}
	return false
}

// ttyCandidates are names of the terminal a glob may match.
var ttyCandidates = []string{"/dev/tty", "/dev/stdin", "/dev/stdout", "/dev/stderr", "/dev/pts/0", "/dev/fd/0", "/dev/fd/2",
	"/dev/console", "/dev/tty1", "/dev/ttyS0", "/dev/char/136:0", "/proc/self/fd/0", "/proc/1/fd/0", "tty", "stdin", "stderr", "pts/0", "fd/0"}

// globMayNameTerminal reports whether the glob p may match one of the
// terminal's names; a pattern that does not parse counts.
func globMayNameTerminal(p string) bool {
	for _, c := range ttyCandidates {
		ok, err := path.Match(p, c)
		if ok || err != nil {
			return true
		}
	}
	return false
}

// linkers make a file that may be a new name of the terminal given one
// of its names: a link (ln -s /dev/tty /tmp/t), a copy of its device
// node (cp -a, rsync -D), a node of the same numbers (mknod).
var linkers = setOf("ln", "link", "cp", "mknod", "rsync", "mv", "install", "busybox")

// terminalDirs says why the complete commands text change to a directory
// where relative names may be the terminal (cd /proc/self/fd, then "< 0";
// cd /dev, then "< tty") or make a new name of the terminal (ln -s
// /dev/tty /tmp/t, then "< /tmp/t"), or returns "". Either ends the
// model, as a key change does (rekey.go).
func terminalDirs(text string) string {
	if !spelled(text, "cd") && !strings.Contains(text, "/") {
		return ""
	}
	f, err := policy.ParseBash(text)
	if err != nil {
		return ""
	}
	why := ""
	syntax.Walk(f, func(n syntax.Node) bool {
		c, ok := n.(*syntax.CallExpr)
		if !ok || why != "" {
			return why == ""
		}
		vals := literals(c.Args)
		for i, v := range vals {
			b := progName(v)
			if b == "mknod" {
				why = "mknod makes a device node, which may be a new name of the terminal"
				break
			}
			if linkers[b] && some(vals[i+1:], func(a string) bool { return !strings.HasPrefix(a, "-") && terminalPath(a) }) {
				why = b + " makes a new name of the terminal, which readers given it would read"
				break
			}
			if b != "cd" && b != "pushd" {
				continue
			}
			for _, a := range vals[i+1:] {
				if !strings.HasPrefix(a, "-") && terminalDir(a) {
					why = "cd " + truncate(a, 48) + " enters a directory where relative names may be the terminal (0, tty), " +
						"which readers given them would read"
				}
			}
		}
		return why == ""
	})
	return why
}

// terminalDir reports whether the directory d may hold the terminal's
// names: /dev (but its disk and memory directories) and /proc, or a
// relative path that may lead there (dev from /, ../../proc). ~/dev is a
// home's. A directory computed at run time is not counted (cd "$dir").
func terminalDir(d string) bool {
	if strings.ContainsRune(d, 0) {
		return false
	}
	if terminalPath(d) || path.Clean(d) == "/proc" || strings.HasPrefix(path.Clean(d), "/proc/") {
		return true
	}
	if strings.HasPrefix(d, "/") || strings.HasPrefix(d, "~") {
		return false
	}
	parts := strings.Split(d, "/")
	for i, c := range parts {
		if (c == "dev" || c == "proc") && (i == 0 || slices.Contains(parts[:i], "..")) {
			return true
		}
	}
	return false
}
