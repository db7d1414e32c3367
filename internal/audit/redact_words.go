package audit

import "strings"

// Shell words. A secret value ends where bash ends the word that holds it,
// not at its first quote: pass"wo"rd, 'a b'c, $'…', \ escapes, $(…), ${…}
// and `…` are all one word. The command the redactor reads may itself sit
// inside quotes (sh -c '…', ssh host "…", a JSON string), so the pass keeps
// bash's top-level quoting as it moves forward (quoteTracker): a quote that
// closes the string a value sits in ends the value, any other quote opens
// a part of it.
//
// A value read this way is read once: the reads never overlap (readEnd),
// and a value starting inside one already read is read by the older,
// quote-stopping grammar, so the pass stays linear.

// quoteTracker follows bash's top-level quoting of s forward, skipping
// comments and here-document bodies, where quotes are no quotes.
type quoteTracker struct {
	pos    int
	q      byte     // the open quote: 0, '\'', '"' or '$' for $'…'
	open   int      // where the open quote starts
	delims []string // here-document delimiters waiting for their line end
	// body is the last here-document text skipped, where a script's
	// own quotes stand (python3 - <<'EOF'⏎subprocess.run(["…"])).
	body span
	// closeOf is open+1 for the string whose close closes last looked
	// for (0 for none), closed what it found.
	closeOf int
	closed  bool
	// first is where the first of the strings the idiom '\'' glues
	// into one word with the open one opens (open itself when none).
	first int
	// inner follows the quotes of a shell's script inside the string
	// (redact_innerquotes.go).
	inner innerQuotes
}

// inBody reports whether p lies in the here-document text the tracker
// skipped last.
func (t *quoteTracker) inBody(p int) bool {
	return p >= t.body.from && p < t.body.to
}

// maxDelims bounds the here-documents one line may start.
const maxDelims = 8

// quoteAt returns the quote open just before s[p] at bash's top level, and
// false when the tracker has already passed p.
func (r *redactor) quoteAt(p int) (byte, bool) {
	t, s := &r.quotes, r.s
	if p < t.pos {
		return 0, p == t.pos
	}
	for t.pos < p {
		c := s[t.pos]
		switch t.q {
		case 0:
			switch c {
			case '\\':
				t.pos += 2
				continue
			case '\'', '"':
				t.q, t.open = c, t.pos
				if c == '"' || t.pos < 3 || s[t.pos-3:t.pos+1] != `'\''` {
					t.first = t.pos
				}
			case '$':
				if strings.HasPrefix(s[t.pos:], "$'") {
					t.q, t.open, t.pos = '$', t.pos, t.pos+2
					continue
				}
			case '#':
				if commentStart(s, t.pos) {
					e := strings.IndexByte(s[t.pos:], '\n')
					if e < 0 {
						t.pos = len(s)
						continue
					}
					t.pos += e
					continue
				}
			case '<':
				if strings.HasPrefix(s[t.pos:], "<<<") {
					t.pos += 3
					continue
				}
				if strings.HasPrefix(s[t.pos:], "<<") {
					t.pos = t.heredoc(s, t.pos+2)
					continue
				}
			case '\n':
				if len(t.delims) > 0 {
					from := t.pos + 1
					t.pos = skipBodies(s, from, t.delims)
					t.body = span{from, t.pos}
					t.delims = t.delims[:0]
					continue
				}
			}
		case '\'':
			if c == '\'' {
				t.q = 0
			}
		case '$', '"':
			switch {
			case c == '\\':
				t.pos += 2
				continue
			case c == '\'' && t.q == '$', c == '"' && t.q == '"':
				t.q = 0
			}
		}
		t.pos++
	}
	return t.q, t.pos == p
}

// commentStart reports whether a '#' at i starts a comment.
func commentStart(s string, i int) bool {
	if i == 0 {
		return true
	}
	switch s[i-1] {
	case ' ', '\t', '\n', ';', '|', '&', '(':
		return true
	}
	return false
}

// heredoc notes the delimiter of a here-document whose operator ends at k
// and returns where tracking resumes.
func (t *quoteTracker) heredoc(s string, k int) int {
	if k < len(s) && s[k] == '-' {
		k++
	}
	k = skipBlanks(s, k)
	e := shellWordEnd(s, k)
	if e > k && len(t.delims) < maxDelims {
		t.delims = append(t.delims, strings.Map(func(c rune) rune {
			if c == '\'' || c == '"' || c == '\\' {
				return -1
			}
			return c
		}, s[k:e]))
	}
	return max(e, k)
}

