package policy

import (
	"path"
	"strings"
)

// mdadmDestructive are mdadm's long options that stop, fail, remove,
// rebuild or rewrite arrays and their metadata; mdadmMutate those that
// assemble, add, change an array's state, write files (--dump) or watch
// arrays and act on events (--monitor, --program, --mail).
var (
	mdadmDestructive = []string{"--create", "--stop", "--fail", "--remove", "--grow", "--build", "--zero-superblock",
		"--kill-subarray", "--update-subarray", "--restore", "--replace", "--set-faulty",
		// --force assembles an array from members whose event counts
		// disagree, marking stale data current: as -f is.
		"--force"}
	mdadmMutate = []string{"--assemble", "--add", "--add-spare", "--add-journal", "--manage", "--re-add", "--run",
		"--readonly", "--readwrite", "--incremental", "--auto-detect", "--action", "--wait-clean", "--rebuild-map",
		"--update", "--write-mostly", "--dump", "--daemonise", "--mail", "--increment"}
)

// mdadmProgram classifies mdadm. getopt_long takes its long options
// abbreviated (--st is --stop, --zero is --zero-superblock) and its short
// ones clustered (-Ss stops every array), so both are read that way; its
// value-taking letters end a cluster. --monitor's --program (--alert, -p)
// runs a program on each event, and a monitor without --oneshot keeps
// running and acting on events.
func mdadmProgram(c *call) (Tier, string) {
	vals := c.vals()
	r := raiser{TierRead, "mdadm: reports on RAID arrays"}
	monitor, oneshot, test := false, false, false
	for _, v := range vals {
		if v == "--" {
			break
		}
		switch {
		case v == "--wait" || strings.HasPrefix(v, "--wait="):
			// --wait is its own whole name, not an abbreviation of
			// --wait-clean: it waits for a resync to end.
		case strings.HasPrefix(v, "--"):
			for _, l := range mdadmDestructive {
				if longFlag(v, l) {
					r.raise(TierDestructive, "mdadm "+v+": changes RAID arrays")
				}
			}
			for _, l := range mdadmMutate {
				if longFlag(v, l) {
					r.raise(TierMutate, "mdadm "+v+": changes RAID arrays")
				}
			}
			monitor = monitor || longFlag(v, "--monitor") || longFlag(v, "--follow")
			oneshot = oneshot || longFlag(v, "--oneshot")
			test = test || longFlag(v, "--test")
		case len(v) > 1 && v[0] == '-':
			for _, f := range v[1:] {
				switch {
				case strings.ContainsRune("CSfrGB", f):
					r.raise(TierDestructive, "mdadm "+v+": changes RAID arrays")
				case strings.ContainsRune("AaRowIU", f):
					r.raise(TierMutate, "mdadm "+v+": changes RAID arrays")
				case f == 'F':
					monitor = true
				case f == '1':
					oneshot = true
				case f == 't':
					test = true
				}
				if strings.ContainsRune("ZilpmnxucdzUNek", f) {
					break // the rest of the word is this option's value
				}
			}
		}
	}
	if monitor {
		for _, p := range c.optVals(c.args, "--program", "--alert", "-p") {
			if !p.known {
				c.e.opaque = true
				r.raise(TierDestructive, "mdadm --program: program computed at run time")
				continue
			}
			c.run([]arg{p, unknownArg, unknownArg})
			r.raise(TierMutate, "mdadm --program: runs a program on each event")
		}
		if !oneshot {
			r.raise(TierMutate, "mdadm --monitor: keeps watching arrays and acting on events")
		}
		// --test raises a TestMessage for every array: the
		// configuration's PROGRAM runs and MAILADDR is mailed for each.
		if test {
			r.raise(TierBenign, "mdadm --monitor --test: alerts for every array through mdadm.conf's PROGRAM and MAILADDR")
		}
		// In monitor mode -m is --mail: each event is mailed, by the
		// sendmail program.
		if len(c.optVals(c.args, "-m")) > 0 {
			r.raise(TierMutate, "mdadm --monitor -m: mails each event")
		}
		// A configuration's PROGRAM line is run on each event as
		// --program's is; only the system's own, which root writes, is
		// not the caller's choosing.
		for _, f := range c.optVals(c.args, "-c", "--config") {
			if !f.known || !strings.HasPrefix(path.Clean(f.val), "/etc/mdadm") {
				r.raise(TierMutate, "mdadm --monitor --config "+truncate(f.val, 64)+": a PROGRAM line runs on each event")
			}
		}
	}
	return r.t, r.why
}
