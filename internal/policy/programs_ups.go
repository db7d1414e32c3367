package policy

import "strings"

// Network UPS Tools' control programs. upsc (programs_admin.go) reads; a
// UPS told to cut its load or shut down, or upsmon's forced shutdown,
// powers off every machine on it, which is TierDestructive. Listing the
// commands or writable variables reads; running any other command or
// setting a variable changes the UPS.

// upsProgram returns the classifier for the NUT programs, or nil.
func upsProgram(name string) func(*call) (Tier, string) {
	switch name {
	case "upscmd":
		return upscmdProgram
	case "upsrw":
		return upsrwProgram
	case "upsmon":
		return upsmonProgram
	case "upsdrvctl":
		return upsdrvctlProgram
	}
	return nil
}

// upsPowerCommand reports whether an instant command turns the UPS's
// outputs off (load.off, load.off.delay, shutdown.return, shutdown.stayoff,
// outlet.1.load.off, bypass.start leaves the load unprotected too).
func upsPowerCommand(cmd string) bool {
	cmd = strings.ToLower(cmd)
	return strings.Contains(cmd, "load.off") || strings.HasPrefix(cmd, "shutdown.") || cmd == "shutdown" ||
		strings.Contains(cmd, "load.cycle") || strings.Contains(cmd, ".off") || strings.Contains(cmd, "bypass.start")
}

// upscmdProgram classifies upscmd [-u USER] [-p PASS] UPS COMMAND [VALUE]
// and upscmd -l UPS.
func upscmdProgram(c *call) (Tier, string) {
	list := false
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
		if a.known && shortFlag(a.val, 'l') {
			list = true
		}
	}
	ops := optionOperands(c.args, "upt", "")
	if len(ops) >= 2 {
		if !ops[1].known {
			return c.computed("command")
		}
		if upsPowerCommand(ops[1].val) {
			return TierDestructive, "upscmd " + truncate(ops[1].val, 32) + ": turns the UPS's outputs off"
		}
	}
	if list || len(ops) < 2 {
		return TierRead, "upscmd: lists the UPS's commands"
	}
	return TierMutate, "upscmd " + truncate(ops[1].val, 32) + ": runs a UPS command"
}

// upsrwProgram: upsrw UPS lists the writable variables; -s sets one.
func upsrwProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		if !a.known && c.mayBeOption(a) {
			return c.computed("option")
		}
	}
	if hasFlag(c.vals(), 's', "") {
		return TierMutate, "upsrw -s: sets a UPS variable"
	}
	return TierRead, "upsrw: lists the UPS's variables"
}

// upsmonProgram: upsmon -c fsd forces the shutdown of every system the
// UPS feeds; -K checks the power-down flag; anything else starts, stops
// or reloads the monitor.
func upsmonProgram(c *call) (Tier, string) {
	for _, v := range c.optVals(c.args, "-c") {
		if !v.known {
			return c.computed("command")
		}
		if strings.EqualFold(v.val, "fsd") {
			return TierDestructive, "upsmon -c fsd: shuts down every system on the UPS"
		}
	}
	if len(c.args) == 1 && c.args[0].known && (c.args[0].val == "-K" || c.args[0].val == "-h") {
		return TierRead, "upsmon " + c.args[0].val
	}
	return TierMutate, "upsmon: starts, stops or reloads the UPS monitor"
}

// upsdrvctlProgram: upsdrvctl shutdown tells the UPS to cut power; -t
// only prints what it would do.
func upsdrvctlProgram(c *call) (Tier, string) {
	ops := optionOperands(c.args, "uD", "")
	for _, a := range c.args {
		if !a.known {
			return c.computed("command")
		}
	}
	if hasFlag(c.vals(), 't', "") || hasFlag(c.vals(), 'h', "") {
		return TierRead, "upsdrvctl -t: prints what it would do"
	}
	if len(ops) > 0 && strings.EqualFold(ops[0].val, "shutdown") {
		return TierDestructive, "upsdrvctl shutdown: tells the UPS to cut power"
	}
	return TierMutate, "upsdrvctl: starts or stops the UPS drivers"
}
