package policy

// python -m MODULE puts the working directory first on sys.path (as -c
// does), so python3 -m json.tool imports json from ./json.py when there
// is one: cd /tmp/x && python3 -m json.tool f runs what a tier 1 write put
// in /tmp/x, unconfined on an SSH host. The read forms of -m (json.tool,
// pip list) stay reads with -I or -P, which leave the directory out, or
// where the directory is known and not one the agent can write without
// approval; a directory the input makes a temporary one, or makes
// unknown, runs the modules it may hold.

// pyModuleFlags are the interpreter options a -m read form may follow.
var pyModuleFlags = set(`-I -P -E -s -S -B -q -u -O -OO -b -bb`)

// pyCwdModules says why a python -m read form, whose words before -m are
// lead, may import modules from the working directory, or returns "".
func (c *call) pyCwdModules(lead []string) string {
	for _, f := range lead {
		if f == "-I" || f == "-P" {
			return ""
		}
	}
	return c.e.agentCwd()
}
