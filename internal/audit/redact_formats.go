package audit

import (
	"strconv"
	"strings"
)

// Secrets a command builds from two places: a printf format names what
// its arguments are (printf 'password=%s' PW), and a sed substitution's
// pattern names what its replacement is (sed 's/^pass=.*/pass=PW/').

// maxFormat bounds the format a printf look-ahead reads as text whole
// (a longer one is read as its digest, formatDigest), and maxFormatArgs
// the arguments it keeps without allocating; more are read all the same,
// as printf reads them.
const (
	maxFormat     = 4096
	maxFormatArgs = 64
)

// printfArgs reads the printf command whose name ends at j: its format is
// read as the text it prints, each conversion standing for an argument,
// by every rule Redact knows; an argument whose conversion stands where a
// secret goes (password=%s, "token":"%s", Bearer %s, --password=%s) is
// queued as a secret. The format is reused for arguments past its
// conversions, as printf does. One look-ahead per command, bounded by the
// command's end, keeps the pass linear.
func (r *redactor) printfArgs(j int) {
	s := r.s
	if j < r.fmtEnd {
		return
	}
	n0 := len(r.pending)
	defer r.sortPending(n0)
	q, _ := r.quoteAt(j)
	k, format := j, span{-1, -1}
	var buf [maxFormatArgs]span
	args, skipNext := buf[:0], false
	for {
		k = skipBlanks(s, k)
		if k >= len(s) || q != 0 && s[k] == q || strings.IndexByte("\n\r;|&)`<>", s[k]) >= 0 {
			break
		}
		e := wordEnd(s, k, q, false)
		if e <= k {
			break
		}
		tok := s[k:e]
		switch {
		case skipNext:
			skipNext = false
		case format.from < 0 && tok == "-v":
			skipNext = true // printf -v NAME FORMAT …
		case format.from < 0 && (tok == "--" || strings.HasPrefix(tok, "-v")):
		case format.from < 0:
			a, b := innerSpan(s, k, e)
			format = span{a, b}
		default:
			args = append(args, span{k, e})
		}
		k = e
	}
	r.fmtEnd = k
	nargs := len(args)
	if format.from < 0 || nargs == 0 {
		return
	}
	text := s[format.from:format.to]
	if len(text) > maxFormat {
		text = formatDigest(text)
	}
	secret := formatSecrets(text, func(c int) string {
		if c < nargs {
			a, b := innerSpan(s, args[c].from, args[c].to)
			if w := s[a:b]; secretName(w) || secretKey(w) != keyNone {
				return w // a name: printf '%s=%s' DB_PASSWORD PW
			}
		}
		return ""
	})
	if secret == nil {
		return
	}
	for c := 0; c < nargs; c++ {
		if secret[c%len(secret)] {
			r.queue(args[c].from, args[c].to, whole)
		}
	}
}

// maxConvContext bounds the text before a conversion that formatDigest
// keeps.
const maxConvContext = 256

// formatDigest returns a long format cut down to what names its
// conversions: each conversion with the text before it on its line, at
// most maxConvContext bytes and none of the conversion before it, one a
// line (pieces that touch stay joined: %s=%s). A format of many
// kilobytes (a config file printed whole) is not read as text whole, yet
// its password=%s still marks its argument; the pieces do not overlap,
// so the digest is never longer than the format.
func formatDigest(format string) string {
	var b strings.Builder
	prev, n := 0, 0
	for k := 0; k < len(format); k++ {
		switch {
		case format[k] == '\\':
			k++
		case format[k] == '%' && k+1 < len(format) && format[k+1] == '%':
			k++
		case format[k] == '%':
			e := k + 1
			for e < len(format) && strings.IndexByte("-+ #0123456789.*'", format[e]) >= 0 {
				e++
			}
			if e >= len(format) || strings.IndexByte("sbqdiouxXfFeEgGaAc", format[e]) < 0 {
				continue
			}
			from := max(prev, k-maxConvContext)
			if l := strings.LastIndex(format[from:k], "\\n"); l >= 0 {
				from += l + 2
			}
			if l := strings.LastIndexByte(format[from:k], '\n'); l >= 0 {
				from += l + 1
			}
			to := min(len(format), e+3) // a closing quote after it: "token":"%s"
			if c := strings.IndexByte(format[e+1:to], '%'); c >= 0 {
				to = e + 1 + c
			}
			if from > prev && b.Len() > 0 {
				b.WriteString("\\n") // pieces apart in the format are lines apart
			}
			b.WriteString(format[from:to])
			prev, n, k = to, n+1, to-1
		}
	}
	return b.String()
}

