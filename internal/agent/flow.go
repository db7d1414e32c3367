package agent

import (
	"errors"
	"fmt"
	"io"
	"sync"
)

// inbox is the receiving end of one direction of a session: a buffer that
// never holds more than max bytes, since the sender may only send what it
// was granted. A sender that overruns it breaks the protocol.
type inbox struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  []byte
	max  int
	err  error // set once no more data will come
}

func newInbox(max int) *inbox {
	b := &inbox{max: max}
	b.cond = sync.NewCond(&b.mu)
	return b
}

var errOverrun = errors.New("agent protocol: data beyond the granted window")

// push appends data the peer sent.
func (b *inbox) push(p []byte) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.err != nil {
		return nil // closed locally: drop what is still in flight
	}
	if len(b.buf)+len(p) > b.max {
		return fmt.Errorf("%w (%d buffered, %d more, window %d)", errOverrun, len(b.buf), len(p), b.max)
	}
	b.buf = append(b.buf, p...)
	b.cond.Broadcast()
	return nil
}

// read takes buffered data, waiting for some; it returns err once the
// buffer is drained and the stream has ended.
func (b *inbox) read(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for len(b.buf) == 0 && b.err == nil {
		b.cond.Wait()
	}
	if len(b.buf) == 0 {
		return 0, b.err
	}
	n := copy(p, b.buf)
	b.buf = b.buf[n:]
	if len(b.buf) == 0 {
		b.buf = nil
	}
	return n, nil
}

// end says no more data will come; buffered data is still read. err nil
// means io.EOF.
func (b *inbox) end(err error) {
	if err == nil {
		err = io.EOF
	}
	b.mu.Lock()
	if b.err == nil {
		b.err = err
	}
	b.cond.Broadcast()
	b.mu.Unlock()
}

// credit is the sending end: how many bytes the peer can still take.
type credit struct {
	mu     sync.Mutex
	cond   *sync.Cond
	n      int
	closed error
}

func newCredit(n int) *credit {
	c := &credit{n: n}
	c.cond = sync.NewCond(&c.mu)
	return c
}

// take waits for credit and takes up to max of it.
func (c *credit) take(max int) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.n == 0 && c.closed == nil {
		c.cond.Wait()
	}
	if c.closed != nil {
		return 0, c.closed
	}
	n := min(c.n, max)
	c.n -= n
	return n, nil
}

// grant adds n bytes of credit.
func (c *credit) grant(n int) {
	c.mu.Lock()
	c.n += n
	c.cond.Broadcast()
	c.mu.Unlock()
}

// close makes every take fail with err.
func (c *credit) close(err error) {
	c.mu.Lock()
	if c.closed == nil {
		c.closed = err
	}
	c.cond.Broadcast()
	c.mu.Unlock()
}

// wire is the sending half of the stream, shared by every call.
type wire struct {
	mu  sync.Mutex
	w   io.Writer
	err error
	buf []byte
}

// send writes one frame whole.
func (w *wire) send(f frame) error {
	if len(f.payload) > MaxPayload {
		return fmt.Errorf("agent protocol: a %d-byte frame is over the limit of %d", len(f.payload), MaxPayload)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	w.buf = appendFrame(w.buf[:0], f)
	if _, err := w.w.Write(w.buf); err != nil {
		w.err = fmt.Errorf("agent stream: %w", err)
	}
	if cap(w.buf) > 1<<20 {
		w.buf = nil
	}
	return w.err
}
