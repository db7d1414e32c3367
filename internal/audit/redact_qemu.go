package audit

import "strings"

// QEMU's secret object carries a password in its data property: qemu
// -object secret,id=sec0,data=…, qemu-img --object secret,data=…,id=…,
// the monitor's object_add secret,…. Other objects and options name the
// secret by its id (password-secret=sec0, key-secret=sec0), which is no
// secret.

// maxQemuItems bounds how far an object's property list is read.
const maxQemuItems = 1024

// qemuSecret redacts the data property of the secret object whose type is
// the word s[i:j] (secret, followed by ','), and returns where scanning
// resumes, or 0 when it has none.
func (r *redactor) qemuSecret(i, j int) int {
	s := r.s
	if i > 0 && s[i-1] != ' ' && s[i-1] != '\t' && s[i-1] != '=' && s[i-1] != '\'' && s[i-1] != '"' {
		return 0 // an item of another list (…,secret,…), not the object's type
	}
	end := min(len(s), j+maxQemuItems)
	for k := j; k < end && s[k] == ','; {
		e := identEnd(s, k+1, false)
		v := e + 1
		x := v
		for x < end && strings.IndexByte(" \t\r\n'\"`;|&<>", s[x]) < 0 && (s[x] != ',' || x+1 < end && s[x+1] == ',') {
			if s[x] == ',' {
				x++ // ",," is a comma of the value
			}
			x++
		}
		if e < len(s) && s[e] == '=' && s[k+1:e] == "data" && x > v {
			return r.replace(v, x, Redacted)
		}
		if e >= len(s) || s[e] != '=' {
			return 0
		}
		k = x
	}
	return 0
}
