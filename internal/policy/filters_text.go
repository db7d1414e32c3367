package policy

// tr, sed and cut over literal text: the parts of their grammar read
// exactly, everything else unknown.

import (
	"regexp"
	"strconv"
	"strings"
)

// trOut is tr with -d, -s and -t, sets of characters, escapes, ranges and
// the common classes. -c and [c*n] are not computed.
func trOut(args []string, in string) (string, bool) {
	del, squeeze, trunc := false, false, false
	var sets []string
	for i, a := range args {
		if a == "--" {
			sets = append(sets, args[i+1:]...)
			break
		}
		if len(a) > 1 && a[0] == '-' && len(sets) == 0 {
			for _, c := range a[1:] {
				switch c {
				case 'd':
					del = true
				case 's':
					squeeze = true
				case 't':
					trunc = true
				default:
					return "", false
				}
			}
			continue
		}
		sets = append(sets, a)
	}
	if len(sets) == 0 || len(sets) > 2 {
		return "", false
	}
	s1, ok := trSet(sets[0], false)
	if !ok {
		return "", false
	}
	var s2 []byte
	if len(sets) == 2 {
		if s2, ok = trSet(sets[1], true); !ok {
			return "", false
		}
	}
	var inSet1 [256]bool
	for _, c := range s1 {
		inSet1[c] = true
	}
	var mapping [256]int
	for i := range mapping {
		mapping[i] = i
	}
	squeezeSet := s1
	switch {
	case del && len(sets) == 2 && squeeze:
		squeezeSet = s2
	case del && len(sets) == 1:
	case del || !squeeze && len(sets) != 2:
		return "", false
	case len(sets) == 2:
		if len(s2) == 0 {
			return "", false
		}
		if trunc && len(s1) > len(s2) {
			s1 = s1[:len(s2)]
		}
		for i, c := range s1 {
			mapping[c] = int(s2[min(i, len(s2)-1)])
		}
		squeezeSet = s2
	}
	var sq [256]bool
	for _, c := range squeezeSet {
		sq[c] = true
	}
	var b strings.Builder
	last := -1
	for i := 0; i < len(in); i++ {
		c := in[i]
		if del && inSet1[c] {
			continue
		}
		o := byte(mapping[c])
		if squeeze && sq[o] && int(o) == last {
			continue
		}
		b.WriteByte(o)
		last = int(o)
	}
	return b.String(), true
}

var trClasses = map[string]string{
	"lower": "a-z", "upper": "A-Z", "digit": "0-9", "alpha": "A-Za-z", "alnum": "0-9A-Za-z",
	"xdigit": "0-9A-Fa-f", "blank": "\t ", "space": "\t\n\v\f\r ",
	"punct": "!-/:-@[-`{-~",
}

// trSet expands one of tr's sets. In the second set only lower and upper
// classes are taken (tr pairs them with the opposite class in the first).
func trSet(s string, second bool) ([]byte, bool) {
	var chars []byte
	var lits []bool // which of chars came from an escape: never a range's dash
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '[' && i+1 < len(s) && s[i+1] == ':':
			end := strings.Index(s[i:], ":]")
			if end < 0 {
				return nil, false
			}
			exp, ok := trClasses[s[i+2:i+end]]
			if !ok || second && s[i+2:i+end] != "lower" && s[i+2:i+end] != "upper" {
				return nil, false
			}
			for j := 0; j < len(exp); j++ {
				if j+2 < len(exp) && exp[j+1] == '-' {
					for r := exp[j]; r <= exp[j+2]; r++ {
						chars, lits = append(chars, r), append(lits, true)
					}
					j += 2
					continue
				}
				chars, lits = append(chars, exp[j]), append(lits, true)
			}
			i += end + 1
			continue
		case c == '[' && i+1 < len(s) && (s[i+1] == '=' || strings.Contains(s[i:], "*")):
			return nil, false // [=c=] and [c*n]
		case c == '\\' && i+1 < len(s):
			i++
			switch e := s[i]; {
			case e >= '0' && e <= '7':
				j := i
				for j < len(s) && j < i+3 && s[j] >= '0' && s[j] <= '7' {
					j++
				}
				n, _ := strconv.ParseUint(s[i:j], 8, 16)
				if n > 255 {
					return nil, false
				}
				c, i = byte(n), j-1
			default:
				if k := strings.IndexByte(`abfnrtv`, e); k >= 0 {
					c = "\a\b\f\n\r\t\v"[k]
				} else {
					c = e
				}
			}
			chars, lits = append(chars, c), append(lits, true)
			continue
		}
		chars, lits = append(chars, c), append(lits, false)
	}
	// Ranges: a dash between two characters, not escaped.
	var out []byte
	for i := 0; i < len(chars); i++ {
		if i+2 < len(chars) && chars[i+1] == '-' && !lits[i+1] {
			if chars[i] > chars[i+2] {
				return nil, false
			}
			for r := int(chars[i]); r <= int(chars[i+2]); r++ {
				out = append(out, byte(r))
			}
			i += 2
			continue
		}
		out = append(out, chars[i])
	}
	return out, len(out) <= 1024
}

