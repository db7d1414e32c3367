package policy

import (
	"slices"
	"strconv"
	"strings"
)

// sedLongOpts are GNU sed's long options, for reading abbreviations.
var sedLongOpts = []string{"--debug", "--expression", "--file", "--follow-symlinks", "--help", "--in-place",
	"--line-length", "--null-data", "--posix", "--quiet", "--regexp-extended", "--sandbox", "--separate",
	"--silent", "--unbuffered", "--version", "--zero-terminated"}

// sedProgram classifies sed: the e command and s///e run commands; w and -i write.
func sedProgram(c *call) (Tier, string) {
	args := c.args
	var scripts []arg
	inPlace, sandbox, fromFile := false, false, false
	var files []arg // the script files of -f
	i := 0
	var ops []arg
	for i < len(args) {
		a := args[i]
		v := a.val
		if !a.known && strings.HasPrefix(v, "-") {
			c.e.opaque = true
			return TierDestructive, "sed: options computed at run time"
		}
		if strings.HasPrefix(v, "--") && len(v) > 2 {
			// getopt_long takes any unambiguous prefix: --expr= is
			// --expression=, --in is --in-place.
			name, val, has := strings.Cut(v, "=")
			v = longOpt(name, sedLongOpts)
			if has {
				v += "=" + val
			}
		}
		switch {
		case v == "--":
			ops = append(ops, args[i+1:]...)
			i = len(args)
			continue
		case v == "-e" || v == "--expression":
			if i+1 < len(args) {
				scripts = append(scripts, args[i+1])
			}
			i++
		case strings.HasPrefix(v, "--expression="):
			scripts = append(scripts, arg{val: strings.TrimPrefix(v, "--expression="), known: a.known})
		case v == "-f" || strings.HasPrefix(v, "--file"):
			fromFile = true
			if f, ok := strings.CutPrefix(v, "--file="); ok {
				files = append(files, arg{val: f, known: a.known})
			} else if i+1 < len(args) {
				files = append(files, args[i+1])
				i++
			}
		case strings.HasPrefix(v, "--in-place"):
			inPlace = true
		case v == "--sandbox":
			sandbox = true
		case v == "-l" || v == "--line-length":
			i++
		case len(v) > 1 && v[0] == '-' && v[1] != '-':
			for j := 1; j < len(v); j++ {
				switch v[j] {
				case 'i':
					inPlace = true
					j = len(v)
				case 'e':
					if j+1 < len(v) {
						scripts = append(scripts, arg{val: v[j+1:], known: a.known})
					} else if i+1 < len(args) {
						scripts = append(scripts, args[i+1])
						i++
					}
					j = len(v)
				case 'f':
					fromFile = true
					if j+1 < len(v) {
						files = append(files, arg{val: v[j+1:], known: a.known})
					} else if i+1 < len(args) {
						files = append(files, args[i+1])
						i++
					}
					j = len(v)
				case 'l':
					if j+1 == len(v) {
						i++
					}
					j = len(v)
				}
			}
		case strings.HasPrefix(v, "--"):
		default:
			ops = append(ops, a)
		}
		i++
	}
	if len(scripts) == 0 && !fromFile && len(ops) > 0 {
		scripts, ops = ops[:1], ops[1:]
	}
	if len(scripts) > 1 && !slices.ContainsFunc(scripts, func(a arg) bool { return !a.known }) {
		// GNU sed joins its scripts with newlines: -e '1a\' -e TEXT is
		// one command.
		var b strings.Builder
		for k, a := range scripts {
			if k > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(a.val)
		}
		scripts = []arg{{val: b.String(), known: true}}
	}
	t, why := TierRead, "sed"
	var added []string
	var writes []arg
	if fromFile {
		t, why = TierDestructive, "sed -f: runs a script file the classifier cannot see"
		c.e.opaque = true
		for _, f := range files {
			// A script file this script wrote is read like -e's.
			if f.known && c.ctx.sc != nil {
				for _, text := range c.ctx.sc.fileTexts(f.val) {
					scripts = append(scripts, arg{val: text, known: true})
				}
			}
		}
	}
	for _, s := range scripts {
		if !s.known {
			c.e.opaque = true
			return TierDestructive, "sed: script computed at run time"
		}
		sr := sedScript(s.val)
		for _, f := range sr.reads {
			// r and R read a file into the output: "r/etc/x" names it with
			// no space, so the word itself never shows the path.
			c.e.pathWord(arg{val: f, known: true}, c.ctx, "")
		}
		for _, x := range sr.cmds {
			if x != "" {
				c.shell(sedReplEsc(x), "sed e command", nil, false)
			}
		}
		added = append(added, sr.added...)
		if sr.uncomments {
			// The script's own text is what the lines it uncomments
			// matched: /reboot/s/^#//.
			added = append(added, strings.Map(regexBlank, s.val))
		}
		for _, f := range sr.files {
			writes = append(writes, arg{val: f, known: true})
			if f != "/dev/stdout" && f != "/dev/stderr" && !sandbox {
				if wt, wwhy := c.writeArg(arg{val: f, known: true}, "sed w"); wt > t {
					t, why = wt, wwhy
				}
			}
		}
		switch {
		case !sr.ok:
			c.e.scanText(s.val)
			return TierDestructive, "sed: script the classifier cannot read"
		case sr.exec && !sandbox:
			c.e.opaque = true
			c.e.scanText(s.val)
			return TierDestructive, "sed: script runs commands (e)"
		case sr.write && !sandbox && t < TierMutate:
			t, why = TierMutate, "sed: script writes files (w)"
		}
	}
	if inPlace && t < TierMutate {
		t, why = TierMutate, "sed -i: edits files in place"
	}
	if inPlace {
		writes = append(writes, ops...)
	}
	c.scanAdded(writes, added)
	if inPlace {
		for _, o := range ops {
			if o.known && c.e.localSetid(o.val) {
				// The edited file takes the original's mode, setuid included.
				return TierDestructive, "sed -i: rewrites setuid or setgid file " + truncate(o.val, 64)
			}
		}
	}
	return t, why
}

