package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"runtime"
	"sync"
	"syscall"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// stdioTransport carries MCP over warden's standard input and output: one
// JSON-RPC message, or before protocol 2025-06-18 one batch of them, per
// line. It behaves as the SDK's IOTransport does, and decodes each line
// once: the SDK's decodes it three times, each with a fresh 32 KiB buffer,
// and hands it to a second goroutine first; on a run_command that took
// about a tenth of warden's own time per call.
type stdioTransport struct {
	in    io.Reader
	out   io.Writer
	limit int       // bytes one message may take; 0 means the SDK's default
	lane  *callLane // answers tools/call itself when set
}

// Connect starts reading in.
func (t stdioTransport) Connect(context.Context) (mcp.Connection, error) {
	limit := t.limit
	if limit <= 0 {
		limit = mcp.DefaultMaxLineLength
	}
	c := &stdioConn{out: t.out, incoming: make(chan frame), closed: make(chan struct{}), lane: t.lane}
	if f := reopenPipe(t.in); f != nil {
		c.polled = f
		c.frames = newFrameReader(f, limit)
		return c, nil
	}
	go c.readFrames(newFrameReader(t.in, limit))
	return c, nil
}

// reopenPipe returns in opened again, non-blocking, when it is a pipe on
// Linux, and nil otherwise. Read then reads it itself, parked in the
// runtime poller, instead of taking each message from a goroutine blocked
// in read(2): one hand-off between goroutines less per message, about
// 50 µs of a run_command here, and Close still ends a waiting Read. The
// new open file is warden's own: its non-blocking flag is not shared with
// whoever else holds warden's standard input, as it would be on the
// inherited descriptor.
func reopenPipe(in io.Reader) *os.File {
	f, ok := in.(*os.File)
	if !ok || runtime.GOOS != "linux" {
		return nil
	}
	if fi, err := f.Stat(); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return nil
	}
	r, err := os.OpenFile(fmt.Sprintf("/proc/self/fd/%d", f.Fd()), os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil
	}
	return r
}

// frame is one JSON value read from the input, or why reading stopped.
type frame struct {
	data json.RawMessage
	err  error
}

// stdioConn is one stdio connection. Read is called by one goroutine at
// a time; Write and Close by any.
type stdioConn struct {
	out      io.Writer
	polled   *os.File     // the reopened input Read reads itself; nil when readFrames reads
	frames   *frameReader // polled's frames
	incoming chan frame   // otherwise, frames from readFrames
	closed   chan struct{}
	once     sync.Once

	queue []jsonrpc.Message // the rest of the last batch read
	lane  *callLane

	mu      sync.Mutex // serialises writes and guards what follows
	batches map[jsonrpc.ID]*batch
	initID  jsonrpc.ID // the initialize request, whose answer names the protocol
	version string     // the negotiated protocol version, once answered
}

// batch collects the answers to the calls of one incoming batch, which
// are written together once all are in.
type batch struct {
	pending   map[jsonrpc.ID]int
	responses []*jsonrpc.Response
}

// frameReader decodes JSON values, each of at most limit bytes and ended
// by a newline, as the SDK's IOTransport does.
type frameReader struct {
	dec *json.Decoder
	lr  *limitReader
}

func newFrameReader(in io.Reader, limit int) *frameReader {
	lr := &limitReader{r: in, limit: limit}
	return &frameReader{dec: json.NewDecoder(lr), lr: lr}
}

// next returns the next value.
func (fr *frameReader) next() frame {
	var raw json.RawMessage
	err := fr.dec.Decode(&raw)
	if err == nil {
		var next [1]byte
		if n, rerr := fr.dec.Buffered().Read(next[:]); n > 0 && next[0] != '\n' && next[0] != '\r' {
			err = errors.New("invalid trailing data at the end of stream")
		} else if rerr != nil && rerr != io.EOF {
			err = rerr
		}
	}
	fr.lr.n = 0
	return frame{data: raw, err: err}
}

// readFrames hands frames to Read until an error or Close. Like the SDK's,
// this goroutine stays blocked in a read of its input after Close: reads
// of a standard input that is not a pipe cannot portably be interrupted.
func (c *stdioConn) readFrames(fr *frameReader) {
	for {
		f := fr.next()
		select {
		case c.incoming <- f:
		case <-c.closed:
			return
		}
		if f.err != nil {
			return
		}
	}
}

// limitReader fails a frame that grows past limit bytes.
type limitReader struct {
	r        io.Reader
	limit, n int
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n >= l.limit {
		return 0, errors.New("inbound JSON-RPC frame exceeded the configured maximum line length")
	}
	if len(p) > l.limit-l.n {
		p = p[:l.limit-l.n]
	}
	n, err := l.r.Read(p)
	l.n += n
	return n, err
}

// Read returns the next message that the lane, if any, does not take.
func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	for {
		msg, err := c.next(ctx)
		if err != nil {
			if c.lane != nil {
				c.lane.end(err)
			}
			return nil, err
		}
		if c.lane == nil {
			return msg, nil
		}
		if req, ok := msg.(*jsonrpc.Request); ok {
			if req.Method == "notifications/cancelled" {
				c.lane.cancel(req.Params)
			}
			if !c.inBatch(req.ID) && c.lane.take(ctx, c, req) {
				continue
			}
		}
		return msg, nil
	}
}

// next returns the next message read.
func (c *stdioConn) next(ctx context.Context) (jsonrpc.Message, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(c.queue) > 0 {
		msg := c.queue[0]
		c.queue = c.queue[1:]
		return msg, nil
	}
	var f frame
	if c.polled != nil {
		f = c.frames.next()
		select {
		case <-c.closed:
			return nil, io.EOF
		default:
		}
	} else {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case f = <-c.incoming:
		case <-c.closed:
			return nil, io.EOF
		}
	}
	if f.err != nil {
		return nil, f.err
	}
	if data := bytes.TrimLeft(f.data, " \t\r\n"); len(data) == 0 || data[0] != '[' {
		return c.decode(f.data)
	}
	msgs, err := c.decodeBatch(f.data)
	if err != nil {
		return nil, err
	}
	c.queue = msgs[1:]
	return msgs[0], nil
}

