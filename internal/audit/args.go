package audit

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// DefaultMaxValue bounds each string in RedactArgs when maxValue <= 0.
const DefaultMaxValue = 4096

// RedactArgs returns args ready for Record.Args: every string (keys
// included) passed through Redact and cut to maxValue bytes on a UTF-8
// boundary, keeping its head and tail around a "…[+N bytes]…" marker; the whole value of any key named
// like a secret (password, token, api_key, authorization, cookie, *_secret,
// and every environment variable name secretName calls secret: MYSQL_PWD,
// REDISCLI_AUTH, SSHPASS, …, case-insensitive, at any depth) replaced by
// "[REDACTED]". Key order and
// duplicate keys are kept, so the record shows what the tool received.
// Invalid JSON becomes a JSON string of its redacted, bounded text. The
// result as a whole is bounded too: beyond 16×maxValue (at least 64 KiB, at
// most 512 KiB) it is replaced by a bounded string of itself.
func RedactArgs(args json.RawMessage, maxValue int) json.RawMessage {
	out, _ := RedactArgsFound(args, maxValue, false)
	return out
}

// RedactArgsFound is RedactArgs that, with find, also returns the texts it
// replaced (see Secrets): a verdict's reason or an approval's text that
// quotes the call out of the context that made them secret (restic's
// --password-command 'echo pw' read as "restic echo pw") is redacted with
// them.
func RedactArgsFound(args json.RawMessage, maxValue int, find bool) (json.RawMessage, Secrets) {
	var found *[]string
	if find {
		found = new([]string)
	}
	out := redactArgs(args, maxValue, found)
	if found == nil {
		return out, nil
	}
	return out, newSecrets(*found)
}

func redactArgs(args json.RawMessage, maxValue int, found *[]string) json.RawMessage {
	if len(args) == 0 {
		return nil
	}
	if maxValue <= 0 {
		maxValue = DefaultMaxValue
	}
	total := min(max(16*maxValue, 64<<10), 512<<10)
	out, err := redactJSON(args, maxValue, secretTexts(args), found)
	if err != nil {
		return appendQuoted(nil, bound(redactFound(string(args), found), maxValue))
	}
	if len(out) > total {
		return appendQuoted(nil, bound(string(out), total))
	}
	return out
}

// wholeSecrets says which top-level texts of a call are secrets as a
// whole (secretTexts).
type wholeSecrets struct {
	stdin, content bool
	// stdinLines: the stdin text goes to a reader of name:password lines
	// as it is (userLinesInput): the names stay.
	stdinLines bool
	// env: what the command does with each variable of the call's env
	// map: expands it where a secret goes (heldSecret) or gives it to a
	// program as options (mysql $OPTS), as redact_argv.go reads it.
	env map[string]*program
}

// secretTexts reports which top-level texts of args are a secret as a
// whole. stdin: args are a tool's that runs a command or script with a
// stdin text (run_command, run_script) and the command reads a secret
// there (chpasswd, sudo -S, docker login --password-stdin) or writes it to
// a credential file, as the here-string or echo before such a command
// would be. content: args are write_file's and the path is a credential
// file (~/.pgpass, /etc/ppp/chap-secrets, /etc/shadow, …), whose content
// is as secret as an echo redirected there. The fields are matched as the
// tools decode them (encoding/json, any case).
func secretTexts(args json.RawMessage) wholeSecrets {
	lower := bytes.ToLower(args)
	stdin, content, env := bytes.Contains(lower, []byte(`stdin"`)), bytes.Contains(lower, []byte(`content"`)), bytes.Contains(lower, []byte(`env"`))
	if !stdin && !content && !env {
		return wholeSecrets{}
	}
	var top struct {
		Command, Script, Path string
		Stdin, Content, Env   json.RawMessage
	}
	if json.Unmarshal(args, &top) != nil {
		return wholeSecrets{}
	}
	w := wholeSecrets{
		stdin:   stdin && len(top.Stdin) > 0 && (ReadsSecretInput(top.Command) || ReadsSecretInput(top.Script)),
		content: content && len(top.Content) > 0 && credentialFile(top.Path),
	}
	w.stdinLines = w.stdin && (top.Command == "" || userLinesInput(top.Command)) && (top.Script == "" || userLinesInput(top.Script))
	if env && len(top.Env) > 0 {
		// PASS in env and sshpass -p "$PASS" in the command: the
		// variable's value is what the command expands there.
		for _, text := range []string{top.Command, top.Script} {
			if strings.IndexByte(text, '$') < 0 {
				continue // nothing expanded
			}
			r := newRedactor(text)
			r.run()
			for name, p := range r.argv.uses {
				if w.env == nil {
					w.env = map[string]*program{}
				}
				if w.env[name] == nil || p == heldSecret {
					w.env[name] = p
				}
			}
		}
	}
	return w
}

type jsonFrame struct {
	obj     bool
	named   bool     // a name or key member named a secret: its value member is one
	env     bool     // the call's env map (wholeSecrets.env)
	n       int      // members or elements written
	wantKey bool     // in an object, the next token is a key
	argv    argvList // in an array, the argv list it may be (redact_jsonargv.go)
}

