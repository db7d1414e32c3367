package policy

import (
	"strings"
)

// atProgram: at and batch run a job later (atrm removes jobs), outside warden's confinement:
// TierDestructive, and a job read from known text is classified.
func atProgram(c *call) (Tier, string) {
	vals := c.vals()
	if c.name == "atrm" {
		return TierMutate, "atrm: removes jobs" // at -r's other name
	}
	if hasFlag(vals, 'l', "") || hasFlag(vals, 'c', "") {
		return TierRead, c.name + ": lists jobs"
	}
	if hasFlag(vals, 'r', "") || hasFlag(vals, 'd', "") {
		return TierMutate, c.name + ": removes jobs"
	}
	c.e.opaque = true
	if len(c.optVals(c.args, "-f")) == 0 && c.ctx.stdin.kind == stdinText {
		c.shell(c.ctx.stdin.text, c.name+" job", nil, false)
	}
	return TierDestructive, c.name + ": schedules a job that runs later, outside warden's confinement"
}

// crontabProgram: installing a crontab schedules its commands to run later,
// outside warden's confinement: TierDestructive; the commands of one read
// from known text are classified.
func crontabProgram(c *call) (Tier, string) {
	vals := c.vals()
	if hasFlag(vals, 'l', "--list") || hasFlag(vals, 'T', "--test") || hasFlag(vals, 'V', "--version") {
		return TierRead, "crontab -l"
	}
	c.e.opaque = true
	if hasFlag(vals, 'e', "--edit") {
		return TierDestructive, "crontab -e: edits the user's cron jobs"
	}
	ops := operandsSkipping(vals, "usn", []string{"--user"})
	if (len(ops) == 0 || ops[0] == "-") && c.ctx.stdin.kind == stdinText {
		for _, cmd := range cronCommands(c.ctx.stdin.text) {
			c.shell(cmd, "cron job", nil, false)
		}
	}
	if len(ops) > 0 && ops[0] != "-" {
		// crontab FILE: the table a local file written by an earlier
		// call holds, as text whose commands meet the deny list.
		for _, text := range c.e.localAlts(ops[0]) {
			for _, cmd := range cronCommands(text) {
				c.e.scanText(cmd)
			}
		}
	}
	return TierDestructive, "crontab: installs jobs that run later, outside warden's confinement"
}

// cronCommands returns the commands of crontab lines: after five time
// fields or an @keyword; environment lines and comments are skipped.
func cronCommands(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		l = strings.TrimSpace(l)
		if l == "" || l[0] == '#' {
			continue
		}
		f := strings.Fields(l)
		if strings.HasPrefix(f[0], "@") {
			if len(f) > 1 {
				out = append(out, strings.TrimSpace(strings.TrimPrefix(l, f[0])))
			}
			continue
		}
		if len(f) < 6 {
			if strings.Contains(l, "=") {
				continue
			}
			out = append(out, l) // not a cron line: treat it as a command
			continue
		}
		rest := l
		for k := 0; k < 5; k++ {
			rest = strings.TrimLeft(rest, " \t")
			rest = strings.TrimLeft(rest[strings.IndexAny(rest+" ", " \t"):], " \t")
		}
		out = append(out, strings.ReplaceAll(rest, "%", "\n"))
	}
	return out
}

// otherCrontabProgram: incrontab (jobs run on file events) and fcrontab
// (fcron's tables) install tables whose commands run later, outside
// warden's confinement, as crontab does: TierDestructive. Listing reads;
// removing the table or asking the daemon to reload it changes state.
func otherCrontabProgram(c *call) (Tier, string) {
	vals := c.vals()
	switch {
	case hasFlag(vals, 'l', "--list") || hasFlag(vals, 'V', "--version") || hasFlag(vals, 'h', "--help"):
		return TierRead, c.name + " -l"
	case hasFlag(vals, 'r', "--remove") || hasFlag(vals, 'd', "--reload"):
		return TierMutate, c.name + ": removes or reloads the user's table"
	}
	c.e.opaque = true
	if ops := operandsSkipping(vals, "ucf", []string{"--user", "--config"}); (len(ops) == 0 || ops[0] == "-") && c.ctx.stdin.kind == stdinText {
		for _, l := range strings.Split(c.ctx.stdin.text, "\n") {
			if f := strings.Fields(l); c.name == "incrontab" && len(f) >= 3 && !strings.HasPrefix(f[0], "#") {
				c.shell(strings.Join(f[2:], " "), "incron job", nil, false)
			}
		}
		if c.name == "fcrontab" {
			for _, cmd := range cronCommands(c.ctx.stdin.text) {
				c.shell(cmd, "fcron job", nil, false)
			}
		}
	}
	return TierDestructive, c.name + ": installs jobs that run later, outside warden's confinement"
}
