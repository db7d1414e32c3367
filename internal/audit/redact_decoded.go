package audit

import (
	"encoding/base64"
	"strings"
)

// Credentials written in base64: HTTP Basic's user:password, after the
// word Basic anywhere (echo 'Basic …', a header no rule names), and a
// literal fed to a base64 decoder (echo … | base64 -d, base64 -d <<< …)
// that decodes to one. The decoding tells a credential from any other
// base64: printable, with a user before a ':' and a password after it.

// maxBasicB64 bounds the base64 word decoded: a user:password pair, not a
// file.
const maxBasicB64 = 256

// basicCredential reports whether b64, standard base64 with or without
// its padding, decodes to user:password.
func basicCredential(b64 string) bool {
	if len(b64) < 8 || len(b64) > maxBasicB64 {
		return false
	}
	var src, dst [maxBasicB64]byte
	n := copy(src[:], b64)
	for n%4 != 0 && n < len(src) {
		src[n] = '='
		n++
	}
	m, err := base64.StdEncoding.Decode(dst[:], src[:n])
	if err != nil {
		return false
	}
	colon := -1
	for k, c := range dst[:m] {
		switch {
		case c == ':' && colon < 0:
			colon = k
		case c <= ' ' || c >= 0x7f:
			return false
		}
	}
	return colon > 0 && colon < m-1
}

// b64End returns where the run of base64 bytes starting at k ends.
func b64End(s string, k int) int {
	for k < len(s) && (isAlnum(s[k]) || s[k] == '+' || s[k] == '/' || s[k] == '=') {
		k++
	}
	return k
}

// basicWord redacts the base64 user:password after the word Basic ending
// at j, and returns where scanning resumes, or 0.
func (r *redactor) basicWord(j int) int {
	k := skipBlanks(r.s, j)
	if k == j {
		return 0
	}
	e := b64End(r.s, k)
	if !basicCredential(r.s[k:e]) {
		return 0
	}
	return r.replace(k, e, Redacted)
}

// decodedFeed redacts each word of the literal s[from:to] fed to a base64
// decoder (echo's or printf's arguments, a here-string) that decodes to
// user:password.
func (r *redactor) decodedFeed(from, to int) {
	s := r.s
	for k := skipBlanks(s, from); k < to; k = skipBlanks(s, k) {
		e := min(shellWordEnd(s, k), to)
		if e <= k {
			return
		}
		if a, b := innerSpan(s, k, e); a >= r.done && basicCredential(s[a:b]) {
			r.replace(a, b, Redacted)
		}
		k = e
	}
}

// decoderCmd reports whether the command named w, followed by rest,
// decodes base64: base64 -d, base32's and basenc's --decode, openssl
// base64 -d, openssl enc -d -a.
func decoderCmd(w, rest string) bool {
	switch w {
	case "base64", "gbase64", "b64", "basenc":
		return decodes(rest)
	case "openssl":
		o := strings.TrimLeft(rest, " \t")
		return (strings.HasPrefix(o, "base64") || strings.HasPrefix(o, "enc")) && decodes(o[strings.IndexByte(o+" ", ' '):])
	}
	return false
}