// sortPending keeps the queued secrets in order after spans were added
// from n0 on by a look-ahead that may have started before another's end.
func (r *redactor) sortPending(n0 int) {
	p := r.pending
	for a := max(n0, 1); a < len(p); a++ {
		for b := a; b > 0 && p[b].from < p[b-1].from; b-- {
			p[b], p[b-1] = p[b-1], p[b]
		}
	}
}

// formatSecrets returns, for each conversion of a printf format, whether
// its argument stands where a secret goes; nil when the format has no
// conversion or none of them does. It reads the format's text twice:
// with a placeholder for every argument, then with the arguments name(c)
// gives written out (a secret's name standing before '=' or ':',
// printf '%s=%s' DB_PASSWORD PW) where the first reading found no secret.
func formatSecrets(format string, name func(c int) string) []bool {
	text, n := formatText(format, nil, nil)
	if n == 0 {
		return nil
	}
	secret := make([]bool, n)
	found := formatFound(text, secret, nil)
	named := make([]bool, n)
	anyName := false
	for c := range named {
		if !secret[c] && name(c) != "" {
			named[c], anyName = true, true
		}
	}
	if anyName {
		// Only the names standing before '=' or ':' are written out.
		text, _ = formatText(format, named, name)
		found = formatFound(text, secret, named) || found
	}
	if !found {
		return nil
	}
	return secret
}

// formatFound marks in secret the conversions whose placeholder Redact
// removes from text, except those named, and reports whether it marked
// any.
func formatFound(text string, secret, named []bool) bool {
	red := Redact(text)
	if red == text {
		return false
	}
	// The placeholders the text keeps, found in one scan: looking for
	// each in turn would make a format of many conversions quadratic.
	kept := make([]bool, len(secret))
	for k := 0; ; {
		x := strings.Index(red[k:], placeholderStem)
		if x < 0 {
			break
		}
		k += x + len(placeholderStem)
		e := k
		for e < len(red) && red[e] >= '0' && red[e] <= '9' {
			e++
		}
		if c, err := strconv.Atoi(red[k:e]); err == nil && e < len(red) && red[e] == 'x' && c < len(kept) {
			kept[c] = true
		}
		k = e
	}
	any := false
	for c := range secret {
		if (named == nil || !named[c]) && !kept[c] {
			secret[c], any = true, true
		}
	}
	return any
}

// formatText returns the text a printf format prints, with its escapes
// read and each conversion replaced by a placeholder, or by name(c) where
// named[c] and the conversion stands before '=' or ':' (named[c] is
// cleared where it does not), and the number of conversions.
func formatText(format string, named []bool, name func(c int) string) (string, int) {
	var b strings.Builder
	n := 0
	for k := 0; k < len(format); k++ {
		c := format[k]
		switch {
		case c == '\\' && k+1 < len(format):
			k++
			switch format[k] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(format[k])
			}
		case c == '%' && k+1 < len(format) && format[k+1] == '%':
			b.WriteByte('%')
			k++
		case c == '%':
			e := k + 1
			for e < len(format) && strings.IndexByte("-+ #0123456789.*'", format[e]) >= 0 {
				e++
			}
			if e >= len(format) || strings.IndexByte("sbqdiouxXfFeEgGaAc", format[e]) < 0 {
				b.WriteByte(c)
				continue
			}
			if n < len(named) && named[n] && e+1 < len(format) && strings.IndexByte(`=:"'`, format[e+1]) >= 0 {
				b.WriteString(name(n))
			} else {
				if n < len(named) {
					named[n] = false // a placeholder after all
				}
				b.WriteString(formatPlaceholder(n))
			}
			n++
			k = e
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), n
}

