package policy

import (
	"path"
	"strings"
)

// A process's root directory is a door to the same files: /proc/1/root/
// is the host's /, and so is /proc/self/root/ for every program warden
// starts. A write through one reaches what the path after it names, so
// the checks that know dangerous files read the path with such prefixes
// taken off (/proc/1/root/proc/sysrq-trigger is /proc/sysrq-trigger).

// hostPath is the clean absolute path p with its /proc/PID/root and
// /proc/PID/task/TID/root prefixes taken off.
func hostPath(p string) string {
	for strings.HasPrefix(p, "/proc/") {
		_, after, ok := strings.Cut(p[len("/proc/"):], "/")
		if !ok {
			return p
		}
		if t, isTask := strings.CutPrefix(after, "task/"); isTask {
			if _, after, ok = strings.Cut(t, "/"); !ok {
				return p
			}
		}
		r, ok := strings.CutPrefix(after, "root")
		if !ok || r != "" && r[0] != '/' {
			return p
		}
		if r == "" {
			r = "/"
		}
		p = r
	}
	return p
}

// powerFileWord returns the power file (powerFiles) a word names, alone
// or as an option's value (--file=…, of=…), in any spelling of its path,
// or "".
func powerFileWord(v string) string {
	if i := strings.IndexByte(v, '='); i >= 0 {
		v = v[i+1:]
	}
	// Cheap first: every power file's name ends in one of these.
	if !strings.HasPrefix(v, "/") || !strings.Contains(v, "sysrq-trigger") && !strings.Contains(v, "state") && !strings.Contains(v, "sleep") {
		return ""
	}
	if c := hostPath(path.Clean(v)); powerFiles[c] != "" {
		return c
	}
	return ""
}
