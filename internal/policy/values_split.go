package policy

import (
	"slices"
	"strconv"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Values bash builds from pieces the script states: the fields read
// splits a line into (read a b <<< "/var/lib warden", IFS=/ read -r a b c),
// the elements "${a[*]}" and "$*" join with IFS's first character, an
// element counted from the end (${a[-1]}), and the positional parameters a
// call of the script's own function gives its body (f() { cat
// $1/warden/token; }; f /var/lib). Each only adds values to try.

// maxCalls caps the calls of the script's own functions derive reads.
const maxCalls = 64

// posCall is a call whose program may be one of the script's functions.
type posCall struct {
	name string
	args []*syntax.Word
}

// noteCall records a call whose arguments become a function's
// positional parameters, if the script declares a function of that name.
func (sc *scope) noteCall(ce *syntax.CallExpr) {
	if len(ce.Args) < 2 || len(sc.calls) >= maxCalls {
		return
	}
	name, ok := litValue(ce.Args[0])
	if !ok || !validName(name) {
		return
	}
	sc.calls = append(sc.calls, posCall{name, ce.Args[1:]})
}

// globLit reports whether an unquoted literal part of w is a pattern the
// shell expands into file names.
func globLit(w *syntax.Word) bool {
	for _, p := range w.Parts {
		if l, ok := p.(*syntax.Lit); ok && isPattern(l.Value) {
			return true
		}
	}
	return false
}

// allPositionals is "$@", the list a for loop with no words walks.
var allPositionals = &syntax.Word{Parts: []syntax.WordPart{&syntax.DblQuoted{Parts: []syntax.WordPart{
	&syntax.ParamExp{Short: true, Param: &syntax.Lit{Value: "@"}}}}}}

// noteDerivedWord records that name takes the value of a word that is not
// a literal, computed later by derive: a loop over "$@" or $d.
func (sc *scope) noteDerivedWord(name string, w *syntax.Word) {
	if len(sc.derived) < maxDerived {
		sc.derived = append(sc.derived, derivedAssign{name, w})
	}
}

// noteArray records the elements of an array assigned as a literal list
// in order, which "${a[*]}" joins and ${a[-1]} counts back from.
func (sc *scope) noteArray(name string, elems []string) {
	if len(elems) == 0 || len(sc.arrays) >= maxVars {
		return
	}
	if sc.arrays == nil {
		sc.arrays = map[string][][]string{}
	}
	if len(sc.arrays[name]) < maxVarValues {
		sc.arrays[name] = append(sc.arrays[name], elems)
	}
}

// deriveJoins adds, once the whole script is read, the positional
// parameters of the script's own functions and the values joined from
// arrays and positionals.
func (sc *scope) deriveJoins() {
	if sc.joined {
		return
	}
	sc.joined = true
	for _, c := range sc.calls {
		if _, ok := sc.funcAt[c.name]; !ok {
			continue
		}
		var lits []string
		for i, w := range c.args {
			if i >= 9 {
				break
			}
			pos := strconv.Itoa(i + 1)
			if globLit(w) {
				// f cdable_var? gives $1 the names the pattern matches,
				// not its text: unknown.
				lits = nil
				continue
			}
			if v, ok := litValue(w); ok {
				sc.addValue(pos, v)
				sc.addValue("@", v)
				if lits != nil || i == 0 {
					lits = append(lits, v)
				}
				continue
			}
			lits = nil
			if len(sc.derived) < maxDerived {
				sc.derived = append(sc.derived, derivedAssign{pos, w}, derivedAssign{"@", w})
			}
		}
		if len(lits) == len(c.args) {
			sc.noteArray("*", lits)
		}
	}
	seps := []string{" "}
	for _, v := range sc.vars["IFS"] {
		if v == "" {
			seps = append(seps, "")
		} else {
			seps = append(seps, v[:1])
		}
	}
	for name, lists := range sc.arrays {
		key := name + "[*]"
		if name == "*" {
			key = "*"
		}
		for _, elems := range lists {
			for _, sep := range seps {
				sc.addValue(key, strings.Join(elems, sep))
			}
			if name == "*" {
				continue
			}
			for i, v := range elems {
				sc.addValue(name+"[-"+strconv.Itoa(len(elems)-i)+"]", v)
			}
		}
	}
}

// indexKey is the name under which scope keeps the values of the element
// p names: a[2] for ${a[2]}, a[-1] for ${a[-1]}, a[*] for ${a[*]}, whose
// elements are joined.
func indexKey(p *syntax.ParamExp) (string, bool) {
	switch x := p.Index.(type) {
	case *syntax.Word:
		if v, ok := litValue(x); ok && v == "*" {
			return p.Param.Value + "[*]", true
		}
	case *syntax.UnaryArithm:
		if n, ok := literalInt(x.X); ok && x.Op == syntax.Minus && !x.Post && n > 0 {
			return p.Param.Value + "[-" + strconv.Itoa(n) + "]", true
		}
		return "", false
	}
	if n, ok := literalInt(p.Index); ok {
		return elementKey(p.Param.Value, n), true
	}
	return "", false
}

// sliceKey is the element key of ${a[@]:N…}, which bindings tries.
func sliceKey(p *syntax.ParamExp) (string, bool) {
	if p.Slice == nil {
		return "", false
	}
	w, ok := p.Index.(*syntax.Word)
	if !ok {
		return "", false
	}
	if v, _ := litValue(w); v != "@" && v != "*" {
		return "", false
	}
	off, ok := literalInt(p.Slice.Offset)
	return elementKey(p.Param.Value, off), ok
}

// readSplit splits a line as read does with the given IFS: fields
// separated by runs of IFS blanks or by one other IFS character with
// blanks around it, the last of n names taking the rest of the line (n
// of 0 splits every field, as read -a does).
func readSplit(line, ifs string, n int) []string {
	blank := func(c byte) bool { return (c == ' ' || c == '\t' || c == '\n') && strings.IndexByte(ifs, c) >= 0 }
	trim := func(s string) string {
		for s != "" && blank(s[0]) {
			s = s[1:]
		}
		for s != "" && blank(s[len(s)-1]) {
			s = s[:len(s)-1]
		}
		return s
	}
	s := trim(line)
	if ifs == "" {
		return []string{s}
	}
	var out []string
	for s != "" {
		if n > 0 && len(out) == n-1 {
			return append(out, s)
		}
		i := strings.IndexAny(s, ifs)
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		j := i
		for j < len(s) && blank(s[j]) {
			j++
		}
		if j < len(s) && !blank(s[j]) && strings.IndexByte(ifs, s[j]) >= 0 {
			j++ // one delimiter that is not a blank
		}
		for j < len(s) && blank(s[j]) {
			j++
		}
		s = s[j:]
	}
	return out
}

// readIFS returns the IFS values a read may split with: the one assigned
// before it (IFS=/ read …), otherwise the default and every value the
// script gives IFS.
func (sc *scope) readIFS(ce *syntax.CallExpr) []string {
	for _, a := range ce.Assigns {
		if a.Name != nil && a.Name.Value == "IFS" && !a.Append && a.Index == nil && a.Array == nil {
			if a.Value == nil {
				return []string{""}
			}
			if v, ok := litValue(a.Value); ok {
				return []string{v}
			}
			return nil
		}
	}
	return append([]string{" \t\n"}, sc.vars["IFS"]...)
}

// readFields records the values read's names take from a line: each
// name's field, or with -a each element of the array.
func (sc *scope) readFields(ce *syntax.CallExpr, line string, names []string, array bool) {
	for _, ifs := range sc.readIFS(ce) {
		if array {
			f := readSplit(line, ifs, 0)
			for i, v := range f {
				sc.addValue(names[0], v)
				sc.addValue(elementKey(names[0], i), v)
			}
			sc.noteArray(names[0], f)
			continue
		}
		f := readSplit(line, ifs, len(names))
		for i, name := range names {
			if i < len(f) && !slices.Contains(names[i+1:], name) {
				sc.addValue(name, f[i])
			}
		}
	}
}

// arraySlice is the trial value of ${a[@]:N:1} and ${a[*]:N}, the
// elements from N: the one at N, where the script assigned it.
func (r *resolver) arraySlice(p *syntax.ParamExp) (string, bool) {
	if p.Param == nil || p.Slice == nil || p.Excl || p.Length || p.Repl != nil || p.Exp != nil || p.Names != 0 {
		return "", false
	}
	key, ok := sliceKey(p)
	if !ok {
		return "", false
	}
	v, ok := r.bind[key]
	return v, ok
}

// stdinLitText is the text a command's redirections give its standard
// input when the script states it: a here-string or here-document, or a
// process substitution that prints literal text (< <(echo /etc/…)).
func stdinLitText(redirs []*syntax.Redirect) (string, bool) {
	text, found := "", false
	for _, r := range redirs {
		if redirFD(r) != 0 {
			continue
		}
		found = false
		switch r.Op {
		case syntax.WordHdoc:
			if text, found = litValue(r.Word); found {
				text += "\n"
			}
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				text, found = hdocText(r.Hdoc)
			}
		case syntax.RdrIn:
			if r.Word != nil && len(r.Word.Parts) == 1 {
				if ps, ok := r.Word.Parts[0].(*syntax.ProcSubst); ok && ps.Op == syntax.CmdIn && len(ps.Stmts) == 1 {
					text, found = litOutput(ps.Stmts[0])
				}
			}
		}
	}
	return text, found
}

