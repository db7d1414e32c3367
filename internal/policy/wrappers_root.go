package policy

import (
	"slices"
	"strings"
)

// bwrapValues is how many words follow each bubblewrap option that takes
// any; bwrap reads options only as whole words.
var bwrapValues = map[string]int{
	"--args": 1, "--userns": 1, "--userns2": 1, "--pidns": 1, "--uid": 1, "--gid": 1, "--hostname": 1,
	"--chdir": 1, "--unsetenv": 1, "--lock-file": 1, "--sync-fd": 1, "--remount-ro": 1, "--exec-label": 1,
	"--file-label": 1, "--proc": 1, "--dev": 1, "--tmpfs": 1, "--mqueue": 1, "--dir": 1, "--seccomp": 1,
	"--add-seccomp-fd": 1, "--block-fd": 1, "--userns-block-fd": 1, "--info-fd": 1, "--json-status-fd": 1,
	"--cap-add": 1, "--cap-drop": 1, "--perms": 1, "--size": 1, "--argv0": 1,
	"--setenv": 2, "--bind": 2, "--bind-try": 2, "--dev-bind": 2, "--dev-bind-try": 2, "--ro-bind": 2,
	"--ro-bind-try": 2, "--bind-fd": 2, "--ro-bind-fd": 2, "--file": 2, "--bind-data": 2,
	"--ro-bind-data": 2, "--symlink": 2, "--chmod": 2, "--overlay-src": 1, "--overlay": 3,
	"--tmp-overlay": 1, "--ro-overlay": 1,
}

// bwrapWritable are the bubblewrap options that mount a host path
// writable somewhere else: a write the command makes under /tmp in its
// view then lands outside it, so paths no longer mean what they say.
var bwrapWritable = set(`--bind --bind-try --dev-bind --dev-bind-try --bind-fd --overlay`)

// bwrapProgram classifies bwrap [OPTIONS] PROGRAM [ARGS]: the program
// with --setenv's variables, tier 2 when a writable bind remaps paths.
func bwrapProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "bwrap"}
	args := c.args
	i := 0
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
		if !strings.HasPrefix(v, "--") {
			break
		}
		n := bwrapValues[v]
		if i+n >= len(args) {
			return TierRead, "bwrap with no command"
		}
		switch {
		case bwrapWritable[v]:
			r.raise(TierMutate, "bwrap "+v+": mounts a host path writable elsewhere")
		case v == "--args":
			c.e.opaque = true
			r.raise(TierDestructive, "bwrap --args: reads more arguments from a descriptor")
		case v == "--setenv":
			c.e.envVarCtx(args[i+1].val, args[i+2].val, c.ctx, "bwrap --setenv")
		case v == "--chdir":
			c.e.chdirOpt(args, i, "", false) // the command runs there
		}
		if n == 2 && strings.Contains(v, "bind") {
			c.e.bindAlias(args[i+1], args[i+2]) // --ro-bind /etc /mnt/e
		}
		if n == 2 && (strings.Contains(v, "bind") || v == "--symlink") || v == "--overlay-src" {
			dst := args[i+1]
			if n == 2 {
				dst = args[i+2]
			}
			if why := c.systemBindAgent(args[i+1], dst, v == "--overlay-src"); why != "" {
				c.e.opaque = true
				r.raise(TierDestructive, "bwrap "+v+": "+why)
			}
		}
		i += 1 + n
	}
	if i >= len(args) {
		return TierRead, "bwrap with no command"
	}
	c.run(args[i:])
	return r.t, r.why
}

// prootProgram classifies proot [OPTIONS] [PROGRAM [ARGS]]: without a
// program it runs /bin/sh; -r and -b remap paths like a chroot and a
// bind mount; -q runs every program through an emulator it names.
func prootProgram(c *call) (Tier, string) {
	r := raiser{TierRead, "proot"}
	args := c.args
	values := "rbmqwkivRS"
	longValues := []string{"--rootfs", "--bind", "--mount", "--qemu", "--pwd", "--cwd", "--kernel-release",
		"--change-id", "--verbose"}
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
		if len(v) < 2 || v[0] != '-' {
			break
		}
		name, val, hasVal := strings.Cut(v, "=")
		letter := byte(0)
		if strings.HasPrefix(v, "--") {
			name = longOpt(name, longValues)
			if !hasVal && slices.Contains(longValues, name) && i+1 < len(args) {
				i++
				val = args[i].val
			}
			letter = map[string]byte{"--rootfs": 'r', "--bind": 'b', "--mount": 'b', "--qemu": 'q', "--pwd": 'w', "--cwd": 'w'}[name]
		} else {
			letter = v[1]
			val = v[2:]
			if val == "" && strings.IndexByte(values, letter) >= 0 && i+1 < len(args) {
				i++
				val = args[i].val
			}
		}
		switch letter {
		case 'r', 'R', 'S':
			r.raise(TierMutate, "proot -"+string(letter)+": runs the program in another root")
			if where := c.rootAgent([]arg{{val: val, known: true}}); where != "" {
				c.e.opaque = true
				r.raise(TierDestructive, "proot -"+string(letter)+": runs the programs of the root it names, and "+where)
			}
		case 'b':
			r.raise(TierMutate, "proot -b: binds a host path elsewhere")
			src, dst, ok := strings.Cut(val, ":")
			if !ok {
				dst = src
			}
			if why := c.systemBindAgent(arg{val: src, known: true}, arg{val: dst, known: true}, false); why != "" {
				c.e.opaque = true
				r.raise(TierDestructive, "proot -b: "+why)
			}
		case 'q':
			r.raise(TierDestructive, "proot -q: runs every program through "+truncate(val, 64))
		case 'w':
			// The program starts there, as after cd DIR.
			if c.e.pathsFor() != nil {
				c.e.cdTo(arg{val: val, known: true})
			}
		}
	}
	if i >= len(args) {
		return TierDestructive, "proot: opens a shell"
	}
	c.run(args[i:])
	return r.t, r.why
}
