package policy

import "strings"

// envLongOpts are GNU env's long options, for reading abbreviations.
var envLongOpts = []string{"--argv0", "--block-signal", "--chdir", "--debug", "--default-signal", "--help",
	"--ignore-environment", "--ignore-signal", "--list-signal-handling", "--null", "--split-string",
	"--unset", "--version"}

// envProgram peels env(1).
func envProgram(c *call) (Tier, string) {
	args := c.args
	i := 0
	var argv0 []arg
	for i < len(args) {
		a := args[i]
		if !a.known {
			return c.unreadableArgs()
		}
		v := a.val
		if v == "--" || v == "-" {
			i++
			break
		}
		if len(v) < 2 || v[0] != '-' {
			break
		}
		if strings.HasPrefix(v, "--") {
			name, val, has := strings.Cut(v, "=")
			name = longOpt(name, envLongOpts)
			switch name {
			case "--unset", "--chdir":
				if name == "--chdir" {
					c.e.chdirOpt(args, i, val, has)
				}
				if !has {
					i++
				}
			case "--argv0":
				known := true
				if !has && i+1 < len(args) {
					i++
					val, known = args[i].val, args[i].known
				}
				argv0 = append(argv0, arg{val: val, known: known})
			case "--split-string":
				next := i + 1
				if !has && i+1 < len(args) {
					if !args[i+1].known {
						return c.unreadableArgs()
					}
					val, next = args[i+1].val, i+2
				}
				return c.envSplit(args[:i], "", val, args[next:])
			}
			i++
			continue
		}
		for j := 1; j < len(v); j++ {
			switch v[j] {
			case 'u', 'C', 'a':
				if v[j] == 'C' {
					c.e.chdirOpt(args, i, v[j+1:], j < len(v)-1)
				}
				val, known := v[j+1:], true
				if j == len(v)-1 {
					i++
					if i < len(args) {
						val, known = args[i].val, args[i].known
					}
				}
				if v[j] == 'a' {
					argv0 = append(argv0, arg{val: val, known: known})
				}
				j = len(v)
			case 'P':
				return TierDestructive, "env -P: looks the command up in another PATH"
			case 'S':
				s, next := v[j+1:], i+1
				if s == "" && i+1 < len(args) {
					if !args[i+1].known {
						return c.unreadableArgs()
					}
					s, next = args[i+1].val, i+2
				}
				return c.envSplit(args[:i], v[:j], s, args[next:])
			}
		}
		i++
	}
	if i > len(args) {
		i = len(args)
	}
	rest := args[i:]
	for len(rest) > 0 && rest[0].known && strings.Contains(rest[0].val, "=") {
		n, v, _ := strings.Cut(rest[0].val, "=")
		c.e.envVarCtx(n, v, c.ctx, "env")
		rest = rest[1:]
	}
	if len(rest) == 0 {
		return TierRead, "env: prints the environment"
	}
	c.run(rest)
	c.runAs(argv0, rest[1:])
	return TierRead, "env"
}

// envSplit reads env -S S (--split-string=S) as GNU env does: the words
// of S take the place of the option, the words after it follow, and
// option parsing starts again at S's first word. So options and
// assignments after -S STRING are the command's words, not env's: env -S
// sort -o /tmp/o x runs sort -o /tmp/o x, env -S dd of=/tmp/o runs dd
// of=/tmp/o. before are the words before the option, cluster the flags
// before S in its word ("-i" of -iS).
func (c *call) envSplit(before []arg, cluster, s string, after []arg) (Tier, string) {
	argv := append([]arg{{val: "env", known: true}}, before...)
	if len(cluster) > 1 {
		argv = append(argv, arg{val: cluster, known: true})
	}
	argv = append(append(argv, envSplitWords(s)...), after...)
	c.run(argv)
	return TierRead, "env -S"
}

// envSplitWords splits S as env -S does, which is not the shell's way:
// unquoted blanks and \_ separate words (env -S 'chmod\_u+s\_/bin/sh' is
// three), \t, \n, \v, \f and \r are those characters, \c ends the
// string, '…' is literal, "…" takes the escapes and \_ as a space, a word
// starting with # starts a comment, and ${NAME} is the variable's value,
// known only at run time.
func envSplitWords(s string) []arg {
	var out []arg
	var b strings.Builder
	in, known, quote := false, true, byte(0)
	flush := func() {
		if in {
			out = append(out, arg{val: b.String(), known: known})
		}
		b.Reset()
		in, known = false, true
	}
	for i := 0; i < len(s); i++ {
		ch := s[i]
		switch {
		case quote == '\'':
			if ch == '\'' {
				quote = 0
			} else if ch == '\\' && i+1 < len(s) && (s[i+1] == '\\' || s[i+1] == '\'') {
				i++
				b.WriteByte(s[i])
			} else {
				b.WriteByte(ch)
			}
			continue
		case quote == 0 && strings.IndexByte(" \t\n\v\f\r", ch) >= 0:
			flush()
			continue
		case quote == 0 && ch == '#' && !in:
			return out // a comment to the end
		case ch == '\'' && quote == 0, ch == '"' && quote == 0:
			quote, in = ch, true
			continue
		case ch == '"' && quote == '"':
			quote = 0
			continue
		case ch == '$' && i+1 < len(s) && s[i+1] == '{':
			end := strings.IndexByte(s[i:], '}')
			if end < 0 {
				end = len(s) - i - 1
			}
			b.WriteString(s[i : i+end+1])
			in, known = true, false
			i += end
			continue
		case ch == '\\' && i+1 < len(s):
			i++
			switch s[i] {
			case '_':
				if quote == 0 {
					flush()
					continue
				}
				b.WriteByte(' ')
			case 'c':
				flush()
				return out
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'v':
				b.WriteByte('\v')
			case 'f':
				b.WriteByte('\f')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
			in = true
			continue
		}
		b.WriteByte(ch)
		in = true
	}
	flush()
	return out
}
