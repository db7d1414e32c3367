package audit

import "strings"

// XML elements that carry a secret through an attribute that names it:
// <property name="db.password">…</property>, <entry key="password">…,
// Android's <string name="api_key">…, and CDATA sections holding the
// value. The name stays readable; the text after the tag is redacted.

// maxTagLook bounds how far a tag's attributes are read.
const maxTagLook = 256

// tagEnd returns the index of the '>' that ends the tag whose attributes
// start at k, or -1 when the tag is empty (/>), runs past maxTagLook or
// holds another tag.
func tagEnd(s string, k int) int {
	end := min(len(s), k+maxTagLook)
	var q byte
	for ; k < end; k++ {
		c := s[k]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
		case c == '"' || c == '\'':
			q = c
		case c == '<':
			return -1
		case c == '>':
			if s[k-1] == '/' {
				return -1
			}
			return k
		}
	}
	return -1
}

// valueAttribute redacts the value="…" attribute of the tag whose
// attributes start at k, and returns where scanning resumes, or 0.
func (r *redactor) valueAttribute(k int) int {
	s := r.s
	end := min(len(s), k+maxTagLook)
	if t := strings.IndexAny(s[k:end], "<>"); t >= 0 {
		end = k + t
	}
	a := strings.Index(strings.ToLower(s[k:end]), "value=")
	if a < 0 || !isBlank(s[k+a-1]) {
		return 0
	}
	v := k + a + len("value=")
	if v >= end || s[v] != '"' && s[v] != '\'' {
		return 0
	}
	e := strings.IndexByte(s[v+1:end], s[v])
	if e <= 0 {
		return 0
	}
	return r.replace(v+1, v+1+e, Redacted) + 1
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// cdata redacts the body of a CDATA section starting at k, and returns
// where scanning resumes, or 0 when none starts there.
func (r *redactor) cdata(k int) int {
	const open, shut = "<![CDATA[", "]]>"
	s := r.s
	if !strings.HasPrefix(s[k:], open) {
		return 0
	}
	from := k + len(open)
	e := strings.Index(s[from:min(len(s), from+maxTemplate)], shut)
	if e <= 0 {
		return 0
	}
	return r.replace(from, from+e, Redacted) + len(shut)
}

// namedElement handles the word s[i:j] when it is a name or key attribute
// (name="db.password", key='password') of a tag with no value attribute:
// when its value names a secret, the element's text is redacted and the
// name kept. It returns where scanning resumes, or 0.
func (r *redactor) namedElement(i, j int) int {
	s := r.s
	w := s[i:j]
	if j+2 >= len(s) || s[j] != '=' || !isBlank(s[i-1]) || !strings.EqualFold(w, "name") && !strings.EqualFold(w, "key") {
		return 0
	}
	v := j + 1
	if s[v] == '\\' {
		v++ // name=\"…\" inside a double-quoted shell string
	}
	if v >= len(s) || s[v] != '"' && s[v] != '\'' {
		return 0
	}
	q := s[v]
	ve := strings.IndexByte(s[v+1:min(len(s), v+1+128)], q)
	if ve <= 0 {
		return 0
	}
	ve += v + 1
	name := strings.TrimSuffix(s[v+1:ve], `\`)
	if secretKey(name) == keyNone && !secretName(name) {
		return 0
	}
	// Inside a tag: a '<' and the element's name before the attribute.
	lt := strings.LastIndexByte(s[max(0, i-maxTagLook):i], '<')
	if lt < 0 || strings.ContainsAny(s[max(0, i-maxTagLook)+lt:i], ">\n") {
		return 0
	}
	gt := tagEnd(s, ve+1)
	if gt < 0 || strings.Contains(strings.ToLower(s[ve+1:gt]), "value=") {
		return 0 // <add key="Password" value="…"/>: namedValue's
	}
	if end := r.cdata(gt + 1); end > 0 {
		return end
	}
	to := gt + 1
	for to < len(s) && s[to] != '<' && s[to] != '\n' {
		to++
	}
	if strings.TrimSpace(s[gt+1:to]) == "" {
		return 0
	}
	return r.replace(gt+1, to, Redacted)
}