// regexBlank turns a regular expression's operators into blanks, leaving
// the words it matches.
func regexBlank(c rune) rune {
	if strings.ContainsRune(`\/()[]*^$.+?{}|`, c) {
		return ' '
	}
	return c
}

// sedExec reads a sed script and reports whether it runs commands (e,
// s///e) or writes files (w, W, s///w), with the text the e command and
// s///e would run ("" when that is the pattern space, unknown here). ok is
// false when the script cannot be read.
func sedExec(s string) (cmds []string, exec, write, ok bool) {
	r := sedScript(s)
	return r.cmds, r.exec, r.write, r.ok
}

// sedRead is what a sed script does, as sedScript reads it.
type sedRead struct {
	cmds  []string // what e and s///e run ("" for the pattern space)
	files []string // what w, W and s///w write
	reads []string // what r and R read
	added []string // text the script puts in its output
	// uncomments: an s command drops a "#" its pattern matched.
	exec, write, ok, uncomments bool
}

// sedScript reads the sed script s; ok is false when it cannot.
func sedScript(s string) (r sedRead) {
	i, n := 0, len(s)
	toEOL := func() {
		for i < n && s[i] != '\n' {
			i++
		}
	}
	skipDelim := func(d byte) bool {
		for i < n && s[i] != d {
			if s[i] == '\\' {
				i++
			} else if s[i] == '\n' {
				return false
			}
			i++
		}
		if i >= n {
			return false
		}
		i++
		return true
	}
	for steps := 0; steps < 100000; steps++ {
		for i < n && strings.IndexByte(" \t\n;", s[i]) >= 0 {
			i++
		}
		if i >= n {
			r.ok = true
			return r
		}
		if s[i] == '#' {
			toEOL()
			continue
		}
		for addr := 0; addr < 2; addr++ {
			switch {
			case s[i] >= '0' && s[i] <= '9':
				for i < n && (s[i] >= '0' && s[i] <= '9' || s[i] == '~') {
					i++
				}
			case s[i] == '$':
				i++
			case s[i] == '/':
				i++
				if !skipDelim('/') {
					return r
				}
			case s[i] == '\\' && i+1 < n:
				d := s[i+1]
				i += 2
				if !skipDelim(d) {
					return r
				}
			case (s[i] == '+' || s[i] == '~') && addr == 1:
				i++
				for i < n && s[i] >= '0' && s[i] <= '9' {
					i++
				}
			}
			for i < n && (s[i] == 'I' || s[i] == 'M') && addr >= 0 && i > 0 && (s[i-1] == '/' || s[i-1] == 'I' || s[i-1] == 'M') {
				i++
			}
			for i < n && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			if i < n && s[i] == ',' && addr == 0 {
				i++
				for i < n && (s[i] == ' ' || s[i] == '\t') {
					i++
				}
				if i >= n {
					return r
				}
				continue
			}
			break
		}
		for i < n && (s[i] == '!' || s[i] == ' ' || s[i] == '\t') {
			i++
		}
		if i >= n {
			return r
		}
		cmd := s[i]
		i++
		switch cmd {
		case '{', '}', '=', 'd', 'D', 'g', 'G', 'h', 'H', 'n', 'N', 'p', 'P', 'x', 'z', 'F':
		case 'l', 'L', 'q', 'Q':
			for i < n && (s[i] == ' ' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
		case ':', 'b', 't', 'T', 'v':
			// GNU sed ends a label at a blank as well as at ";": in
			// ":a s/x/y/e" the s command follows the label.
			for i < n && (s[i] == ' ' || s[i] == '\t') {
				i++
			}
			for i < n && strings.IndexByte(" \t;\n}", s[i]) < 0 {
				i++
			}
		case 'a', 'i', 'c':
			j := i
			for i < n && s[i] != '\n' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			// GNU sed decodes its escapes in the text too (a\ then
			// \d114eboot adds reboot).
			text := s[j:min(i, n)]
			r.added = append(r.added, text)
			if d := sedReplEsc(text); d != text {
				r.added = append(r.added, d)
			}
		case 'r', 'R':
			j := i
			toEOL()
			r.reads = append(r.reads, strings.TrimSpace(s[j:i]))
		case 'w', 'W':
			r.write = true
			j := i
			toEOL()
			r.files = append(r.files, strings.TrimSpace(s[j:i]))
		case 'e':
			r.exec = true
			j := i
			toEOL()
			r.cmds = append(r.cmds, strings.TrimSpace(s[j:i]))
		case 's', 'y':
			if i >= n || s[i] == '\n' || s[i] == '\\' {
				return r
			}
			d := s[i]
			i++
			k := i
			if !skipDelim(d) {
				return r
			}
			pat := s[k : i-1]
			j := i
			if !skipDelim(d) {
				return r
			}
			repl := s[j : i-1]
			if cmd == 'y' {
				continue
			}
			added := sedReplace(repl, false)
			r.added = append(r.added, added)
			r.uncomments = r.uncomments || strings.Contains(pat, "#") && !strings.Contains(added, "#")
			for i < n && s[i] != ';' && s[i] != '\n' && s[i] != '}' {
				switch s[i] {
				case 'e':
					r.exec = true
					r.cmds = append(r.cmds, repl)
				case 'w':
					r.write = true
					j := i + 1
					toEOL()
					r.files = append(r.files, strings.TrimSpace(s[j:i]))
					continue
				case 'g', 'p', 'i', 'I', 'm', 'M', ' ', '\t':
				default:
					if s[i] < '0' || s[i] > '9' {
						return r
					}
				}
				i++
			}
		default:
			return r
		}
	}
	return r
}

// sedReplEsc decodes the escapes GNU sed reads in a replacement before
// s///e runs it as a command: \xHH, \oNNN, \dNNN, \cX, \n, \t and the
// rest, and the case conversions \L, \U, \l, \u and \E, so s/x/\x72eboot/e
// and s/x/\LREBOOT/e run reboot. Group references (\1, &) are left for
// the shell parse, which reads them as plain words.
func sedReplEsc(r string) string { return sedReplace(r, true) }

// sedReplace is sedReplEsc, dropping the group references unless keep:
// what a replacement adds to a file of its own is the text around them.
func sedReplace(r string, keep bool) string {
	if !strings.ContainsAny(r, `\&`) {
		return r
	}
	var b strings.Builder
	var whole, next byte // case conversions: 'L' or 'U' until \E, once
	put := func(c byte) {
		switch {
		case next == 'l' || next == 0 && whole == 'L':
			c = lower(c)
		case next == 'u' || next == 0 && whole == 'U':
			c = upper(c)
		}
		next = 0
		b.WriteByte(c)
	}
	for i := 0; i < len(r); i++ {
		if r[i] == '&' && !keep {
			continue
		}
		if r[i] != '\\' || i+1 >= len(r) {
			put(r[i])
			continue
		}
		i++
		base, digits := 0, 0
		switch r[i] {
		case 'x':
			base, digits = 16, 2
		case 'o':
			base, digits = 8, 3
		case 'd':
			base, digits = 10, 3
		case 'n':
			put('\n')
			continue
		case 't':
			put('\t')
			continue
		case 'c':
			if i+1 < len(r) {
				i++
				put(r[i] & 0x1f)
			}
			continue
		case 'L', 'U':
			whole, next = r[i], 0
			continue
		case 'E':
			whole, next = 0, 0
			continue
		case 'l', 'u':
			next = r[i]
			continue
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if keep {
				b.WriteByte('\\')
				b.WriteByte(r[i])
			}
			continue
		default:
			put(r[i])
			continue
		}
		j := i + 1
		for j < len(r) && j-i-1 < digits && strings.IndexByte("0123456789abcdefABCDEF"[:base+max(0, base-10)], r[j]) >= 0 {
			j++
		}
		n, err := strconv.ParseUint(r[i+1:j], base, 8)
		if err != nil {
			put(r[i])
			continue
		}
		put(byte(n))
		i = j - 1
	}
	return b.String()
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}
