package audit

import (
	"sort"
	"strings"
)

// Options held for a later command: set -- -pSECRET; mysql "$@", args=(-u
// root -pSECRET); mysql "${args[@]}", opts="-pSECRET"; mysql $opts, a
// function f() { mysql "$@"; } called as f -pSECRET. Where the words are
// written no program is named yet, so the redactor notes what holds them
// (an array or variable assigned option words, set's positionals, a
// function's call) and which programs are given an expansion of a name
// (mysql "$@", sshpass "${args[@]}"). When one of them is given a held
// value, a second pass reads the held words by that program's rules, as
// if they were written after it. Matching goes by name only, whatever the
// order or scope: the second pass redacts at worst a few words more. Two
// passes keep the time linear.
//
// The same pass finds secrets given through a variable: p=SECRET; sshpass
// -p "$p" ssh h, t=SECRET; curl -H "Authorization: Bearer $t". What a rule
// replaces may expand a name; the second pass then replaces the values
// assigned to it (and, for the positionals, the words that set them).

// held is a value that holds words for a later command: its name ("@"
// for the positionals) and its span.
type held struct {
	name     string
	from, to int
}

// preset is a span the second pass reads by program p's rules.
type preset struct {
	from, to int
	p        *program
}

// argvState is what the redactor keeps for this rule.
type argvState struct {
	held []held
	// uses are the programs given an expansion of each name, the first
	// one for a name; funcs the functions defined so far, whose calls
	// hold "@". Both are made when first needed.
	uses  map[string]*program
	funcs map[string]bool
	// progs are the programs variables name as their value's first
	// word (cmd=(mysql -uroot), c=sshpass), for "${cmd[@]}" -pSECRET.
	progs map[string]*program
	// aliases are the names assigned another's value whole (q=$p,
	// q="${p}"): a secret q makes p's value secret too (resolveAliases).
	aliases map[string]string
	// secretUses: a replaced text expanded a name (heldSecret in uses).
	secretUses bool
	// second: this is the second pass; presets are its spans, in order,
	// and presetEnd is where the one being read ends (0 for none).
	second    bool
	presets   []preset
	presetEnd int
	// scanEnd is where the last held value read ends; a value starting
	// before it is not read again, which keeps the pass linear.
	scanEnd int
}

// heldSecret stands, in uses, for a secret's place: the values of the
// name are secret.
var heldSecret = &program{}

// holdWord notes the word s[i:j] when it assigns option words to a name
// (args=(…), args+=(…), opts=-p…, opts="-p…"), is set at a command's
// start, defines a function, or calls one. In the second pass, it
// replaces the value assigned to a name a secret's place expands and
// returns where scanning resumes (0 for no replacement).
func (r *redactor) holdWord(i, j int) int {
	a, s := &r.argv, r.s
	w := s[i:j]
	if a.second {
		if a.secretUses && (w == "read" || w == "mapfile" || w == "readarray") && r.stdin.cmdAt == i && r.readsSecretName(w, j) {
			// read -r p <<< SECRET, mapfile -t a <<< SECRET; sshpass
			// -p "$p" …: what read reads is the secret.
			r.secretInput(i)
			return 0
		}
		if a.secretUses && w == "for" && r.stdin.cmdAt == i {
			if end := r.forWords(j); end > 0 {
				return end // for p in SECRET; do sshpass -p "$p" …
			}
		}
		if a.secretUses && j < len(s) && (s[j] == '=' || strings.HasPrefix(s[j:], "+=")) && a.uses[w] == heldSecret && shellName(w) {
			k := j + 1
			if s[j] == '+' {
				k++
			}
			if k < len(s) && s[k] != '(' {
				start, end := r.valueWord(k, true)
				if end > start {
					return r.replace(start, end, Redacted)
				}
			}
		}
		return 0
	}
	var next byte
	if j < len(s) {
		next = s[j]
	}
	if (next == '=' || next == '+') && shellName(w) {
		k := j + 1
		if s[j] == '+' {
			if !strings.HasPrefix(s[j:], "+=") {
				return 0
			}
			k++
		}
		r.holdProgram(w, k)
		if name := aliasOf(s, k); name != "" && name != w {
			if a.aliases == nil {
				a.aliases = map[string]string{}
			}
			a.aliases[w] = name // q=$p
		}
		switch {
		case k < a.scanEnd:
			// Inside a value already read: each byte is scanned once.
		case k < len(s) && s[k] == '(':
			end := groupEnd(s, k)
			if end > k+1 && s[end-1] == ')' {
				a.hold(w, k+1, end-1)
			}
			a.scanEnd = max(a.scanEnd, end)
		case k+1 < len(s) && (s[k] == '-' || (s[k] == '"' || s[k] == '\'') && s[k+1] == '-'):
			a.hold(w, k, shellWordEnd(s, k))
		}
		return 0
	}
	if (next == '(' && strings.HasPrefix(s[j:], "()") || i >= 9 && s[i-9] == 'f' && s[i-9:i] == "function ") && shellName(w) {
		if a.funcs == nil {
			a.funcs = map[string]bool{}
		}
		a.funcs[w] = true // f() { mysql "$@"; }, function f { … }
		return 0
	}
	if j < a.scanEnd {
		return 0
	}
	if r.stdin.cmdAt == i && (w == "set" || a.funcs[w]) {
		// set -- -pSECRET, f -pSECRET: the command's words are the
		// positionals.
		a.hold("@", j, commandEnd(s, j))
		return 0
	}
	if w[0] == '-' && len(w) >= 2 && w[len(w)-1] == 'c' && w[1] != '-' && shellProgram(r.stdin.cmd) {
		// sh -c 'mysql "$@"' sh -pSECRET: the words after the script
		// are its positionals.
		if k := skipBlanks(s, j); k > j && k < len(s) {
			// $0, the name the script runs as, comes first.
			e := shellWordEnd(s, k)
			if z := skipBlanks(s, e); z > e && z < len(s) && strings.IndexByte("\n\r;|&)", s[z]) < 0 {
				e = shellWordEnd(s, z)
			}
			a.hold("@", e, commandEnd(s, e))
		}
	}
	return 0
}

