package audit

import "strings"

// Names bash joins from quoted parts. An option or a variable's name may be
// quoted or escaped in part or whole — '--user' 'bob:pw', "-p" pw,
// --pass\word=pw, --us""er, env PG"PASS"WORD=pw — and bash removes the
// quotes before the program reads it, so the name is read as the joined
// text and its value by the same rules as the plain spelling.

// maxQuotedName bounds the bytes a joined name is read from, which keeps
// the pass linear however many words start with a quote.
const maxQuotedName = 128

// quotedName returns the name bash joins from the shell word around the
// word s[i:j] when quotes or backslashes take part in it, and where the
// name ends in s (at '=', a blank or the end of the word); ok is false
// when the word is plain or the name is not a name.
func (r *redactor) quotedName(i, j int) (name string, end int, ok bool) {
	s := r.s
	start := i
	switch {
	case i > 1 && s[i-2] == '$' && (s[i-1] == '\'' || s[i-1] == '"') && startsWord(s, i-2):
		// $'-u', $"--user": ANSI-C and locale quotes start the word.
		if q, at := r.quoteAt(i); !at || q != '$' && q != s[i-1] {
			return "", 0, false
		}
		start = i - 2
	case i > 0 && (s[i-1] == '\'' || s[i-1] == '"'):
		// A quote that starts the shell word at bash's top level: the
		// quote open at i is the one at i-1.
		// An argv list's first item follows its bracket:
		// spawn(cmd, ['--password', pw]).
		if !startsWord(s, i-1) && (i < 2 || s[i-2] != '[') {
			return "", 0, false
		}
		// Inside a script's quotes (python3 -c '…'), the item's own
		// quotes are the script's: a.append("--password").
		q, at := r.quoteAt(i)
		if !at && r.quotes.inBody(i) {
			// A script fed as a here-document: its quotes are all the
			// script's own.
			q, at = s[i-1], true
		}
		if !at || q != s[i-1] && (q == 0 || i < 2 || s[i-2] != '(' && s[i-2] != '[' && !strings.HasSuffix(s[:i-1], "<< ") && !strings.HasSuffix(s[:i-1], ", ")) {
			return "", 0, false
		}
		start = i - 1
	case j < len(s) && (s[j] == '\'' || s[j] == '"' || s[j] == '\\' || dollarQuote(s, j)) && startsWord(s, i):
		if q, at := r.quoteAt(i); !at || q != 0 {
			return "", 0, false
		}
	default:
		return "", 0, false
	}
	var buf [maxQuotedName]byte
	n, q, k := 0, byte(0), start
	for k < len(s) && k-start < maxQuotedName {
		c := s[k]
		switch {
		case q == 0 && dollarQuote(s, k):
			k++ // $'…' and $"…" quote as '…' and "…" do
			q = s[k]
		case q == 0 && (c == '\'' || c == '"'):
			q = c
		case q != 0 && c == q:
			q = 0
		case c == '\\' && q == 0 && k+1 < len(s) && s[k+1] == '\n':
			k++ // -\⏎u: a line continuation, which bash removes
		case c == '\\' && q != '\'' && k+1 < len(s) && wordByte[s[k+1]]:
			k++
			buf[n] = s[k]
			n++
		case wordByte[c]:
			buf[n] = c
			n++
		default:
			goto done
		}
		k++
	}
done:
	if q != 0 || n < 2 || k-start == n || k-start >= maxQuotedName {
		return "", 0, false // an open quote, a plain word, or too long
	}
	if k < len(s) && s[k] != '=' && s[k] != ' ' && s[k] != '\t' && s[k] != '\n' && (s[k] != ',' && argChain(s, k) == 0 && shovelNext(s, k) == 0 || s[k-1] != s[start]) {
		return "", 0, false // not even an argv list's item ("-p", …)
	}
	return string(buf[:n]), k, true
}

// dollarQuote reports whether an ANSI-C or locale quote ($'…', $"…")
// opens at k.
func dollarQuote(s string, k int) bool {
	return k+1 < len(s) && s[k] == '$' && (s[k+1] == '\'' || s[k+1] == '"')
}

