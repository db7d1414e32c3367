package session

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/audit"
)

// Bounds on waiting for a closed process to let go of its goroutines. Close
// of a Process must make Read and Wait return; these only keep a broken
// implementation from hanging Close forever.
const (
	closeWaitLimit = 10 * time.Second
	pumpChunk      = 16 << 10
)

// session is one running program and the state the Registry keeps for it.
type session struct {
	id    string
	spec  Spec
	proc  Process
	rec   *recorder // nil when not recording
	log   *slog.Logger
	now   func() time.Time // Registry clock
	start time.Time        // Registry clock

	sendMu sync.Mutex // one send at a time, so input is not interleaved

	mu         sync.Mutex
	ring       *ring
	notify     chan struct{} // closed and replaced when anything changes
	lastOutput time.Time     // real clock, when output last arrived
	lastActive time.Time     // Registry clock
	cols, rows uint16
	pumpDone   bool
	exited     bool
	exitAt     time.Time // real clock
	exitCode   *int
	signal     string
	waitErr    error
	reported   bool  // a read has returned Exited
	dropSeen   int64 // ring.Dropped() at the previous read
	fix        utf8Fixer
	vt         vtFilter

	waitDone  chan struct{}
	pumpEnded chan struct{}
	closeOnce sync.Once
	closeInfo CloseInfo
	closeErr  error
}

func newSession(id string, spec Spec, proc Process, rec *recorder, clock func() time.Time, ringBytes int, log *slog.Logger) *session {
	now := clock()
	return &session{
		now:        clock,
		id:         id,
		spec:       spec,
		proc:       proc,
		rec:        rec,
		log:        log.With("session", id),
		start:      now,
		ring:       newRing(ringBytes),
		notify:     make(chan struct{}),
		lastActive: now,
		cols:       spec.Cols,
		rows:       spec.Rows,
		waitDone:   make(chan struct{}),
		pumpEnded:  make(chan struct{}),
	}
}

// run starts the goroutines that drain output and wait for the exit.
func (s *session) run() {
	go s.pump()
	go s.wait()
}

// changedLocked wakes every waiting reader.
func (s *session) changedLocked() {
	close(s.notify)
	s.notify = make(chan struct{})
}

// pump drains the program's output into the ring and the recording for as
// long as there is any, so the program never blocks on a full terminal and
// memory stays at the ring's size however much it prints.
func (s *session) pump() {
	defer close(s.pumpEnded)
	buf := make([]byte, pumpChunk)
	for {
		n, err := s.proc.Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.ring.Write(buf[:n])
			s.lastOutput = time.Now()
			s.changedLocked()
			s.mu.Unlock()
			s.rec.output(buf[:n])
		}
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.log.Debug("session output ended", "err", err)
			}
			break
		}
	}
	s.mu.Lock()
	s.pumpDone = true
	s.changedLocked()
	s.mu.Unlock()
}

// wait records the program's exit status.
func (s *session) wait() {
	defer close(s.waitDone)
	code, sig, err := s.proc.Wait()
	s.mu.Lock()
	defer s.mu.Unlock()
	s.exited = true
	s.exitAt = time.Now()
	switch {
	case err != nil:
		s.waitErr = err
	case sig != "":
		s.signal = sig
	default:
		s.exitCode = &code
	}
	s.changedLocked()
	s.log.Debug("session program exited", "code", code, "signal", sig, "err", err)
}

func (s *session) touch(now time.Time) {
	s.mu.Lock()
	if now.After(s.lastActive) {
		s.lastActive = now
	}
	s.mu.Unlock()
}

func (s *session) times() (started, lastActive time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.start, s.lastActive
}

// spent reports whether the session has nothing left to give: its program
// exited, a read reported that, and no output is unread.
func (s *session) spent() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.exited && s.reported && s.pumpDone && s.ring.Len() == 0
}

