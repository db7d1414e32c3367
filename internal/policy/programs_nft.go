package policy

import "strings"

// nft joins its words into one line and runs every command on it: ";"
// and a newline separate commands as they do in a ruleset file, so
// nft 'list ruleset; flush ruleset' lists and then flushes. Each command
// is classified, not the first alone.

// nftCommands splits nft's operands into its commands, each a list of
// words, with braces kept as words of their own.
func nftCommands(ops []string) [][]string {
	line := strings.NewReplacer(";", " ; ", "\n", " ; ", "{", " { ", "}", " } ").Replace(strings.Join(ops, " "))
	var cmds [][]string
	var cmd []string
	for _, w := range strings.Fields(line) {
		if w == ";" {
			if len(cmd) > 0 {
				cmds = append(cmds, cmd)
			}
			cmd = nil
			continue
		}
		cmd = append(cmd, w)
	}
	if len(cmd) > 0 {
		cmds = append(cmds, cmd)
	}
	return cmds
}

// nftVerdict classifies nft's commands (its -c, -f and -i are read
// before): flushing or deleting a table or anything destroyed is tier 3,
// listing, monitoring and describing read, and anything else changes
// rules.
func nftVerdict(ops []string) (Tier, string) {
	t, why := TierRead, "nft: lists rules"
	for _, cmd := range nftCommands(ops) {
		switch {
		case cmd[0] == "flush" || cmd[0] == "destroy" || cmd[0] == "delete" && len(cmd) > 1 && cmd[1] == "table":
			return TierDestructive, "nft: flushes or deletes rules"
		case cmd[0] == "list" || cmd[0] == "monitor" || cmd[0] == "describe":
			// monitor prints rule and trace events; describe a type.
		default:
			t, why = TierMutate, "nft: changes firewall rules"
		}
		for _, w := range cmd[1:] {
			// flush, destroy and delete table inside a command, as the
			// previous reading of the whole line had it.
			if w == "flush" || w == "destroy" {
				return TierDestructive, "nft: flushes or deletes rules"
			}
		}
	}
	return t, why
}
