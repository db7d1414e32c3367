package policy

// The text backstop: the deny list run over text the classifier cannot
// read as shell (interpreter payloads, unparsable input, environment
// values).

import (
	"path"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

var (
	textSpace = strings.NewReplacer("\"", "", "'", "", "\\", "", ",", " ", "[", " ", "]", " ",
		"{", " ", "}", " ", ">", " > ", "<", " < ", "\t", " ", "!", " ")
	textVars = strings.NewReplacer("${IFS}", " ", "$IFS", " ", "${HOME}", "$HOME")
	// forkLoopText is an interpreter's fork bomb: a loop that never ends
	// and forks on every pass (perl's fork while 1 and fork while fork,
	// python's while True: os.fork(), ruby's loop { fork }, for(;;){fork}).
	forkLoopText = regexp.MustCompile(`\bfork\s*(\(\s*\))?\s*(while\s*\(?\s*(1|true|fork)\b|until\s*\(?\s*(0|false)\b)|` +
		`\bwhile\s*\(?\s*(1|true|True)\s*\)?\s*[:{]\s*([\w$().'"-]*(\.|::))?fork\b|` +
		`\bloop\s*(\{|do)\s*([\w$().'"-]*(\.|::))?fork\b|\bfor\s*\(\s*;\s*;\s*\)\s*\{?\s*([\w$().'"-]*(\.|::))?fork\b`)
)

const scanWindow = 32

// scanText runs the deny list over text that could not be classified by
// its grammar — interpreter payloads, unparsable input, environment values —
// by treating every word that names a deny-list program as the start of a
// command. It is a backstop: the text may not be shell at all.
//
// Text with backslash escapes is scanned as written and once more as
// printf, echo -e, printf %b and $'…' decode it: the reader of a
// printf '!\x72eboot\n' or of a $'all:\n\treboot' here-string (ed, make
// -f -, sed -f -, gdb -x /dev/stdin) gets the decoded text, whose
// newlines end a command and whose escapes spell a name, while as written
// "\nq" glues the name to the next line's text.
func (e *eval) scanText(s string) {
	if s == "" {
		return
	}
	if len(s) > maxInput {
		s = s[:maxInput]
	}
	e.scanOnce(s)
	if !e.denied && strings.IndexByte(s, '\\') >= 0 {
		if d := escapedLines(s); d != "" {
			e.scanOnce(d)
		}
		// A backslash before a line end joins the lines, in a shell's
		// word and in a C, python or javascript string ("re\<LF>boot").
		if j := strings.ReplaceAll(s, "\\\n", ""); !e.denied && len(j) < len(s) {
			e.scanOnce(j)
		}
	}
	if !e.denied && strings.IndexByte(s, '`') >= 0 {
		if u := psUnticked(s); u != "" {
			e.scanOnce(u)
		}
	}
	// Text an interpreter decodes and runs (os.system(b64decode('cmVib290')),
	// pwsh -EncodedCommand, bytes.fromhex('7265626f6f74')), and what that
	// decodes to in turn.
	for d, n := decodedWords(s), 0; d != "" && !e.denied && n < maxDecodings; d, n = decodedWords(d), n+1 {
		e.scanOnce(d)
	}
	if !e.denied && strings.IndexByte(s, '(') >= 0 {
		// zsh runs a glob qualifier's code (*(e:'reboot':)) wherever
		// the text is zsh's: the code with its quotes taken out.
		for _, code := range zshQualifierCode(s) {
			if e.scanOnce(unquoted.Replace(code)); e.denied {
				return
			}
		}
	}
	if !e.denied && strings.ContainsAny(s, "\"'") {
		// String literals joined by an operator or by juxtaposition:
		// awk's "re" "boot", python's "re"+"boot", perl's and php's
		// "re"."boot", lua's "re".."boot" are one string to the program.
		if g := joinStrings(s); g != "" {
			e.scanOnce(g)
		}
		// A literal glued to a prefix or a method call: python's
		// r'reboot', b'…' and f'…', C#'s @"reboot", rust's r#"reboot"#,
		// groovy's 'reboot'.execute(), python's 'reboot'.split(). Taking
		// the quotes out glues the prefix or the call to the word; this
		// reading splits the words there.
		if !e.denied {
			if g := gluedQuotes(s); g != "" {
				e.scanOnce(g)
			}
		}
	}
}

// joinStrings returns s with each quote that ends a string and the quote
// starting the next joined away, when only blanks and a concatenation
// operator (+, ., ..) sit between them, or "" when there is none.
func joinStrings(s string) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '"' && s[i] != '\'' {
			continue
		}
		j := skipBlanks(s, i+1)
		switch {
		case j < len(s) && s[j] == '+':
			j++
		case strings.HasPrefix(s[j:], ".concat("):
			j += len(".concat(") // java's and javascript's "re".concat("boot")
		case j+1 < len(s) && s[j] == '.' && s[j+1] == '.':
			j += 2
		case j < len(s) && s[j] == '.':
			j++
		}
		j = skipBlanks(s, j)
		if j < len(s) && (s[j] == '"' || s[j] == '\'') {
			b.WriteString(s[last:i])
			last, i = j+1, j
		}
	}
	if last == 0 {
		return ""
	}
	b.WriteString(s[last:])
	return b.String()
}

