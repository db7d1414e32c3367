package policy

import (
	"path"
	"strings"
)

// agentProgram says why the program c runs by its path may be a file an
// unapproved (tier 1) call wrote, or returns "": the path passes through a
// temporary directory (/tmp/ls, /var/tmp/x/bin/ps, /tmp/x/../../bin/ls,
// where /tmp/x may be a link), a descriptor (/dev/fd/3, /proc/self/fd/3),
// or a working directory the input makes one (cd /tmp && ./ls). Such a
// program is whatever that call put there, so its name says nothing:
// open mode, and on a plain SSH host any mode, would otherwise run it at
// the tier of the program it is named after.
func (c *call) agentProgram() string {
	return c.programFileAgent(c.path)
}

// programFileAgent is agentProgram for the program file p, run or loaded
// by another (ld.so --list PROG).
func (c *call) programFileAgent(p string) string {
	if strings.HasPrefix(p, "/") {
		return agentPath(p)
	}
	if c.e.paths == nil || strings.HasPrefix(p, "~") {
		return "" // where relative ones lead is not followed; ~ is a home
	}
	if where := c.projectDirsAgent([]arg{{val: path.Dir(p), known: true}}); where != "" {
		return "is relative to a directory where " + strings.TrimPrefix(strings.Replace(where, "project directory", "directory", 1), "its ")
	}
	return ""
}