// skipBodies returns the end of the here-document bodies starting at k,
// each ending at its delimiter line.
func skipBodies(s string, k int, delims []string) int {
	for _, d := range delims {
		for k < len(s) {
			e := strings.IndexByte(s[k:], '\n')
			line := s[k:]
			if e >= 0 {
				line = s[k : k+e]
			}
			if e < 0 {
				k = len(s)
			} else {
				k += e + 1
			}
			if strings.TrimLeft(line, "\t") == d {
				break
			}
		}
	}
	return k
}

// valueWord returns the span of the value starting at k to replace: the
// shell word there (wordEnd; list as there), inside its quotes when one
// quoted part is all of it. A value inside one read before, or behind the
// quote tracker, is read as valueSpan reads it.
func (r *redactor) valueWord(k int, list bool) (start, end int) {
	if k >= len(r.s) {
		return k, k
	}
	q, ok := r.quoteAt(k)
	if !ok || k < r.readEnd {
		return valueSpan(r.s, k)
	}
	end = wordEnd(r.s, k, q, list)
	r.readEnd = end
	return innerSpan(r.s, k, end)
}

// innerSpan returns s[k:end] without its quotes when it is one quoted
// part ('…', "…", $'…' or the JSON-escaped \"…\"), else unchanged.
func innerSpan(s string, k, end int) (int, int) {
	w := s[k:end]
	switch {
	case len(w) >= 8 && strings.HasPrefix(w, `'\''`) && strings.HasSuffix(w, `'\''`) && strings.Index(w[4:], `'\''`) == len(w)-8:
		return k + 4, end - 4 // the inner shell's quotes: sh -c 'vault login '\''token'\'''
	case len(w) >= 4 && strings.HasPrefix(w, `\"`) && strings.HasSuffix(w, `\"`) && quotedEnd(s, k+2, `\"`) == end-2:
		return k + 2, end - 2
	case len(w) >= 3 && strings.HasPrefix(w, "$'") && w[len(w)-1] == '\'' && ansiEnd(s, k+2) == end:
		return k + 2, end - 1
	case len(w) >= 2 && w[0] == '\'' && w[len(w)-1] == '\'' && strings.IndexByte(w[1:], '\'') == len(w)-2:
		return k + 1, end - 1
	case len(w) >= 2 && w[0] == '"' && w[len(w)-1] == '"' && quotedEnd(s, k+1, `"`) == end-1:
		return k + 1, end - 1
	}
	return k, end
}

