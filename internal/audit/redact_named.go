package audit

import "strings"

// A value whose name stands in another field before it: Kubernetes' env
// lists (- name: DB_PASSWORD⏎  value: …), ECS task definitions
// ({"name":"DB_PASSWORD","value":"…"}), CloudFormation's
// ParameterKey=DbPassword,ParameterValue=…, .NET's <add key="Password"
// value="…"/>.

// namedBack is how far before a value field its name field is looked for.
const namedBack = 128

// namedValue redacts the value of the field s[i:j] (value, Value,
// ParameterValue, …) when the name or key field just before it names a
// secret, and returns where scanning resumes, or 0.
func (r *redactor) namedValue(i, j int) int {
	s := r.s
	w := s[i:j]
	if len(w) < 5 || !strings.EqualFold(w[len(w)-5:], "value") || j >= len(s) || !nameSeparator(s, j) {
		return 0
	}
	if namedAfter(s, j) {
		return r.keyValue(j, false, keyPlain, true)
	}
	// Any of the element's or object's name, key or type fields may
	// name it: <input type="password" name="p" value="…">.
	lo := max(0, i-namedBack)
	t := s[lo:i]
	for n := 0; n < 4; n++ {
		name, at := namedBefore(t)
		if name == "" {
			return 0
		}
		// Past the nearest field only within the same element or
		// object, before no other value.
		if seg := s[lo+at : i]; n > 0 && (strings.ContainsAny(seg, "{}<>[]\n") || containsFold(seg, "value")) {
			return 0
		}
		if secretKey(name) != keyNone || secretName(name) || strings.EqualFold(name, "SecureString") {
			return r.keyValue(j, false, keyPlain, true)
		}
		t = t[:at]
	}
	return 0
}

// namedAfter reports whether a type field after the value field ending
// at j, in the same element or object, names a secret:
// <input value="…" type="password">, {"value": "…", "type": "password"}.
func namedAfter(s string, j int) bool {
	t := s[j:min(len(s), j+namedBack)]
	if e := strings.IndexAny(t, "{}<>[]\n"); e >= 0 {
		t = t[:e]
	}
	if e := strings.Index(strings.ToLower(t), "value"); e >= 0 {
		t = t[:e] // the next value's fields are its own
	}
	// Only a type field: a name or key after a value may start the
	// next pair (ParameterValue=x ParameterKey=DbPassword,…).
	for n := 0; n < 4; n++ {
		name, at := namedBefore(t)
		if name == "" {
			return false
		}
		// AWS SSM's {"Value": …, "Type": "SecureString"} too.
		if strings.EqualFold(t[at:at+4], "type") && (secretKey(name) != keyNone || secretName(name) || strings.EqualFold(name, "SecureString")) {
			return true
		}
		t = t[:at]
	}
	return false
}

// namedBefore returns the value of the last name, key or type field in t
// (the text before a value field) and where that field starts, or ""
// when there is none.
func namedBefore(t string) (string, int) {
	for e := len(t); e > 0; {
		k := lastFieldName(t[:e])
		if k < 0 {
			return "", 0
		}
		f := k + 1
		for f > 0 && isAlnum(t[f-1]) {
			f--
		}
		field := strings.ToLower(t[f : k+1])
		e = f
		// A JSON Patch's path names the member its value sets
		// ({"op": "replace", "path": "/data/password", "value": …}).
		if !strings.HasSuffix(field, "name") && !strings.HasSuffix(field, "key") && field != "type" && field != "path" {
			continue
		}
		// After the field: a closing quote, blanks, '=' or ':', blanks,
		// an opening quote, then the name.
		v := k + 1
		for v < len(t) && strings.IndexByte(`"'\ `+"\t", t[v]) >= 0 {
			v++
		}
		if v >= len(t) || t[v] != '=' && t[v] != ':' {
			continue
		}
		v++
		for v < len(t) && strings.IndexByte(`"'\ `+"\t", t[v]) >= 0 {
			v++
		}
		ve := v
		for ve < len(t) && (wordByte[t[ve]] || t[ve] == '/') {
			ve++
		}
		if ve == v {
			continue
		}
		return t[v:ve], f
	}
	return "", 0
}

