package policy

// Statistics programs print counters, but some have an option that zeroes
// them after printing: nfsstat -z (--zero) on Linux, the BSDs and
// illumos, and FreeBSD's netstat -z with -s, -i or -m. The counters are
// then gone for every monitor and person that reads them, which is a
// change to the kernel's state as iptables -Z and conntrack -z are:
// tier 2.

// counterResets are the programs above and their zeroing option.
var counterResets = map[string]struct {
	short byte
	long  string
}{
	"nfsstat": {'z', "--zero"},
	"netstat": {'z', ""},
}

// counterProgram classifies counterResets: tier 0 unless the zeroing
// option is given, alone, in a cluster of flags (nfsstat -sz) or as an
// abbreviated long option (nfsstat --ze), or a word computed at run time
// could become it.
func counterProgram(c *call) (Tier, string) {
	o := counterResets[c.name]
	for _, a := range c.args {
		if a.val == "--" && a.known {
			break
		}
		if !a.known && c.mayBeOption(a) {
			return TierMutate, c.name + ": " + truncate(a.val, 64) + " is computed at run time and can become -" + string(o.short) + ", which zeroes the counters"
		}
	}
	if c.flagSet(o.short, o.long, len("--z")) {
		return TierMutate, c.name + " -" + string(o.short) + ": zeroes the counters it prints"
	}
	return TierRead, c.name + ": prints counters"
}