// wordEnd returns where the shell word starting at k ends when it sits
// inside the quote q (0 at the top level): at a blank, a line end or an
// operator, or at the quote that closes q. Quoted parts, escapes, $'…',
// $(…), ${…} and `…` belong to the word; inside '…' the idiom '\” is a
// quote of the inner shell, inside "…" so is \"…\". With list, a ',' before
// another name= or the word's end, and a '}' or ']' before no word byte,
// end it too (mount -o password=x,uid=0; {password=x}).
func wordEnd(s string, k int, q byte, list bool) int {
	n := len(s)
	closeAt := -1 // where q closes, looked for when needed
	outerClose := func(k int) int {
		if closeAt < k {
			switch q {
			case '\'', '$':
				closeAt = strings.IndexByte(s[k:], '\'')
			case '"':
				closeAt = quotedEnd(s, k, `"`) - k
			}
			if closeAt < 0 {
				closeAt = n
			} else {
				closeAt += k
			}
		}
		return closeAt
	}
	for k < n {
		c := s[k]
		switch c {
		case ' ', '\t', '\n', '\r', ';', '|', '&', '<', '>', '(', ')':
			return k
		case '\'':
			if q == '\'' || q == '$' {
				if q == '\'' && strings.HasPrefix(s[k:], `'\''`) {
					// The inner shell's quote, whose part runs to
					// the next one, blanks included ('\''my net'\'').
					if e := strings.Index(s[k+4:], `'\''`); e >= 0 {
						k += e + 8
					} else {
						k += 4
					}
					continue
				}
				if continuesWord(s, k+1) {
					k, q = k+1, 0 // 'X=a'b: the word goes on outside
					continue
				}
				return k
			}
			e := strings.IndexByte(s[k+1:], '\'')
			if e < 0 && q != 0 {
				k++ // a quote inside "…" that nothing closes is a byte
				continue
			}
			if e < 0 {
				return n
			}
			e += k + 1
			if q == '"' && outerClose(k) < e {
				k++ // a quote inside "…" that no inner part closes
				continue
			}
			k = e + 1
		case '"':
			if q == '"' {
				if continuesWord(s, k+1) {
					k, q = k+1, 0
					continue
				}
				return k
			}
			e := quotedEnd(s, k+1, `"`)
			if q != 0 && outerClose(k) < e {
				k++
				continue
			}
			k = e + 1
		case '`':
			e := strings.IndexByte(s[k+1:], '`')
			if e < 0 {
				return n
			}
			k += e + 2
		case '\\':
			if q == '"' && strings.HasPrefix(s[k:], `\"`) {
				// \"…\": a part quoted for the inner shell, unless it
				// closes a JSON-escaped string.
				if k+2 >= n || strings.IndexByte(" \t\n,:}]", s[k+2]) >= 0 {
					return k
				}
				e := strings.Index(s[k+2:], `\"`)
				if e < 0 {
					return k
				}
				k += e + 4
				continue
			}
			k += 2
		case '$':
			switch {
			case k+1 >= n:
				k++
			case s[k+1] == '\'':
				if q == '\'' || q == '$' {
					// A $ and then the quote that closes the string,
					// which the word may go on after ('pw=$'abc).
					k++
					continue
				}
				k = ansiEnd(s, k+2)
			case s[k+1] == '(' || s[k+1] == '{':
				k = groupEnd(s, k+1)
			default:
				k++
			}
		case ',':
			if list && listNext(s, k+1) {
				return k
			}
			k++
		case '}', ']':
			if list && (k+1 >= n || !wordByte[s[k+1]]) {
				return k
			}
			k++
		default:
			k++
		}
	}
	return min(k, n)
}

// ansiEnd returns the end of $'…' whose text starts at k, after its
// closing quote.
func ansiEnd(s string, k int) int {
	for k < len(s) {
		switch s[k] {
		case '\\':
			k += 2
			continue
		case '\'':
			return k + 1
		}
		k++
	}
	return len(s)
}

// groupEnd returns the end of $(…) or ${…} whose bracket is at k, after
// the bracket that closes it.
func groupEnd(s string, k int) int {
	open := s[k]
	shut := byte(')')
	if open == '{' {
		shut = '}'
	}
	depth := 0
	for k < len(s) {
		switch c := s[k]; c {
		case open:
			depth++
		case shut:
			if depth--; depth == 0 {
				return k + 1
			}
		case '\\':
			k++
		case '\'':
			e := strings.IndexByte(s[k+1:], '\'')
			if e < 0 {
				return len(s)
			}
			k += e + 1
		case '"':
			k = quotedEnd(s, k+1, `"`)
		}
		k++
	}
	return len(s)
}

// listNext reports whether what follows a ',' at k-1 ends a value in a
// list: nothing, a blank, or another name=.
func listNext(s string, k int) bool {
	if k >= len(s) || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' {
		return true
	}
	e := k
	for e < len(s) && e-k < 64 && wordByte[s[e]] {
		e++
	}
	return e > k && e < len(s) && s[e] == '='
}

// continuesWord reports whether the byte at k, just after a quote that
// closes a string, carries on the same shell word ('X=a'b, "…"$V).
func continuesWord(s string, k int) bool {
	if k >= len(s) {
		return false
	}
	c := s[k]
	return isAlnum(c) || c == '_' || c == '\'' || c == '"' || c == '$' || c == '\\'
}

// joinsWord reports whether s[k], a byte right after a word's letters
// (wordByte), still belongs to the same shell word: bash ends a word only
// at a blank or an operator, so mysql -p!S3cret, -p#x, -p[x]y and -p@dm1n
// attach their passwords as -pS3cret does. An '=' joins too; callers
// that read -p=x as a value after the '=' test it first.
func joinsWord(s string, k int) bool {
	if k >= len(s) {
		return false
	}
	switch s[k] {
	case ' ', '\t', '\n', '\r', ';', '&', '|', '<', '>', '(', ')':
		return false
	}
	return true
}