// lastFieldName returns the index of the last letter of the last word in
// t ending in "name", "type", "path" or "key" (any case), or -1.
func lastFieldName(t string) int {
	for k := len(t) - 1; k >= 2; k-- {
		c := t[k] | 0x20
		if c == 'e' && k >= 3 && (strings.EqualFold(t[k-3:k+1], "name") || strings.EqualFold(t[k-3:k+1], "type")) || c == 'y' && strings.EqualFold(t[k-2:k+1], "key") ||
			c == 'h' && k >= 3 && strings.EqualFold(t[k-3:k+1], "path") {
			if k+1 >= len(t) || !isAlnum(t[k+1]) {
				return k
			}
		}
	}
	return -1
}

// yamlKeyAt reports whether the word at i starts a line of YAML or of a
// quoted text: only blanks, or a list's "- ", before it on its line.
func yamlKeyAt(s string, i int) bool {
	k := i - 1
	for k >= 0 && (s[k] == ' ' || s[k] == '\t') {
		k--
	}
	if k >= 0 && s[k] == '-' && k < i-1 {
		for k--; k >= 0 && (s[k] == ' ' || s[k] == '\t'); k-- {
		}
	}
	return k < 0 || s[k] == '\n' || s[k] == '\'' || s[k] == '"'
}

// vendorKeyHeader reports whether w is a vendor's X- header whose value is
// an API key or a session though its name ends in no key word:
// X-JFrog-Art-Api, X-Honeycomb-Team, X-Session-Id.
func vendorKeyHeader(w string) bool {
	if len(w) < 5 || !hasPrefixFold(w, "x-") {
		return false
	}
	last := w[strings.LastIndexByte(w, '-')+1:]
	if strings.EqualFold(last, "api") || strings.EqualFold(w, "x-honeycomb-team") {
		return true
	}
	// A session id sent as a header is the login itself: X-Session-Id,
	// X-Session, X-Sid, X-Dropbox-Session, X-Plex-Session-Key.
	for _, e := range [...]string{"-session", "-session-id", "-sessionid", "-sid", "-session-key", "-session-token"} {
		if len(w) >= len(e) && strings.EqualFold(w[len(w)-len(e):], e) {
			return true
		}
	}
	return false
}

func hasUpper(w string) bool {
	for k := 0; k < len(w); k++ {
		if w[k] >= 'A' && w[k] <= 'Z' {
			return true
		}
	}
	return false
}

// commandValue reads the value of an option or variable named s[i:j]
// that holds a command line (ssh's ProxyCommand=, git's
// core.sshCommand=, GIT_SSH_COMMAND=, rsync's --rsh=) as a command, by
// every rule Redact knows, and returns where scanning resumes, or 0.
func (r *redactor) commandValue(i, j int) int {
	s := r.s
	w := s[i:j]
	if j+1 >= len(s) || s[j] != '=' || len(w) < 7 || !strings.EqualFold(w[len(w)-7:], "command") && !strings.EqualFold(w, "--rsh") {
		return 0
	}
	var start, end int
	switch {
	case i > 0 && s[i-1] == '\'' && (i < 2 || s[i-2] != '\\'):
		// '-oProxyCommand=sshpass -p … ssh': the quote around the
		// option holds the command.
		start, end = j+1, j+1+strings.IndexByte(s[j+1:], '\'')
	case i > 0 && s[i-1] == '"' && (i < 2 || s[i-2] != '\\'):
		start, end = j+1, quotedEnd(s, j+1, `"`)
	default:
		start, end = r.valueWord(j+1, false)
	}
	if end <= start {
		return 0
	}
	v := s[start:end]
	red := redactFound(v, r.found)
	if red == v {
		return 0
	}
	r.emit(start, end, red)
	return end
}

// emit writes with in place of s[from:to], as replace does, for text
// whose secrets were already collected.
func (r *redactor) emit(from, to int, with string) {
	if from < r.done {
		return
	}
	if r.out == nil {
		r.out = make([]byte, 0, len(r.s))
	}
	r.out = append(r.out, r.s[r.done:from]...)
	r.out = append(r.out, with...)
	r.done = to
}
