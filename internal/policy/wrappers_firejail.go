package policy

import (
	"path"
	"strings"
)

// firejailLists are firejail options that list or print and run nothing
// (as are the --*.print options).
var firejailLists = set(`--list --tree --top --netstats --nettrace --version --help -? --debug-caps
	--debug-errnos --debug-protocols --debug-syscalls --debug-syscalls32 --ls --cat`)

// firejailActs are firejail options that act on another sandbox or copy
// files in and out of one; the words after them are their operands.
var firejailActs = set(`--shutdown --bandwidth --put --get --overlay-clean`)

// firejailJoins run the program, or a shell, in another sandbox.
var firejailJoins = set(`--join --join-or-start --join-network --join-filesystem`)

// firejailProgram classifies firejail [OPTIONS] [PROGRAM [ARGS]]. Every
// option is one word, --name or --name=value, and firejail is setuid
// root, so its options reach past the sandbox: --output, --trace=FILE and
// --build=FILE write files, --env sets the program's environment, --shell,
// --audit=PROGRAM and a profile file choose code it runs, the --join
// options run in another sandbox, and --shutdown, --bandwidth, --put,
// --get and --overlay-clean act on one. Without a program it opens a
// shell in the sandbox, unless an option only lists or acts.
func firejailProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "firejail"}
	args := c.args
	listing, acting, join := false, false, false
	i := 0
	for ; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if v == "-c" {
			// The rest is a command line for the shell (firejail as a login shell).
			rest := args[i+1:]
			if !allKnown(rest) {
				c.e.opaque = true
				return TierDestructive, "firejail -c: shell command computed at run time"
			}
			c.shell(strings.Join(argVals(rest), " "), "firejail -c command", nil, false)
			return r.t, r.why
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		name, val, hasVal := strings.Cut(v, "=")
		what := "firejail " + name
		if name == "--private-cwd" && hasVal {
			c.e.chdirOpt(args, i, val, true) // the command runs there
		}
		if name == "--bind" || name == "--bind-try" {
			if src, dst, ok := strings.Cut(val, ","); ok {
				c.e.bindAlias(arg{val: src, known: true}, arg{val: dst, known: true})
			}
		}
		switch {
		case firejailLists[name] || strings.HasSuffix(name, ".print"):
			listing = true
		case firejailActs[name]:
			acting = true
			r.raise(TierMutate, what+": acts on another sandbox or copies its files")
		case firejailJoins[name]:
			join = true
			r.raise(TierMutate, what+": runs in another sandbox")
		case name == "--output" || name == "--output-stderr" || hasVal && (name == "--trace" || name == "--build" || name == "--dbus-log"):
			r.raise(c.writeArg(arg{val: val, known: true}, what))
		case name == "--env":
			n, ev, _ := strings.Cut(val, "=")
			c.e.envVarCtx(n, ev, c.ctx, what)
		case name == "--shell" && val != "none" && !posixShells[path.Base(val)], name == "--audit" && hasVal:
			r.raise(TierDestructive, what+": runs "+truncate(val, 64))
		case (name == "--profile" || name == "--include") && strings.Contains(val, "/"):
			r.raise(TierDestructive, what+": a profile file can set the environment and run programs")
		case name == "--chroot" && c.rootAgent([]arg{{val: val, known: true}}) != "":
			c.e.opaque = true
			r.raise(TierDestructive, what+": runs the programs of the root it names, and "+c.rootAgent([]arg{{val: val, known: true}}))
		case name == "--chroot", name == "--private" && hasVal, name == "--overlay", name == "--overlay-named",
			name == "--cgroup", name == "--net" && val != "none", name == "--nice" && strings.HasPrefix(val, "-"):
			r.raise(TierMutate, what+": changes the system beyond the sandbox")
		}
	}
	rest := args[i:]
	if listing || acting {
		return r.t, r.why
	}
	if len(rest) == 0 {
		if join {
			return TierDestructive, "firejail --join: opens a shell in another sandbox"
		}
		return TierDestructive, "firejail: opens a shell in a sandbox"
	}
	c.run(rest)
	return r.t, r.why
}