// sedCmd is one s or y command.
type sedCmd struct {
	re      *regexp.Regexp
	repl    string // s's replacement, escapes kept
	global  bool
	nth     int
	from    []byte // y's characters
	to      []byte
	isTrans bool
}

// sedOut is sed running s/// and y/// commands (-e, -E, ;-separated,
// flags g, I and N) over each line; any other command or option is not
// computed.
func sedOut(args []string, in string) (string, bool) {
	ere := false
	var scripts []string
	haveE := false
	var operands []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-E" || a == "-r" || a == "--regexp-extended":
			ere = true
		case a == "-e" && i+1 < len(args):
			scripts, haveE = append(scripts, args[i+1]), true
			i++
		case strings.HasPrefix(a, "--expression="):
			scripts, haveE = append(scripts, a[len("--expression="):]), true
		case a == "--posix" || a == "-u" || a == "--unbuffered":
		case a == "-":
			operands = append(operands, a)
		case strings.HasPrefix(a, "-"):
			return "", false
		default:
			operands = append(operands, a)
		}
	}
	if !haveE {
		if len(operands) == 0 {
			return "", false
		}
		scripts, operands = operands[:1], operands[1:]
	}
	if len(operands) > 1 || len(operands) == 1 && operands[0] != "-" {
		return "", false
	}
	var cmds []sedCmd
	for _, s := range scripts {
		cs, ok := parseSed(s, ere)
		if !ok {
			return "", false
		}
		cmds = append(cmds, cs...)
	}
	if len(cmds) == 0 || len(cmds) > 16 {
		return "", false
	}
	ok := true
	out := linesOut(in, func(line string) string {
		for _, c := range cmds {
			if !ok || len(line) > maxFilterText {
				ok = false
				return ""
			}
			line, ok = c.apply(line)
		}
		return line
	})
	return out, ok
}

// parseSed reads a script of s and y commands separated by ; or lines.
func parseSed(s string, ere bool) ([]sedCmd, bool) {
	var cmds []sedCmd
	for {
		s = strings.TrimLeft(s, " \t\n;")
		if s == "" {
			return cmds, true
		}
		if len(s) < 2 || s[0] != 's' && s[0] != 'y' {
			return nil, false
		}
		op, d := s[0], s[1]
		if d == '\\' || d == '\n' || d == ' ' {
			return nil, false
		}
		pat, rest, ok := sedPart(s[2:], d)
		if !ok {
			return nil, false
		}
		repl, rest, ok := sedPart(rest, d)
		if !ok {
			return nil, false
		}
		if op == 'y' {
			from, ok1 := sedYChars(pat, d)
			to, ok2 := sedYChars(repl, d)
			if !ok1 || !ok2 || len(from) != len(to) {
				return nil, false
			}
			cmds = append(cmds, sedCmd{isTrans: true, from: from, to: to})
			s = rest
			continue
		}
		c := sedCmd{repl: repl, nth: 1}
		fold := false
		for rest != "" && rest[0] != ';' && rest[0] != '\n' {
			switch f := rest[0]; {
			case f == 'g':
				c.global = true
			case f == 'i' || f == 'I':
				fold = true
			case f >= '1' && f <= '9':
				j := 1
				for j < len(rest) && j < 4 && rest[j] >= '0' && rest[j] <= '9' {
					j++
				}
				c.nth, _ = strconv.Atoi(rest[:j])
				rest = rest[j-1:]
			case f == ' ' || f == '\t':
			default:
				return nil, false
			}
			rest = rest[1:]
		}
		expr, ok := sedRegexp(pat, d, ere)
		if !ok || expr == "" {
			return nil, false
		}
		if fold {
			expr = "(?i)" + expr
		}
		re, err := regexp.Compile("(?s)" + expr)
		if err != nil {
			return nil, false
		}
		re.Longest()
		c.re = re
		if !sedReplOK(repl, d, re.NumSubexp()) {
			return nil, false
		}
		cmds = append(cmds, c)
		s = rest
	}
}