// secretUse notes the names that the text s[from:to], being replaced as
// a secret, expands: their values are secrets too.
func (r *redactor) secretUse(from, to int) {
	s, a := r.s, &r.argv
	for k := from; k < to; k++ {
		x := strings.IndexByte(s[k:to], '$')
		if x < 0 {
			return
		}
		k += x
		if name := expansionName(s[:to], k+1); name != "" && !allElements(s[:to], k+1) {
			a.use(name, heldSecret)
			a.secretUses = true
		}
	}
}

// holdFeed notes, when the program p is run by xargs, that what the
// pipeline writes is its arguments: echo -pSECRET | xargs mysql.
func (r *redactor) holdFeed(p *program) {
	a, st := &r.argv, &r.stdin
	if a.second || p == noRules || st.nfeed == 0 || !strings.HasPrefix(r.s[st.cmdAt:], "xargs") {
		return
	}
	for _, f := range st.feed[:st.nfeed] {
		a.hold("|", f.from, f.to)
	}
	a.use("|", p)
}

func (a *argvState) hold(name string, from, to int) {
	a.scanEnd = max(a.scanEnd, to)
	if to > from {
		a.held = append(a.held, held{name, from, to})
	}
}

// use notes that program p is given an expansion of name.
func (a *argvState) use(name string, p *program) {
	if a.uses == nil {
		a.uses = map[string]*program{}
	}
	if a.uses[name] == nil || p == heldSecret {
		a.uses[name] = p // a secret's place wins
	}
}

// useAt notes the expansion starting with the '$' at i when it is an
// argument of a program with rules: $@, "$*", $1, ${args[@]}, $opts,
// ${opts}.
func (r *redactor) useAt(i int) {
	a := &r.argv
	if a.second || r.prog == nil || r.prog == noRules {
		return
	}
	if name := expansionName(r.s, i+1); name != "" {
		a.use(name, r.prog)
	}
}

// expansionName returns the name expanded by the text at k, after a '$':
// "@" for the positionals, "" for none.
func expansionName(s string, k int) string {
	if k >= len(s) {
		return ""
	}
	if s[k] == '{' {
		k++
	}
	if k >= len(s) {
		return ""
	}
	switch c := s[k]; {
	case c == '@' || c == '*' || c >= '1' && c <= '9':
		return "@"
	case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		e := k + 1
		for e < len(s) && (s[e] == '_' || wordByte[s[e]] && s[e] != '-' && s[e] != '.') {
			e++
		}
		return s[k:e]
	}
	return ""
}