func (s *session) info() Info {
	s.mu.Lock()
	defer s.mu.Unlock()
	return Info{
		ID:         s.id,
		Argv:       append([]string(nil), s.spec.shown...),
		PTY:        s.spec.PTY,
		Cols:       s.cols,
		Rows:       s.rows,
		Started:    s.start,
		LastActive: s.lastActive,
		Exited:     s.exited,
		ExitCode:   copyInt(s.exitCode),
		Signal:     s.signal,
		Owner:      s.spec.Owner,
		Recording:  s.rec.path(),
		Drained:    s.pumpDone,
	}
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func copyInt(p *int) *int {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func sortInfos(infos []Info) {
	slices.SortFunc(infos, func(a, b Info) int {
		return cmp.Or(a.Started.Compare(b.Started), cmp.Compare(a.ID, b.ID))
	})
}

// ended returns ErrExited, with how the program ended, once it has.
func (s *session) ended() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.exited:
		return nil
	case s.exitCode != nil:
		return fmt.Errorf("%w with code %d: nothing was typed", ErrExited, *s.exitCode)
	case s.signal != "":
		return fmt.Errorf("%w on signal %s: nothing was typed", ErrExited, s.signal)
	}
	return fmt.Errorf("%w: nothing was typed", ErrExited)
}

// writeDeadliner is what a Process has when a blocked Write can be abandoned.
type writeDeadliner interface {
	SetWriteDeadline(t time.Time) error
}

func (s *session) send(ctx context.Context, data []byte, secrets []string) error {
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.ended(); err != nil {
		return err
	}
	if d, ok := s.proc.(writeDeadliner); ok {
		if err := d.SetWriteDeadline(time.Time{}); err == nil {
			stop := context.AfterFunc(ctx, func() { _ = d.SetWriteDeadline(time.Now()) })
			defer stop()
		}
	}
	if s.silent() {
		// Typed at a password prompt: whoever types it (a tool that
		// knew, an operator taking over), the recording keeps none of it.
		if line := silentLine(data); line != "" {
			secrets = append(secrets, line)
		}
	}
	s.rec.learn(data, secrets)
	n, err := s.proc.Write(data)
	typed := data[:n]
	for _, secret := range secrets {
		if secret != "" {
			typed = bytes.ReplaceAll(typed, []byte(secret), []byte(audit.Redacted))
		}
	}
	s.rec.input(typed)
	if err != nil {
		if ctx.Err() != nil {
			err = ctx.Err()
		}
		return fmt.Errorf("wrote %d of %d bytes: %w", n, len(data), err)
	}
	return nil
}

// inputCloser is what a Process has when its input can be closed alone.
type inputCloser interface {
	CloseInput() error
}

func (s *session) closeInput() error {
	c, ok := s.proc.(inputCloser)
	if !ok || s.spec.PTY {
		return errors.New("input cannot be closed separately; send Ctrl-D (\\x04) to a terminal")
	}
	s.sendMu.Lock()
	defer s.sendMu.Unlock()
	return c.CloseInput()
}

func (s *session) resize(cols, rows uint16) error {
	if cols == 0 || rows == 0 {
		return fmt.Errorf("invalid size %dx%d", cols, rows)
	}
	if !s.spec.PTY {
		return ErrNoTerminal
	}
	if err := s.proc.Resize(cols, rows); err != nil {
		return err
	}
	s.mu.Lock()
	s.cols, s.rows = cols, rows
	s.mu.Unlock()
	s.rec.resize(cols, rows)
	return nil
}

// exitDrain is how long after the exit output must stay quiet before the
// session counts as drained without its output stream having ended. The
// stream normally ends within microseconds of the exit; it stays open when a
// background child holds the terminal, perhaps for ever.
const exitDrain = 500 * time.Millisecond

// finishedLocked reports whether the program has exited and its output has
// drained: the output stream ended, or stayed quiet for a while since the
// exit.
func (s *session) finishedLocked(now time.Time, quiet time.Duration) bool {
	if !s.exited {
		return false
	}
	if s.pumpDone {
		return true
	}
	return now.Sub(latest(s.exitAt, s.lastOutput)) >= max(quiet, exitDrain)
}