// sedPart returns the text up to the unescaped delimiter d and what
// follows it.
func sedPart(s string, d byte) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\n':
			return "", "", false
		case d:
			return s[:i], s[i+1:], true
		}
	}
	return "", "", false
}

func sedYChars(s string, d byte) ([]byte, bool) {
	var out []byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' {
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			switch s[i] {
			case 'n':
				c = '\n'
			case '\\', d:
				c = s[i]
			default:
				return nil, false
			}
		}
		out = append(out, c)
	}
	return out, true
}

// sedRegexp maps a sed regular expression to Go's syntax: literal
// characters quoted, . * ^ $ and bracket expressions kept, the GNU
// operators of BRE (\( \) \| \+ \?) and those of ERE mapped. Intervals,
// back-references and GNU's word escapes are not computed.
func sedRegexp(p string, d byte, ere bool) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(p); i++ {
		c := p[i]
		switch {
		case c == '\\':
			if i+1 >= len(p) {
				return "", false
			}
			i++
			e := p[i]
			switch {
			case e == d || strings.IndexByte(`.[]*^$\/`, e) >= 0:
				b.WriteString(regexp.QuoteMeta(string(e)))
			case !ere && strings.IndexByte(`()|+?`, e) >= 0:
				b.WriteByte(e)
			case ere && strings.IndexByte(`()|+?{}`, e) >= 0:
				b.WriteString(regexp.QuoteMeta(string(e)))
			case e == 'n':
				b.WriteString(`\n`)
			case e == 't':
				b.WriteString(`\t`)
			default:
				return "", false
			}
		case c == '[':
			j := i + 1
			if j < len(p) && p[j] == '^' {
				j++
			}
			if j < len(p) && p[j] == ']' {
				j++
			}
			for j < len(p) && p[j] != ']' {
				if p[j] == '[' && j+1 < len(p) && p[j+1] == ':' {
					k := strings.Index(p[j:], ":]")
					if k < 0 {
						return "", false
					}
					j += k + 2
					continue
				}
				if p[j] == '[' && j+1 < len(p) && (p[j+1] == '.' || p[j+1] == '=') {
					return "", false
				}
				j++
			}
			if j >= len(p) {
				return "", false
			}
			b.WriteString(strings.ReplaceAll(p[i:j+1], `\`, `\\`))
			i = j
		case c == '.' || c == '*':
			b.WriteByte(c)
		case c == '^' && (i == 0 || ere):
			b.WriteByte(c)
		case c == '$' && (i == len(p)-1 || ere):
			b.WriteByte(c)
		case ere && strings.IndexByte(`()|+?`, c) >= 0:
			b.WriteByte(c)
		case ere && c == '{':
			return "", false
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	return b.String(), true
}

// sedReplOK reports whether a replacement uses only &, \1…\N, \n and
// escaped literals.
func sedReplOK(r string, d byte, groups int) bool {
	for i := 0; i < len(r); i++ {
		if r[i] != '\\' {
			continue
		}
		if i+1 >= len(r) {
			return false
		}
		i++
		switch e := r[i]; {
		case e >= '1' && e <= '9':
			if int(e-'0') > groups {
				return false
			}
		case e == 'n' || e == '&' || e == '\\' || e == d || e == '/':
		default:
			return false
		}
	}
	return true
}

func (c sedCmd) apply(line string) (string, bool) {
	if c.isTrans {
		bs := []byte(line)
		for i, ch := range bs {
			if k := strings.IndexByte(string(c.from), ch); k >= 0 {
				bs[i] = c.to[k]
			}
		}
		return string(bs), true
	}
	var b strings.Builder
	last, n := 0, 0
	for _, m := range c.re.FindAllStringSubmatchIndex(line, -1) {
		n++
		if n < c.nth || n > c.nth && !c.global {
			continue
		}
		b.WriteString(line[last:m[0]])
		for i := 0; i < len(c.repl); i++ {
			switch ch := c.repl[i]; {
			case ch == '&':
				b.WriteString(line[m[0]:m[1]])
			case ch == '\\':
				i++
				switch e := c.repl[i]; {
				case e >= '1' && e <= '9':
					if g := int(e - '0'); m[2*g] >= 0 {
						b.WriteString(line[m[2*g]:m[2*g+1]])
					}
				case e == 'n':
					b.WriteByte('\n')
				default:
					b.WriteByte(e)
				}
			default:
				b.WriteByte(ch)
			}
			if b.Len() > maxFilterText {
				return "", false
			}
		}
		last = m[1]
	}
	b.WriteString(line[last:])
	return b.String(), true
}

// cutOut is cut -b, -c or -f (with -d and -s) over a list of positions.
func cutOut(args []string, in string) (string, bool) {
	mode, list, delim, only := byte(0), "", "\t", false
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-" && i == len(args)-1:
		case a == "-s" || a == "--only-delimited":
			only = true
		case a == "-n":
		case len(a) >= 2 && a[0] == '-' && strings.IndexByte("bcfd", a[1]) >= 0:
			v := a[2:]
			if v == "" {
				if i+1 >= len(args) {
					return "", false
				}
				v = args[i+1]
				i++
			}
			if a[1] == 'd' {
				delim = v
				continue
			}
			if mode != 0 {
				return "", false
			}
			mode, list = a[1], v
		default:
			return "", false
		}
	}
	if mode == 0 || len(delim) != 1 {
		return "", false
	}
	sel, ok := cutList(list)
	if !ok {
		return "", false
	}
	var b strings.Builder
	lines, _ := splitLines(in)
	for _, line := range lines {
		var out string
		if mode == 'f' {
			if !strings.Contains(line, delim) {
				if only {
					continue
				}
				out = line
			} else {
				var keep []string
				for j, f := range strings.Split(line, delim) {
					if sel(j + 1) {
						keep = append(keep, f)
					}
				}
				out = strings.Join(keep, delim)
			}
		} else {
			var kb strings.Builder
			for j := 0; j < len(line); j++ {
				if sel(j + 1) {
					kb.WriteByte(line[j])
				}
			}
			out = kb.String()
		}
		b.WriteString(out)
		b.WriteByte('\n') // cut ends every line it prints
	}
	return b.String(), true
}

// cutList parses N, N-, -M and N-M ranges separated by commas.
func cutList(list string) (func(int) bool, bool) {
	type span struct{ lo, hi int }
	var spans []span
	for _, r := range strings.Split(list, ",") {
		lo, hi, dash := strings.Cut(r, "-")
		s := span{1, 1 << 30}
		var err error
		if lo != "" {
			if s.lo, err = strconv.Atoi(lo); err != nil || s.lo < 1 {
				return nil, false
			}
		}
		if !dash {
			s.hi = s.lo
		} else if hi != "" {
			if s.hi, err = strconv.Atoi(hi); err != nil || s.hi < s.lo {
				return nil, false
			}
		}
		if lo == "" && hi == "" {
			return nil, false
		}
		spans = append(spans, s)
	}
	return func(i int) bool {
		for _, s := range spans {
			if i >= s.lo && i <= s.hi {
				return true
			}
		}
		return false
	}, len(spans) > 0 && len(spans) <= 64
}
