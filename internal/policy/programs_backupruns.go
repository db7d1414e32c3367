package policy

import "strings"

// borgRuns classifies the commands borg runs itself: with-lock REPO CMD
// runs CMD holding the lock; create --content-from-command and
// --paths-from-command run the command given after the archive (after
// "--" as its manual writes it); export-tar's and import-tar's
// --tar-filter is a command the archive streams through. argparse takes
// the options abbreviated.
func (c *call) borgRuns(first string) (Tier, string) {
	r := raiser{TierRead, ""}
	for _, f := range c.optVals(c.args, "--tar-filter") {
		r.raise(c.shellArg(f, "borg --tar-filter"))
		r.raise(TierDestructive, "borg --tar-filter: runs "+truncate(f.val, 64))
	}
	switch first {
	case "with-lock":
		if cmd := borgTrailing(c.args, "with-lock", 1); len(cmd) > 0 {
			c.run(cmd)
			r.raise(TierMutate, "borg with-lock: runs "+truncate(cmd[0].val, 64))
		}
	case "create":
		fromCommand := false
		for _, a := range c.args {
			name, _, _ := strings.Cut(a.val, "=")
			if len(name) >= len("--con") && strings.HasPrefix("--content-from-command", name) ||
				len(name) >= len("--paths-from-c") && strings.HasPrefix("--paths-from-command", name) {
				fromCommand = true
			}
		}
		if !fromCommand {
			break
		}
		cmd := borgTrailing(c.args, "create", 1)
		for i, a := range c.args {
			if a.val == "--" {
				cmd = c.args[i+1:]
				break
			}
		}
		if len(cmd) > 0 {
			c.run(cmd)
			r.raise(TierMutate, "borg create: runs "+truncate(cmd[0].val, 64))
		}
	}
	return r.t, r.why
}

// borgValueOpts are borg's common options that take the next word as
// their value.
var borgValueOpts = set(`--lock-wait --remote-path --rsh --umask --debug-topic --upload-ratelimit
	--upload-buffer --remote-ratelimit --remote-buffer --debug-profile --comment --compression -C
	--exclude -e --exclude-from --pattern --patterns-from --chunker-params --timestamp
	--checkpoint-interval --files-cache --stdin-name --stdin-user --stdin-group --stdin-mode
	--paths-delimiter`)

// borgTrailing returns the words after the subcommand sub and skip
// operands (the repository or archive), options before them skipped:
// the command borg runs. A value computed at run time ends the search.
func borgTrailing(args []arg, sub string, skip int) []arg {
	i := 0
	for i < len(args) && args[i].val != sub {
		i++
	}
	for i++; i < len(args); i++ {
		a := args[i]
		if !a.known {
			return args[i:]
		}
		if a.val == "--" {
			return args[i+1:]
		}
		if strings.HasPrefix(a.val, "-") {
			if borgValueOpts[a.val] {
				i++
			}
			continue
		}
		if skip == 0 {
			return args[i:]
		}
		skip--
	}
	return nil
}

// resticStdinCommand: restic backup --stdin-from-command runs its
// operands (the command, after "--" as its manual writes it) and stores
// what it prints. Without "--" the first operand begins it: an option's
// value read as that errs toward classifying more.
func (c *call) resticStdinCommand() (Tier, string) {
	on := false
	for _, a := range c.args {
		if a.val == "--" {
			break
		}
		on = on || a.val == "--stdin-from-command" || a.val == "--stdin-from-command=true"
	}
	if !on {
		return TierRead, ""
	}
	cmd := borgTrailing(c.args, "backup", 0)
	for i, a := range c.args {
		if a.val == "--" {
			cmd = c.args[i+1:]
			break
		}
	}
	if len(cmd) == 0 {
		return TierRead, ""
	}
	c.run(cmd)
	return TierMutate, "restic backup --stdin-from-command: runs " + truncate(cmd[0].val, 64)
}