// startsQuote reports whether a quoted value starts at s[k]: '…', "…",
// $'…', $"…" or \"…\".
func startsQuote(s string, k int) bool {
	if k < len(s) && s[k] == '$' {
		k++
	}
	return k < len(s) && (s[k] == '\'' || s[k] == '"' || strings.HasPrefix(s[k:], `\"`))
}

// escapeAt reports whether a backslash at k escapes a byte that joins the
// word before it (-p\ SECRET, -p\SECRET, -p\⏎SECRET: bash passes
// -p SECRET, -pSECRET).
func escapeAt(s string, k int) bool {
	return k+1 < len(s) && s[k] == '\\' && s[k+1] != '"'
}

// pastClose returns end, or, when the value s[start:end] stops at the
// quote that closes the string it sits in and the shell word goes on
// after it (-H 'X-Api-Key: 'S3cr"et"), the end of that word.
func (r *redactor) pastClose(start, end int) int {
	s := r.s
	if end >= len(s) || (s[end] != '\'' && s[end] != '"') || !continuesWord(s, end+1) || start < r.readEnd {
		return end
	}
	if q, ok := r.quoteAt(start); !ok || q != s[end] {
		return end
	}
	r.readEnd = wordEnd(s, end+1, 0, false)
	return r.readEnd
}

// subscriptEnd returns the end of an array subscript after the name
// s[i:j] ([0] after it, or the ] closing [ before it) when '=' or '+='
// follows, else j.
func subscriptEnd(s string, i, j int) int {
	if j >= len(s) {
		return j
	}
	e := j
	switch {
	case s[j] == ']' && i > 0 && s[i-1] == '[':
		e = j + 1
	case s[j] == '[':
		x := strings.IndexByte(s[j:min(len(s), j+64)], ']')
		if x < 0 || strings.ContainsAny(s[j:j+x], " \t\n") {
			return j
		}
		e = j + x + 1
	default:
		return j
	}
	if e < len(s) && (s[e] == '=' || strings.HasPrefix(s[e:], "+=")) {
		return e
	}
	if s[j] == '[' {
		// C's char password[] = "…", with blanks around the '='.
		if k := skipBlanks(s, e); k > e && k+1 < len(s) && s[k] == '=' && s[k+1] != '=' {
			return k
		}
	}
	return j
}

// url redacts the password of scheme://user:pass@host; k is just after
// "://". The authority ends at the first '/', so scans never overlap.
func (r *redactor) url(k int) int {
	s := r.s
	colon, at := -1, -1
	e := k
	for ; e < len(s); e++ {
		c := s[e]
		if c == '"' || c == '\'' || c == '\\' || c == '`' || c == '$' && e+1 < len(s) && strings.IndexByte(`'({`, s[e+1]) >= 0 {
			// A quote that opens a part of the word, or an escape, at
			// bash's top level: https://u:pa"ss"@h is one word.
			if q, ok := r.quoteAt(e); ok && q == 0 {
				switch c {
				case '\\':
					e++
				case '\'':
					if x := strings.IndexByte(s[e+1:], '\''); x >= 0 {
						e += x + 1
					} else {
						e = len(s)
					}
				case '"':
					e = quotedEnd(s, e+1, `"`)
				case '$':
					if s[e+1] == '\'' {
						e = ansiEnd(s, e+2) - 1
					} else {
						e = groupEnd(s, e+1) - 1
					}
				case '`':
					if x := strings.IndexByte(s[e+1:], '`'); x >= 0 {
						e += x + 1
					} else {
						e = len(s)
					}
				}
				continue
			}
			// Inside '…' (sh -c '…'), a "…" is the inner shell's quoted
			// part of the URL, when it closes before the string does.
			if c == '"' && r.quotes.q == '\'' {
				// Looked for only as far as the authority could go,
				// which the scan would read anyway.
				x := e + 1
				for x < len(s) && s[x] > ' ' && s[x] != '\'' && s[x] != '"' && s[x] != '/' {
					x++
				}
				if x < len(s) && s[x] == '"' {
					e = x
					continue
				}
			}
			// Inside "…", a ' is a byte of the URL; any other quote
			// closes the string, and \ is an escape of JSON's.
			if !(c == '\'' && r.quotes.q == '"' || c == '$' || c == '`') {
				break
			}
		}
		if c == '/' || c == '?' || c == '#' || c <= ' ' || c == '<' || c == '>' {
			break
		}
		switch {
		case c == '@':
			at = e
		case c == ':' && colon < 0:
			colon = e
		}
	}
	if at >= 0 {
		return r.userinfo(k, colon, at)
	}
	if colon >= 0 && e < len(s) && (strings.IndexByte("/?# \t", s[e]) >= 0 || strings.HasPrefix(s[e:], `\/`)) {
		if end := r.userinfoAhead(k, colon, e); end > k {
			return end // https://bob:S3/cr3t@host, 'https://bob:pass word@host'
		}
	}
	if e < len(s) && s[e] == '/' && e-k >= 11 {
		return r.pathSecret(k, e)
	}
	return k
}