// allElements reports whether the expansion at k, after a '$', gives
// every element of an array or every positional ("${args[@]}", "$@"):
// held option words, read by the program's rules, rather than one value
// in a secret's place.
func allElements(s string, k int) bool {
	if k < len(s) && (s[k] == '@' || s[k] == '*') {
		return true
	}
	if k >= len(s) || s[k] != '{' {
		return false
	}
	k++
	if k < len(s) && (s[k] == '@' || s[k] == '*') {
		return true
	}
	for k < len(s) && (s[k] == '_' || wordByte[s[k]] && s[k] != '-' && s[k] != '.') {
		k++
	}
	return strings.HasPrefix(s[k:], "[@]") || strings.HasPrefix(s[k:], "[*]")
}

// matches returns the held spans that a noted use gives to a program, in
// order, without overlaps.
func (a *argvState) matches() []preset {
	if len(a.held) == 0 || len(a.uses) == 0 {
		return nil
	}
	var out []preset
	for _, h := range a.held {
		if p := a.uses[h.name]; p != nil {
			out = append(out, preset{h.from, h.to, p})
		}
	}
	sort.SliceStable(out, func(x, y int) bool { return out[x].from < out[y].from })
	kept := out[:0]
	for _, p := range out {
		if len(kept) == 0 || p.from >= kept[len(kept)-1].to {
			kept = append(kept, p)
		}
	}
	return kept
}

// presetAt starts or ends, at i, the reading of a held span by its
// program's rules, or replaces it when it is a secret (second pass); it
// returns where scanning resumes, i when it goes on there.
func (r *redactor) presetAt(i int) int {
	a := &r.argv
	if a.presetEnd > 0 && i >= a.presetEnd {
		r.prog, a.presetEnd = nil, 0
	}
	if len(a.presets) == 0 || i < a.presets[0].from {
		return i
	}
	p := a.presets[0]
	a.presets = a.presets[1:]
	if p.p == heldSecret {
		if from, to := innerSpan(r.s, skipBlanks(r.s, max(i, p.from)), p.to); to > from {
			return max(r.replace(from, to, Redacted), i)
		}
		return i
	}
	r.enterProgram(p.p, i)
	a.presetEnd = p.to
	return i
}

// shellName reports whether w is a shell variable's name.
func shellName(w string) bool {
	if w == "" || w[0] >= '0' && w[0] <= '9' {
		return false
	}
	for k := 0; k < len(w); k++ {
		if c := w[k]; c == '-' || c == '.' {
			return false
		}
	}
	return true
}

// commandEnd returns where the command whose words start at k ends: at a
// line end, ';', '|', '&' or ')' outside quotes.
func commandEnd(s string, k int) int {
	for {
		k = skipBlanks(s, k)
		if k >= len(s) || strings.IndexByte("\n\r;|&)", s[k]) >= 0 && !strings.HasPrefix(s[k:], "&>") {
			return k // &>/dev/null is a redirection
		}
		e := shellWordEnd(s, k)
		if e <= k {
			e = k + 1
		}
		k = e
	}
}

// readsSecretName reports whether the read command cmd (read, mapfile,
// readarray) whose options start at k assigns a name a secret's place
// expands (second pass).
func (r *redactor) readsSecretName(cmd string, k int) bool {
	s := r.s
	skip := false
	// The options that take a value: read's -p PROMPT, -d DELIM, -n N,
	// -t T, -u FD, -a ARRAY; mapfile's -d, -n, -O, -s, -u, -C, -c.
	valued := "pdnNtua"
	if cmd != "read" {
		valued = "dnOsuCc"
	}
	for {
		k = skipBlanks(s, k)
		if k >= len(s) || strings.IndexByte("\n\r;|&)<>", s[k]) >= 0 {
			return false
		}
		e := shellWordEnd(s, k)
		if e <= k {
			return false
		}
		w := s[k:e]
		switch {
		case skip:
			skip = false
		case w[0] == '-':
			// -p PROMPT, -d DELIM, -n N, -t T, -u FD, -a ARRAY take a value.
			skip = len(w) == 2 && strings.IndexByte(valued, w[1]) >= 0 || len(w) > 2 && strings.IndexByte(valued, w[len(w)-1]) >= 0
		case r.argv.uses[w] == heldSecret:
			return true
		}
		k = e
	}
}

