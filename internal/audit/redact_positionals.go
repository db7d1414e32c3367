package audit

import (
	"slices"
	"strings"
)

// Secrets that stand as a program's positional arguments (htpasswd -b F
// USER PASS, vault login TOKEN, smbclient -U user%pass): looked ahead
// for, queued and replaced as the pass reaches them.

// lookAhead finds the secret positionals of the current command, from k
// to the end of the command, and queues them for redaction. Each byte is
// looked at by at most one look-ahead, which keeps the pass linear.
func (r *redactor) lookAhead(k int, ps positional, htpasswd bool) {
	s := r.s
	if k < r.lookEnd {
		return
	}
	if ps.userFirst {
		// AUTH [user] password: read as every positional, then the
		// user's name, the first of two, is kept when the line (ended
		// by an escaped line end too: echo -e 'AUTH pw\nGET k') holds
		// the two words alone.
		ps.userFirst = false
		n := len(r.pending)
		r.lookAhead(k, ps, htpasswd)
		if len(r.pending)-n == 2 && wordsLeft(r.s, k) == 2 {
			r.pending = slices.Delete(r.pending, n, n+1)
		}
		return
	}
	// The command may sit in a string (sh -c '…'), whose closing quote
	// ends it.
	q, _ := r.quoteAt(k)
	if k+1 < len(s) && (s[k] == '"' || s[k] == '\'') && s[k+1] == ',' && q != '$' {
		// The word ends an item of an argv list in a script
		// (["htpasswd", "-b", f, "bob", "pw"]): the items are the words,
		// also inside the string that holds the script (python3 -c
		// '…["htpasswd", "-b", …]…'), whose quote is another.
		r.listAhead(k+2, ps, htpasswd)
		return
	}
	idx, skipNext, shift, unc, named := 0, false, 0, !ps.afterUNC, false
	for {
		k = skipBlanks(s, k)
		if k >= len(s) {
			break
		}
		if q != 0 && (s[k] == q || q == '$' && s[k] == '\'') && (q != '\'' || !strings.HasPrefix(s[k:], `'\''`)) {
			// The quote closes the string, unless it is the inner
			// shell's quote: sh -c 'vault login '\''token'\'''.
			r.lookEnd = k
			return
		}
		c := s[k]
		if c == '&' && k+1 < len(s) && s[k+1] == '>' {
			c = '>' // &>/dev/null: a redirection, no command's end
		}
		switch c {
		case '\n', '\r', ';', '|', '&', ')', '`':
			r.lookEnd = k
			return
		case '<', '>':
			// A redirection: its target is no argument.
			e := k
			for e < len(s) && (s[e] == '<' || s[e] == '>' || s[e] == '&') {
				e++
			}
			if ps.split == aclRule && e == k+1 {
				// redis-cli ACL SETUSER bob on >pw: bash writes to a
				// file named pw, and the word is the password either
				// way.
				t := skipBlanks(s, e)
				if te := wordEnd(s, t, q, false); te > t {
					r.queue(t, te, whole)
					k = te
					continue
				}
			}
			k = e
			if e < len(s) && (s[e] == ' ' || s[e] == '\t') {
				skipNext = true
			} else {
				k = shellWordEnd(s, e)
			}
			continue
		}
		e := wordEnd(s, k, q, false)
		if e == k {
			e = k + 1
		}
		if e < len(s) && (s[e] == '<' || s[e] == '>') && isDigits(s[k:e]) {
			k = e // 2>/dev/null
			continue
		}
		tok := s[k:e]
		switch {
		case skipNext:
			skipNext = false
		case tok == "-":
			// Standard input, where the secret comes from (vault login -).
		case len(tok) > 1 && tok[0] == '-':
			skipNext = r.positionalOption(tok, htpasswd)
		case r.prog != nil && r.prog.winOpts && len(tok) > 1 && tok[0] == '/' && isAlnum(tok[1]):
			// A Windows option: /add, /user:bob.
		case !unc:
			// Counted from the word after \\server\share.
			unc = strings.HasPrefix(strings.TrimLeft(tok, `"'`), `\\`)
		case idx == 0 && slices.Contains(ps.notFirst, tok):
			r.lookEnd = e
			return
		case idx == 0 && len(ps.mounts) > 0 && !mountPath(tok, ps.mounts):
			r.lookEnd = e
			return
		case ps.pair && !strings.Contains(tok, "="):
			// doppler secrets set NAME VALUE: every second such word.
			if named {
				r.queue(k, e, whole)
			}
			named = !named
			if idx++; idx >= maxSecretPositionals {
				r.lookEnd = e
				return
			}
		default:
			want := ps.index + shift
			if htpasswd {
				want = 2
				if r.htN {
					want = 1
				}
			}
			if (ps.every && (ps.split != whole || !strings.Contains(tok, "="))) || (!ps.every && (idx == want || idx == ps.and && ps.and > want)) {
				r.queue(k, e, ps.split)
			}
			if ps.port && idx == 1 && isDigits(tok) {
				shift, want = 1, want+1
			}
			idx++
			// A command takes a few secrets at most; stopping keeps
			// the queue short however long the command is.
			if (!ps.every && idx > max(want, ps.and)) || idx >= maxSecretPositionals {
				r.lookEnd = e
				return
			}
		}
		k = e
	}
	r.lookEnd = k
}

