package gate

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// Call is one tool call as the gate sees it: everything an approval must bind.
type Call struct {
	Tool     string
	Args     json.RawMessage // the tool arguments as received
	Host     string
	Identity string
}

// gateFields are the top-level arguments that carry the approval itself and so
// are not part of what is approved: the retried call adds them.
var gateFields = []string{"approval_token", "request_state"}

// digestDomain separates call digests from any other SHA-256 use.
const digestDomain = "warden/gate/call/v1"

// Digest returns the SHA-256 of a canonical encoding of c.
//
// The arguments must be a JSON object (empty or null means no arguments).
// They are re-encoded canonically: object keys sorted bytewise, no
// insignificant whitespace, strings minimally escaped, numbers kept exactly as
// written (so 1 and 1.0 differ), and the top-level gate fields approval_token
// and request_state removed. Arguments that are not valid UTF-8 JSON, or that
// repeat a key in any object, are rejected: a tool decoder might keep either
// duplicate, so no single meaning could be approved.
//
// Tool, host, identity and the canonical arguments are each length-prefixed,
// so no two different calls share an encoding.
func Digest(c Call) ([32]byte, error) {
	args, err := canonicalArgs(c.Args)
	if err != nil {
		return [32]byte{}, fmt.Errorf("gate: digest: %w", err)
	}
	h := sha256.New()
	for _, part := range [][]byte{[]byte(digestDomain), []byte(c.Tool), []byte(c.Host), []byte(c.Identity), args} {
		var n [8]byte
		binary.BigEndian.PutUint64(n[:], uint64(len(part)))
		h.Write(n[:])
		h.Write(part)
	}
	var d [32]byte
	h.Sum(d[:0])
	return d, nil
}

// member is one name/value pair of a JSON object, kept in a slice rather
// than a map so duplicates can be detected.
type member struct {
	name  string
	value any
}

// canonicalArgs returns the canonical encoding of a tool-arguments object with
// the gate fields removed.
func canonicalArgs(raw json.RawMessage) ([]byte, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return []byte("{}"), nil
	}
	if !utf8.Valid(raw) {
		return nil, errors.New("arguments are not valid utf-8")
	}
	// Valid rejects trailing data and bounds nesting depth, so the walk
	// below sees exactly one value and its recursion is bounded.
	if !json.Valid(raw) {
		return nil, errors.New("arguments are not valid json")
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	v, err := parseValue(dec)
	if err != nil {
		return nil, fmt.Errorf("parse arguments: %w", err)
	}
	var obj []member
	switch v := v.(type) {
	case nil:
		// null arguments mean no arguments, as in MCP.
	case []member:
		obj = slices.DeleteFunc(v, func(m member) bool { return slices.Contains(gateFields, m.name) })
	default:
		return nil, errors.New("arguments are not a json object")
	}
	var b bytes.Buffer
	b.Grow(len(raw))
	writeValue(&b, obj)
	return b.Bytes(), nil
}

// parseValue reads one JSON value from dec. Objects become []member sorted by
// name, arrays []any, numbers json.Number, and the rest their usual Go types.
func parseValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return tok, nil // string, json.Number, bool or nil
	}
	switch d {
	case '{':
		obj := []member{}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, err
			}
			name, ok := tok.(string)
			if !ok {
				return nil, fmt.Errorf("object key %v is not a string", tok)
			}
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			obj = append(obj, member{name, v})
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		slices.SortFunc(obj, func(a, b member) int { return strings.Compare(a.name, b.name) })
		for i := 1; i < len(obj); i++ {
			if obj[i].name == obj[i-1].name {
				return nil, fmt.Errorf("duplicate object key %q", obj[i].name)
			}
		}
		return obj, nil
	case '[':
		arr := []any{}
		for dec.More() {
			v, err := parseValue(dec)
			if err != nil {
				return nil, err
			}
			arr = append(arr, v)
		}
		if _, err := dec.Token(); err != nil {
			return nil, err
		}
		return arr, nil
	default:
		return nil, fmt.Errorf("unexpected delimiter %v", d)
	}
}

// writeValue writes the canonical encoding of a value built by parseValue.
func writeValue(b *bytes.Buffer, v any) {
	switch v := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if v {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case json.Number:
		b.WriteString(string(v))
	case string:
		writeString(b, v)
	case []any:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeValue(b, e)
		}
		b.WriteByte(']')
	case []member:
		b.WriteByte('{')
		for i, m := range v {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, m.name)
			b.WriteByte(':')
			writeValue(b, m.value)
		}
		b.WriteByte('}')
	default:
		// parseValue produces only the types above.
		panic(fmt.Sprintf("gate: unexpected json value %T", v))
	}
}

// writeString writes s as a JSON string escaping only what JSON requires, the
// way RFC 8785 does. s is valid UTF-8: the decoder guarantees it.
func writeString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\b':
			b.WriteByte('\\')
			b.WriteByte('b')
		case c == '\f':
			b.WriteByte('\\')
			b.WriteByte('f')
		case c == '\n':
			b.WriteByte('\\')
			b.WriteByte('n')
		case c == '\r':
			b.WriteByte('\\')
			b.WriteByte('r')
		case c == '\t':
			b.WriteByte('\\')
			b.WriteByte('t')
		case c < 0x20:
			for _, e := range []byte{'\\', 'u', '0', '0', hex[c>>4], hex[c&0xf]} {
				b.WriteByte(e)
			}
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// Unambiguous returns an error when raw tool arguments repeat a key in any
// object, at any depth. Decoders disagree about which duplicate counts (Go
// and Python keep the last, others the first), so such a call has no single
// meaning: the classifier, the tool, the audit log's reader and an approver
// could each read a different command. The relay refuses it before anything
// reads it; Digest refuses it too. Text that is not a JSON object is left
// to the tool's own validation.
func Unambiguous(raw json.RawMessage) error {
	if !json.Valid(raw) {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if _, err := parseValue(dec); err != nil {
		return err
	}
	return nil
}