// inBatch reports whether id is a call of a batch still being answered.
func (c *stdioConn) inBatch(id jsonrpc.ID) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.batches[id]
	return ok
}

// protocol is the negotiated protocol version once the initialize answer
// has gone out, and "" before.
func (c *stdioConn) protocol() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.version
}

// decodeBatch decodes a batch and records its calls, so that their answers
// go out together.
func (c *stdioConn) decodeBatch(data []byte) ([]jsonrpc.Message, error) {
	var raws []json.RawMessage
	if err := json.Unmarshal(data, &raws); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc batch: %w", err)
	}
	if len(raws) == 0 {
		return nil, errors.New("empty batch")
	}
	c.mu.Lock()
	version := c.version
	c.mu.Unlock()
	if version >= "2025-06-18" {
		return nil, fmt.Errorf("JSON-RPC batching is not supported in 2025-06-18 and later (request version: %s)", version)
	}
	msgs := make([]jsonrpc.Message, 0, len(raws))
	b := &batch{pending: map[jsonrpc.ID]int{}}
	for _, raw := range raws {
		msg, err := c.decode(raw)
		if err != nil {
			return nil, err
		}
		msgs = append(msgs, msg)
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			if _, dup := b.pending[req.ID]; dup {
				return nil, fmt.Errorf("duplicate message ID %v", req.ID.Raw())
			}
			b.pending[req.ID] = len(b.responses)
			b.responses = append(b.responses, nil)
		}
	}
	if len(b.pending) == 0 {
		return msgs, nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for id := range b.pending {
		if _, seen := c.batches[id]; seen {
			return nil, fmt.Errorf("%w: batch contains previously seen request %v", errInvalidRequest, id.Raw())
		}
	}
	if c.batches == nil {
		c.batches = map[jsonrpc.ID]*batch{}
	}
	for id := range b.pending {
		c.batches[id] = b
	}
	return msgs, nil
}

var errInvalidRequest = errors.New("JSON RPC invalid request")

// decode decodes one message as the SDK's jsonrpc.DecodeMessage does:
// field names match exactly, "jsonrpc" must be "2.0", a message with a
// "method" key is a request and any other a response, which needs an id.
func (c *stdioConn) decode(data []byte) (jsonrpc.Message, error) {
	var wire map[string]json.RawMessage
	if err := json.Unmarshal(data, &wire); err != nil {
		return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
	}
	var version string
	if raw, ok := wire["jsonrpc"]; ok {
		if err := json.Unmarshal(raw, &version); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
	}
	if version != "2.0" {
		return nil, fmt.Errorf("invalid message version tag %q; expected %q", version, "2.0")
	}
	var rawID any
	if raw, ok := wire["id"]; ok {
		if err := json.Unmarshal(raw, &rawID); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
	}
	id, err := jsonrpc.MakeID(rawID)
	if err != nil {
		return nil, err
	}
	if raw, ok := wire["method"]; ok {
		var method string
		if err := json.Unmarshal(raw, &method); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		if method == "initialize" && id.IsValid() {
			c.mu.Lock()
			c.initID = id
			c.mu.Unlock()
		}
		return &jsonrpc.Request{Method: method, ID: id, Params: wire["params"]}, nil
	}
	if !id.IsValid() {
		return nil, errInvalidRequest
	}
	resp := &jsonrpc.Response{ID: id, Result: wire["result"]}
	if raw, ok := wire["error"]; ok && !bytes.Equal(raw, []byte("null")) {
		var werr jsonrpc.Error
		if err := json.Unmarshal(raw, &werr); err != nil {
			return nil, fmt.Errorf("unmarshaling jsonrpc message: %w", err)
		}
		resp.Error = &werr
	}
	return resp, nil
}

// Write writes msg as one line; an answer to a call that came in a batch
// waits until the batch's last answer, and all go out as one line.
func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if resp, ok := msg.(*jsonrpc.Response); ok {
		if c.version == "" && c.initID.IsValid() && resp.ID == c.initID {
			var res struct {
				ProtocolVersion string `json:"protocolVersion"`
			}
			if json.Unmarshal(resp.Result, &res) == nil {
				c.version = res.ProtocolVersion
			}
		}
		if b, ok := c.batches[resp.ID]; ok {
			delete(c.batches, resp.ID)
			b.responses[b.pending[resp.ID]] = resp
			delete(b.pending, resp.ID)
			if len(b.pending) > 0 {
				return nil
			}
			return c.writeBatch(b.responses)
		}
	}
	data, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %w", err)
	}
	_, err = c.out.Write(append(data, '\n'))
	return err
}

// writeBatch writes a batch's answers as one JSON array.
func (c *stdioConn) writeBatch(resps []*jsonrpc.Response) error {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, resp := range resps {
		data, err := jsonrpc.EncodeMessage(resp)
		if err != nil {
			return fmt.Errorf("encoding batch message: %w", err)
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(data)
	}
	buf.WriteString("]\n")
	_, err := c.out.Write(buf.Bytes())
	return err
}

// Close stops Read; warden's standard streams stay open.
func (c *stdioConn) Close() error {
	c.once.Do(func() {
		close(c.closed)
		if c.polled != nil {
			_ = c.polled.Close()
		}
	})
	return nil
}

// SessionID is empty: a stdio connection is the session.
func (c *stdioConn) SessionID() string { return "" }
