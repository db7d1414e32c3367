package audit

// A script that runs a program and writes to its input in the same call:
// Python's subprocess.run(["chpasswd"], input="bob:…"), check_output(…,
// input=b"…"), Node's execSync("chpasswd", {input: "…"}), Ruby's
// Open3.capture2("chpasswd", stdin_data: "…"). The literal is what the
// program reads on its input, so it is secret when the program reads a
// secret there by the rules a shell command is read by
// (ReadsSecretInput): the call's quoted words before it, joined, are
// that command.

// maxProcBack is how far before input= the call's command is looked for.
const maxProcBack = 512

// procInput redacts the literal after input= (or input:, stdin_data:),
// the word s[i:j], when the command of the call it is given to reads a
// secret on its input, and returns where the pass resumes, or 0.
func (r *redactor) procInput(i, j int) int {
	s := r.s
	j = skipBlanks(s, j)
	if j >= len(s) || s[j] != '=' && s[j] != ':' || j+1 < len(s) && s[j+1] == '=' {
		return 0
	}
	k := skipBlanks(s, j+1)
	if k+1 < len(s) && (s[k] == 'b' || s[k] == 'r' || s[k] == 'u') && startsQuote(s, k+1) {
		k++ // b"…", r'…'
	}
	if k >= len(s) || !startsQuote(s, k) && !isAlnumUnderscore(s[k]) {
		return 0
	}
	// The opening parenthesis of the call input= is given to (not of a
	// call closed before it: shlex.split("…")), not looked for twice.
	lo := max(i-maxProcBack, r.procEnd2, 0)
	open, depth := -1, 0
	for x := i - 1; x >= lo && open < 0; x-- {
		switch s[x] {
		case ')':
			depth++
		case '(':
			if depth == 0 {
				open = x
			}
			depth--
		}
	}
	r.procEnd2 = i
	if open < 0 || !ReadsSecretInput(quotedWords(s[open+1:i])) {
		return 0
	}
	if !startsQuote(s, k) {
		r.scriptNameUse(k, identEnd(s, k, false)) // input=pw: pw = "…" is the secret
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}

// quotedWords returns the quoted strings in t joined by blanks: the
// command an argv list or a command string names.
func quotedWords(t string) string {
	var out []byte
	for k := 0; k < len(t); k++ {
		q := t[k]
		if q != '"' && q != '\'' && q != '`' {
			continue
		}
		// [\"chpasswd\"] inside a shell's double quotes: an escaped
		// quote opens the word and one closes it.
		escaped := k > 0 && t[k-1] == '\\'
		e := k + 1
		for e < len(t) && t[e] != q {
			if t[e] == '\\' {
				if escaped && e+1 < len(t) && t[e+1] == q {
					break
				}
				e++
			}
			e++
		}
		if e >= len(t) {
			break
		}
		w := t[k+1 : e]
		if escaped {
			e++ // past the closing quote after its backslash
		}
		if len(out) > 0 {
			out = append(out, ' ')
		}
		out = append(out, w...)
		k = e
	}
	return string(out)
}
