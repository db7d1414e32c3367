package session

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Stripper removes terminal control from a stream of program output so that
// what remains is plain text safe to show an agent: CSI sequences (ESC [ and
// 8-bit CSI), OSC strings ended by BEL or ST, DCS, SOS, PM and APC strings,
// two- and three-byte ESC sequences, C1 controls, DEL, and every C0 control
// but newline and tab (so "\r\n" becomes "\n"); invisible format characters
// (bidi controls, zero-width and tag characters) and line separators are
// kept as visible escapes (\u202e). Invalid UTF-8 becomes
// U+FFFD. State carries across calls, so a sequence or a multi-byte
// character split between two reads is handled as if it had arrived whole.
//
// The zero value is ready to use. A Stripper is not safe for concurrent use.
type Stripper struct {
	fix utf8Fixer
	vt  vtFilter
}

// Append strips p, continuing from the state earlier calls left, and appends
// the text to dst. Bytes of a character cut off at the end of p are held back
// until the next call or Flush.
func (s *Stripper) Append(dst, p []byte) []byte {
	valid := s.fix.Append(nil, p)
	return s.vt.Append(dst, valid)
}

// Flush ends the stream: any held-back partial character is appended to dst
// as U+FFFD, and the escape-sequence state is reset.
func (s *Stripper) Flush(dst []byte) []byte {
	dst = s.vt.Append(dst, s.fix.Flush(nil))
	s.vt = vtFilter{}
	return dst
}

// Strip returns p with terminal control removed, as one whole stream.
func Strip(p []byte) string {
	var s Stripper
	out := s.Append(make([]byte, 0, len(p)), p)
	return string(s.Flush(out))
}

// utf8Fixer turns a byte stream into valid UTF-8, replacing each invalid byte
// with U+FFFD and holding back a character split at the end of a chunk.
type utf8Fixer struct {
	carry [utf8.UTFMax]byte
	n     int
}

// Append appends the valid UTF-8 form of p to dst.
func (f *utf8Fixer) Append(dst, p []byte) []byte {
	b := p
	if f.n > 0 {
		b = make([]byte, 0, f.n+len(p))
		b = append(append(b, f.carry[:f.n]...), p...)
		f.n = 0
	}
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			dst = append(dst, b[i])
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			if !utf8.FullRune(b[i:]) {
				f.n = copy(f.carry[:], b[i:])
				break
			}
			dst = utf8.AppendRune(dst, utf8.RuneError)
			i++
			continue
		}
		dst = append(dst, b[i:i+size]...)
		i += size
	}
	return dst
}

// Flush appends U+FFFD for each held-back byte, as a decoder reaching the end
// of the stream would.
func (f *utf8Fixer) Flush(dst []byte) []byte {
	for range f.n {
		dst = utf8.AppendRune(dst, utf8.RuneError)
	}
	f.n = 0
	return dst
}

type vtState uint8

const (
	vtGround    vtState = iota
	vtEsc               // after ESC
	vtEscInter          // ESC followed by intermediates (0x20–0x2f)
	vtCSI               // in a control sequence
	vtString            // in an OSC, DCS, SOS, PM or APC string
	vtStringEsc         // ESC seen inside a string: ST if a backslash follows
)

// Limits on how much a single unterminated sequence may swallow before the
// filter gives up on it and shows what follows, so a stray ESC ] cannot hide
// the rest of a session from the agent.
const (
	maxCSILen    = 1 << 10
	maxStringLen = 64 << 10
)

// vtFilter is the escape-sequence state machine over valid UTF-8, after the
// DEC/ECMA-48 parser model: controls inside a sequence are executed (kept
// only if newline or tab), CAN and SUB abort one, ESC starts a new one.
type vtFilter struct {
	state vtState
	n     int // bytes consumed by the current sequence
}

// Append filters valid UTF-8 text p and appends what is left to dst.
func (v *vtFilter) Append(dst, p []byte) []byte {
	for i := 0; i < len(p); {
		r, size := rune(p[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(p[i:])
		}
		dst = v.step(dst, r, p[i:i+size])
		i += size
	}
	return dst
}

func isC1(r rune) bool { return r >= 0x80 && r < 0xa0 }

// step consumes one rune; enc is its encoding, copied to dst when it is text.
func (v *vtFilter) step(dst []byte, r rune, enc []byte) []byte {
	for {
		switch v.state {
		case vtGround:
			switch {
			case r == 0x1b:
				v.enter(vtEsc)
			case r == 0x9b:
				v.enter(vtCSI)
			case r == 0x90 || r == 0x98 || r == 0x9d || r == 0x9e || r == 0x9f:
				v.enter(vtString)
			case r == '\n' || r == '\t':
				dst = append(dst, byte(r))
			case r < 0x20 || r == 0x7f || isC1(r):
				// Other controls move the cursor, ring bells or switch
				// character sets: none of that is text.
			case r >= 0xa0 && (r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r)):
				// Invisible formatting (bidi overrides and isolates that
				// reorder what follows, zero-width and tag characters) and
				// line separators are shown as escapes, as internal/display
				// shows them: whoever reads the text sees they are there.
				if r > 0xffff {
					dst = fmt.Appendf(dst, "\\U%08x", r)
				} else {
					dst = fmt.Appendf(dst, "\\u%04x", r)
				}
			default:
				dst = append(dst, enc...)
			}
			return dst
		case vtEsc, vtEscInter:
			switch {
			case r == 0x1b:
				v.enter(vtEsc)
			case r == 0x18 || r == 0x1a:
				v.state = vtGround
			case r < 0x20:
				dst = execute(dst, r)
			case v.state == vtEsc && r == '[':
				v.enter(vtCSI)
			case v.state == vtEsc && (r == ']' || r == 'P' || r == 'X' || r == '^' || r == '_'):
				v.enter(vtString)
			case r <= 0x2f:
				v.state = vtEscInter
			case r <= 0x7e:
				v.state = vtGround
			default:
				// Not a valid sequence: drop the ESC and read r as text.
				v.state = vtGround
				continue
			}
			return dst
		case vtCSI:
			v.n += len(enc)
			switch {
			case r == 0x1b:
				v.enter(vtEsc)
			case r == 0x18 || r == 0x1a:
				v.state = vtGround
			case r < 0x20:
				dst = execute(dst, r)
			case r <= 0x3f:
				if v.n > maxCSILen {
					v.state = vtGround
				}
			case r <= 0x7e:
				v.state = vtGround
			case r == 0x7f:
			default:
				v.state = vtGround
				continue
			}
			return dst
		case vtString:
			v.n += len(enc)
			switch {
			case r == 0x07 || r == 0x9c || r == 0x18 || r == 0x1a:
				v.state = vtGround
			case r == 0x1b:
				v.state = vtStringEsc
			case v.n > maxStringLen:
				v.state = vtGround
			}
			return dst
		case vtStringEsc:
			if r == '\\' {
				v.state = vtGround
				return dst
			}
			// ESC not followed by a backslash ends the string and begins
			// a new sequence, as xterm does.
			v.enter(vtEsc)
			continue
		}
	}
}

func (v *vtFilter) enter(s vtState) {
	v.state, v.n = s, 0
}

// execute keeps the two controls that are text when they occur inside a
// sequence.
func execute(dst []byte, r rune) []byte {
	if r == '\n' || r == '\t' {
		dst = append(dst, byte(r))
	}
	return dst
}