// litOutput is what a statement prints when it is a literal echo or
// printf, with its trailing newline.
func litOutput(s *syntax.Stmt) (string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(s.Redirs) > 0 || len(ce.Assigns) > 0 || len(ce.Args) == 0 {
		return "", false
	}
	vals, ok := litValues(ce.Args)
	if !ok {
		return "", false
	}
	switch vals[0] {
	case "echo":
		// bash's echo takes -n, -e and -E, alone or together, before
		// its words; any other word starting with "-" is printed.
		words, esc, nl := vals[1:], false, "\n"
		for len(words) > 0 && len(words[0]) > 1 && words[0][0] == '-' && strings.Trim(words[0][1:], "neE") == "" {
			for _, f := range words[0][1:] {
				switch f {
				case 'n':
					nl = ""
				case 'e':
					esc = true
				case 'E':
					esc = false
				}
			}
			words = words[1:]
		}
		out := strings.Join(words, " ")
		if esc {
			out = echoEsc(out)
		}
		return out + nl, true
	case "printf":
		if len(vals) < 2 || strings.HasPrefix(vals[1], "-") {
			return "", false
		}
		return printfOut(vals[1], vals[2:]), true
	}
	return "", false
}

// loopReads records the values a while read loop takes from the text it
// reads, every line: while read d; do grep -r x "$d"; done <<< /var/lib,
// and echo /var/lib | while read d …. A group or subshell that begins
// with read takes a line as surely: printf … | { read d; cat "$d"; }.
func (sc *scope) loopReads(s *syntax.Stmt, text string, found bool) {
	ce := lineReader(s)
	if ce == nil || !found && len(s.Redirs) == 0 {
		return
	}
	texts := []string{text}
	if !found {
		texts = sc.stdinTexts(s.Redirs)
	}
	for _, t := range texts {
		sc.readText(ce, t, true)
	}
}