// mountPath reports whether the path tok, quoted or not, starts with one
// of mounts.
func mountPath(tok string, mounts []string) bool {
	tok = strings.TrimLeft(tok, `"'/`)
	for _, m := range mounts {
		if strings.HasPrefix(tok, m) {
			return true
		}
	}
	return false
}

// queue adds the shell word s[k:e], or its secret part, to the spans to
// redact, inside its quotes when it is quoted whole.
func (r *redactor) queue(k, e int, how split) {
	s := r.s
	k, e = innerSpan(s, k, e)
	switch how {
	case oracleLogin:
		k, e = oracleSecret(s, k, e)
	case userColon:
		// bundle config gems.example.com bob:pw; a mirror's URL, or a
		// key with no user before its ':', is no login.
		x := strings.IndexByte(s[k:e], ':')
		if x <= 0 || strings.Contains(s[k:e], "//") {
			return
		}
		k += x + 1
	case afterColon, afterEquals:
		// etcdctl user add bob:pw; vault kv put path key=secret (a
		// word without the separator, the path, is kept).
		x := strings.IndexByte(s[k:e], separator(how))
		if x < 0 {
			return
		}
		k += x + 1
		if how == afterEquals && (s[k:e] == "-" || k < e && s[k] == '@') {
			return // key=- and key=@file name where the value is read
		}
	case aclRule:
		// >password adds one, <password removes one, #sha256 adds one
		// by its hash.
		if s[k] == '#' && aclHash(s[k+1:e]) {
			break
		}
		if s[k] != '>' && s[k] != '<' {
			return
		}
		k++
	case userinfo, domainLogin:
		// [domain/]user:password@host (impacket, mysqlsh).
		at := strings.LastIndexByte(s[k:e], '@')
		colon := strings.IndexByte(s[k:e], ':')
		if how == domainLogin && at < 0 && colon > 0 {
			// domain/user:password, with no target.
			if slash := strings.IndexByte(s[k:e], '/'); slash > 0 && slash < colon && !strings.Contains(s[k:e], "://") {
				k += colon + 1
				break
			}
		}
		if at < 0 || colon < 0 || colon > at || strings.Contains(s[k:e], "://") {
			return
		}
		k, e = k+colon+1, k+at
	}
	if e > k {
		r.pending = append(r.pending, span{k, e})
	}
}

type span struct{ from, to int }

// maxSecretPositionals bounds the positionals one look-ahead reads.
const maxSecretPositionals = 8

// shellWordEnd returns where the shell word starting at k ends, quotes
// included.
func shellWordEnd(s string, k int) int {
	return wordEnd(s, k, 0, false)
}

func isDigits(s string) bool {
	for k := 0; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
	}
	return true
}