// joinedWord redacts the value after a name joined from quoted parts
// (quotedName) by the current program's option rules or the secret-name
// rules, and returns where scanning resumes, or 0.
func (r *redactor) joinedWord(i, j int) int {
	name, k, ok := r.quotedName(i, j)
	if !ok {
		return 0
	}
	s := r.s
	flag := name[0] == '-'
	if flag && r.prog != nil && (r.attachedValue(name) || r.prog.cluster && holdsValue(r.prog, name)) && (k >= len(s) || s[k] != '=') {
		// -p'MyPassword1', -pS'…', ['-pS3cret', …], .arg("-pS3cret"),
		// and a cluster's (["ldapsearch", "-xwS3cret", "-D", …]): the
		// option rule reads the value; the next item is none. An item
		// quoted plainly ends its value at its quote, which inside a
		// script's own quotes (python3 -c '…["-pS3cret", "-D"]…') the
		// shell's reading of the word would run past.
		if q := s[k-1]; (q == '"' || q == '\'') && s[i-1] == q && k-i == len(name)+1 {
			if o, at, ok := r.attachedOption(name); ok {
				return max(r.splitValue(i+at, k-1, o.split), k)
			}
		}
		return 0
	}
	if flag && k < len(s) && s[k] == ',' {
		if end := r.listItemValue(name, k); end > k || r.prog == nil || !r.prog.htpasswd {
			return end
		}
		return 0 // htpasswd's -b: its option rule reads the list's items
	}
	if flag {
		if a := argChain(s, k); a > 0 {
			return r.listItemValue(name, a) // .arg("--password").arg("…")
		}
		if a := shovelNext(s, k); a > 0 {
			return r.listItemValue(name, a) // a << "--password" << "…"
		}
	}
	if flag && r.prog != nil {
		for _, o := range r.prog.opts {
			if o.name != name || o.attachedOnly || (o.sub != "" && !r.hasSub(o.sub)) {
				continue
			}
			v := k + 1
			if k >= len(s) || s[k] != '=' {
				if v = skipBlanks(s, k); v == k || v >= len(s) || s[v] == '-' {
					return k
				}
			}
			return max(r.optionValue(v, o.split), k)
		}
	}
	kind := secretKey(name)
	if kind == keyNone && flag && flagSecretName(name) {
		kind = keyPlain
	}
	if kind == keyNone && !flag && k < len(s) && s[k] == '=' && secretName(name) {
		kind = keyName
	}
	if kind == keyNone || flag && len(name) > 5 && name[:5] == "--no-" {
		return 0
	}
	return r.keyValue(k, flag, kind, true)
}

// attachedValue reports whether the joined word name is one of the
// current program's options with its value attached: mysql's -p and
// -pSECRET, where name is "-pSECRET" however SECRET is quoted. The word
// is then no option name to take the next word as its value.
func (r *redactor) attachedValue(name string) bool {
	for _, o := range r.prog.opts {
		if o.sub != "" && !r.hasSub(o.sub) || len(name) <= len(o.name) || !strings.HasPrefix(name, o.name) {
			continue
		}
		if o.attachedOnly || len(o.name) == 2 && !r.prog.noAttach {
			return true
		}
	}
	return false
}

// attachedOption returns the current program's option whose value the
// option word name holds attached, and where in name the value starts:
// -pS3cret, or the first option letter of a cluster (-xwS3cret).
func (r *redactor) attachedOption(name string) (option, int, bool) {
	for _, o := range r.prog.opts {
		if o.sub != "" && !r.hasSub(o.sub) || len(name) <= len(o.name) || !strings.HasPrefix(name, o.name) {
			continue
		}
		if o.attachedOnly || len(o.name) == 2 && !r.prog.noAttach {
			return o, len(o.name), true
		}
	}
	if !r.prog.cluster || len(name) < 3 || name[1] == '-' {
		return option{}, 0, false
	}
	for x := 1; x < len(name)-1; x++ {
		for _, o := range r.prog.opts {
			if len(o.name) == 2 && o.name[1] == name[x] && (o.sub == "" || r.hasSub(o.sub)) {
				return o, x + 1, true
			}
		}
		if r.prog.flags != "" && strings.IndexByte(r.prog.flags, name[x]) < 0 {
			break
		}
	}
	return option{}, 0, false
}

// argChain returns the index of the '(' of the next argument when the
// item ending at the ')' at k is one argument of a builder's chain
// (Rust's Command::new(p).arg("-p").arg("…"), Java's .add("-p")), or 0.
func argChain(s string, k int) int {
	if k >= len(s) || s[k] != ')' {
		return 0
	}
	for _, c := range addMethods {
		if strings.HasPrefix(s[k+1:], c) {
			return k + len(c)
		}
	}
	if strings.HasPrefix(s[k+1:], ".Arg(") {
		return k + 5
	}
	return nextAddCall(s, k+1)
}

// listItemValue redacts the item after the option item name of an argv
// list in a script (["sshpass", "-p", "secret"], exec.Command("curl",
// "-u", "bob:secret")), whose ',' is at k, and returns where scanning
// resumes.
func (r *redactor) listItemValue(name string, k int) int {
	s := r.s
	how, ok := whole, false
	if o, found := nextItemOption(r.prog, name, r.hasSub); found {
		how, ok = o.split, true
	}
	if !ok && (secretKey(name) == keyNone && !flagSecretName(name) || holdsValue(r.prog, name)) {
		return k
	}
	v := skipBlanks(s, k+1)
	if v >= len(s) || (s[v] != '\'' && s[v] != '"') {
		if e := v + strings.IndexAny(s[v:min(len(s), v+64)], ",)]"); e > v {
			r.scriptSecretItem(v, e) // "-p", pw: the name pw holds it
		}
		return k
	}
	start, end := valueSpan(s, v)
	return max(r.splitValue(start, end, how), k)
}
