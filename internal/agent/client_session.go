package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/session"
)

var _ session.Starter = (*Client)(nil)

// Start starts a session's program on the agent's host, on a PTY or with
// pipes, confined there to the level of ctx's admission. ctx bounds the
// start only.
func (c *Client) Start(ctx context.Context, spec session.Spec) (session.Process, error) {
	id, ch, err := c.register()
	if err != nil {
		return nil, err
	}
	// The session is known before its start is sent: its output may
	// follow the reply at once.
	p := &remoteProc{c: c, id: id, out: newInbox(Window), in: newCredit(Window), exited: make(chan struct{})}
	c.mu.Lock()
	c.sessions[id] = p
	c.mu.Unlock()
	_, err = c.send(ctx, id, ch, call{Op: opSessionStart, Session: &sessionCall{Argv: spec.Argv, Env: spec.Env, Dir: spec.Dir,
		Cols: spec.Cols, Rows: spec.Rows, PTY: spec.PTY}})
	if err != nil {
		c.mu.Lock()
		delete(c.sessions, id)
		c.mu.Unlock()
		return nil, fmt.Errorf("session on the agent: %w", err)
	}
	return p, nil
}

// remoteProc is a session program on the agent's host.
type remoteProc struct {
	c   *Client
	id  uint32
	out *inbox  // the program's output, within the window granted
	in  *credit // how much input the agent can still take

	once   sync.Once
	exited chan struct{}
	exit   exit
	closed sync.Once
	// upload marks a write stream: its reply closes its window.
	upload bool
}

var errClosed = errors.New("session closed")

func (p *remoteProc) ended(e exit) {
	p.once.Do(func() {
		p.exit = e
		p.out.end(nil)
		p.in.close(errClosed)
		close(p.exited)
	})
}

// Read returns the program's output and grants the agent the room it
// frees.
func (p *remoteProc) Read(b []byte) (int, error) {
	n, err := p.out.read(b)
	if n > 0 {
		p.c.w.send(frame{typ: frameWindow, id: p.id, payload: windowPayload(n)})
	}
	return n, err
}

// Write sends input as fast as the agent takes it.
func (p *remoteProc) Write(b []byte) (int, error) {
	sent := 0
	for sent < len(b) {
		k, err := p.in.take(min(chunk, len(b)-sent))
		if err != nil {
			return sent, err
		}
		if err := p.c.w.send(frame{typ: frameData, id: p.id, payload: b[sent : sent+k]}); err != nil {
			return sent, err
		}
		sent += k
	}
	return sent, nil
}

func (p *remoteProc) control(cl call) error {
	cl.SID = p.id
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, err := p.c.do(ctx, cl)
	return err
}

func (p *remoteProc) Resize(cols, rows uint16) error {
	return p.control(call{Op: opSessionResize, Cols: cols, Rows: rows})
}

func (p *remoteProc) Signal(name string) error {
	return p.control(call{Op: opSessionSignal, Signal: name})
}

// Close has the agent kill the program's tree, then ends Read, Write and
// Wait.
func (p *remoteProc) Close() error {
	var err error
	p.closed.Do(func() {
		err = p.control(call{Op: opSessionClose})
		if errors.Is(err, ErrGone) {
			err = nil // the agent took the program with it
		}
		p.in.close(errClosed)
		p.out.end(errClosed)
		select {
		case <-p.exited:
		case <-p.c.done:
		case <-time.After(30 * time.Second):
		}
	})
	return err
}

// Wait returns how the program ended, or -1 and the stream's error when
// the agent went away first.
func (p *remoteProc) Wait() (int, string, error) {
	<-p.exited
	var err error
	if p.exit.Err != "" {
		err = errors.New(p.exit.Err)
	}
	return p.exit.Code, p.exit.Signal, err
}
