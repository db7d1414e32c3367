// Package agent owns the protocol between warden and its agent on a
// remote host: one byte stream (an SSH exec channel) carrying
// length-prefixed frames of many concurrent calls, each under a request
// ID, with per-stream flow control, cancellation and bounded buffers.
//
// The agent side (Serve) runs commands in process groups with the local
// runner's bounds and kills, sessions on PTYs or pipes, file operations
// with the same no-follow openat walk as hostfs.Local and snapshot reads
// under os.Root, each confined at the level warden sends with the call.
// The agent enforces; it never decides: policy, approvals and audit stay
// in the warden that holds the other end (Client).
//
// When the stream ends, the agent cancels every call, closes every
// session (killing its process tree) and returns: nothing is left
// running.
package agent

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// Frame types.
const (
	// frameCall starts a call: JSON call.
	frameCall byte = 1
	// frameReply ends a call: JSON reply.
	frameReply byte = 2
	// frameCancel cancels the call of its ID: no payload.
	frameCancel byte = 3
	// frameData carries a session's bytes: input towards the agent,
	// output towards warden.
	frameData byte = 4
	// frameWindow grants the sender of a session's data more bytes:
	// a 4-byte big-endian count.
	frameWindow byte = 5
	// frameExit ends a session's output: JSON exit.
	frameExit byte = 6
)

// headerLen is the length prefix, the type and the ID.
const headerLen = 4 + 1 + 4

// readBuf is the buffer frames are read through: a pipe's capacity.
const readBuf = 64 << 10

// MaxPayload bounds one frame's payload. A larger one is a protocol
// error: the stream is closed, never read on.
const MaxPayload = 8 << 20

// frame is one unit on the stream.
type frame struct {
	typ     byte
	id      uint32
	payload []byte
}

// errFrame is wrapped by every malformed-frame error.
var errFrame = errors.New("agent protocol: malformed frame")

// readFrame reads one frame of at most max payload bytes.
func readFrame(r io.Reader, max int) (frame, error) {
	var h [headerLen]byte
	if _, err := io.ReadFull(r, h[:]); err != nil {
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return frame{}, fmt.Errorf("%w: truncated header", errFrame)
		}
		return frame{}, err // io.EOF: the stream ended between frames
	}
	n := binary.BigEndian.Uint32(h[0:4])
	if n < 5 {
		return frame{}, fmt.Errorf("%w: length %d is shorter than type and id", errFrame, n)
	}
	size := int64(n) - 5
	if size > int64(max) {
		return frame{}, fmt.Errorf("%w: payload of %d bytes is over the limit of %d", errFrame, size, max)
	}
	f := frame{typ: h[4], id: binary.BigEndian.Uint32(h[5:9])}
	if f.typ < frameCall || f.typ > frameExit {
		return frame{}, fmt.Errorf("%w: unknown type %d", errFrame, f.typ)
	}
	if size > 0 {
		f.payload = make([]byte, size)
		if _, err := io.ReadFull(r, f.payload); err != nil {
			return frame{}, fmt.Errorf("%w: truncated payload: %v", errFrame, err)
		}
	}
	if f.typ == frameWindow && len(f.payload) != 4 {
		return frame{}, fmt.Errorf("%w: window frame of %d bytes", errFrame, len(f.payload))
	}
	return f, nil
}

// appendFrame encodes f.
func appendFrame(b []byte, f frame) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(5+len(f.payload)))
	b = append(b, f.typ)
	b = binary.BigEndian.AppendUint32(b, f.id)
	return append(b, f.payload...)
}

// windowPayload encodes a grant of n bytes.
func windowPayload(n int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(n)) }