// gluedQuotes returns the lines of s where a string literal's opening
// quote follows a letter, @, $ or #, or its closing quote is followed by a
// dot or #, with every quote made a blank; or "" when there is none. A
// literal is followed within its line, a backslash escaping in double
// quotes.
func gluedQuotes(s string) string {
	var b strings.Builder
	var in byte // the quote of the literal the scan is in
	start := 0  // of the line
	for i := 0; i < len(s); i++ {
		glued := false
		switch c := s[i]; {
		case c == '\n':
			in, start = 0, i+1
		case c == '\\' && in == '"':
			i++
		case in == 0 && (c == '"' || c == '\''):
			in = c
			p := byte(0)
			if i > start {
				p = s[i-1]
			}
			glued = p == '@' || p == '$' || p == '#' || p|0x20 >= 'a' && p|0x20 <= 'z'
		case c == in:
			in = 0
			glued = i+1 < len(s) && (s[i+1] == '.' || s[i+1] == '#')
		}
		if glued {
			end := strings.IndexByte(s[i:], '\n')
			if end < 0 {
				end = len(s)
			} else {
				end += i
			}
			b.WriteString(quoteBlanks.Replace(s[start:end]))
			b.WriteByte('\n')
			i, in, start = end, 0, end+1
		}
	}
	return b.String()
}

var quoteBlanks = strings.NewReplacer(`"`, " ", `'`, " ")

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	return i
}

// braceEscapes returns line with the escapes that name a character in
// braces decoded: \u{72} (rust, javascript, swift, ruby, php), \x{72}
// (perl), and python's \N{LATIN SMALL LETTER R} for the letters, digits
// and the few signs a command needs.
func braceEscapes(line string) string {
	if !strings.Contains(line, "{") {
		return line
	}
	return braceEscape.ReplaceAllStringFunc(line, func(m string) string {
		name := m[3 : len(m)-1]
		if m[1] == 'N' {
			if r, ok := charNames[name]; ok {
				return r
			}
			if l, ok := strings.CutPrefix(name, "LATIN SMALL LETTER "); ok && len(l) == 1 && l[0] >= 'A' && l[0] <= 'Z' {
				return strings.ToLower(l)
			}
			if l, ok := strings.CutPrefix(name, "LATIN CAPITAL LETTER "); ok && len(l) == 1 && l[0] >= 'A' && l[0] <= 'Z' {
				return l
			}
			return m
		}
		n, err := strconv.ParseUint(name, 16, 32)
		if err != nil || n == 0 || n > 0x10ffff {
			return m
		}
		return string(rune(n))
	})
}

var (
	braceEscape = regexp.MustCompile(`\\(?:[ux]\{[0-9A-Fa-f]{1,6}\}|N\{[A-Z -]{1,40}\})`)
	charNames   = map[string]string{"SPACE": " ", "SOLIDUS": "/", "HYPHEN-MINUS": "-", "FULL STOP": ".", "SEMICOLON": ";",
		"AMPERSAND": "&", "VERTICAL LINE": "|", "DIGIT ZERO": "0", "DIGIT ONE": "1", "DIGIT TWO": "2", "DIGIT THREE": "3",
		"DIGIT FOUR": "4", "DIGIT FIVE": "5", "DIGIT SIX": "6", "DIGIT SEVEN": "7", "DIGIT EIGHT": "8", "DIGIT NINE": "9"}
)

