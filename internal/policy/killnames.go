package policy

import (
	"path"
	"regexp"
	"slices"
	"strings"
)

// Signalling warden itself, or what the host's access depends on. kill
// takes process ids, and $PPID is the shell's parent: warden, or the
// runner that started the shell. pkill's (and killall -r's) operand is an
// extended regular expression matched anywhere in a process's name, or
// with -f its whole command line, so pkill ward, pkill 'w.rden' and
// pkill -f serve all reach warden, as pkill warden does.

// keptNames are the process names killProgram holds a kill of to tier 3;
// keptCmdlines are command lines of theirs, for -f.
var (
	keptNames    = []string{"warden", "sshd", "dropbear", "systemd-journal", "systemd-journald", "dbus-daemon"}
	keptCmdlines = []string{"warden serve", "/usr/local/bin/warden serve", "sshd: root@pts/0", "/usr/sbin/sshd -D",
		"/usr/sbin/dropbear -F", "/usr/bin/dbus-daemon --system"}
)

// killsKept says why a kill, pkill, killall -r or skill may signal one of
// keptNames, or returns "".
func killsKept(c *call) string {
	vals := c.vals()
	if c.name == "kill" {
		for _, a := range c.args {
			if mayBeWarden(a) {
				return "kill " + truncate(a.val, 64) + ": signals the shell's parent, warden itself or the runner that started it"
			}
			// kill $(pidof sshd), kill `pgrep dropbear`: as pkill sshd.
			if w := substWords(a); len(w) > 1 && (path.Base(w[0]) == "pidof" || path.Base(w[0]) == "pgrep") {
				for _, n := range w[1:] {
					if slices.Contains(keptNames, n) {
						return "kill " + truncate(a.val, 64) + ": kills " + n
					}
				}
			}
		}
		return ""
	}
	regex := c.name == "pkill" || c.name == "pgrep" || c.name == "killall" && (hasFlag(vals, 'r', "--regexp"))
	if !regex {
		return ""
	}
	full := c.name != "killall" && hasFlag(vals, 'f', "--full")
	fold := hasFlag(vals, 'i', "--ignore-case") || c.name == "killall" && hasFlag(vals, 'I', "--ignore-case")
	ended := false // past "--", every word is a pattern
	for _, a := range c.args {
		v := a.val
		if !ended && a.known && v == "--" {
			ended = true
			continue
		}
		if !a.known || v == "" || !ended && strings.HasPrefix(v, "-") {
			continue
		}
		if fold {
			v = "(?i)" + v
		}
		re, err := regexp.Compile(v)
		targets := keptNames
		if full {
			targets = append(append([]string(nil), keptNames...), keptCmdlines...)
		}
		for _, t := range targets {
			if err != nil || re.MatchString(t) {
				return c.name + " " + truncate(a.val, 64) + ": the pattern matches " + t
			}
		}
	}
	return ""
}

// processActors act on the process whose id they are given: its limits,
// priority, CPUs or scheduling, its memory and system calls (tracers,
// debuggers, core dumpers), its namespaces or cgroup.
var processActors = set(`prlimit renice ionice taskset chrt strace ltrace gcore perf reptyr nsenter
	cgclassify gdb lldb pstack bpftrace`)

// actsOnWarden says why a process actor's target may be warden itself
// (mayBeWarden), as kill $PPID's is. prlimit --pid $PPID --nofile=0
// leaves warden unable to open a file; strace -p $PPID reads what it
// reads.
func actsOnWarden(name string, args []arg) string {
	if !processActors[name] {
		return ""
	}
	for _, a := range args {
		if mayBeWarden(a) {
			return name + " " + truncate(a.val, 64) + ": acts on the shell's parent, warden itself or the runner that started it"
		}
	}
	return ""
}

// mayBeWarden reports whether a, a process id known only at run time, may
// be warden's own: $PPID, or one looked up by warden's name
// ($(pidof warden), $(pgrep -f warden)).
func mayBeWarden(a arg) bool {
	u := strings.ToUpper(a.val)
	return !a.known && (strings.Contains(u, "PPID") || strings.Contains(u, "WARDEN"))
}
