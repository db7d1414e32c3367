package policy

import (
	"fmt"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// maxArgCommands is how many of an unknown program's arguments are tried
// as the start of a command it may run.
const maxArgCommands = 16

// argCommand is what an unknown program may run. Many programs the
// classifier does not know run the command in their arguments (runcon
// CONTEXT CMD, schroot -c X -- CMD, toolbox run CMD, nsjail -- CMD), and
// nothing tells those from a program that only takes the words as data
// (qm reboot 100). Each argument that names a program the classifier knows
// starts a command that is classified alone, and each that holds a whole
// command line ("reboot now", --cmd='rm -rf /srv') is classified as one: if
// it would be denied or is tier 3, so is the call. It is not denied: a
// person judges it, where the program's plain tier, 2, would run it unasked
// in open mode.
func (c *call) argCommand() (Tier, string) {
	// A program whose grammar is known runs exactly its command, which
	// meets the deny rules; the guess below still reads the other words.
	if t, why, ok := c.subCommand(); ok && t == TierDestructive {
		return t, why
	}
	tries := 0
	var vals []string
	for k, a := range c.args {
		if !a.known && a.val != "" {
			if v, ok := unknownRunOpt(a, nil); ok {
				opt, _, _ := strings.Cut(a.val, "=")
				return c.runOptCommand(opt, v)
			}
		}
		if !a.known && strings.ContainsAny(a.val, " \t") {
			// A command line with a computed part ("reboot $X",
			// "ProxyCommand /sbin/reboot <$(tty)"): its literal text
			// meets the deny list's text scan.
			if why := c.textDenied(a.val); why != "" {
				return TierDestructive, fmt.Sprintf("unknown program %q may run the command line in its arguments, computed in part (denied: %s)", truncate(c.name, 64), truncate(why, 160))
			}
		}
		if !a.known || a.val == "" {
			continue
		}
		if d := deviceOperand(a.val); d != "" {
			return TierDestructive, fmt.Sprintf("unknown program %q is given %s, which it may write", truncate(c.name, 64), truncate(d, 64))
		}
		line, isLine := commandLine(a.val)
		if strings.ContainsAny(a.val, "(\"'`{! ") {
			// Code, or a command line in a grammar of the program's own
			// (-e 'system("reboot")', --eval '(system "reboot")', r2's
			// '!reboot', duckdb's '.shell reboot'): the text scan finds
			// what the deny list refuses in it.
			if why := c.textDenied(a.val); why != "" {
				return TierDestructive, fmt.Sprintf("unknown program %q may run the code in its arguments (denied: %s)", truncate(c.name, 64), truncate(why, 160))
			}
		}
		if v, ok := unknownRunOpt(a, c.args[k+1:]); ok || runSetting(a, &v) {
			if tries++; tries > maxArgCommands {
				return TierDestructive, fmt.Sprintf("unknown program %q: too many of its arguments name programs to check what it may run", truncate(c.name, 64))
			}
			opt, _, _ := strings.Cut(a.val, "=")
			if t, why := c.runOptCommand(opt, v); t == TierDestructive {
				return t, why
			}
		}
		if cmd, ok := pipeOutput(a.val); ok {
			if t, why := c.pipeCommand(cmd); t == TierDestructive {
				return t, why
			}
		}
		if a.val[0] == '-' && !isLine {
			continue
		}
		if !isLine && !namesProgram(a.val) {
			continue
		}
		if tries++; tries > maxArgCommands {
			return TierDestructive, fmt.Sprintf("unknown program %q: too many of its arguments name programs to check what it may run", truncate(c.name, 64))
		}
		if isLine {
			if t, why := c.lineCommand(line); t == TierDestructive {
				return t, why
			}
			continue
		}
		name := path.Base(a.val)
		if vals == nil {
			vals = c.vals()
		}
		if why := denyCheck(name, vals[k+1:]); why != "" {
			return TierDestructive, fmt.Sprintf("unknown program %q may run the command in its arguments (denied: %s)", truncate(c.name, 64), why)
		}
		sub := c.e.fork()
		ctx := c.ctx
		ctx.inArgs = true
		sub.simple(c.args[k:], ctx, "")
		sub.settleScriptRuns()
		why := sub.reason
		if sub.denied {
			why = "denied: " + sub.denyWhy
		} else {
			c.e.keepUnseen(sub, strings.Join(vals[k:], " "), sub.opaque)
		}
		t := sub.tier
		if sub.denied {
			t = TierDestructive
		}
		sub.release()
		if t == TierDestructive {
			return t, fmt.Sprintf("unknown program %q may run the command in its arguments (%s)", truncate(c.name, 64), truncate(why, 160))
		}
	}
	return TierMutate, ""
}

// deviceOperand returns the block device (or raw memory, or a kernel
// trigger file or parameter) an unknown program's argument names, as an operand, an
// option's value after "=", or a short option's attached value
// (turbostat --out /dev/sda, hwinfo --log=/dev/sda, qrencode -o/dev/sda),
// or "". Nothing tells a program that reads it from one that writes it.
func deviceOperand(v string) string {
	cands := []string{v}
	if strings.HasPrefix(v, "-") {
		if _, val, ok := strings.Cut(v, "="); ok {
			cands = append(cands, val)
		}
		if len(v) > 2 && v[1] != '-' {
			cands = append(cands, v[2:])
		}
	}
	for _, c := range cands {
		if blockTarget(c) || kernelTrigger(c) {
			return c
		}
	}
	return ""
}

// kernelTrigger reports whether p is a /proc file whose write acts on the
// whole machine: the SysRq trigger, or a kernel parameter under /proc/sys
// (core_pattern, modprobe, sysrq).
func kernelTrigger(p string) bool {
	p = path.Clean(p)
	return p == "/proc/sysrq-trigger" || strings.HasPrefix(p, "/proc/sys/")
}

// commandLine reports whether an argument holds a whole command line
// rather than one word — blanks or shell operators: "reboot now",
// "(poweroff)", or an option's value such as --cmd='rm -rf /srv'. Such a
// program may hand the text to a shell.
func commandLine(v string) (string, bool) {
	if v[0] == '-' {
		i := strings.IndexByte(v, '=')
		if i < 0 {
			return "", false
		}
		v = v[i+1:]
	}
	if !strings.ContainsAny(v, " \t\n;&|()<>`") {
		return "", false
	}
	return v, true
}

// namesProgram reports whether s names a program the classifier knows or
// one the deny list is about.
func namesProgram(s string) bool {
	name := path.Base(s)
	return powerPrograms[name] || fsWipers[name] || denyTriggers[name] || strings.HasPrefix(name, "mkfs") || knownName(name)
}

// lineCommand classifies a command line an unknown program may hand to a
// shell. Text that does not parse is not looked into: a shell given it
// would run nothing.
func (c *call) lineCommand(line string) (Tier, string) {
	if _, err := syntax.NewParser().Parse(strings.NewReader(line), ""); err != nil {
		return TierMutate, ""
	}
	sub := c.e.fork()
	ctx := c.ctx
	ctx.inArgs = true
	ctx.nest++
	sub.script(line, ctx, "argument")
	sub.settleScriptRuns()
	why, t := sub.reason, sub.tier
	if sub.denied {
		why, t = "denied: "+sub.denyWhy, TierDestructive
	} else {
		c.e.keepUnseen(sub, line, sub.opaque)
	}
	sub.release()
	if t < TierDestructive {
		return TierMutate, ""
	}
	return TierDestructive, fmt.Sprintf("unknown program %q may run the command line in its arguments (%s)", truncate(c.name, 64), truncate(why, 160))
}

// knownName reports whether the classifier has a table entry or a handler
// for a program name.
func knownName(name string) bool {
	if _, ok := knownPrograms[name]; ok {
		return true
	}
	_, h := normalised(name)
	return h != nil
}

// runSetting reports whether a is a NAME=VALUE setting (no dash) whose
// name says its value is a command, as ssh's -o ProxyCommand=CMD and the
// like that other programs pass on spell it, and sets *v to the value.
func runSetting(a arg, v *arg) bool {
	name, val, ok := strings.Cut(a.val, "=")
	if !ok || name == "" || val == "" || strings.HasPrefix(name, "-") || strings.ContainsAny(name, " $`\"'") {
		return false
	}
	l := strings.ToLower(name)
	if !strings.HasSuffix(l, "command") && !strings.HasSuffix(l, "cmd") {
		return false
	}
	*v = arg{val: val, known: a.known}
	return true
}

// textDenied returns why the deny list's text scan refuses text, seen
// aside from the call, or "".
func (c *call) textDenied(text string) string {
	sub := c.e.fork()
	defer sub.release()
	sub.scanText(text)
	if sub.denied {
		return sub.denyWhy
	}
	return ""
}