// expansionAt reports whether a parameter expansion or command
// substitution starts at k, joined to the option before it (-p$PASS,
// -p${PASS}, -p$(cat f)).
func expansionAt(s string, k int) bool {
	if k+1 >= len(s) || s[k] != '$' {
		return false
	}
	c := s[k+1]
	return c == '{' || c == '(' || c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// sambaUser redacts the password of a Samba-style -U or --user value,
// [domain/]user%password, whose option is s[i:j] (-Ubob when attached),
// in any program: the
// Samba suite's clients, winexe, wmic, pth-* and the rest that reuse its
// option parser take it, and a user name holds no '%'. A value with more
// than one '%' (%USERNAME%) or none before it (%u) is left.
func (r *redactor) sambaUser(i, j int) int {
	s := r.s
	k := j
	switch {
	case j-i > 2 && s[i+1] == 'U':
		k = i + 2 // -Ubob%pw
	case k < len(s) && s[k] == '=':
		k++
	case k < len(s) && (s[k] == ' ' || s[k] == '\t'):
		if k = skipBlanks(s, k); k >= len(s) || s[k] == '-' {
			return 0
		}
	default:
		return 0
	}
	start, end := r.valueWord(k, false)
	v := s[start:end]
	x := strings.IndexByte(v, '%')
	if x < 0 || strings.IndexByte(v[x+1:], '%') >= 0 {
		return 0
	}
	if u := strings.Trim(v[:x], `'"`); u == "" {
		return 0
	}
	return max(r.splitValue(start, end, afterPercent), j)
}

// positionalOption notes the option tok among a program's positionals and reports
// whether the next word is its value. htpasswd's -n prints rather than
// writes a file, which moves the password one place left.
func (r *redactor) positionalOption(tok string, htpasswd bool) (takesValue bool) {
	takesValue = r.prog != nil && r.prog.takesValue(tok)
	if htpasswd && tok[1] != '-' {
		if strings.IndexByte(tok, 'n') > 0 {
			r.htN = true
		}
		// -C cost and -r rounds take a value.
		if c := tok[len(tok)-1]; c == 'C' || c == 'r' {
			takesValue = true
		}
	}
	return takesValue
}

// listAhead is lookAhead over the items of an argv list in a script,
// from k: quoted literals and expressions between commas, up to the
// list's ']' or ')'. An expression (a variable) counts as an item but
// holds no secret text.
func (r *redactor) listAhead(k int, ps positional, htpasswd bool) {
	s := r.s
	idx, skipNext := 0, false
	end := min(len(s), k+maxListLook)
	for k < end {
		for k < end && (s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r') {
			k++
		}
		if k >= end || s[k] == ']' || s[k] == ')' {
			break
		}
		e, literal := k, false
		if s[k] == '"' || s[k] == '\'' {
			c := strings.IndexByte(s[k+1:end], s[k])
			if c < 0 {
				break
			}
			e, literal = k+c+2, true
		} else {
			for e < end && s[e] != ',' && s[e] != ']' && s[e] != ')' && s[e] != '\n' {
				e++
			}
		}
		tok := strings.Trim(s[k:e], `"'`)
		switch {
		case skipNext:
			skipNext = false
		case literal && len(tok) > 1 && tok[0] == '-':
			skipNext = r.positionalOption(tok, htpasswd)
		default:
			want := ps.index
			if htpasswd {
				want = 1
				if !r.htN {
					want = 2
				}
			}
			if ps.every && !strings.Contains(tok, "=") || !ps.every && (idx == want || idx == ps.and && ps.and > want) {
				if literal {
					r.queue(k, e, ps.split)
				} else {
					r.scriptSecretItem(k, e) // htpasswd's password in a name
				}
			}
			idx++
			if !ps.every && idx > max(want, ps.and) || idx >= maxSecretPositionals {
				k = e
				r.lookEnd = k
				return
			}
		}
		k = e
		for k < end && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		if k >= end || s[k] != ',' {
			break
		}
		k++
	}
	r.lookEnd = k
}

// maxListLook bounds how far listAhead reads one argv list.
const maxListLook = 1024
