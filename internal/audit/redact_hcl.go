package audit

import "strings"

// Terraform's and Packer's input variables: a variable block whose name
// names a secret (variable "db_password" { default = "…" }) or that is
// marked sensitive = true holds its secret under default, a key no name
// rule reads.

// hclVariable redacts the default of the variable block whose keyword
// is the word s[i:j] and returns where the pass resumes, or 0.
func (r *redactor) hclVariable(i, j int) int {
	s := r.s
	if i < r.hclEnd || !directiveStart(s, i) {
		return 0
	}
	k := skipBlanks(s, j)
	if k >= len(s) || s[k] != '"' {
		return 0
	}
	e := strings.IndexByte(s[k+1:min(len(s), k+130)], '"')
	if e < 0 {
		return 0
	}
	name := s[k+1 : k+1+e]
	open := skipBlanks(s, k+e+2)
	if open >= len(s) || s[open] != '{' {
		return 0
	}
	end, reached := hclBlockEnd(s, open)
	r.hclEnd = reached // a variable word inside starts no look of its own
	if end == 0 {
		return 0
	}
	body := s[open+1 : end]
	if !secretName(name) && secretKey(name) == keyNone && !hclSensitive(body) {
		return 0
	}
	d := hclKey(body, "default")
	if d < 0 {
		return 0
	}
	v := skipBlanks(s, open+1+d+len("default"))
	if v >= end || s[v] != '=' {
		return 0
	}
	v = skipBlanks(s, v+1)
	from, to := v, v
	switch {
	case v < end && s[v] == '"':
		from, to = v+1, quotedEnd(s, v+1, `"`)
	case strings.HasPrefix(s[v:], "<<"):
		// default = <<EOT⏎…⏎EOT
		t := v + 2 + b2i(strings.HasPrefix(s[v+2:], "-"))
		nl := strings.IndexByte(s[t:end], '\n')
		if nl < 0 {
			return 0
		}
		tag := strings.TrimSpace(s[t : t+nl])
		from = t + nl + 1
		to = from
		if c := strings.Index(s[from:end], tag); c >= 0 && tag != "" {
			to = from + c
		}
	default:
		// A number, a map or a list: the rest of the line.
		to = v
		for to < end && s[to] != '\n' {
			to++
		}
	}
	if to <= from || to > end {
		return 0
	}
	return r.replace(from, to, Redacted)
}

// hclBlockEnd returns the index of the '}' that closes the block opened
// at open, past quoted strings, or 0 when it does not close; reached is
// where the look stopped. It reads as far as the close, however far (a
// description of many kilobytes before default hides nothing): a
// variable word inside starts no look of its own (hclEnd), so each byte
// is read once.
func hclBlockEnd(s string, open int) (end, reached int) {
	depth := 0
	lim := len(s)
	for k := open; k < lim; k++ {
		switch s[k] {
		case '"':
			k = quotedEnd(s, k+1, `"`)
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return k, k
			}
		}
	}
	return 0, lim
}

// hclKey returns the index in body of the attribute key at the start of
// one of its lines (or after its '{'), or -1.
func hclKey(body, key string) int {
	for k := 0; ; {
		n := strings.Index(body[k:], key)
		if n < 0 {
			return -1
		}
		n += k
		before := strings.TrimRight(body[:n], " \t")
		after := n + len(key)
		if (before == "" || strings.HasSuffix(before, "\n") || strings.HasSuffix(before, "{")) && (after == len(body) || !wordByte[body[after]]) {
			return n
		}
		k = after
	}
}

// hclSensitive reports whether a block's body sets sensitive = true.
func hclSensitive(body string) bool {
	n := hclKey(body, "sensitive")
	if n < 0 {
		return false
	}
	rest := strings.TrimLeft(body[n+len("sensitive"):], " \t")
	if !strings.HasPrefix(rest, "=") {
		return false
	}
	return strings.HasPrefix(strings.TrimLeft(rest[1:], " \t"), "true")
}
