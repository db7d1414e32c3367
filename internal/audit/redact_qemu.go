package audit

import "strings"

// QEMU's secret object carries a password in its data property: qemu
// -object secret,id=sec0,data=…, qemu-img --object secret,data=…,id=…,
// the monitor's object_add secret,…. Other objects and options name the
// secret by its id (password-secret=sec0, key-secret=sec0), which is no
// secret.

// qemuSecret redacts the data property of the secret object whose type is
// the word s[i:j] (secret, followed by ','), and returns where scanning
// resumes, or 0 when it has none. The list is read to its end however
// long, so properties of many kilobytes before data= hide nothing; a
// "secret" inside a list read before (id=secret,…) starts no look, so
// each byte is read once.
func (r *redactor) qemuSecret(i, j int) int {
	s := r.s
	if i > 0 && s[i-1] != ' ' && s[i-1] != '\t' && s[i-1] != '=' && s[i-1] != '\'' && s[i-1] != '"' {
		return 0 // an item of another list (…,secret,…), not the object's type
	}
	if j < r.qemuEnd {
		return 0
	}
	k := j
	for k < len(s) && s[k] == ',' {
		e := identEnd(s, k+1, false)
		v := e + 1
		x := v
		for x < len(s) && strings.IndexByte(" \t\r\n'\"`;|&<>", s[x]) < 0 && (s[x] != ',' || x+1 < len(s) && s[x+1] == ',') {
			if s[x] == ',' {
				x++ // ",," is a comma of the value
			}
			x++
		}
		if e < len(s) && s[e] == '=' && s[k+1:e] == "data" && x > v {
			return r.replace(v, x, Redacted)
		}
		if e >= len(s) || s[e] != '=' {
			break
		}
		k = max(x, k+1)
	}
	r.qemuEnd = k
	return 0
}

// qemuSecretJSON queues the data member of the JSON secret object whose
// qom-type value is the word s[i:j] ("qom-type":"secret", in -object
// '{…}' or QMP's object-add), before or after it in the object. The
// object is read from its '{' to its '}' however far they are; a look
// starts after the last one ended, so each byte is read once.
func (r *redactor) qemuSecretJSON(i, j int) {
	s := r.s
	k := i - 1
	if k > 0 && s[k] == '"' && s[k-1] == '\\' {
		k--
	}
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '"' || s[k-1] == '\\' || s[k-1] == ':') {
		k--
	}
	if !strings.HasSuffix(s[max(0, k-8):k], "qom-type") || i < r.qemuJSONEnd {
		return
	}
	from := r.qemuJSONEnd
	if b := strings.LastIndexByte(s[from:i], '{'); b >= 0 {
		from += b
	}
	to := len(s)
	if e := strings.IndexByte(s[j:], '}'); e >= 0 {
		to = j + e
	}
	r.qemuJSONEnd = to
	obj := s[from:to]
	x := strings.Index(obj, `data\"`)
	n := len(`data\"`)
	if x < 0 {
		x, n = strings.Index(obj, `data"`), len(`data"`)
	}
	if x < 1 || obj[x-1] != '"' {
		return
	}
	v := from + x + n
	for v < to && (s[v] == ' ' || s[v] == ':') {
		v++
	}
	q := `"`
	if strings.HasPrefix(s[v:to], `\"`) {
		q = `\"`
	} else if v >= to || s[v] != '"' {
		return
	}
	v += len(q)
	if e := quotedEnd(s, v, q); e > v && e <= to && v >= r.done {
		r.queueSorted(v, e)
	}
}

// monitorPassword redacts the password of a QEMU monitor command whose
// word s[i:j] is set_password (set_password vnc|spice PW), password
// (change vnc password PW) or block_passwd (block_passwd DEV PW), and
// returns where scanning resumes, or 0.
func (r *redactor) monitorPassword(i, j int) int {
	s := r.s
	switch s[i:j] {
	case "password":
		b := i
		for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
			b--
		}
		if !strings.HasSuffix(s[max(0, b-10):b], "change vnc") {
			return 0
		}
	case "set_password", "block_passwd":
		// The protocol or the device comes first.
		k := skipBlanks(s, j)
		e := k
		for e < len(s) && (isAlnumUnderscore(s[e]) || s[e] == '-' || s[e] == '.') {
			e++
		}
		if k == j || e == k {
			return 0
		}
		j = e
	}
	k := skipBlanks(s, j)
	if k == j || k >= len(s) {
		return 0
	}
	start, end := valueSpan(s, k)
	if end <= start {
		return 0
	}
	return r.replace(start, end, Redacted)
}