// redactJSON redacts the JSON value in; whole says which top-level keys'
// values are secrets whole (secretTexts).
func redactJSON(in []byte, maxValue int, whole wholeSecrets, found *[]string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(in))
	dec.UseNumber()
	out := make([]byte, 0, min(len(in), 1<<20))
	var stack []jsonFrame
	secret := false   // the next value belongs to a secret-named key
	pwd := false      // the next value belongs to PWD, a secret unless a path
	pair := ""        // the next value belongs to a credential pair's key (https_proxy)
	var prog *program // the next value is options the command gives this program
	envKey := false   // the next value is the top-level env map
	passcmd := false  // the next value is an env map's command that prints a secret
	nameKey := false  // the next value is a name or key member's ({"name": "DB_PASSWORD", "value": …})
	stdinKey := false // the next value is a stdin member's
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if len(stack) != 0 || len(out) == 0 {
				return nil, io.ErrUnexpectedEOF
			}
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		if len(stack) == 0 && len(out) > 0 {
			return nil, errors.New("trailing data after JSON value")
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			out = append(out, byte(d))
			continue
		}
		top := len(stack) - 1
		if top >= 0 {
			f := &stack[top]
			if f.obj && f.wantKey {
				key, _ := tok.(string)
				if f.n > 0 {
					out = append(out, ',')
				}
				f.n++
				f.wantKey = false
				out = appendQuoted(out, bound(redactFound(key, found), maxValue))
				out = append(out, ':')
				// {"name": "DB_PASSWORD", "value": …}: Kubernetes'
				// env lists, headers as name/value pairs, settings.
				nameKey = strings.EqualFold(key, "name") || strings.EqualFold(key, "key")
				secret = secretKey(key) != keyNone || secretName(key) || vendorKeyHeader(key) ||
					f.named && strings.EqualFold(key, "value") ||
					len(stack) == 1 && (whole.stdin && strings.EqualFold(key, "stdin") || whole.content && strings.EqualFold(key, "content"))
				pwd = !secret && pwdName(key)
				stdinKey = strings.EqualFold(key, "stdin")
				envKey = len(stack) == 1 && strings.EqualFold(key, "env")
				prog = nil
				passcmd = f.env && !secret && passCommandName(key)
				if f.env && !secret {
					switch p := whole.env[key]; {
					case p == heldSecret:
						secret = true
					case p != nil:
						prog = p
					}
				}
				pair = ""
				if _, ok := (&redactor{}).pairSplit(key); ok && !secret {
					pair = key
				}
				continue
			}
			if f.obj {
				f.wantKey = true
			} else {
				if f.n > 0 {
					out = append(out, ',')
				}
				f.n++
				secret = secret || f.argv.takeSecret()
			}
		}
		if nameKey {
			nameKey = false
			if v, ok := tok.(string); ok && (secretKey(v) != keyNone || secretName(v) || vendorKeyHeader(v)) {
				stack[top].named = true
			}
		}
		if pwd {
			pwd = false
			if v, ok := tok.(string); ok && !looksLikePath(v, 0) {
				secret = true
			}
		}
		if secret && whole.stdinLines && len(stack) == 1 && stdinKey {
			if v, ok := tok.(string); ok {
				// chpasswd's bob:pw lines keep whose password was set.
				secret = false
				out = appendQuoted(out, bound(redactUserLines(v, found), maxValue))
				continue
			}
		}
		if secret {
			secret = false
			if v, ok := tok.(string); ok && found != nil {
				*found = append(*found, v)
			}
			if err := skipValue(dec, tok); err != nil {
				return nil, err
			}
			out = appendQuoted(out, Redacted)
			continue
		}
		switch v := tok.(type) {
		case json.Delim:
			stack = append(stack, jsonFrame{obj: v == '{', wantKey: v == '{', env: envKey && v == '{'})
			out = append(out, byte(v))
		case string:
			if pair != "" {
				v = redactPair(pair, v)
			}
			if passcmd {
				v = passCommandValue(v)
			}
			if prog != nil {
				out = appendQuoted(out, bound(redactAs(v, prog, found), maxValue))
				break
			}
			if top >= 0 && !stack[top].obj {
				if p := stack[top].argv.item(v, stack[top].n); p != nil {
					out = appendQuoted(out, bound(redactAs(v, p, found), maxValue))
					break
				}
			}
			out = appendQuoted(out, bound(redactFound(v, found), maxValue))
		case json.Number:
			if len(v) > maxValue {
				out = appendQuoted(out, bound(string(v), maxValue))
			} else {
				out = append(out, v...)
			}
		case bool:
			out = strconv.AppendBool(out, v)
		case nil:
			out = append(out, "null"...)
		}
	}
}

// skipValue consumes the rest of a value whose first token is tok.
func skipValue(dec *json.Decoder, tok json.Token) error {
	d, ok := tok.(json.Delim)
	if !ok {
		return nil
	}
	if d != '{' && d != '[' {
		return errors.New("unexpected delimiter")
	}
	for depth := 1; depth > 0; {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		if d, ok := t.(json.Delim); ok {
			if d == '{' || d == '[' {
				depth++
			} else {
				depth--
			}
		}
	}
	return nil
}

// bound cuts s to at most max bytes on a rune boundary and says how much
// was cut.
func bound(s string, max int) string {
	if len(s) <= max {
		return s
	}
	// Keep the head and the tail: a command padded past the bound (10,000
	// spaces, a long comment) must not hide its end from the record and
	// from the approver shown these arguments.
	head := max - max/2
	for head > 0 && !utf8.RuneStart(s[head]) {
		head--
	}
	tail := len(s) - max/2
	for tail < len(s) && !utf8.RuneStart(s[tail]) {
		tail++
	}
	return s[:head] + "…[+" + strconv.Itoa(tail-head) + " bytes]…" + s[tail:]
}

// appendQuoted appends s as a JSON string without HTML escaping; invalid
// UTF-8 becomes U+FFFD.
func appendQuoted(b []byte, s string) []byte {
	const hexDigits = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c < 0x20 || c == 0x7f:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, `\u202`...)
			b = append(b, hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}
