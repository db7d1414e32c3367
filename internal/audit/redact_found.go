package audit

import (
	"bytes"
	"encoding/json"
	"sort"
	"strings"
)

// Secrets are the texts redaction replaced in a call's arguments. Other
// texts about the call — the classifier's reason, which quotes the words
// it judged without the options around them (restic --password-command
// 'echo pw' becomes "restic echo pw", a here-string fed to sshpass
// "unknown program pw") — are redacted with them as well as by Redact's
// own rules.
type Secrets []string

// minSecret is the shortest replaced text looked for elsewhere: shorter
// ones would hide ordinary bytes of the text. A shorter text a tool
// names (With) is looked for only where it stands as a word, in a JSON
// text only inside a string value: the rest of a password one
// session_send began and the next finishes (…=S3cr3tZ then "Zc").
const minSecret = 4

// maxSecrets bounds how many texts one call's arguments give.
const maxSecrets = 64

// newSecrets keeps the distinct texts of found long enough to look for,
// and each line of the multi-line ones, longest first, so that a secret
// containing another is replaced whole.
func newSecrets(found []string) Secrets {
	return gather(found, minSecret)
}

// gather is newSecrets keeping texts of at least least bytes.
func gather(found []string, least int) Secrets {
	if len(found) == 0 {
		return nil
	}
	var out Secrets
	seen := map[string]bool{}
	add := func(v string) {
		v = strings.TrimSpace(v)
		if len(v) >= max(least, 1) && len(out) < maxSecrets && !seen[v] && v != Redacted {
			seen[v] = true
			out = append(out, v)
		}
	}
	for _, f := range found {
		add(f)
		if strings.IndexByte(f, '\n') >= 0 {
			for _, line := range strings.Split(f, "\n") {
				add(line)
			}
		}
	}
	sort.SliceStable(out, func(a, b int) bool { return len(out[a]) > len(out[b]) })
	return out
}

// Redact returns text passed through Redact, with every one of the
// secrets in it replaced too.
func (sec Secrets) Redact(text string) string {
	text = Redact(text)
	for _, v := range sec {
		if len(v) < minSecret {
			text = string(replaceWords([]byte(text), v, false))
			continue
		}
		if strings.Contains(text, v) {
			text = strings.ReplaceAll(text, v, Redacted)
		}
	}
	return text
}

// SecretsIn returns the texts Redact replaces in s, in order: a tool
// that hands s over in parts (session_send) finds which of them lie in
// the part it sends.
func SecretsIn(s string) []string {
	var found []string
	redactFound(s, &found)
	return found
}

// With returns sec with the texts vs added: secrets a tool knows of that
// no rule finds in the text alone (a password typed at a prompt), kept
// however short.
func (sec Secrets) With(vs ...string) Secrets {
	return gather(append(vs, sec...), 1)
}

// RedactJSON replaces every secret in args, a JSON text RedactArgs wrote,
// where it appears inside a string.
func (sec Secrets) RedactJSON(args json.RawMessage) json.RawMessage {
	for _, v := range sec {
		q := appendQuoted(nil, v)
		if len(v) < minSecret {
			args = replaceWords(args, string(q[1:len(q)-1]), true)
			continue
		}
		if inner := q[1 : len(q)-1]; bytes.Contains(args, inner) {
			args = bytes.ReplaceAll(args, inner, []byte(Redacted))
		}
	}
	return args
}

// replaceWords replaces v, a short secret, in text where it stands as a
// word: no word byte (wordByte) right before or after it, a JSON escape
// (\n, \t) counting as none. In a JSON text (inJSON) it is replaced only
// inside strings that are no object keys, so the text stays JSON and its
// keys stay readable.
func replaceWords(text []byte, v string, inJSON bool) []byte {
	if v == "" || !bytes.Contains(text, []byte(v)) {
		return text
	}
	var out []byte
	done := 0
	// from and to bound the part searched: all of text, or one string.
	search := func(from, to int) {
		for k := from; k+len(v) <= to; {
			x := bytes.Index(text[k:to], []byte(v))
			if x < 0 {
				return
			}
			at, end := k+x, k+x+len(v)
			before := at == from || !wordByte[text[at-1]] || at-from >= 2 && text[at-2] == '\\'
			after := end == to || !wordByte[text[end]]
			if before && after {
				out = append(out, text[done:at]...)
				out = append(out, Redacted...)
				done = end
				k = end
				continue
			}
			k = at + 1
		}
	}
	if !inJSON {
		search(0, len(text))
	} else {
		for k := 0; k < len(text); k++ {
			if text[k] != '"' {
				continue
			}
			e := k + 1
			for e < len(text) && text[e] != '"' {
				if text[e] == '\\' {
					e++
				}
				e++
			}
			if e >= len(text) {
				break
			}
			n := e + 1
			for n < len(text) && (text[n] == ' ' || text[n] == '\t' || text[n] == '\n' || text[n] == '\r') {
				n++
			}
			if n >= len(text) || text[n] != ':' {
				search(k+1, e) // a string value, not a key
			}
			k = e
		}
	}
	if out == nil {
		return text
	}
	return append(out, text[done:]...)
}
