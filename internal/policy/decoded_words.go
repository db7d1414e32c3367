package policy

import (
	"encoding/base64"
	"encoding/hex"
	"strings"
)

// maxDecodings is how many times over encoded text is decoded.
const maxDecodings = 4

// minEncoded is the shortest word decodedWords reads: aGFsdA, "halt" in
// base64 without its padding, the shortest deny-list word.
const minEncoded = 6

// decodedWords returns, one to a line, the printable text the encoded
// words of s decode to: base64 (padded or not, either alphabet; UTF-16,
// as pwsh -EncodedCommand takes it, too) and hex. A word is a run of
// the characters an encoding uses, so one quoted, or glued to an
// option (-enc…), is read as well. Words that decode to anything but
// text (a key, a hash, a path read as base64) are not.
func decodedWords(s string) string {
	var out strings.Builder
	var buf []byte
	for i := 0; i < len(s); {
		if !b64Char(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && b64Char(s[j]) {
			j++
		}
		w := strings.TrimRight(s[i:j], "=")
		i = j
		if len(w) < minEncoded {
			continue
		}
		if t, ok := decodeWord(w, &buf); ok {
			out.WriteString(t)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// b64Char reports whether c may be part of a base64 or hex word.
func b64Char(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '_' || c == '-' || c == '='
}

// decodeWord decodes w as hex, then as base64 in either alphabet, into
// buf, and returns the text when it is printable.
func decodeWord(w string, buf *[]byte) (string, bool) {
	if len(w)%2 == 0 && hexWord(w) {
		*buf = append((*buf)[:0], w...)
		n, _ := hex.Decode(*buf, *buf)
		return printable((*buf)[:n])
	}
	if len(w)%4 == 1 {
		return "", false
	}
	enc := base64.RawStdEncoding
	if strings.ContainsAny(w, "-_") {
		if strings.ContainsAny(w, "+/") {
			return "", false
		}
		enc = base64.RawURLEncoding
	}
	*buf = append((*buf)[:0], make([]byte, enc.DecodedLen(len(w)))...)
	n, err := enc.Decode(*buf, []byte(w))
	if err != nil {
		return "", false
	}
	return printable((*buf)[:n])
}

func hexWord(w string) bool {
	for i := 0; i < len(w); i++ {
		if !isHex(w[i]) {
			return false
		}
	}
	return true
}

// printable returns b as text when every byte is printable ASCII or a
// blank, or when b is such text in UTF-16 (little-endian, as Windows
// and PowerShell write it).
func printable(b []byte) (string, bool) {
	if len(b) == 0 {
		return "", false
	}
	if asciiText(b, 1) {
		return string(b), true
	}
	if len(b)%2 == 0 && asciiText(b, 2) {
		out := make([]byte, len(b)/2)
		for i := range out {
			if b[2*i+1] != 0 {
				return "", false
			}
			out[i] = b[2*i]
		}
		return string(out), true
	}
	return "", false
}

// asciiText reports whether every step-th byte of b is printable ASCII
// or a blank.
func asciiText(b []byte, step int) bool {
	for i := 0; i < len(b); i += step {
		if c := b[i]; (c < 0x20 || c > 0x7e) && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}
