package policy

import (
	"path"
	"strings"
)

// Device nodes: writing into /dev/null is harmless and into a disk is
// denied (blockDevice), but removing, replacing or renaming a node, or
// changing who may open it, takes something every program relies on away
// (/dev/null become a regular file fills with what daemons discard) or
// hands a disk to every local user (chmod 666 /dev/sda, chown bob
// /dev/nvme0n1). Those are TierDestructive. The tmpfs mounts under /dev
// that hold ordinary files (POSIX shared memory, message queues, huge
// pages) are not device nodes.

// nodeChangers change the node of each operand; nodeReplacers only that
// of the last (ln's, install's and rsync's destination, which they
// unlink or rename over).
var (
	nodeChangers  = set(`rm unlink mv chmod chown chgrp chattr setfacl setfattr`)
	nodeReplacers = set(`ln install rsync`)
)

// deviceNodeChange returns why a command named name changes a device
// node among its operands, or "".
func deviceNodeChange(name string, args []arg) string {
	if !nodeChangers[name] && !nodeReplacers[name] {
		return ""
	}
	var ops []string
	for _, a := range args {
		if a.known && a.val != "" && !strings.HasPrefix(a.val, "-") {
			ops = append(ops, a.val)
		}
	}
	if nodeReplacers[name] && len(ops) > 0 {
		ops = ops[len(ops)-1:]
	}
	for _, o := range ops {
		if deviceNode(o) {
			return name + " " + o + ": removes, replaces or re-permits a device node"
		}
	}
	return ""
}

// deviceNode reports whether p names something under /dev other than the
// tmpfs mounts that hold ordinary files.
func deviceNode(p string) bool {
	if !strings.HasPrefix(p, "/") {
		return false
	}
	c := path.Clean(p)
	if !strings.HasPrefix(c, "/dev/") {
		return false
	}
	for _, fs := range []string{"/dev/shm", "/dev/mqueue", "/dev/hugepages"} {
		if c == fs || strings.HasPrefix(c, fs+"/") {
			return false
		}
	}
	return true
}
