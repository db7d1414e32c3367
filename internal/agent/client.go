package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
)

// ErrGone is wrapped by every error of a call the stream ended under:
// the agent exited, was killed, or its connection dropped.
var ErrGone = errors.New("the agent is gone")

// Client is warden's end of one agent stream. It is safe for concurrent
// use; calls are multiplexed on the one stream.
type Client struct {
	w     *wire
	c     io.Closer
	hello Hello

	mu       sync.Mutex
	next     uint32
	pending  map[uint32]chan reply
	sessions map[uint32]*remoteProc
	done     chan struct{}
	err      error
}

var _ runner.Runner = (*Client)(nil)

// NewClient speaks the protocol on rwc and asks the agent to introduce
// itself; it fails when the agent does not answer as one of this
// protocol's. Closing the client closes rwc, which ends the agent.
func NewClient(ctx context.Context, rwc io.ReadWriteCloser) (*Client, error) {
	c := &Client{w: &wire{w: rwc}, c: rwc, pending: map[uint32]chan reply{}, sessions: map[uint32]*remoteProc{}, done: make(chan struct{})}
	go c.readLoop(rwc)
	r, err := c.do(ctx, call{Op: opHello})
	if err != nil {
		c.Close()
		return nil, fmt.Errorf("agent hello: %w", err)
	}
	if r.Hello == nil || r.Hello.Protocol != Protocol {
		c.Close()
		return nil, fmt.Errorf("agent hello: the agent speaks another protocol (%+v), want %d", r.Hello, Protocol)
	}
	c.hello = *r.Hello
	return c, nil
}

// Hello is what the agent said of itself.
func (c *Client) Hello() Hello { return c.hello }

// Done is closed once the stream has ended.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err is why the stream ended, or nil while it lives.
func (c *Client) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Close ends the stream: the agent cancels everything and exits.
func (c *Client) Close() error {
	err := c.c.Close()
	<-c.done
	return err
}

func (c *Client) readLoop(r io.Reader) {
	r = bufio.NewReaderSize(r, readBuf)
	var err error
	for {
		var f frame
		if f, err = readFrame(r, MaxPayload); err != nil {
			break
		}
		if err = c.dispatch(f); err != nil {
			break
		}
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrClosedPipe) {
		err = ErrGone
	} else {
		err = fmt.Errorf("%w: %v", ErrGone, err)
	}
	c.mu.Lock()
	c.err = err
	sessions := c.sessions
	c.sessions = map[uint32]*remoteProc{}
	c.mu.Unlock()
	c.c.Close()
	close(c.done)
	for _, p := range sessions {
		p.ended(exit{Code: -1, Err: err.Error()})
	}
}

func (c *Client) dispatch(f frame) error {
	switch f.typ {
	case frameReply:
		r, err := decodeReply(f.payload)
		if err != nil {
			return fmt.Errorf("%w: reply %d: %w", errFrame, f.id, err)
		}
		c.mu.Lock()
		ch := c.pending[f.id]
		delete(c.pending, f.id)
		up := c.sessions[f.id]
		c.mu.Unlock()
		if up != nil && up.upload {
			up.in.close(errClosed) // the write is over: stop sending
		}
		if ch != nil {
			ch <- r
		}
	case frameData:
		if p := c.session(f.id); p != nil {
			return p.out.push(f.payload)
		}
	case frameWindow:
		if p := c.session(f.id); p != nil {
			p.in.grant(int(windowCount(f.payload)))
		}
	case frameExit:
		var e exit
		if err := json.Unmarshal(f.payload, &e); err != nil {
			return fmt.Errorf("%w: exit %d: %v", errFrame, f.id, err)
		}
		c.mu.Lock()
		p := c.sessions[f.id]
		delete(c.sessions, f.id)
		c.mu.Unlock()
		if p != nil {
			p.ended(e)
		}
	default:
		return fmt.Errorf("%w: type %d is not sent by an agent", errFrame, f.typ)
	}
	return nil
}

func (c *Client) session(id uint32) *remoteProc {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.sessions[id]
}

// register takes a call ID and its reply slot.
func (c *Client) register() (uint32, chan reply, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, nil, c.err
	}
	c.next++
	ch := make(chan reply, 1)
	c.pending[c.next] = ch
	return c.next, ch, nil
}

func (c *Client) forget(id uint32) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}

// do sends a call and waits for its reply. When ctx ends first the agent
// is told to cancel the call; a run is waited for, since its reply says
// what was killed, anything else returns at once.
func (c *Client) do(ctx context.Context, cl call) (reply, error) {
	id, ch, err := c.register()
	if err != nil {
		return reply{}, err
	}
	return c.send(ctx, id, ch, cl)
}

func (c *Client) send(ctx context.Context, id uint32, ch chan reply, cl call) (reply, error) {
	if err := c.sendCall(ctx, id, cl); err != nil {
		return reply{}, err
	}
	return c.await(ctx, id, ch, cl.Op)
}

// sendCall sends a call under ctx's admission.
func (c *Client) sendCall(ctx context.Context, id uint32, cl call) error {
	if cl.Level == "" {
		a, _ := confine.From(ctx)
		cl.Level, cl.Tool, cl.Daemons = a.Level, a.Tool, a.Daemons
	}
	b, err := encodeCall(cl)
	if err != nil {
		c.forget(id)
		return fmt.Errorf("agent call: %w", err)
	}
	if err := c.w.send(frame{typ: frameCall, id: id, payload: b}); err != nil {
		c.forget(id)
		return fmt.Errorf("%w: %v", ErrGone, err)
	}
	return nil
}

// await waits for a call's reply.
func (c *Client) await(ctx context.Context, id uint32, ch chan reply, op string) (reply, error) {
	select {
	case r := <-ch:
		return r, r.err()
	case <-c.done:
		return reply{}, c.err
	case <-ctx.Done():
	}
	c.w.send(frame{typ: frameCancel, id: id})
	if op != opRun && op != opWriteStream {
		c.forget(id)
		return reply{}, ctx.Err()
	}
	select {
	case r := <-ch:
		return r, r.err()
	case <-c.done:
		return reply{}, c.err
	}
}

// err is the reply's error, classed as the agent classed it.
func (r reply) err() error {
	if r.Err == "" {
		return nil
	}
	return &RemoteError{Msg: r.Err, kind: kinds[r.Kind]}
}

// Run runs a command on the agent's host, confined to the level of ctx's
// admission there, with the local runner's bounds, timeouts and kills.
func (c *Client) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("run: empty argv")
	}
	r, err := c.do(ctx, call{Op: opRun, Run: &runCall{Argv: req.Argv, Env: req.Env, Dir: req.Dir, Stdin: req.Stdin,
		Timeout: req.Timeout, MaxBytes: req.MaxBytes}})
	if err != nil {
		return runner.Result{}, fmt.Errorf("run on the agent: %w", err)
	}
	if r.Run == nil {
		return runner.Result{}, errors.New("run on the agent: no result")
	}
	return *r.Run, nil
}

// Inspect is the agent's runner of warden's typed probes: a call admitted
// as a read runs them at confine.Inspect, as on warden's own machine.
type Inspect struct{ *Client }

// Run runs req at Inspect when ctx's admission is Read.
func (i Inspect) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if a, _ := confine.From(ctx); a.Level == confine.Read {
		ctx = confine.WithLevel(ctx, confine.Inspect)
	}
	return i.Client.Run(ctx, req)
}