// lineReader returns the command that reads the lines s takes on its
// standard input, for readText to follow: a while loop's condition, or the
// first command of a group or subshell, when it reads that input itself.
func lineReader(s *syntax.Stmt) *syntax.CallExpr {
	var first *syntax.Stmt
	switch c := s.Cmd.(type) {
	case *syntax.WhileClause:
		if c.Until || len(c.Cond) == 0 {
			return nil
		}
		first = c.Cond[len(c.Cond)-1]
	case *syntax.Block:
		if len(c.Stmts) == 0 || len(c.Stmts[0].Redirs) > 0 {
			return nil
		}
		first = c.Stmts[0]
	case *syntax.Subshell:
		if len(c.Stmts) == 0 || len(c.Stmts[0].Redirs) > 0 {
			return nil
		}
		first = c.Stmts[0]
	default:
		return nil
	}
	ce, _ := first.Cmd.(*syntax.CallExpr)
	return ce
}

// catTexts returns what a plain cat FILE (or cat < FILE) prints of a
// file the script wrote literal text to.
func (sc *scope) catTexts(s *syntax.Stmt) ([]string, bool) {
	ce, ok := s.Cmd.(*syntax.CallExpr)
	if !ok || len(ce.Assigns) > 0 || len(ce.Args) == 0 || len(ce.Args) > 2 {
		return nil, false
	}
	if v, _ := litValue(ce.Args[0]); v != "cat" || sc.shadowed("cat") {
		return nil, false
	}
	if len(ce.Args) == 1 {
		ts := sc.stdinTexts(s.Redirs)
		return ts, len(ts) > 0
	}
	f, ok := litValue(ce.Args[1])
	if !ok || len(s.Redirs) > 0 || strings.HasPrefix(f, "-") {
		return nil, false
	}
	ts := sc.fileTexts(f)
	return ts, len(ts) > 0
}

// stdinTexts returns the texts redirs may give standard input: the
// literal text stdinLitText finds, or what the script wrote to the file
// read with < FILE (echo / > l; while read d; … done < l).
func (sc *scope) stdinTexts(redirs []*syntax.Redirect) []string {
	if text, found := stdinLitText(redirs); found {
		return []string{text}
	}
	for i := len(redirs) - 1; i >= 0; i-- {
		r := redirs[i]
		if redirFD(r) != 0 {
			continue
		}
		if r.Op != syntax.RdrIn || r.Word == nil {
			return nil
		}
		f, ok := litValue(r.Word)
		if !ok {
			return nil
		}
		return sc.fileTexts(f)
	}
	return nil
}
