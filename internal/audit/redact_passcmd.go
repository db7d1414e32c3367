package audit

import "strings"

// Commands that print a secret for a program to read: restic
// --password-command 'echo pw', BORG_PASSCOMMAND="printf pw",
// RESTIC_PASSWORD_COMMAND='echo pw', rclone --password-command. What they
// print is the secret when they are echo or printf; any other command
// (pass show x, a vault CLI) names where the secret is kept and stays.

// passCommand redacts what the echo or printf in the value of the option
// or variable w (s[i:j]), named <credential>-command, prints, returning
// where scanning resumes, or 0.
func (r *redactor) passCommand(i, j int) int {
	s, w := r.s, r.s[i:j]
	if !passCommandName(w) {
		return 0
	}
	k := j
	switch {
	case k < len(s) && s[k] == '=':
		k++
	case w[0] == '-' && k < len(s) && (s[k] == ' ' || s[k] == '\t'):
		k = skipBlanks(s, k)
	default:
		return 0
	}
	start, end := r.valueWord(k, false)
	b := skipBlanks(s, start)
	e := b
	for e < end && wordByte[s[e]] {
		e++
	}
	if v := s[b:e]; v == "cat" {
		// BORG_PASSCOMMAND='cat /tmp/p': the path ends at a blank or
		// the value's quote.
		k := skipBlanks(s, e)
		pe := k
		for pe < end && strings.IndexByte(" \t'\"", s[pe]) < 0 {
			pe++
		}
		r.passwordPath(s[k:pe])
		return 0
	} else if v != "echo" && v != "printf" {
		return 0
	}
	from := skipBlanks(s, e)
	if from >= end {
		return 0
	}
	return r.replace(from, end, Redacted)
}

// passCommandName reports whether the option or variable w names a
// command that prints a secret: <credential>-command, <credential>_cmd.
func passCommandName(w string) bool {
	base := ""
	for _, suf := range [...]string{"command", "cmd"} {
		if len(w) > len(suf) && strings.EqualFold(w[len(w)-len(suf):], suf) {
			base = strings.TrimRight(w[:len(w)-len(suf)], "-_.")
			break
		}
	}
	base = strings.TrimLeft(base, "-")
	return base != "" && (secretKey(base) != keyNone || secretName(base))
}

// passCommandValue returns v, the value of a variable passCommandName
// accepts (run_command's env BORG_PASSCOMMAND), with what its echo or
// printf prints redacted.
func passCommandValue(v string) string {
	t := strings.TrimLeft(v, " \t")
	for _, p := range [...]string{"echo", "printf"} {
		if rest, ok := strings.CutPrefix(t, p); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
			return v[:len(v)-len(t)] + p + " " + Redacted
		}
	}
	return v
}

// mayNameCommand reports whether the word w ends like an option or
// variable that names a command (…command, …cmd), the only words
// passCommand looks at.
func mayNameCommand(w string) bool {
	c := w[len(w)-1] | 0x20
	return c == 'd' && len(w) > 5 && (w[len(w)-2]|0x20 == 'n' || w[len(w)-2]|0x20 == 'm')
}