// pathSecret redacts the secret that the URL of a chat webhook or bot API
// carries in its path, with no name before it: hooks.slack.com/services/…,
// discord.com/api/webhooks/ID/TOKEN, api.telegram.org/botID:TOKEN/…,
// *.webhook.office.com/webhookb2/…. The host is s[k:e], e at the path's
// '/'; it returns where scanning resumes.
func (r *redactor) pathSecret(k, e int) int {
	s := r.s
	host := s[k:e]
	from, seg := -1, false
	switch {
	case host == "hooks.slack.com":
		for _, p := range [...]string{"/services/", "/workflows/", "/triggers/"} {
			if strings.HasPrefix(s[e:], p) {
				from = e + len(p)
			}
		}
	case host == "discord.com" || host == "discordapp.com" || strings.HasSuffix(host, ".discord.com"):
		// /api[/vN]/webhooks/ID/TOKEN: the token after the id.
		if x := strings.Index(s[e:min(len(s), e+24)], "/webhooks/"); x >= 0 {
			id := e + x + len("/webhooks/")
			if end := urlPathEnd(s, id, true); end < len(s) && s[end] == '/' {
				from, seg = end+1, true
			}
		}
	case host == "api.telegram.org":
		if strings.HasPrefix(s[e:], "/bot") {
			if end := urlPathEnd(s, e+4, true); end > e+4 {
				if c := strings.IndexByte(s[e+4:end], ':'); c >= 0 {
					from, seg = e+4+c+1, true
				}
			}
		}
	case strings.HasSuffix(host, ".webhook.office.com") || host == "outlook.office.com" || host == "outlook.office365.com":
		if strings.HasPrefix(s[e:], "/webhookb2/") {
			from = e + len("/webhookb2/")
		}
		// …/webhook/ID@TENANT/IncomingWebhook/SECRET/ID: the segment
		// after IncomingWebhook is the key.
		if x := strings.Index(s[e:min(len(s), e+160)], "/IncomingWebhook/"); from < 0 && x >= 0 {
			from, seg = e+x+len("/IncomingWebhook/"), true
		}
	}
	if from < 0 {
		return k
	}
	end := urlPathEnd(s, from, seg)
	if end <= from {
		return k
	}
	return r.replace(from, end, Redacted)
}

// urlPathEnd returns where the URL path starting at k ends: at a blank, a
// quote, a query, a shell operator or, with seg, at the segment's '/'.
func urlPathEnd(s string, k int, seg bool) int {
	for ; k < len(s); k++ {
		switch s[k] {
		case ' ', '\t', '\n', '\r', '\'', '"', '`', '?', '#', '<', '>', '|', ';', '&', ')', '\\':
			return k
		case '/':
			if seg {
				return k
			}
		}
	}
	return k
}

