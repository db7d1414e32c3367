package agent

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"sync"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/session"
)

// Whole-file streams, for copies of any size in flat memory: a read
// stream is a session whose "program" is the open file (its bytes flow
// within warden's window, its end is an exit frame); a write stream's
// bytes flow to the agent within the agent's window and end with an
// empty data frame, and its reply comes once the file is in place.

// streamer is the agent's own files as a hostfs.Streamer, where the
// platform has one.
func streamer() (hostfs.Streamer, error) {
	var fsys hostfs.FS = hostfs.Local{}
	st, ok := fsys.(hostfs.Streamer)
	if !ok {
		return nil, errors.New("agent: whole-file streams are not available on this platform")
	}
	return st, nil
}

// fileProc is an open file as a session's program: read to its end,
// then "exits" with the read's error, if any.
type fileProc struct {
	f    io.ReadCloser
	once sync.Once
	done chan struct{}
	err  error
}

func newFileProc(f io.ReadCloser) *fileProc { return &fileProc{f: f, done: make(chan struct{})} }

func (p *fileProc) finish(err error) {
	p.once.Do(func() {
		if !errors.Is(err, io.EOF) {
			p.err = err
		}
		close(p.done)
	})
}

func (p *fileProc) Read(b []byte) (int, error) {
	n, err := p.f.Read(b)
	if err != nil {
		p.finish(err)
	}
	return n, err
}

func (p *fileProc) Write([]byte) (int, error)   { return 0, errors.New("a read stream takes no input") }
func (p *fileProc) Resize(uint16, uint16) error { return session.ErrNoTerminal }
func (p *fileProc) Signal(string) error         { return errors.New("a read stream takes no signal") }

func (p *fileProc) Close() error {
	p.finish(errors.New("read stream closed"))
	return p.f.Close()
}

func (p *fileProc) Wait() (int, string, error) {
	<-p.done
	if p.err != nil {
		return 1, "", p.err
	}
	return 0, "", nil
}

// openReadStream opens a file and streams it as a session.
func (s *server) openReadStream(ctx context.Context, id uint32, c call) reply {
	st, err := streamer()
	if err != nil {
		return errReply(err)
	}
	f, info, err := st.OpenRead(ctx, c.Path)
	if err != nil {
		return errReply(err)
	}
	as := &agentSession{proc: newFileProc(f), in: newInbox(Window), out: newCredit(Window)}
	s.mu.Lock()
	s.sessions[id] = as
	s.mu.Unlock()
	s.wg.Add(2)
	go s.pumpIn(id, as)
	go func() {
		defer s.wg.Done()
		s.pumpOut(id, as)
	}()
	return reply{Info: &info}
}

// uploadReader reads what warden streams and grants it the room freed.
type uploadReader struct {
	s  *server
	id uint32
	in *inbox
}

func (u uploadReader) Read(b []byte) (int, error) {
	n, err := u.in.read(b[:min(len(b), chunk)])
	if n > 0 {
		u.s.w.send(frame{typ: frameWindow, id: u.id, payload: windowPayload(n)})
	}
	return n, err
}

// writeStream writes what warden streams to a file; the stream was
// registered when its call arrived, before its data.
func (s *server) writeStream(ctx context.Context, id uint32, c call) reply {
	as := s.session(id)
	if as == nil {
		return reply{Err: "agent: write stream lost"}
	}
	defer func() {
		s.mu.Lock()
		delete(s.sessions, id)
		s.mu.Unlock()
		as.in.end(errors.New("write stream over"))
	}()
	st, err := streamer()
	if err != nil {
		return errReply(err)
	}
	o := hostfs.WriteOptions{Overwrite: c.Overwrite}
	if c.Mode != nil {
		m := fs.FileMode(*c.Mode)
		o.Mode = &m
	}
	wi, n, err := st.WriteFrom(ctx, c.Path, uploadReader{s: s, id: id, in: as.in}, c.MaxBytes, o)
	if err != nil {
		return errReply(err)
	}
	return reply{Write: &wi, N: n}
}

