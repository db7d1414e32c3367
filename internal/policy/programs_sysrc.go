package policy

import "strings"

// sysrcRead is the option set of sysrc's reads: -f FILE, -R DIR and
// -j JAIL are left out, since sysrc sources the rc.conf files it reads as
// shell text (a file of any origin, another root's or a jail's), and -x
// deletes.
var sysrcRead = optSpec{flags: "aAcdDeEFhinNqv", valueShort: "s"}

// sysrcProgram classifies FreeBSD's sysrc: listing (-a, -A) and reading
// names is tier 0, as is checking a NAME=VALUE with -c; assigning
// (NAME=VALUE, NAME+=V, NAME-=V) or deleting changes rc.conf.
func sysrcProgram(c *call) (Tier, string) {
	ops, seen, ok := c.readOpts(sysrcRead)
	if ok && !strings.Contains(seen, "c") {
		for _, o := range ops {
			if strings.Contains(o, "=") {
				ok = false
			}
		}
	}
	if ok {
		return TierRead, "sysrc: reads rc.conf"
	}
	return TierMutate, "sysrc: changes rc.conf or reads a file, root or jail named"
}