// forWords replaces the words of a for loop, whose name starts after k,
// when a secret's place expands the name (second pass), returning where
// scanning resumes, or 0.
func (r *redactor) forWords(k int) int {
	s := r.s
	k = skipBlanks(s, k)
	e := k
	for e < len(s) && wordByte[s[e]] && s[e] != '-' && s[e] != '.' {
		e++
	}
	if e == k || r.argv.uses[s[k:e]] != heldSecret {
		return 0
	}
	k = skipBlanks(s, e)
	if !strings.HasPrefix(s[k:], "in ") {
		return 0
	}
	from := skipBlanks(s, k+3)
	end := from
	for p := from; p < len(s) && strings.IndexByte("\n\r;&|)", s[p]) < 0; {
		w := shellWordEnd(s, p)
		if w <= p || s[p:w] == "do" {
			break
		}
		end = w
		p = skipBlanks(s, w)
	}
	if end <= from {
		return 0
	}
	return r.replace(from, end, Redacted)
}

// holdProgram notes the program that the value at k, assigned to name,
// starts with: cmd=(mysql …), cmd="mysql …", c=sshpass.
func (r *redactor) holdProgram(name string, k int) {
	s := r.s
	for n := 0; n < 2 && k < len(s) && (s[k] == '(' || s[k] == '"' || s[k] == '\''); n++ {
		k++
	}
	e := k
	for e < len(s) && wordByte[s[e]] && e-k < 32 {
		e++
	}
	if e == k || !standsAlone(s, e) {
		return
	}
	if p := lookupProgram(s[k:e]); p != nil && p != noRules {
		if r.argv.progs == nil {
			r.argv.progs = map[string]*program{}
		}
		r.argv.progs[name] = p
	}
}

// heldProgram starts the context of the program a variable names when
// the expansion at i is a command's first word: "${cmd[@]}" -pSECRET,
// $c -p SECRET.
func (r *redactor) heldProgram(i int) {
	a, s := &r.argv, r.s
	if len(a.progs) == 0 || !r.stdin.atCmd {
		return
	}
	k := i + 1
	if k < len(s) && s[k] == '{' {
		k++
	}
	e := k
	for e < len(s) && (s[e] == '_' || wordByte[s[e]] && s[e] != '-' && s[e] != '.') {
		e++
	}
	if p := a.progs[s[k:e]]; p != nil {
		r.enterProgram(p, e)
	}
}

// redactAs is Redact for s read as the options program p is given
// (OPTS=-pSECRET in a call's env map and mysql $OPTS in its command).
func redactAs(s string, p *program, found *[]string) string {
	r := newRedactor(s)
	r.found, r.argv.second, r.argv.presets = found, true, []preset{{0, len(s), p}}
	r.run()
	if r.out == nil {
		return s
	}
	return string(append(r.out, s[r.done:]...))
}

// aliasOf returns the name whose value the value starting at k is whole:
// p for $p, "$p", ${p}, "${p}", ${a[0]}, and one shell down \"\$p\";
// "" for any other value.
func aliasOf(s string, k int) string {
	esc := strings.HasPrefix(s[k:], `\"`)
	q := esc || k < len(s) && s[k] == '"'
	if esc {
		k++
	}
	if q {
		k++
	}
	if k < len(s) && s[k] == '\\' {
		k++ // \$p inside ssh h "…"
	}
	if k+1 >= len(s) || s[k] != '$' {
		return ""
	}
	name := expansionName(s, k+1)
	if name == "" || name == "@" {
		return ""
	}
	e := k + 1 + len(name)
	if s[k+1] == '{' {
		e++
		if e < len(s) && s[e] == '[' {
			// ${a[0]}: an element, whose array holds the secret.
			x := strings.IndexByte(s[e:min(len(s), e+16)], ']')
			if x < 0 {
				return ""
			}
			e += x + 1
		}
		if e >= len(s) || s[e] != '}' {
			return ""
		}
		e++
	}
	if esc {
		if !strings.HasPrefix(s[e:], `\"`) {
			return ""
		}
		e += 2
	} else if q {
		if e >= len(s) || s[e] != '"' {
			return ""
		}
		e++
	}
	if e < len(s) && strings.IndexByte(" \t\n\r;&|)", s[e]) < 0 {
		return ""
	}
	return name
}

// resolveAliases marks, for each name a secret's place expands, the names
// whose values it was assigned whole (p for q=$p; sshpass -p "$q"), along
// chains of any length: their values are the secret too.
func (a *argvState) resolveAliases() {
	for range a.aliases {
		changed := false
		for q, p := range a.aliases {
			if a.uses[q] == heldSecret && a.uses[p] != heldSecret {
				a.use(p, heldSecret)
				changed = true
			}
		}
		if !changed {
			return
		}
	}
}