// OpenRead streams the regular file p from the agent's host, within a
// window: memory stays flat however large the file.
func (a agentFS) OpenRead(ctx context.Context, p string) (io.ReadCloser, hostfs.Info, error) {
	c := a.c
	id, ch, err := c.register()
	if err != nil {
		return nil, hostfs.Info{}, err
	}
	rp := &remoteProc{c: c, id: id, out: newInbox(Window), in: newCredit(0), exited: make(chan struct{})}
	c.mu.Lock()
	c.sessions[id] = rp
	c.mu.Unlock()
	r, err := c.send(ctx, id, ch, call{Op: opReadStream, Path: p})
	if err == nil && r.Info == nil {
		err = errors.New("agent read stream: no answer")
	}
	if err != nil {
		c.mu.Lock()
		delete(c.sessions, id)
		c.mu.Unlock()
		return nil, hostfs.Info{}, err
	}
	return streamReader{rp}, *r.Info, nil
}

// streamReader is a read stream's bytes; a read error on the far side
// ends it with that error, not io.EOF.
type streamReader struct{ p *remoteProc }

func (s streamReader) Read(b []byte) (int, error) {
	n, err := s.p.Read(b)
	if errors.Is(err, io.EOF) && s.p.exit.Err != "" {
		return n, fmt.Errorf("read on the agent: %s", s.p.exit.Err)
	}
	return n, err
}

func (s streamReader) Close() error { return s.p.Close() }

// WriteFrom streams r, at most max bytes, into the file p on the agent's
// host, replaced atomically as WriteFile does.
func (a agentFS) WriteFrom(ctx context.Context, p string, r io.Reader, max int64, o hostfs.WriteOptions) (hostfs.WriteInfo, int64, error) {
	c := a.c
	id, ch, err := c.register()
	if err != nil {
		return hostfs.WriteInfo{}, 0, err
	}
	rp := &remoteProc{c: c, id: id, out: newInbox(0), in: newCredit(Window), exited: make(chan struct{}), upload: true}
	c.mu.Lock()
	c.sessions[id] = rp
	c.mu.Unlock()
	defer func() {
		c.mu.Lock()
		delete(c.sessions, id)
		c.mu.Unlock()
	}()
	cl := call{Op: opWriteStream, Path: p, MaxBytes: max, Overwrite: o.Overwrite}
	if o.Mode != nil {
		m := uint32(*o.Mode)
		cl.Mode = &m
	}
	// The call goes first; its reply may come before every byte is sent
	// (a refusal), which closes the window and ends the sending.
	if err := c.sendCall(ctx, id, cl); err != nil {
		return hostfs.WriteInfo{}, 0, err
	}
	replied := make(chan struct {
		r   reply
		err error
	}, 1)
	go func() {
		r, err := c.await(ctx, id, ch, cl.Op)
		replied <- struct {
			r   reply
			err error
		}{r, err}
	}()
	buf := make([]byte, chunk)
	var sendErr error
	for {
		k, err := rp.in.take(chunk)
		if err != nil {
			break // replied already, or the stream ended
		}
		n, rerr := r.Read(buf[:k])
		if k > n {
			rp.in.grant(k - n)
		}
		if n > 0 {
			if err := c.w.send(frame{typ: frameData, id: id, payload: append([]byte(nil), buf[:n]...)}); err != nil {
				break
			}
		}
		if rerr != nil {
			if !errors.Is(rerr, io.EOF) {
				sendErr = rerr
				c.w.send(frame{typ: frameCancel, id: id})
			}
			c.w.send(frame{typ: frameData, id: id}) // the end
			break
		}
	}
	res := <-replied
	if sendErr != nil {
		return hostfs.WriteInfo{}, 0, fmt.Errorf("write %s: reading the source: %w", p, sendErr)
	}
	if res.err != nil {
		return hostfs.WriteInfo{}, 0, res.err
	}
	if res.r.Write == nil {
		return hostfs.WriteInfo{}, 0, errors.New("agent write stream: no answer")
	}
	return *res.r.Write, res.r.N, nil
}

var _ hostfs.Streamer = agentFS{}
