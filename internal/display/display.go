// Package display owns how text an agent chose is shown to a human: the
// operator's terminal (warden approvals, audit tail, session list), the
// elicitation message a client shows its user, and what the web console
// renders. An agent writes the command an approver reads, so nothing in it
// may act on the display instead of being read: no C0 or C1 control (ESC
// and CSI start escape sequences: cursor moves, erase, OSC 52 clipboard
// writes, OSC 8 links, window titles), no DEL, and no invisible formatting
// character — bidi overrides, embeddings and isolates (U+202A–U+202E,
// U+2066–U+2069) that reorder what follows, zero-width characters, tag
// characters, line and paragraph separators. Each is shown as an escape
// (\x1b, \u202e) so the reader sees it is there. Newline is kept where the
// text is laid out on lines; everything else is left as it is.
package display

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// Hidden reports whether r acts on a display or is invisible there rather
// than being shown: C0 and C1 controls, DEL, format characters (Unicode
// category Cf: bidi controls, zero-width joiners and spaces, the byte
// order mark, tag characters) and the line and paragraph separators.
func Hidden(r rune) bool {
	switch {
	case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
		return true
	case r == '\u2028', r == '\u2029':
		return true
	case r < 0xa0:
		return false
	}
	return unicode.Is(unicode.Cf, r)
}

// blankRun is the longest run of blanks Text shows as they are: a longer
// one (10,000 spaces before "; rm -rf /home") would push the rest of a
// command out of the reader's view.
const blankRun = 16

// Text returns s with every Hidden rune but newline written as an escape:
// \xHH below U+0100, \uHHHH (or \U00HHHHHH) above. Invalid UTF-8 bytes
// become \xHH too. A run of more than 16 blanks (space and the other
// Unicode space separators) is shown as "…[N blanks]…".
func Text(s string) string {
	if !needs(s, true) && !strings.Contains(s, strings.Repeat(" ", blankRun+1)) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if unicode.Is(unicode.Zs, r) {
			j, runes := i, 0
			for j < len(s) {
				r2, n2 := utf8.DecodeRuneInString(s[j:])
				if !unicode.Is(unicode.Zs, r2) {
					break
				}
				j += n2
				runes++
			}
			if runes > blankRun {
				fmt.Fprintf(&b, " …[%d blanks]… ", runes)
				i = j
				continue
			}
		}
		if r == '\n' {
			b.WriteByte('\n')
		} else {
			writeRune(&b, s[i:i+n], r)
		}
		i += n
	}
	return b.String()
}

// Output is Text for a program's output or any text a tool returns: tabs
// and the carriage return of a CRLF line end are kept as well, and runs of
// blanks are left alone (columns). A lone carriage return, which lets a
// later text overwrite an earlier one on the reader's screen, is escaped.
func Output(s string) string {
	if !needs(s, true) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == '\t' || r == '\n' || (r == '\r' && i+1 < len(s) && s[i+1] == '\n') {
			b.WriteRune(r)
		} else {
			writeRune(&b, s[i:i+n], r)
		}
		i += n
	}
	return b.String()
}

// writeRune writes the rune r, encoded as enc in the text, to b: as it is
// unless Hidden, or as an escape; an invalid UTF-8 byte as \xHH.
func writeRune(b *strings.Builder, enc string, r rune) {
	switch {
	case r == utf8.RuneError && len(enc) == 1:
		fmt.Fprintf(b, "\\x%02x", enc[0])
	case !Hidden(r):
		b.WriteString(enc)
	case r < 0x100:
		fmt.Fprintf(b, "\\x%02x", r)
	case r <= 0xffff:
		fmt.Fprintf(b, "\\u%04x", r)
	default:
		fmt.Fprintf(b, "\\U%08x", r)
	}
}

// Line is Text on one line: newlines are escaped as well.
func Line(s string) string {
	return strings.ReplaceAll(Text(s), "\n", `\n`)
}

// JSON returns encoded JSON (as encoding/json writes it, which escapes C0
// controls but not DEL, C1 controls or format characters) with every Hidden
// rune written as a \u escape: the same JSON value, safe to print.
func JSON(b []byte) []byte {
	if !needs(string(b), false) {
		return b
	}
	out := make([]byte, 0, len(b)+16)
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 || !Hidden(r) || r < 0x20 {
			// Invalid UTF-8 cannot come from encoding/json; C0 controls
			// outside strings are JSON's own whitespace.
			out = append(out, b[i:i+n]...)
			i += n
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
		} else {
			out = fmt.Appendf(out, `\u%04x`, r)
		}
		i += n
	}
	return out
}

// needs reports whether s holds anything Text (c0: C0 controls but
// newline too) or JSON would change.
func needs(s string, c0 bool) bool {
	for _, r := range s {
		if r == '\n' || (!c0 && r < 0x20) {
			continue
		}
		if Hidden(r) || r == utf8.RuneError || (c0 && r > 0x7f && unicode.Is(unicode.Zs, r)) {
			return true
		}
	}
	return false
}
