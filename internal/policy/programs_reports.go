package policy

import (
	"path"
	"slices"
	"strings"
)

// Programs that report the state of the service manager or the firmware
// with some verbs and change it with others.

// analyzeReadVerbs are the systemd-analyze verbs that only report.
var analyzeReadVerbs = set(`time blame critical-chain dump plot dot unit-paths unit-files
	exit-status capability condition syscall-filter filesystems calendar timestamp timespan
	security inspect-elf fdstore image-policy has-tpm2 pcrs srk architectures smbios11 verify
	cat-config malloc identify-tpm2 chid`)

// analyzeVerb classifies systemd-analyze: log-level, log-target and
// service-watchdogs with a value (and the older set-log-level and
// set-log-target) change the running service manager.
func analyzeVerb(c *call) (Tier, string) {
	ops := getoptOperands(c.vals(), "HM", analyzeVerbValues)
	// --generators runs the system's unit generators (programs the text
	// does not show, writing their output), and --image loop-mounts an
	// image, whatever the verb.
	for _, g := range c.optVals(c.args, "--generators") {
		if !g.known || !falseWord(g.val) {
			return TierMutate, "systemd-analyze --generators: runs the system's unit generators"
		}
	}
	if len(c.optVals(c.args, "--image")) > 0 {
		return TierMutate, "systemd-analyze --image: mounts a disk image"
	}
	if len(ops) > 0 && ops[0] == "verify" {
		if where := c.verifyManAgent(); where != "" {
			c.e.opaque = true
			return TierDestructive, "systemd-analyze verify runs man with the section and page each unit's Documentation= names " +
				"(man:ls(-Hcmd) runs cmd as man's browser), and " + where + "; --man=no runs none"
		}
	}
	switch {
	case len(ops) == 0 || analyzeReadVerbs[ops[0]]:
		return TierRead, "systemd-analyze: read-only"
	case (ops[0] == "log-level" || ops[0] == "log-target" || ops[0] == "service-watchdogs") && len(ops) == 1:
		return TierRead, "systemd-analyze " + ops[0]
	}
	return TierMutate, "systemd-analyze " + truncate(ops[0], 32) + ": changes the service manager's settings"
}

// vcgencmdReadCommands are the Raspberry Pi firmware queries.
var vcgencmdReadCommands = set(`commands vcos version get_throttled measure_temp measure_clock
	measure_volts otp_dump get_mem get_config get_camera get_lcd_info codec_enabled mem_oom
	mem_reloc_stats read_ring_osc hdmi_timings get_rsts pmicrd bootloader_version
	bootloader_config`)

// vcgencmdCommand classifies vcgencmd: display_power with no value or -1
// reads; the queries above read; anything else may change the firmware's
// state.
func vcgencmdCommand(c *call) (Tier, string) {
	ops := c.vals()
	for len(ops) > 0 && strings.HasPrefix(ops[0], "-") {
		ops = ops[1:] // vcgencmd -t: options come before the command only
	}
	switch {
	case len(ops) == 0 || vcgencmdReadCommands[ops[0]]:
		return TierRead, "vcgencmd: read-only"
	case ops[0] == "display_power" && (len(ops) == 1 || ops[1] == "-1"):
		return TierRead, "vcgencmd display_power"
	}
	return TierMutate, "vcgencmd " + truncate(ops[0], 32) + ": changes the firmware's state"
}

// falseWord reports whether v is one of the spellings systemd's boolean
// parser reads as false.
func falseWord(v string) bool {
	switch strings.ToLower(v) {
	case "0", "no", "n", "false", "f", "off":
		return true
	}
	return false
}

// analyzeVerbValues are systemd-analyze's options that always take a
// value, the next word when not attached: --instance NAME in front of a
// reading verb makes it the name (--instance blame log-level debug).
var analyzeVerbValues = []string{"--host", "--machine", "--root", "--image", "--image-policy", "--from-pattern", "--to-pattern",
	"--fuzz", "--iterations", "--base-time", "--unit", "--security-policy", "--threshold", "--profile", "--instance",
	"--offline", "--json", "--scope", "--recursive-errors", "--scale-svg"}

// analyzeValueOpts are systemd-analyze's options that take the next word.
var analyzeValueOpts = []string{"-H", "--host", "-M", "--machine", "--root", "--image", "--image-policy", "--from-pattern",
	"--to-pattern", "--fuzz", "--iterations", "--base-time", "--unit", "--security-policy", "--threshold", "--profile",
	"--man", "--generators", "--recursive-errors", "--offline", "--json", "--tldr", "--scope"}

// verifyManAgent says why a unit systemd-analyze verify checks may be one
// the agent wrote, or returns "". Unless --man=no, verify runs "man
// SECTION PAGE" for each man: URL a unit's Documentation= lists, and the
// section may be an option: man -H runs its value as a browser through the
// shell. The units are the files named (a bare name is a file in the
// working directory) and the directory --root names, so a unit under a
// temporary directory, or at a place known only at run time, runs what a
// tier 1 write put there; the system's own units are the operator's.
func (c *call) verifyManAgent() string {
	for _, m := range c.optVals(c.args, "--man") {
		if m.known && falseWord(m.val) {
			return ""
		}
	}
	var files []arg
	verb := false
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		switch v := a.val; {
		case a.known && strings.HasPrefix(v, "-") && len(v) > 1:
			if !strings.Contains(v, "=") && slices.Contains(analyzeValueOpts, v) {
				i++
			}
		case !verb && a.known && v == "verify":
			verb = true
		case verb:
			if a.known && strings.HasPrefix(v, "/") {
				a.val = path.Dir(v)
			}
			files = append(files, a)
		}
	}
	files = append(files, c.optVals(c.args, "--root")...)
	for _, f := range files {
		if c.e.paths == nil && (!f.known || !strings.HasPrefix(f.val, "/")) {
			continue // where relative ones lead is not followed
		}
		if where := c.projectDirsAgent([]arg{f}); where != "" {
			return where
		}
	}
	return ""
}

// systemctlHelpAgent says why a unit systemctl help shows may be one the
// agent wrote, or returns "". help runs "man SECTION PAGE" for each man:
// URL the unit's Documentation= lists, as systemd-analyze verify does, so
// man:ls(-Hcmd) runs cmd. The system manager's units are the operator's
// (linking or writing one is tier 3); a user's manager (--user, -M
// USER@) loads units from the user's own directories, a container's (-M)
// from the container's files, and a unit named at run time may be any.
func (c *call) systemctlHelpAgent() string {
	switch {
	case c.flagSet(0, "--user", 4):
		return "a user's manager loads units from directories the agent can write"
	case c.flagSet('M', "--machine", 5):
		return "a container's or user's manager loads units from files the agent can write"
	}
	for _, a := range c.args {
		if !a.known || a.glob && isPattern(a.val) {
			return "the unit " + truncate(a.val, 64) + " is known only at run time"
		}
	}
	return ""
}
