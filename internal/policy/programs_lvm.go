package policy

// LVM's reporting commands (lvs, vgs, pvs, the *display and *scan ones,
// lvmconfig) read, whether run alone or as "lvm lvs", unless an option
// makes them write or load configuration of the caller's choosing.

// lvmReportProgram classifies an LVM reporting command run under its own
// name.
func lvmReportProgram(c *call) (Tier, string) {
	if t, why := lvmOptions(c.name, argVals(c.args)); t > TierRead {
		return t, why
	}
	return TierRead, c.name + ": read-only"
}

// lvmOptions classifies the options of LVM command sub (lvs, pvscan,
// config): --config and the profiles are lvm.conf text of the caller's
// choosing, whose log/file names a file every command appends to and
// whose helper settings name programs it runs; config's --file writes the
// configuration out; vgscan --mknodes makes device nodes; pvscan --cache
// and --activate record and activate volumes. LVM parses with
// getopt_long, so the long names may be abbreviated.
func lvmOptions(sub string, args []string) (Tier, string) {
	for _, a := range args {
		if a == "--" {
			break
		}
		for _, l := range []string{"--config", "--profile", "--commandprofile", "--metadataprofile"} {
			if longFlag(a, l) {
				return TierMutate, "lvm " + l + ": configuration that names the log file lvm writes and the programs it runs"
			}
		}
		switch sub {
		case "config", "dumpconfig", "lvmconfig":
			if longFlag(a, "--file") || shortFlag(a, 'f') {
				return TierMutate, "lvm " + sub + " --file: writes the configuration to a file"
			}
		case "vgscan", "pvscan", "lvscan":
			if longFlag(a, "--mknodes") || longFlag(a, "--cache") || longFlag(a, "--activate") ||
				sub == "pvscan" && shortFlag(a, 'a') {
				return TierMutate, "lvm " + sub + " " + a + ": changes device or volume state"
			}
		}
	}
	return TierRead, ""
}
