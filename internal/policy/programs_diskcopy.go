package policy

import "strings"

// Disk copiers, imagers and wipers other than dd. Each writes a target
// its operands or options name, which goes through writeTarget, so a
// block device is denied as dd of= is: ddrescue IN OUT [MAP], dcfldd's
// and dc3dd's of=/hof=/wipe= and logs, e2image's image (or with -I the
// device it installs metadata onto), partclone's and ntfsclone's -o and
// -O, zerofree's and nwipe's devices (nwipe with none picks them in its
// interface: tier 3), and fio's --filename when the job writes or trims
// (a job file names its own targets: tier 3).

// diskCopyPrograms are the programs diskCopyProgram classifies.
var diskCopyPrograms = set(`ddrescue dcfldd dc3dd e2image zerofree nwipe ntfsclone fio`)

// diskCopyProgram classifies the programs diskCopyPrograms names and
// partclone.*.
func diskCopyProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": copies or writes disks and images"}
	write := func(a arg) { r.raise(c.writeArg(a, c.name+" output")) }
	switch {
	case c.name == "ddrescue":
		if ops := optionOperands(c.args, "abcCeiKlmoOsTxZ", ""); len(ops) >= 2 {
			for _, o := range ops[1:] {
				write(o)
			}
		}
	case c.name == "dcfldd" || c.name == "dc3dd":
		for _, a := range c.args {
			k, v, ok := strings.Cut(a.val, "=")
			if ok && (strings.Contains(k, "of") || strings.Contains(k, "wipe") || strings.HasSuffix(k, "log")) {
				write(arg{val: v, known: a.known, glob: a.glob})
			}
		}
	case c.name == "e2image":
		ops := optionOperands(c.args, "bBoO", "")
		if c.flagSet('I', "", 0) && len(ops) > 0 {
			write(ops[0])
		} else if len(ops) >= 2 {
			write(ops[len(ops)-1])
		}
	case c.name == "zerofree":
		for _, o := range optionOperands(c.args, "f", "") {
			write(o)
		}
	case c.name == "nwipe":
		ops := optionOperands(c.args, "mlPrv", "")
		if len(ops) == 0 {
			c.e.opaque = true
			return TierDestructive, "nwipe: wipes the disks chosen in its interface"
		}
		for _, o := range ops {
			write(o)
		}
	case c.name == "ntfsclone" || strings.HasPrefix(c.name, "partclone."):
		for _, f := range c.optVals(c.args, "-o", "--output", "-O", "--overwrite") {
			if !f.known || f.val != "-" {
				write(f)
			}
		}
	case c.name == "fio":
		rw := ""
		for _, v := range c.optVals(c.args, "--rw", "--readwrite") {
			rw = strings.ToLower(v.val)
		}
		if strings.Contains(rw, "write") || strings.Contains(rw, "trim") || strings.Contains(rw, "rw") {
			for _, f := range c.optVals(c.args, "--filename") {
				for _, name := range strings.Split(f.val, ":") {
					write(arg{val: name, known: f.known, glob: f.glob})
				}
			}
		}
		for _, f := range c.optVals(c.args, "--output", "--write_bw_log", "--write_lat_log", "--write_iops_log") {
			write(f)
		}
		if ops := optionOperands(c.args, "", ""); len(ops) > 0 {
			c.e.opaque = true
			r.raise(TierDestructive, "fio "+truncate(ops[0].val, 64)+": a job file names its own targets")
		}
	}
	return r.t, r.why
}
