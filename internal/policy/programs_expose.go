package policy

import (
	"path"
	"strings"
)

// Servers an agent starts or configures that hand the host to the
// network: a file system exported with remote root kept (no_root_squash)
// or the whole root exported, and dockerd's API (root on the host to
// whoever connects) on a TCP address. sshd on a configuration of the
// agent's is read in programs_inspect.go.

// exportsRoot returns why an exportfs command exports the host away, or
// "": remote root kept as root, or the root file system exported. Words
// computed at run time may be either.
func exportsRoot(c *call) string {
	if !allKnown(c.args) {
		c.e.opaque = true
		return "exportfs: an export computed at run time can keep remote root or export /"
	}
	for _, v := range c.vals() {
		if strings.Contains(v, "no_root_squash") {
			return "exportfs no_root_squash: root on any client is root on the export"
		}
		if _, dir, ok := strings.Cut(v, ":/"); ok && !strings.HasPrefix(v, "-") && path.Clean("/"+dir) == "/" {
			return "exportfs " + v + ": exports the whole root file system"
		}
	}
	return ""
}

// dockerdProgram classifies starting dockerd by hand: on a TCP address
// (-H/--host tcp://… or HOST:PORT) its API, which runs containers as root
// with the host's file system mounted, answers the network; other
// starts are a daemon started, TierMutate.
func dockerdProgram(c *call) (Tier, string) {
	for _, h := range c.optVals(c.args, "-H", "--host") {
		if !h.known || !strings.HasPrefix(h.val, "unix://") && !strings.HasPrefix(h.val, "fd://") {
			c.e.opaque = c.e.opaque || !h.known
			return TierDestructive, "dockerd -H " + truncate(h.val, 64) + ": serves the Docker API, root on the host, on a network address"
		}
	}
	return TierMutate, "dockerd: starts the Docker daemon"
}