// escapedLines returns the lines of s that hold a backslash, decoded as
// echo -e and printf decode them, or "" when decoding changes none. The
// scan reads a line at a time, so the other lines need no second look.
func escapedLines(s string) string {
	var b strings.Builder
	changed := false
	for s != "" {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		if strings.IndexByte(line, '\\') < 0 {
			continue
		}
		d := echoEsc(braceEscapes(line))
		changed = changed || d != line
		b.WriteString(d)
		b.WriteByte('\n')
	}
	if !changed {
		return ""
	}
	return b.String()
}

// scanOnce is scanText over one reading of the text.
func (e *eval) scanOnce(s string) {
	if e.scanned[s] {
		return
	}
	if e.scanned == nil {
		e.scanned = map[string]bool{}
	}
	e.scanned[s] = true
	if e.foldedState(s) {
		return
	}
	if why := forkBombDef(s); why != "" {
		e.deny(why)
		return
	}
	if strings.Contains(s, "fork") && forkLoopText.MatchString(s) {
		e.deny("fork bomb: a loop that never ends forks on every pass")
		return
	}
	if e.scanAPIs(s) {
		return
	}
	if why := scanWords(s); why != "" {
		e.deny(why)
	}
}

// scanWords returns why the first command the words of s start is
// denied, or "". A text the size of many pieces is read in pieces cut
// at line ends, on every processor at once: a command the scan reads
// ends at a line end, and the replacements below never span one.
func scanWords(s string) string {
	if len(s) < pieceMin {
		return scanLines(s)
	}
	chunks := lineChunks(s, min(4*runtime.GOMAXPROCS(0), len(s)/pieceSize))
	whys := make([]string, len(chunks))
	each(len(chunks), runtime.GOMAXPROCS(0), func(i int) { whys[i] = scanLines(chunks[i]) })
	for _, why := range whys {
		if why != "" {
			return why
		}
	}
	return ""
}

// lineChunks cuts s into at most n chunks of about the same size, each
// but the last ending at a line end.
func lineChunks(s string, n int) []string {
	size := len(s) / max(n, 1)
	var chunks []string
	for start := 0; start < len(s); {
		end := len(s)
		if len(chunks) < n-1 && start+size < len(s) {
			if i := strings.IndexByte(s[start+size:], '\n'); i >= 0 {
				end = start + size + i + 1
			}
		}
		chunks = append(chunks, s[start:end])
		start = end
	}
	return chunks
}

// scanSeps end the commands the raw scan reads.
var scanSeps = newByteSet(";&|\n\r()`")

