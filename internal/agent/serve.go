package agent

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"runtime"
	"sync"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/session"
)

// Confiner confines the programs the agent starts, as the local confiner
// does on warden's own machine.
type Confiner interface {
	Start(ctx context.Context, start func() error) (release func(), err error)
	Status() confine.Status
}

// ServeOptions configure the agent side.
type ServeOptions struct {
	// Confiner confines every program to the level its call carries;
	// nil starts programs unconfined and says so in Hello.
	Confiner Confiner
	// Version is the agent's build, for Hello.
	Version string
	// MaxWaitingLooks bounds the calls on files that wait at once (see
	// runner.Looks); 0 means runner.DefaultMaxLooks.
	MaxWaitingLooks int
	Logger          *slog.Logger
}

// server is one agent serving one stream.
type server struct {
	w       *wire
	o       ServeOptions
	run     *local.Runner
	starter *session.Local
	log     *slog.Logger
	// looks bounds the calls on files that wait at once (see
	// runner.Looks): a look at a mount that does not answer holds its
	// call's thread until the mount answers.
	looks *runner.Looks

	mu       sync.Mutex
	calls    map[uint32]context.CancelFunc
	sessions map[uint32]*agentSession
	wg       sync.WaitGroup
}

// agentSession is a session's program and the two directions of its data.
type agentSession struct {
	proc session.Process
	in   *inbox  // input warden sent, not yet written to the program
	out  *credit // output warden can still take
}

// Serve speaks the protocol on rw until it ends or ctx does, then cancels
// every call, closes every session and returns once nothing it started
// is running. A stream that ended cleanly between frames is a nil error.
func Serve(ctx context.Context, rw io.ReadWriter, o ServeOptions) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	s := &server{w: &wire{w: rw}, o: o, log: o.Logger,
		calls: map[uint32]context.CancelFunc{}, sessions: map[uint32]*agentSession{}}
	s.looks = runner.NewLooks(o.MaxWaitingLooks)
	lo := local.Options{Logger: o.Logger, Looks: s.looks}
	s.starter = &session.Local{Logger: o.Logger, Looks: s.looks}
	if o.Confiner != nil {
		lo.Confine = o.Confiner
		s.starter.Confine = o.Confiner
	}
	s.run = local.New(lo)
	ctx, cancel := context.WithCancel(ctx)
	defer s.shutdown(cancel)
	go func() {
		<-ctx.Done()
		// Unblock the read below when ctx ends first.
		if c, ok := rw.(io.Closer); ok {
			c.Close()
		}
	}()
	// One read(2) takes every frame already in the pipe, not two per
	// frame (its header, then its payload).
	br := bufio.NewReaderSize(rw, readBuf)
	for {
		f, err := readFrame(br, MaxPayload)
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		if err := s.dispatch(ctx, f); err != nil {
			return err
		}
	}
}

// shutdown cancels every call, closes every session and waits for the
// handlers.
func (s *server) shutdown(cancel context.CancelFunc) {
	cancel()
	s.mu.Lock()
	var procs []*agentSession
	for _, as := range s.sessions {
		procs = append(procs, as)
	}
	s.mu.Unlock()
	var wg sync.WaitGroup
	for _, as := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			as.in.end(io.EOF)
			as.out.close(io.ErrClosedPipe)
			if as.proc != nil {
				as.proc.Close()
			}
		}()
	}
	wg.Wait()
	s.wg.Wait()
}

func (s *server) dispatch(ctx context.Context, f frame) error {
	switch f.typ {
	case frameCall:
		c, err := decodeCall(f.payload)
		if err != nil {
			return fmt.Errorf("%w: call %d: %w", errFrame, f.id, err)
		}
		cctx, cancel := context.WithCancel(ctx)
		s.mu.Lock()
		if _, dup := s.calls[f.id]; dup {
			s.mu.Unlock()
			cancel()
			return fmt.Errorf("%w: call %d is already running", errFrame, f.id)
		}
		s.calls[f.id] = cancel
		if c.Op == opWriteStream {
			// Its data may follow at once: the stream must exist first.
			s.sessions[f.id] = &agentSession{in: newInbox(Window), out: newCredit(0)}
		}
		s.mu.Unlock()
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			r := s.handle(cctx, f.id, c)
			s.mu.Lock()
			delete(s.calls, f.id)
			s.mu.Unlock()
			cancel()
			s.reply(f.id, r)
		}()
	case frameCancel:
		s.mu.Lock()
		cancel := s.calls[f.id]
		s.mu.Unlock()
		if cancel != nil {
			cancel()
		}
		if as := s.session(f.id); as != nil && as.proc == nil {
			as.in.end(context.Canceled) // a write stream's reader wakes
		}
	case frameData:
		if as := s.session(f.id); as != nil {
			if len(f.payload) == 0 {
				as.in.end(io.EOF) // the end of warden's data
				return nil
			}
			return as.in.push(f.payload)
		}
	case frameWindow:
		if as := s.session(f.id); as != nil {
			as.out.grant(int(windowCount(f.payload)))
		}
	default:
		return fmt.Errorf("%w: type %d is not sent to an agent", errFrame, f.typ)
	}
	return nil
}

