package policy

import (
	"fmt"
	"strings"
)

// sudoLongOpts are sudo's long options, for reading abbreviations.
var sudoLongOpts = []string{"--askpass", "--background", "--bell", "--chdir", "--chroot", "--close-from",
	"--command-timeout", "--edit", "--group", "--help", "--host", "--list", "--login", "--non-interactive",
	"--other-user", "--preserve-env", "--preserve-groups", "--prompt", "--remove-timestamp",
	"--reset-timestamp", "--role", "--set-home", "--shell", "--stdin", "--type", "--user", "--validate",
	"--version", "--disable-interactive"}

// sudoProgram peels sudo, doas and pkexec.
func sudoProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	shellMode, editMode, listMode, loginMode := false, false, false, false
	var roots []arg // sudo -R: the command runs in that root
	valueShort := "CDghpRrtTUu"
	valueLong := map[string]bool{"--chdir": true, "--close-from": true, "--group": true, "--host": true,
		"--prompt": true, "--chroot": true, "--role": true, "--type": true, "--command-timeout": true,
		"--other-user": true, "--user": true}
	switch c.name {
	case "doas":
		valueShort = "uC"
	case "pkexec":
		valueShort = ""
		valueLong = map[string]bool{"--user": true}
	}
	for i < len(args) {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, _, has := strings.Cut(v, "=")
			name = longOpt(name, sudoLongOpts)
			switch name {
			case "--shell", "--login":
				shellMode = true
				loginMode = loginMode || name == "--login" && c.name == "sudo"
			case "--edit":
				editMode = true
			case "--list", "--validate", "--version", "--help", "--reset-timestamp", "--remove-timestamp":
				listMode = true
			}
			if name == "--chdir" && c.name == "sudo" {
				_, val, _ := strings.Cut(v, "=")
				c.e.chdirOpt(args, i, val, has)
			}
			if name == "--chroot" && c.name == "sudo" {
				roots = append(roots, optValue(args, i, v, "=", has))
			}
			if valueLong[name] && !has {
				i++
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			f := v[j]
			switch f {
			case 's', 'i':
				shellMode = true
				loginMode = loginMode || f == 'i' && c.name == "sudo"
			case 'e':
				editMode = c.name == "sudo"
			case 'l', 'v', 'V', 'k', 'K', 'L':
				listMode = true
			}
			if strings.IndexByte(valueShort, f) >= 0 {
				if f == 'D' && c.name == "sudo" {
					c.e.chdirOpt(args, i, v[j+1:], j < len(v)-1)
				}
				if f == 'R' && c.name == "sudo" {
					roots = append(roots, optValue(args, i, v, v[:j+1], j < len(v)-1))
				}
				if j == len(v)-1 {
					i++
				}
				break
			}
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	// sudo VAR=value cmd sets the variable for cmd.
	for len(rest) > 0 && rest[0].known && strings.Contains(rest[0].val, "=") && validName(strings.SplitN(rest[0].val, "=", 2)[0]) && c.name == "sudo" {
		n, v, _ := strings.Cut(rest[0].val, "=")
		c.e.envVarCtx(n, v, c.ctx, "sudo")
		rest = rest[1:]
	}
	own := args[:i]
	c.e.noteRoots(roots)
	c.runsAs(wrapperUser(c.name, own))
	if loginMode {
		// sudo -i runs the target user's login shell, which reads its
		// profile and, for bash, its rc file.
		c.startupCode(append(append([]string(nil), profileFiles...), bashrcFiles...), true)
	}
	switch {
	case editMode:
		return TierMutate, "sudoedit: edits files as root"
	case shellMode && len(rest) == 0:
		c.shellInput()
		return TierDestructive, c.name + ": opens a root shell"
	case shellMode:
		c.loginShell(strings.Join(argVals(rest), " "), c.name+" -s command")
		if !allKnown(rest) {
			c.e.opaque = true
			return TierDestructive, c.name + ": shell command computed at run time"
		}
		return TierRead, c.name
	case len(rest) == 0 && listMode:
		return TierRead, c.name + ": lists or refreshes privileges"
	case len(rest) == 0 && c.name == "pkexec":
		c.shellInput()
		return TierDestructive, "pkexec: opens a root shell"
	case len(rest) == 0 && c.name == "sudo":
		// Where sudoers sets shell_noargs, sudo with no command runs
		// the target user's shell, as -s does.
		c.shellInput()
		return TierDestructive, "sudo with no command: opens its target user's shell where sudoers sets shell_noargs"
	case len(rest) == 0:
		return TierRead, c.name + " with no command"
	}
	c.run(rest)
	return c.agentRoot(TierRead, c.name, roots)
}

// optValue returns the value of the option args[i], whose word v holds
// it after sep when attached, or else the next word.
func optValue(args []arg, i int, v, sep string, attached bool) arg {
	if attached {
		_, val, _ := strings.Cut(v, sep)
		return arg{val: val, known: args[i].known, glob: args[i].glob}
	}
	if i+1 < len(args) {
		return args[i+1]
	}
	return arg{val: "", known: true}
}

// shellInput classifies what a shell opened without a command (sudo -s,
// pkexec, su, fakeroot, script) reads as its commands: the call's input,
// when it is text (sudo -s <<< reboot runs reboot). The call is tier 3
// either way; this finds what the deny list refuses in it.
func (c *call) shellInput() {
	switch c.ctx.stdin.kind {
	case stdinText:
		c.shell(c.ctx.stdin.text, c.name+" input", nil, false)
	case stdinUnknown:
		c.e.opaque = true
	}
}

// stdinProgram classifies a shell or interpreter that reads its program
// from standard input.
func (c *call) stdinProgram(what string) (Tier, string) {
	switch c.ctx.stdin.kind {
	case stdinText:
		if c.ctx.stdin.text == "" {
			return TierRead, what + ": empty input"
		}
		c.shell(c.ctx.stdin.text, what+" input", nil, false)
		return TierRead, what
	case stdinUnknown:
		c.e.opaque = true
		return TierDestructive, what + " runs commands from input the classifier cannot see"
	}
	// Lines typed into a local shell would share a daemon client's socket;
	// a remote one (ssh's, named for its host) runs them elsewhere.
	c.e.noteLoader(what, what == c.name)
	return TierBenign, fmt.Sprintf("%s: interactive shell; lines sent to it are classified one by one", what)
}
