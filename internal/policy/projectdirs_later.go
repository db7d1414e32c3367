package policy

import (
	"path"
	"strings"
)

// Settings that name a file something runs later, as root or as another
// user, outside warden's confinement: a login shell (chsh -s, usermod -s,
// useradd -s), a home or skeleton directory whose dot files a login runs,
// the dynamic linker's library directories (ldconfig DIR, ldconfig -f
// FILE: every program then loads libraries found there), an
// alternative's target (update-alternatives: /usr/bin/editor then runs
// it), npm's and yarn's script shell, the editor, pager, browser or
// credential program gh, glab, kubectl and aws config set stores. Naming
// one under a temporary directory, or one known only at run time, is
// tier 3 as a build there is (projectdirs.go): open mode would otherwise have root run later what
// the agent wrote, unapproved.

// laterOpts are the options naming such a file or directory.
var laterOpts = map[string][]string{
	"chsh":     {"-s", "--shell"},
	"usermod":  {"-s", "--shell", "-d", "--home"},
	"useradd":  {"-s", "--shell", "-d", "--home-dir", "-k", "--skel", "-b", "--base-dir"},
	"adduser":  {"--shell", "--home"},
	"ldconfig": {"-f"},
}

// laterCode raises the tier t of call c to tier 3 when c names a file run
// later that the agent may have written.
func (c *call) laterCode(t Tier, why string) (Tier, string) {
	return c.agentCode(t, why, "names what runs later outside warden's confinement", c.laterAgent)
}

// laterDenied refuses a program a CLI's config set stores for its later
// runs (npm's script shell, gh's pager, kubectl's exec credential plugin)
// when the deny rules refuse it: every later run starts it. program asks
// it of every call, whichever way the call is then classified.
func (c *call) laterDenied() {
	var progs []arg
	switch c.name {
	case "npm", "yarn", "pnpm":
		progs = c.scriptShell()
	case "gh", "glab", "kubectl", "aws":
		progs = c.configSetPrograms()
	default:
		return
	}
	var lines []string
	for _, p := range progs {
		if p.known && p.val != "" {
			lines = append(lines, p.val)
		}
	}
	c.e.runsDenied(lines, c.ctx, c.name+" config: every later run")
}

// laterAgent says why a file c names to be run later may be one the agent
// wrote, or returns "".
func (c *call) laterAgent() string {
	var places []arg
	if opts, ok := laterOpts[c.name]; ok {
		places = c.optVals(c.args, opts...)
	}
	switch c.name {
	case "ldconfig":
		// Its operands are library directories, added to the cache
		// unless -n or -N leaves the cache alone.
		if !hasFlag(c.vals(), 'n', "") && !hasFlag(c.vals(), 'N', "") {
			places = append(places, c.operandArgs("frC")...)
		}
	case "update-alternatives", "alternatives":
		places = append(places, c.alternativeTargets()...)
	case "npm", "yarn", "pnpm":
		places = append(places, c.scriptShell()...)
	case "gh", "glab", "kubectl", "aws":
		for _, p := range c.configSetPrograms() {
			if f := strings.Fields(p.val); p.known && c.name != "kubectl" && len(f) > 0 {
				p.val = f[0] // the program of a command line
			}
			places = append(places, p)
		}
	case "rustup", "asdf", "mise", "rtx", "pyenv", "rbenv", "nodenv", "goenv", "jenv", "plenv", "phpenv":
		places = append(places, c.toolchainPlaces()...)
	}
	for _, p := range places {
		switch {
		case !p.known:
			return truncate(p.val, 64) + " is known only at run time"
		case strings.HasPrefix(p.val, "/"):
			if agentDir(p.val) || agentDir(path.Dir(p.val)) {
				return truncate(p.val, 64) + " is under a temporary directory"
			}
		case climbs(p.val):
			return "the relative " + truncate(p.val, 64) + " climbs out of the directory it is taken from"
		case c.e.paths != nil:
			if where := c.projectDirsAgent([]arg{{val: ".", known: true}}); where != "" {
				return "the relative " + truncate(p.val, 64) + " is where " + strings.TrimPrefix(where, "its ")
			}
		}
	}
	return ""
}

// operandArgs are c's words that are not options or the values of its
// short options valued.
func (c *call) operandArgs(valued string) []arg {
	var out []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch {
		case a.known && a.val == "--":
			return append(out, c.args[i+1:]...)
		case a.known && len(a.val) > 1 && a.val[0] == '-':
			if j := strings.IndexAny(a.val[1:], valued); j >= 0 && j+2 == len(a.val) && !strings.HasPrefix(a.val, "--") {
				i++
			}
		default:
			out = append(out, a)
		}
	}
	return out
}

// alternativeTargets are the files update-alternatives makes a link run:
// --install LINK NAME PATH PRIORITY, --slave LINK NAME PATH, --set NAME
// PATH, and the directories --altdir and --admindir put the links and
// their database in. --set-selections reads them from its input.
func (c *call) alternativeTargets() []arg {
	var out []arg
	for i, a := range c.args {
		if !a.known {
			continue
		}
		at := func(n int) {
			if i+n < len(c.args) {
				out = append(out, c.args[i+n])
			}
		}
		switch v, val, _ := strings.Cut(a.val, "="); v {
		case "--install", "--slave":
			at(3)
		case "--set":
			at(2)
		case "--altdir", "--admindir":
			if val != "" {
				out = append(out, arg{val: val, known: true})
			} else {
				at(1)
			}
		case "--set-selections":
			if c.ctx.stdin.kind != stdinText {
				out = append(out, arg{val: "standard input"})
			}
		}
	}
	return out
}

// scriptShell is the shell npm, yarn or pnpm config set gives the
// scripts they run (script-shell, shell) and the other programs they
// start from their configuration (git, editor, browser, viewer).
func (c *call) scriptShell() []arg {
	ops := c.operandArgs("")
	if len(ops) < 3 || !ops[0].known || ops[0].val != "config" || !ops[1].known || ops[1].val != "set" {
		return nil
	}
	var out []arg
	for i := 2; i < len(ops); i++ {
		key, val, hasVal := strings.Cut(ops[i].val, "=")
		if !ops[i].known {
			out = append(out, ops[i])
			continue
		}
		switch strings.TrimPrefix(key, "--") {
		case "script-shell", "scriptShell", "shell", "git", "editor", "browser", "viewer":
			if hasVal {
				out = append(out, arg{val: val, known: true})
			} else if i+1 < len(ops) {
				out = append(out, ops[i+1])
			}
		}
	}
	return out
}