func (s *session) read(ctx context.Context, o ReadOptions) (ReadResult, error) {
	quiet := o.Quiet
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	deadline := time.Now().Add(o.Wait)
	var timer *time.Timer
	defer func() {
		if timer != nil {
			timer.Stop()
		}
	}()
	for {
		s.mu.Lock()
		now := time.Now()
		finished := s.finishedLocked(now, quiet)
		ready := finished || o.Wait <= 0 || !now.Before(deadline)
		wake := deadline
		if !ready && (s.ring.Len() > 0 || s.ring.Dropped() > s.dropSeen) {
			q := s.lastOutput.Add(quiet)
			switch {
			case !now.Before(q), o.MaxBytes > 0 && s.ring.Len() >= o.MaxBytes:
				ready = true
			case q.Before(wake):
				wake = q
			}
		}
		if !ready && s.exited {
			q := latest(s.exitAt, s.lastOutput).Add(max(quiet, exitDrain))
			if q.Before(wake) {
				wake = q
			}
		}
		if ready {
			res := s.collectLocked(o, finished)
			s.mu.Unlock()
			return res, nil
		}
		ch := s.notify
		s.mu.Unlock()
		if timer == nil {
			timer = time.NewTimer(wake.Sub(now))
		} else {
			timer.Reset(wake.Sub(now))
		}
		select {
		case <-ch:
		case <-timer.C:
		case <-ctx.Done():
			return ReadResult{}, ctx.Err()
		}
	}
}

// collectLocked takes output from the ring and shapes it for the reader.
// The escape filter sees every byte, raw reads included, so its state stays
// in step with the stream.
func (s *session) collectLocked(o ReadOptions, finished bool) ReadResult {
	raw := s.ring.Take(o.MaxBytes)
	more := s.ring.Len() > 0
	valid := s.fix.Append(make([]byte, 0, len(raw)), raw)
	if finished && s.pumpDone && !more {
		valid = s.fix.Flush(valid)
	}
	res := ReadResult{More: more}
	if o.Raw {
		_ = s.vt.Append(nil, valid)
		res.Data = string(valid)
	} else {
		res.Data = string(s.vt.Append(make([]byte, 0, len(valid)), valid))
	}
	dropped := s.ring.Dropped()
	res.Dropped = dropped - s.dropSeen
	s.dropSeen = dropped
	if finished {
		res.Exited = true
		res.ExitCode = copyInt(s.exitCode)
		res.Signal = s.signal
		if !more {
			s.reported = true
		}
	}
	return res
}

// close kills the program, waits for its goroutines and finishes the
// recording. Only the first call does the work; later ones return its result.
func (s *session) close() (CloseInfo, error) {
	s.closeOnce.Do(func() {
		err := s.proc.Close()
		limit, cancel := context.WithTimeout(context.Background(), closeWaitLimit)
		defer cancel()
		for _, ch := range []chan struct{}{s.waitDone, s.pumpEnded} {
			select {
			case <-ch:
			case <-limit.Done():
				err = errors.Join(err, errors.New("process did not let go after close"))
			}
		}
		ci := CloseInfo{ID: s.id, Owner: s.spec.Owner, Started: s.start, Ended: s.now()}
		s.mu.Lock()
		ci.ExitCode = copyInt(s.exitCode)
		ci.Signal = s.signal
		s.mu.Unlock()
		if s.rec != nil {
			res, rerr := s.rec.close()
			ci.Recording, ci.RecordingBytes, ci.RecordingSHA256, ci.RecordingTruncated = res.path, res.size, res.sha256, res.truncated
			err = errors.Join(err, rerr)
		}
		s.closeInfo, s.closeErr = ci, err
	})
	return s.closeInfo, s.closeErr
}