// scanLines is scanWords on one processor.
func scanLines(s string) string {
	// textSpace maps single bytes and leaves the segment separators alone,
	// so mapping the whole text once gives the segments mapping each would;
	// one token slice serves every segment.
	text := textSpace.Replace(textVars.Replace(s))
	var toks []string
	for text != "" {
		seg, end := text, byte(0)
		if i := scanSeps.index(text); i >= 0 {
			seg, end, text = text[:i], text[i], text[i+1:]
		} else {
			text = ""
		}
		toks = appendFields(toks[:0], seg)
		// def shutdown(, function reboot(: a name being defined.
		paren := end == '('
		defines := paren && len(toks) >= 2 && definers[toks[len(toks)-2]]
		for i, t := range toks {
			if f := powerFileWord(t); f != "" {
				return "text writes " + f
			}
			if strings.HasPrefix(t, "/") && (strings.Contains(t, "watchdog") || strings.Contains(t, "10:130")) && watchdogPath(path.Clean(t)) {
				return "text opens the hardware watchdog (" + truncate(t, 96) + "): " + watchdogReboots
			}
			if t == ">" && i+1 < len(toks) && blockTarget(toks[i+1]) {
				return "text writes block device " + toks[i+1]
			}
			if len(t) > 256 || defines && i == len(toks)-1 || i > 0 && bareDefiners[toks[i-1]] {
				continue
			}
			if k := strings.IndexByte(t, '='); k >= 0 && k+1 < len(t) {
				// NAME=VALUE: a variable's value the code may run
				// (C=reboot awk 'BEGIN{system(ENVIRON["C"])}').
				t = t[k+1:]
			} else if k := strings.LastIndexByte(t, ':'); k >= 0 && k+1 < len(t) {
				// KEY:VALUE, its quotes taken out: a package's
				// {"scripts":{"x":"halt"}}, a YAML flow map's {run:reboot}.
				t = t[k+1:]
			}
			// A statement's end glued to the name: COBOL's and
			// Prolog's ".", a label's ":" (CALL "SYSTEM" USING
			// "/sbin/reboot".).
			name := path.Base(strings.TrimRight(t, ".:"))
			if !isDenyTrigger(name) {
				if renamed(name) {
					name = normaliseName(name)
				}
				if !isDenyTrigger(name) {
					if name = foldedTrigger(name); name == "" {
						if name = psCmdlet(t); name == "" {
							continue
						}
					}
				}
			}
			if name == "shutdown" && paren && i == len(toks)-1 {
				// shutdown(fd, SHUT_WR): the socket call of C, Perl and
				// PHP, or a method of that name; the command takes no
				// parentheses.
				continue
			}
			end := min(len(toks), i+1+scanWindow)
			if why := denyCheck(name, toks[i+1:end]); why != "" {
				return why
			}
		}
	}
	return ""
}

// foldedTrigger returns the deny-list program n names in lower case, or
// "": on a Mac, whose file systems ignore case, os.system("REBOOT") runs
// reboot, as the command REBOOT does (foldedProgram). Only a word with an
// upper-case letter is folded, into a buffer on the stack.
func foldedTrigger(n string) string {
	var buf [32]byte
	if len(n) > len(buf) {
		return ""
	}
	upper := false
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
			upper = true
		}
		buf[i] = c
	}
	if !upper || !isDenyTrigger(string(buf[:len(n)])) {
		return ""
	}
	return string(buf[:len(n)])
}

// definers are the keywords before a name a language defines, not runs,
// when its parameters follow: python's and ruby's def shutdown(),
// function reboot() in JavaScript, Lua and PHP, go's func, rust's fn.
// The shell has no such form (def reboot runs a function def may be).
var definers = set(`def function func fn`)

// bareDefiners are the keywords before a name a language defines with
// no parentheses after it: Ruby's def shutdown, Perl's sub reboot {.
// In a shell, def reboot runs a program or function named def, which
// the walk classifies.
var bareDefiners = set(`def sub`)

// psCmdlets are PowerShell's commands, and the aliases of Remove-Item
// it keeps on Linux, that do what a deny-list program does, by the
// program.
var psCmdlets = map[string]string{
	"restart-computer": "reboot", "stop-computer": "poweroff",
	"remove-item": "rm", "ri": "rm", "del": "rm", "erase": "rm", "rd": "rm",
}

// psModuleCmdlets are the psCmdlets a module's name may come before
// (Microsoft.PowerShell.Management\Restart-Computer), which the scan
// reads with the backslash taken out.
var psModuleCmdlets = []string{"restart-computer", "stop-computer", "remove-item"}

