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
// ones would hide ordinary bytes of the text.
const minSecret = 4

// maxSecrets bounds how many texts one call's arguments give.
const maxSecrets = 64

// newSecrets keeps the distinct texts of found long enough to look for,
// and each line of the multi-line ones, longest first, so that a secret
// containing another is replaced whole.
func newSecrets(found []string) Secrets {
	if len(found) == 0 {
		return nil
	}
	var out Secrets
	seen := map[string]bool{}
	add := func(v string) {
		v = strings.TrimSpace(v)
		if len(v) >= minSecret && len(out) < maxSecrets && !seen[v] && v != Redacted {
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
// no rule finds in the text alone (a password typed at a prompt).
func (sec Secrets) With(vs ...string) Secrets {
	return newSecrets(append(vs, sec...))
}

// RedactJSON replaces every secret in args, a JSON text RedactArgs wrote,
// where it appears inside a string.
func (sec Secrets) RedactJSON(args json.RawMessage) json.RawMessage {
	for _, v := range sec {
		q := appendQuoted(nil, v)
		if inner := q[1 : len(q)-1]; bytes.Contains(args, inner) {
			args = bytes.ReplaceAll(args, inner, []byte(Redacted))
		}
	}
	return args
}
