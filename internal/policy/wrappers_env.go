package policy

import (
	"strings"

	"github.com/warden-mcp/warden/internal/shellword"
)

// envLongOpts are GNU env's long options, for reading abbreviations.
var envLongOpts = []string{"--argv0", "--block-signal", "--chdir", "--debug", "--default-signal", "--help",
	"--ignore-environment", "--ignore-signal", "--list-signal-handling", "--null", "--split-string",
	"--unset", "--version"}

// envProgram peels env(1).
func envProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	var split []string
	var argv0 []arg
	for i < len(args) {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			name = longOpt(name, envLongOpts)
			switch name {
			case "--unset", "--chdir":
				if name == "--chdir" {
					c.e.chdirOpt(args, i, val, has)
				}
				if !has {
					i++
				}
			case "--argv0":
				known := true
				if !has && i+1 < len(args) {
					i++
					val, known = args[i].val, args[i].known
				}
				argv0 = append(argv0, arg{val: val, known: known})
			case "--split-string":
				if !has && i+1 < len(args) {
					i++
					val = args[i].val
				}
				split = append(split, val)
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'u', 'C', 'a':
				if v[j] == 'C' {
					c.e.chdirOpt(args, i, v[j+1:], j < len(v)-1)
				}
				val, known := v[j+1:], true
				if j == len(v)-1 {
					i++
					if i < len(args) {
						val, known = args[i].val, args[i].known
					}
				}
				if v[j] == 'a' {
					argv0 = append(argv0, arg{val: val, known: known})
				}
				j = len(v)
			case 'P':
				return TierDestructive, "env -P: looks the command up in another PATH"
			case 'S':
				s := v[j+1:]
				if s == "" && i+1 < len(args) {
					i++
					s = args[i].val
				}
				split = append(split, s)
				j = len(v)
			}
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	for len(rest) > 0 && rest[0].known && strings.Contains(rest[0].val, "=") {
		n, v, _ := strings.Cut(rest[0].val, "=")
		c.e.envVarCtx(n, v, c.ctx, "env")
		rest = rest[1:]
	}
	if len(split) > 0 {
		text := strings.Join(split, " ")
		for _, r := range rest {
			text += " " + shellword.Quote(r.val)
		}
		c.shell(text, "env -S command", nil, false)
		return TierRead, "env -S"
	}
	if len(rest) == 0 {
		return TierRead, "env: prints the environment"
	}
	c.run(rest)
	c.runAs(argv0, rest[1:])
	return TierRead, "env"
}