func (s *server) session(id uint32) *agentSession {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.sessions[id]
}

func (s *server) reply(id uint32, r reply) {
	b, err := encodeReply(r)
	if err == nil && len(b) > MaxPayload {
		err = fmt.Errorf("reply of %d bytes is over the frame limit", len(b))
	}
	if err != nil {
		b, _ = json.Marshal(reply{Err: "agent: " + err.Error()})
	}
	s.w.send(frame{typ: frameReply, id: id, payload: b})
}

// errReply is the reply of a failed call.
func errReply(err error) reply { return reply{Err: err.Error(), Kind: kindOf(err)} }

// handle runs one call under the admission warden sent with it.
func (s *server) handle(ctx context.Context, id uint32, c call) reply {
	level := c.Level
	switch level {
	case confine.Read, confine.Temp, confine.Inspect, confine.Full:
	case "":
		level = confine.Read // the least, never the most
	default:
		return reply{Err: fmt.Sprintf("agent: unknown confinement level %q", c.Level)}
	}
	ctx = confine.With(ctx, confine.Admission{Level: level, Tool: c.Tool, Daemons: c.Daemons})
	fsys := hostfs.Local{Looks: s.looks}
	switch c.Op {
	case opLstat, opReadlink, opReadAt, opReadDir, opWriteFile, opMkdir, opRemove,
		opSnapLstat, opSnapReadlink, opSnapReadDir, opSnapRead:
		if err := s.looks.Begin(); err != nil {
			return errReply(err)
		}
		defer s.looks.End()
	}
	switch c.Op {
	case opHello:
		return reply{Hello: s.hello()}
	case opRun:
		if c.Run == nil {
			return reply{Err: "agent: run without a command"}
		}
		res, err := s.run.Run(ctx, runner.Request{Argv: c.Run.Argv, Env: c.Run.Env, Dir: c.Run.Dir,
			Stdin: c.Run.Stdin, Timeout: c.Run.Timeout, MaxBytes: c.Run.MaxBytes})
		if err != nil {
			return errReply(err)
		}
		return reply{Run: &res}
	case opLstat:
		info, err := fsys.Lstat(ctx, c.Path)
		if err != nil {
			return errReply(err)
		}
		return reply{Info: &info}
	case opReadlink:
		l, err := fsys.Readlink(ctx, c.Path)
		if err != nil {
			return errReply(err)
		}
		return reply{Link: l}
	case opReadAt:
		if c.Max < 0 || c.Max > MaxPayload/2 {
			return reply{Err: fmt.Sprintf("agent: a read of %d bytes is over the frame limit", c.Max)}
		}
		data, info, err := fsys.ReadAt(ctx, c.Path, c.Off, c.Max)
		if err != nil {
			return errReply(err)
		}
		return reply{Data: data, Info: &info}
	case opReadDir:
		infos, more, err := fsys.ReadDir(ctx, c.Path, c.Limit)
		if err != nil {
			return errReply(err)
		}
		return reply{Infos: infos, More: more}
	case opWriteFile:
		o := hostfs.WriteOptions{Overwrite: c.Overwrite}
		if c.Mode != nil {
			m := fs.FileMode(*c.Mode)
			o.Mode = &m
		}
		wi, err := fsys.WriteFile(ctx, c.Path, c.Data, o)
		if err != nil {
			return errReply(err)
		}
		return reply{Write: &wi}
	case opMkdir:
		m := fs.FileMode(0o755)
		if c.Mode != nil {
			m = fs.FileMode(*c.Mode)
		}
		if err := fsys.Mkdir(ctx, c.Path, m); err != nil {
			return errReply(err)
		}
		return reply{}
	case opRemove:
		if err := fsys.Remove(ctx, c.Path); err != nil {
			return errReply(err)
		}
		return reply{}
	case opSnapLstat, opSnapReadlink, opSnapReadDir, opSnapRead:
		return snapHandle(c)
	case opSessionStart:
		return s.startSession(ctx, id, c)
	case opSessionResize, opSessionSignal, opSessionClose:
		return s.controlSession(c)
	case opReadStream:
		return s.openReadStream(ctx, id, c)
	case opWriteStream:
		return s.writeStream(ctx, id, c)
	case opReap:
		n, err := reapSession(c.PID)
		if err != nil {
			return errReply(err)
		}
		return reply{Reaped: n}
	}
	return reply{Err: fmt.Sprintf("agent: unknown operation %q", c.Op)}
}

func (s *server) hello() *Hello {
	h := &Hello{Protocol: Protocol, Version: s.o.Version, OS: runtime.GOOS, Arch: runtime.GOARCH, PID: os.Getpid(),
		Confinement: confine.Status{Mechanism: "none: the agent was started without a confiner"}}
	if s.o.Confiner != nil {
		h.Confinement = s.o.Confiner.Status()
	}
	return h
}

func windowCount(p []byte) uint32 {
	return uint32(p[0])<<24 | uint32(p[1])<<16 | uint32(p[2])<<8 | uint32(p[3])
}
