package agent

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
)

// Bodies of calls and replies are JSON, but for the call every
// run_command makes: a run and its result travel as a tag byte and
// length-prefixed fields. On an agent that has been idle, encoding/json
// took 15 to 40 µs per body where this takes 4 to 11, on a path whose
// whole budget over a local run is a fraction of a millisecond. A JSON
// body starts with '{', so the tag cannot be mistaken for one.
const runTag byte = 0

var errBody = errors.New("agent protocol: malformed body")

// encodeCall encodes a call's body.
func encodeCall(c call) ([]byte, error) {
	if !runOnly(c) {
		return json.Marshal(c)
	}
	r := c.Run
	b := make([]byte, 0, 64+sizeStrings(r.Argv)+sizeStrings(r.Env)+len(r.Dir)+len(r.Stdin))
	b = append(b, runTag)
	b = appendString(b, string(c.Level))
	b = appendString(b, c.Tool)
	b = binary.AppendUvarint(b, boolByte(c.Daemons))
	b = appendStrings(b, r.Argv)
	b = appendStrings(b, r.Env)
	b = appendString(b, r.Dir)
	b = appendBytes(b, r.Stdin)
	b = binary.AppendVarint(b, int64(r.Timeout))
	b = binary.AppendVarint(b, int64(r.MaxBytes))
	return b, nil
}

// decodeCall decodes a call's body.
func decodeCall(p []byte) (call, error) {
	var c call
	if len(p) == 0 || p[0] != runTag {
		err := json.Unmarshal(p, &c)
		return c, err
	}
	d := decoder{b: p[1:]}
	r := &runCall{}
	c = call{Op: opRun, Run: r}
	c.Level = confine.Level(d.string())
	c.Tool = d.string()
	switch d.uvarint() {
	case 0:
	case 1:
		c.Daemons = true
	default:
		return c, errBody
	}
	r.Argv = d.strings()
	r.Env = d.strings()
	r.Dir = d.string()
	r.Stdin = d.bytes()
	r.Timeout = time.Duration(d.varint())
	r.MaxBytes = d.int()
	return c, d.end()
}

// runOnly reports whether c is a run carrying nothing but what the binary
// form holds.
func runOnly(c call) bool {
	if c.Op != opRun || c.Run == nil {
		return false
	}
	c.Op, c.Level, c.Tool, c.Daemons, c.Run = "", "", "", false, nil
	return reflect.ValueOf(c).IsZero()
}

func boolByte(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// encodeReply encodes a reply's body.
func encodeReply(r reply) ([]byte, error) {
	if !resultOnly(r) {
		return json.Marshal(r)
	}
	x := r.Run
	b := make([]byte, 0, 48+len(x.Stdout)+len(x.Stderr))
	b = append(b, runTag)
	b = binary.AppendVarint(b, int64(x.ExitCode))
	b = appendBytes(b, x.Stdout)
	b = appendBytes(b, x.Stderr)
	var flags uint64
	for i, set := range []bool{x.Truncated, x.TimedOut, x.Canceled} {
		if set {
			flags |= 1 << i
		}
	}
	b = binary.AppendUvarint(b, flags)
	b = binary.AppendVarint(b, x.TotalBytes)
	b = binary.AppendVarint(b, int64(x.Duration))
	return b, nil
}

// resultOnly reports whether r is a run's result and nothing else.
func resultOnly(r reply) bool {
	if r.Run == nil {
		return false
	}
	r.Run = nil
	return reflect.ValueOf(r).IsZero()
}

// decodeReply decodes a reply's body.
func decodeReply(p []byte) (reply, error) {
	var r reply
	if len(p) == 0 || p[0] != runTag {
		err := json.Unmarshal(p, &r)
		return r, err
	}
	d := decoder{b: p[1:]}
	x := &runner.Result{}
	x.ExitCode = d.int()
	x.Stdout = d.bytes()
	x.Stderr = d.bytes()
	flags := d.uvarint()
	if flags > 7 {
		d.fail("unknown flags %#x", flags)
	}
	x.Truncated, x.TimedOut, x.Canceled = flags&1 != 0, flags&2 != 0, flags&4 != 0
	x.TotalBytes = d.varint()
	x.Duration = time.Duration(d.varint())
	return reply{Run: x}, d.end()
}

func sizeStrings(s []string) int {
	n := 0
	for _, x := range s {
		n += len(x) + binary.MaxVarintLen32
	}
	return n
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendBytes(b, p []byte) []byte {
	b = binary.AppendUvarint(b, uint64(len(p)))
	return append(b, p...)
}

func appendStrings(b []byte, s []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	for _, x := range s {
		b = appendString(b, x)
	}
	return b
}

// decoder reads a binary body; the first error sticks and every later
// read returns a zero value.
type decoder struct {
	b   []byte
	err error
}

func (d *decoder) fail(format string, args ...any) {
	if d.err == nil {
		d.err = fmt.Errorf("%w: "+format, append([]any{errBody}, args...)...)
	}
}

func (d *decoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.b)
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

func (d *decoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.b)
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.b = d.b[n:]
	return v
}

// int is a varint that fits this platform's int.
func (d *decoder) int() int {
	v := d.varint()
	if int64(int(v)) != v {
		d.fail("number %d out of range", v)
		return 0
	}
	return int(v)
}

// length is a count of at most what is left, since each counted item
// takes at least a byte.
func (d *decoder) length() int {
	n := d.uvarint()
	if n > uint64(len(d.b)) {
		d.fail("length %d beyond the %d bytes left", n, len(d.b))
		return 0
	}
	return int(n)
}

func (d *decoder) bytes() []byte {
	n := d.length()
	if n == 0 {
		return nil
	}
	p := d.b[:n:n]
	d.b = d.b[n:]
	return p
}

func (d *decoder) string() string { return string(d.bytes()) }

func (d *decoder) strings() []string {
	n := d.length()
	if n == 0 {
		return nil
	}
	s := make([]string, n)
	for i := range s {
		s[i] = d.string()
	}
	return s
}

// end is the decoding's error, or an error for bytes left over.
func (d *decoder) end() error {
	if d.err == nil && len(d.b) > 0 {
		d.fail("%d bytes left over", len(d.b))
	}
	return d.err
}