// psCmdlet returns the deny-list program the PowerShell command t is, or
// "": its name in any case (rEsTaRt-CoMpUtEr), or after its module's. The
// word is folded into a buffer on the stack, and only one that may be
// such a name.
func psCmdlet(t string) string {
	switch {
	case len(t) < 2 || len(t) > 64 || t[0] == '-':
		return ""
	case len(t) <= 5: // ri, del, erase, rd
		if c := t[0] | 0x20; c != 'r' && c != 'd' && c != 'e' {
			return ""
		}
	case len(t) < len("remove-item") || strings.IndexByte(t, '-') < 0:
		return ""
	}
	var buf [64]byte
	for i := 0; i < len(t); i++ {
		c := t[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf[i] = c
	}
	w := buf[:len(t)]
	if p, ok := psCmdlets[string(w)]; ok {
		return p
	}
	for _, c := range psModuleCmdlets {
		if len(w) > len(c) && string(w[len(w)-len(c):]) == c && w[len(w)-len(c)-1] != '-' {
			return psCmdlets[c]
		}
	}
	return ""
}

// psUnticked returns s without the backticks inside its words, which a
// PowerShell bare word ignores (Re`start-Computer), or "" when it has
// none: a shell's command substitution is set off from the word around it.
func psUnticked(s string) string {
	word := func(c byte) bool { return c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
	for i := strings.IndexByte(s, '`'); i >= 0; {
		if i > 0 && i+1 < len(s) && word(s[i-1]) && word(s[i+1]) {
			return strings.ReplaceAll(s, "`", "")
		}
		next := strings.IndexByte(s[i+1:], '`')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}

// appendFields appends the fields of s to dst, as strings.Fields splits them.
func appendFields(dst []string, s string) []string {
	start := -1
	for i := 0; i < len(s); {
		r, size := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
		}
		if unicode.IsSpace(r) {
			if start >= 0 {
				dst = append(dst, s[start:i])
				start = -1
			}
		} else if start < 0 {
			start = i
		}
		i += size
	}
	if start >= 0 {
		dst = append(dst, s[start:])
	}
	return dst
}

// foldedState denies text the classifier cannot read that names warden's
// state in any case: bash's ${p~~} and ${p~} (which the parser does not
// know) turn /VAR/LIB/WARDEN/TOKEN into the token's path, and an
// interpreter can lower-case a string as easily.
func (e *eval) foldedState(s string) bool {
	if e.p.protect == nil || !e.p.protect.own {
		return false
	}
	var low string
	for _, p := range e.p.protect.paths {
		if p.device {
			continue
		}
		if low == "" {
			low = strings.ToLower(s)
			if strings.Contains(low, "//") {
				low = squeezeSlashes(low)
			}
		}
		needle := strings.ToLower(p.clean)
		for from := 0; from < len(low); {
			i := strings.Index(low[from:], needle)
			if i < 0 {
				break
			}
			i += from
			end := i + len(needle)
			if (i == 0 || !pathByte(low[i-1])) && (end == len(low) || !pathByte(low[end]) || low[end] == '/') {
				e.deny(p.why(truncate(s[max(0, i-8):min(len(s), end+8)], 96)))
				return true
			}
			from = i + 1
		}
	}
	return false
}

// pathByte reports whether c continues a path component or a path.
func pathByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '/'
}

// squeezeSlashes turns each run of slashes into one, as path lookup reads
// them.
func squeezeSlashes(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '/' && i > 0 && s[i-1] == '/' {
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// forkBombDef returns why text defines a function, NAME() { BODY }, whose
// body starts copies of itself (:(){ :|:& };:), or "". Every definition
// is looked at, those nested in another's body too; a body is read up
// to its first "}". Bodies that overlap (definitions nested in one body)
// are read again, up to 64 times the text's length; past that the text
// is refused rather than left half read.
func forkBombDef(s string) string {
	isBlank := func(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }
	isName := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("_:.-", c) >= 0
	}
	closeAt, budget := -1, 64*len(s)
	for i := strings.IndexByte(s, '('); i >= 0; {
		j := i + 1
		for j < len(s) && isBlank(s[j]) {
			j++
		}
		k := j + 1
		for k < len(s) && isBlank(s[k]) {
			k++
		}
		n := i
		for n > 0 && isBlank(s[n-1]) {
			n--
		}
		end := n
		for n > 0 && isName(s[n-1]) {
			n--
		}
		if j < len(s) && s[j] == ')' && k < len(s) && s[k] == '{' && n < end {
			if closeAt <= k {
				if closeAt = strings.IndexByte(s[k+1:], '}'); closeAt < 0 {
					return "" // no body ends: nor does any later one
				}
				closeAt += k + 1
			}
			name, body := s[n:end], s[k+1:closeAt]
			if budget -= len(body); budget < 0 {
				return "text nests more function definitions than the scan reads"
			}
			if strings.ContainsAny(body, "|&") && strings.Contains(body, name) {
				return "fork bomb: function " + name + " starts copies of itself"
			}
		}
		next := strings.IndexByte(s[i+1:], '(')
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return ""
}