// userinfo redacts the secret of the URL userinfo s[k:at], whose first
// ':' is at colon (or -1), and returns where scanning resumes.
func (r *redactor) userinfo(k, colon, at int) int {
	s := r.s
	if colon > at {
		colon = -1 // https://user@host:443: the port's colon
	}
	if colon < 0 && at > k {
		// https://bob%3Apw@host: the client decodes the user name to
		// bob:pw and sends pw as the password.
		if x := encodedColon(s[k:at]); x > 0 && k+x+3 < at {
			return r.replace(k+x+3, at, Redacted)
		}
		// iscsi://bob%pw@host (libiscsi, QEMU): '%' parts the user
		// and the password.
		if x := strings.IndexByte(s[k:at], '%'); x > 0 && k+x+1 < at && urlScheme(s, k-3) == "iscsi" {
			return r.replace(k+x+1, at, Redacted)
		}
	}
	switch {
	case colon >= 0 && at > colon+1 && tokenPlaceholder(s[colon+1:at]):
		// https://TOKEN:x-oauth-basic@github.com: the user is the token.
		return r.replace(k, colon, Redacted)
	case colon >= 0 && at > colon+1:
		return r.replace(colon+1, at, Redacted)
	case colon >= 0 && at == colon+1 && tokenUser(s[k:colon]):
		return r.replace(k, colon, Redacted) // https://TOKEN:@host
	case colon < 0 && at > k && (tokenUser(s[k:at]) || passwordUser(urlScheme(s, k-3)) || webTokenUser(urlScheme(s, k-3), s[k:at])):
		return r.replace(k, at, Redacted) // https://TOKEN@host, redis://PASSWORD@host
	}
	return k
}

// sipScheme reports whether the ':' at i ends a SIP URI's scheme (sip:,
// sips:), whose user info follows with no "//".
func sipScheme(s string, i int) bool {
	b := i
	for b > 0 && i-b < 4 && s[b-1]|0x20 >= 'a' && s[b-1]|0x20 <= 'z' {
		b--
	}
	w := s[b:i]
	return (strings.EqualFold(w, "sip") || strings.EqualFold(w, "sips")) && (b == 0 || !isAlnum(s[b-1])) &&
		i+1 < len(s) && s[i+1] != '/'
}

// encodedColon returns the index of the first percent-encoded ':' (%3A)
// in u, or -1.
func encodedColon(u string) int {
	for x := 0; x+2 < len(u); x++ {
		if u[x] == '%' && u[x+1] == '3' && (u[x+2] == 'A' || u[x+2] == 'a') {
			return x
		}
	}
	return -1
}

// urlScheme returns the scheme of the URL whose "://" is at k, in lower
// case. A '.' before it ends a name the URL is part of (git's
// url.https://TOKEN@host/.insteadOf), not the scheme.
func urlScheme(s string, k int) string {
	if k < 0 || k >= len(s) || s[k] != ':' {
		return "" // //user@host, written without its scheme
	}
	b := k
	for b > 0 && (wordByte[s[b-1]] || s[b-1] == '+') && s[b-1] != '=' && s[b-1] != '.' {
		b--
	}
	return strings.ToLower(s[b:k])
}

// webTokenUser reports whether the user name of a web URL without a
// password is an access token shorter than tokenUser's: 8 bytes or more
// of the same alphabet, letters and digits both (https://TOKEN@host, which
// git and curl send as a basic-auth user). Names like git or bob stay.
func webTokenUser(scheme, u string) bool {
	switch strings.TrimPrefix(scheme, "git+") {
	case "http", "https":
		return len(u) >= 8 && tokenShape(u)
	}
	return false
}

// passwordUser reports whether a URL of scheme reads a user name given
// without a password as the password: redis-cli -u redis://PW@host sends
// AUTH PW.
func passwordUser(scheme string) bool {
	switch scheme {
	case "redis", "rediss", "valkey", "valkeys", "keydb":
		return true
	}
	return false
}

// tokenPlaceholder reports whether a URL's password is the fixed word a
// forge takes beside a token given as the user name.
func tokenPlaceholder(p string) bool {
	return p == "x-oauth-basic" || p == "x-oauth-token" || p == "x-token-auth"
}

// tokenUser reports whether a URL's user name without a password is an
// access token (a 40-digit hex GitHub token, an Azure DevOps or Bitbucket
// one): 20 bytes or more of letters, digits, '_' and '-', with letters and
// digits both. Names like git, bob or x-access-token stay.
func tokenUser(u string) bool {
	return len(u) >= 20 && tokenShape(u)
}

// tokenShape reports whether u is letters, digits, '_' and '-', with
// letters and digits both.
func tokenShape(u string) bool {
	digits, letters := 0, 0
	for k := 0; k < len(u); k++ {
		switch c := u[k]; {
		case c >= '0' && c <= '9':
			digits++
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			letters++
		case c != '_' && c != '-':
			return false
		}
	}
	return digits >= 2 && letters >= 2
}