// formatPlaceholder stands for printf's nth argument: a plain word long
// enough for the rules that want a token's length (Bearer …), with no
// credential word or token shape of its own.
func formatPlaceholder(n int) string {
	return placeholderStem + strconv.Itoa(n) + "x"
}

// placeholderStem starts every formatPlaceholder.
const placeholderStem = "wardenArgument"

// sedDelims are the delimiters a sed s command is written with.
const sedDelims = "/#|,:@!%+~^"

// maxSedPart bounds the pattern and the replacement a sed look-ahead reads.
const maxSedPart = 1024

// sedSubstitution reads a sed (or perl) s command whose 's' is s[i:j]:
// when its pattern names a secret (s/^password=.*/…/, s/__DB_PASSWORD__/…/,
// s/requirepass .*/…/), its replacement writes one, and is redacted,
// keeping back-references and the key written again before the value
// (s/^pass=.*/pass=[REDACTED]/). It returns where scanning resumes, or 0
// when there is no such command.
func (r *redactor) sedSubstitution(i, j int) int {
	s := r.s
	if j+1 >= len(s) || strings.IndexByte(sedDelims, s[j]) < 0 || !sedStart(s, i) {
		return 0
	}
	d := s[j]
	pe := sedPartEnd(s, j+1, d)
	if pe < 0 {
		return 0
	}
	key := sedSecretWord(s[j+1 : pe])
	re := -1
	if key == "" {
		// sed -i 's/changeme/…/' /etc/app/db_password: whatever the
		// pattern names, the replacement is written into a credential
		// file.
		if re = sedPartEnd(s, pe+1, d); re < 0 || re == pe+1 || !r.editsCredentialFile(re) {
			return 0
		}
		r.replace(pe+1, re, Redacted)
		return re
	}
	re = sedPartEnd(s, pe+1, d)
	if re < 0 {
		return 0
	}
	k := pe + 1
	for k+1 < re && (s[k] == '\\' && s[k+1] >= '0' && s[k+1] <= '9') {
		k += 2 // \1: the key the pattern captured
	}
	if k < re && s[k] == '&' {
		k++
	}
	if strings.HasPrefix(s[k:re], key) {
		k += len(key)
		for k < re && strings.IndexByte(" \t=:\"'", s[k]) >= 0 {
			k++
		}
	}
	if k >= re {
		return 0
	}
	r.replace(k, re, Redacted)
	return re
}

// sedStart reports whether the s at i begins a sed command: at the start
// of a word, or after a sed address or a ';' or '{' inside a script.
func sedStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '\t', '\n', '\'', '"', ';', '{', '}':
		return true
	}
	return false
}

// sedPartEnd returns the index of the delimiter d that ends the part of an
// s command starting at k, or -1 when none does within maxSedPart bytes
// of the line.
func sedPartEnd(s string, k int, d byte) int {
	for e := k; e < len(s) && e-k < maxSedPart; e++ {
		switch s[e] {
		case '\\':
			e++
		case '\n':
			return -1
		case d:
			return e
		}
	}
	return -1
}

// sedSecretWord returns the word of a sed pattern that names a secret (a
// key secretKey calls secret, a variable-styled name secretName does, a
// daemon's password directive), or "".
func sedSecretWord(p string) string {
	for k := 0; k < len(p); {
		if !isAlnum(p[k]) {
			k++
			continue
		}
		e := k
		for e < len(p) && (isAlnum(p[e]) || p[e] == '_' || p[e] == '-' || p[e] == '.') {
			e++
		}
		w := strings.TrimRight(p[k:e], "_-.")
		if secretKey(w) != keyNone || nameStyled(w) && secretName(w) || secretDirective(w) {
			return w
		}
		k = e
	}
	return ""
}
