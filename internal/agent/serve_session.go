package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	"github.com/warden-mcp/warden/internal/session"
)

// chunk is the most bytes one data frame carries.
const chunk = 32 << 10

// startSession starts a session's program; its ID is the call's. Output
// flows once the reply is out, within the window warden grants.
func (s *server) startSession(ctx context.Context, id uint32, c call) reply {
	if c.Session == nil {
		return reply{Err: "agent: session_start without a program"}
	}
	sc := c.Session
	// The program outlives the call that started it: only the admission
	// is carried over, not the call's cancellation.
	sctx := context.WithoutCancel(ctx)
	proc, err := s.starter.Start(sctx, session.Spec{Argv: sc.Argv, Env: sc.Env, Dir: sc.Dir, Cols: sc.Cols, Rows: sc.Rows, PTY: sc.PTY})
	if err != nil {
		return errReply(err)
	}
	as := &agentSession{proc: proc, in: newInbox(Window), out: newCredit(Window)}
	s.mu.Lock()
	s.sessions[id] = as
	s.mu.Unlock()
	s.wg.Add(2)
	go s.pumpIn(id, as)
	go func() {
		defer s.wg.Done()
		// Output starts after the reply (sent when this call returns).
		s.pumpOut(id, as)
	}()
	return reply{}
}

// pumpIn writes what warden sent to the program and grants warden the
// room it freed.
func (s *server) pumpIn(id uint32, as *agentSession) {
	defer s.wg.Done()
	buf := make([]byte, chunk)
	for {
		n, err := as.in.read(buf)
		if n > 0 {
			if _, werr := as.proc.Write(buf[:n]); werr != nil {
				as.in.end(werr)
			}
			s.w.send(frame{typ: frameWindow, id: id, payload: windowPayload(n)})
		}
		if err != nil {
			return
		}
	}
}

// pumpOut sends the program's output within warden's window, then how it
// exited.
func (s *server) pumpOut(id uint32, as *agentSession) {
	waited := make(chan exit, 1)
	go func() {
		code, sig, err := as.proc.Wait()
		e := exit{Code: code, Signal: sig}
		if err != nil {
			e.Err = err.Error()
		}
		waited <- e
	}()
	buf := make([]byte, chunk)
	for {
		k, err := as.out.take(chunk)
		if err != nil {
			break
		}
		n, rerr := as.proc.Read(buf[:k])
		if k > n {
			as.out.grant(k - n)
		}
		if n > 0 {
			if s.w.send(frame{typ: frameData, id: id, payload: append([]byte(nil), buf[:n]...)}) != nil {
				break
			}
		}
		if rerr != nil {
			break
		}
	}
	e := <-waited
	as.in.end(io.EOF)
	b, _ := json.Marshal(e)
	s.w.send(frame{typ: frameExit, id: id, payload: b})
	s.mu.Lock()
	delete(s.sessions, id)
	s.mu.Unlock()
}

// controlSession resizes, signals or closes a session.
func (s *server) controlSession(c call) reply {
	as := s.session(c.SID)
	if as != nil && as.proc == nil {
		as = nil // a write stream is not a session
	}
	if as == nil {
		if c.Op == opSessionClose {
			return reply{} // already over
		}
		return reply{Err: fmt.Sprintf("agent: no session %d", c.SID)}
	}
	var err error
	switch c.Op {
	case opSessionResize:
		err = as.proc.Resize(c.Cols, c.Rows)
	case opSessionSignal:
		err = as.proc.Signal(c.Signal)
	case opSessionClose:
		as.out.close(io.ErrClosedPipe)
		as.in.end(io.EOF)
		err = as.proc.Close()
	}
	if err != nil {
		return errReply(err)
	}
	return reply{}
}
