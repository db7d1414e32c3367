package session

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// Defaults for the zero values of Options.
const (
	DefaultMaxSessions       = 16
	DefaultRingBytes         = 1 << 20
	DefaultIdleTimeout       = 30 * time.Minute
	DefaultMaxLifetime       = 8 * time.Hour
	DefaultMaxRecordingBytes = 64 << 20
	DefaultKillGrace         = 2 * time.Second
)

// Options configures a Registry. Zero fields take the Default values.
type Options struct {
	// MaxSessions bounds how many sessions exist at once.
	MaxSessions int
	// RingBytes bounds the unread output kept per session; older output is
	// dropped and counted.
	RingBytes int
	// IdleTimeout reaps a session no caller has touched (start, send, read,
	// resize, signal) for this long.
	IdleTimeout time.Duration
	// MaxLifetime reaps a session this long after it started, busy or not.
	MaxLifetime time.Duration
	// RecordDir is where asciicast recordings go (created 0700, files 0600,
	// named ID.cast). Empty means sessions are not recorded. Input is
	// recorded as well as output, so whatever an agent types at a
	// password prompt is in the file too.
	RecordDir string
	// RecordWait bounds how long a session's start waits on creating its
	// recording, and its end on finishing it (0: DefaultRecordWait); a
	// recordings directory that does not answer refuses the start, and a
	// file that does not answer is finished when it does. Events never
	// wait on the file (recordfile.go).
	RecordWait time.Duration
	// MaxRecordingBytes bounds each recording; when the next event would
	// pass it, a final marker event is written and recording stops while
	// the session goes on.
	MaxRecordingBytes int64
	// KillGrace is how long the local starter waits after HUP and TERM
	// before it sends KILL when a session is closed.
	KillGrace time.Duration
	// Now tells the time for Started, LastActive and expiry (nil:
	// time.Now). Waiting and recording offsets use the real clock.
	Now func() time.Time
	// Confine starts local programs confined to the admission in the
	// start's ctx (nil: unconfined).
	Confine Confiner
	// Looks bounds the looks at working directories that wait at once
	// (see runner.Looks; nil bounds nothing).
	Looks *runner.Looks
	// Logger receives diagnostics (nil: discard).
	Logger *slog.Logger
	// OnEnd, if set, is told of every session the registry ends by itself
	// (reason "idle", "lifetime" or "shutdown"), so the end can be
	// audited as an explicit Close is by its caller.
	OnEnd func(ci CloseInfo, reason string)
}

func (o Options) withDefaults() Options {
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.RingBytes <= 0 {
		o.RingBytes = DefaultRingBytes
	}
	if o.IdleTimeout <= 0 {
		o.IdleTimeout = DefaultIdleTimeout
	}
	if o.MaxLifetime <= 0 {
		o.MaxLifetime = DefaultMaxLifetime
	}
	if o.RecordWait <= 0 {
		o.RecordWait = DefaultRecordWait
	}
	if o.MaxRecordingBytes <= 0 {
		o.MaxRecordingBytes = DefaultMaxRecordingBytes
	}
	o.MaxRecordingBytes = max(o.MaxRecordingBytes, minRecordingBytes)
	if o.KillGrace <= 0 {
		o.KillGrace = DefaultKillGrace
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return o
}

// Spec describes the program a session runs.
type Spec struct {
	// Argv is the program and its arguments. Empty means the shell named
	// by SHELL in Env, or /bin/sh.
	Argv []string
	// Env is the complete environment of the program; nothing is
	// inherited from warden. For a PTY session without TERM,
	// TERM=xterm-256color is added.
	Env []string
	// Dir is the working directory ("" means warden's own).
	Dir string
	// Cols and Rows size the terminal (default 80x24).
	Cols, Rows uint16
	// PTY runs the program in a pseudo-terminal; false runs it as a
	// background job with pipes (stdout and stderr merged).
	PTY bool
	// Starter runs the program somewhere (nil: this host).
	Starter Starter
	// Owner is the identity that started the session, kept in Info and
	// the recording's title.
	Owner string

	// shown is Argv as Info, the recording and the log show it
	// (shownArgv), set by prepare.
	shown []string
}

// Info describes a session.
type Info struct {
	ID         string    `json:"id"`
	Argv       []string  `json:"argv"`
	PTY        bool      `json:"pty"`
	Cols       uint16    `json:"cols"`
	Rows       uint16    `json:"rows"`
	Started    time.Time `json:"started"`
	LastActive time.Time `json:"last_active"`
	Exited     bool      `json:"exited"`
	ExitCode   *int      `json:"exit_code,omitempty"`
	Signal     string    `json:"signal,omitempty"`
	Owner      string    `json:"owner,omitempty"`
	Recording  string    `json:"recording,omitempty"`
	// Drained reports that the program's output has ended too (its
	// terminal or pipe is closed): all it printed is in the recording.
	Drained bool `json:"-"`
}

// CloseInfo describes how a session ended and where its recording is.
type CloseInfo struct {
	ID      string    `json:"id"`
	Owner   string    `json:"owner,omitempty"`
	Started time.Time `json:"started"`
	Ended   time.Time `json:"ended"`
	// ExitCode is the program's exit code, nil when a signal killed it
	// (then Signal names it) or its status could not be learnt.
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
	// Recording is the asciicast file ("" when not recording), with its
	// final size and SHA-256 (hex); RecordingTruncated reports whether
	// MaxRecordingBytes cut it short.
	Recording          string `json:"recording,omitempty"`
	RecordingBytes     int64  `json:"recording_bytes,omitempty"`
	RecordingSHA256    string `json:"recording_sha256,omitempty"`
	RecordingTruncated bool   `json:"recording_truncated,omitempty"`
}

// ReadOptions shapes one Read.
type ReadOptions struct {
	// Wait is how long to wait for output when there is none yet (0: do
	// not wait).
	Wait time.Duration
	// MaxBytes bounds the raw bytes taken from the buffer (0: everything
	// buffered); the rest stays for the next read. Replacing invalid
	// UTF-8 with U+FFFD can make Data longer than the bytes taken.
	MaxBytes int
	// Raw returns the output with escape sequences kept (still valid
	// UTF-8).
	Raw bool
	// Quiet is how long output must pause, once some has arrived, before a
	// waiting read returns (default 150ms).
	Quiet time.Duration
}

// DefaultQuiet is ReadOptions.Quiet's default.
const DefaultQuiet = 150 * time.Millisecond

// ReadResult is the output since the previous read.
type ReadResult struct {
	Data string `json:"data"`
	// Dropped counts bytes lost to ring overflow since the previous read.
	Dropped int64 `json:"dropped,omitempty"`
	// More reports whether output is still buffered (MaxBytes cut it).
	More bool `json:"more,omitempty"`
	// Exited reports whether the program has exited and its output has
	// drained; ExitCode or Signal then say how it ended.
	Exited   bool   `json:"exited"`
	ExitCode *int   `json:"exit_code,omitempty"`
	Signal   string `json:"signal,omitempty"`
}

// Registry holds the live sessions and bounds them. Its methods are safe for
// concurrent use.
type Registry struct {
	opts  Options
	log   *slog.Logger
	local Starter

	mu       sync.Mutex
	sessions map[string]*session
	pending  int // starts holding a slot but not yet in sessions
	closed   bool
	stop     chan struct{} // closed by Shutdown; ends Run
}

// NewRegistry returns an empty Registry configured by o.
func NewRegistry(o Options) *Registry {
	o = o.withDefaults()
	return &Registry{
		opts:     o,
		log:      o.Logger,
		local:    &Local{KillGrace: o.KillGrace, Logger: o.Logger, Confine: o.Confine, Looks: o.Looks},
		sessions: make(map[string]*session),
		stop:     make(chan struct{}),
	}
}

// Start starts a session running spec and returns its Info. It refuses with
// ErrTooManySessions when MaxSessions are open; to make room it reaps only
// sessions whose program has exited and whose output and exit status have
// all been read.
func (r *Registry) Start(ctx context.Context, spec Spec) (*Info, error) {
	spec = r.prepare(spec)
	if err := r.reserve(); err != nil {
		return nil, fmt.Errorf("start session: %w", err)
	}
	s, err := r.start(ctx, spec)
	r.mu.Lock()
	r.pending--
	if err == nil && r.closed {
		err = ErrClosed
	}
	if err != nil {
		r.mu.Unlock()
		if s != nil {
			_, _ = s.close()
		}
		return nil, fmt.Errorf("start session: %w", err)
	}
	r.sessions[s.id] = s
	r.mu.Unlock()
	r.log.Info("session started", "session", s.id, "argv", spec.shown, "pty", spec.PTY, "owner", spec.Owner)
	info := s.info()
	return &info, nil
}

// prepare fills in spec's defaults and copies what the caller could change.
func (r *Registry) prepare(spec Spec) Spec {
	spec.Env = append([]string{}, spec.Env...)
	if len(spec.Argv) == 0 {
		shell := envValue(spec.Env, "SHELL")
		if shell == "" {
			shell = "/bin/sh"
		}
		spec.Argv = []string{shell}
	} else {
		spec.Argv = append([]string(nil), spec.Argv...)
	}
	spec.shown = shownArgv(spec.Argv)
	if spec.Cols == 0 {
		spec.Cols = 80
	}
	if spec.Rows == 0 {
		spec.Rows = 24
	}
	if spec.PTY && envValue(spec.Env, "TERM") == "" {
		spec.Env = append(spec.Env, "TERM=xterm-256color")
	}
	if spec.Starter == nil {
		spec.Starter = r.local
	}
	return spec
}

// reserve takes a session slot, reaping finished sessions if that makes room.
func (r *Registry) reserve() error {
	r.mu.Lock()
	if r.closed {
		r.mu.Unlock()
		return ErrClosed
	}
	var reap []*session
	if len(r.sessions)+r.pending >= r.opts.MaxSessions {
		for id, s := range r.sessions {
			if len(r.sessions)+r.pending < r.opts.MaxSessions {
				break
			}
			if s.spent() {
				delete(r.sessions, id)
				reap = append(reap, s)
			}
		}
	}
	full := len(r.sessions)+r.pending >= r.opts.MaxSessions
	if !full {
		r.pending++
	}
	r.mu.Unlock()
	r.closeAll(reap, "spent")
	if full {
		return fmt.Errorf("%w: the limit is %d; close one first", ErrTooManySessions, r.opts.MaxSessions)
	}
	return nil
}

func (r *Registry) start(ctx context.Context, spec Spec) (*session, error) {
	id, err := newID()
	if err != nil {
		return nil, err
	}
	now := r.opts.Now()
	var rec *recorder
	if r.opts.RecordDir != "" {
		rec, err = createRecording(ctx, r.opts.Looks, r.opts.RecordDir, id, spec, now, r.opts.MaxRecordingBytes, r.opts.RecordWait, r.log)
		if err != nil {
			return nil, err
		}
	}
	proc, err := spec.Starter.Start(ctx, spec)
	if err != nil {
		if rec != nil {
			rec.discard()
		}
		return nil, err
	}
	s := newSession(id, spec, proc, rec, r.opts.Now, r.opts.RingBytes, r.log)
	s.run()
	return s, nil
}

// newID returns 128 random bits in hex: unguessable, and safe in a path.
func newID() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", fmt.Errorf("session id: %w", err)
	}
	return hex.EncodeToString(b[:]), nil
}

// validID reports whether id has the shape newID gives.
func validID(id string) bool {
	if len(id) != 32 {
		return false
	}
	_, err := hex.DecodeString(id)
	return err == nil && strings.ToLower(id) == id
}

func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], key+"="); ok {
			return v
		}
	}
	return ""
}

// get returns the session with id and marks it active.
func (r *Registry) get(id string) (*session, error) {
	r.mu.Lock()
	s, ok := r.sessions[id]
	r.mu.Unlock()
	if !ok {
		return nil, ErrNotFound
	}
	s.touch(r.opts.Now())
	return s, nil
}

// Send writes data to the session's input. It may block while the program
// does not read its input; ctx bounds that.
func (r *Registry) Send(ctx context.Context, id string, data []byte) error {
	return r.SendSecret(ctx, id, data)
}

// SendSecret is Send of data that holds secrets, texts no redaction rule
// recognises in data alone (a password typed at a prompt, the rest of a
// value an earlier send started): the recording shows them redacted.
func (r *Registry) SendSecret(ctx context.Context, id string, data []byte, secrets ...string) error {
	s, err := r.get(id)
	if err != nil {
		return fmt.Errorf("send to session %s: %w", id, err)
	}
	if err := s.send(ctx, data, secrets); err != nil {
		return fmt.Errorf("send to session %s: %w", id, err)
	}
	return nil
}

// CloseInput closes the input of a pipes session, so a program reading its
// stdin sees end of file. A PTY session takes "\x04" (Ctrl-D) instead.
func (r *Registry) CloseInput(id string) error {
	s, err := r.get(id)
	if err != nil {
		return fmt.Errorf("close input of session %s: %w", id, err)
	}
	if err := s.closeInput(); err != nil {
		return fmt.Errorf("close input of session %s: %w", id, err)
	}
	return nil
}

// Read returns the session's output since the previous read. With o.Wait it
// waits for output to arrive and then for o.Quiet of silence, returning at
// the latest after o.Wait, and at once when the program has exited and its
// output has drained. A cancelled ctx returns its error and consumes nothing.
func (r *Registry) Read(ctx context.Context, id string, o ReadOptions) (ReadResult, error) {
	s, err := r.get(id)
	if err != nil {
		return ReadResult{}, fmt.Errorf("read session %s: %w", id, err)
	}
	res, err := s.read(ctx, o)
	if err != nil {
		return ReadResult{}, fmt.Errorf("read session %s: %w", id, err)
	}
	return res, nil
}

// Resize changes the session's terminal size.
func (r *Registry) Resize(id string, cols, rows uint16) error {
	s, err := r.get(id)
	if err == nil {
		err = s.resize(cols, rows)
	}
	if err != nil {
		return fmt.Errorf("resize session %s: %w", id, err)
	}
	return nil
}

// Signal sends the named signal (see [Signals]; "SIGINT" and "int" are
// accepted too). In a PTY session it reaches the terminal's foreground
// process group, so INT interrupts what a shell is running, as Ctrl-C would.
func (r *Registry) Signal(id, sig string) error {
	name, err := normalizeSignal(sig)
	var s *session
	if err == nil {
		s, err = r.get(id)
	}
	if err == nil {
		err = s.proc.Signal(name)
	}
	if err != nil {
		return fmt.Errorf("signal session %s: %w", id, err)
	}
	return nil
}

// Close ends the session: it kills the program's whole process tree, waits
// for it, finishes the recording and forgets the session.
func (r *Registry) Close(id string) (CloseInfo, error) {
	r.mu.Lock()
	s, ok := r.sessions[id]
	delete(r.sessions, id)
	r.mu.Unlock()
	if !ok {
		return CloseInfo{}, fmt.Errorf("close session %s: %w", id, ErrNotFound)
	}
	ci, err := s.close()
	r.log.Info("session closed", "session", id, "reason", "close", "recording", ci.Recording, "sha256", ci.RecordingSHA256)
	if err != nil {
		return ci, fmt.Errorf("close session %s: %w", id, err)
	}
	return ci, nil
}

// List describes every session, oldest first.
func (r *Registry) List() []Info {
	r.mu.Lock()
	all := make([]*session, 0, len(r.sessions))
	for _, s := range r.sessions {
		all = append(all, s)
	}
	r.mu.Unlock()
	out := make([]Info, 0, len(all))
	for _, s := range all {
		out = append(out, s.info())
	}
	sortInfos(out)
	return out
}

// Sweep closes every session idle for IdleTimeout or older than MaxLifetime
// and reports how many it closed.
func (r *Registry) Sweep() int {
	now := r.opts.Now()
	r.mu.Lock()
	var idle, old []*session
	for id, s := range r.sessions {
		started, last := s.times()
		switch {
		case now.Sub(started) >= r.opts.MaxLifetime:
			old = append(old, s)
		case now.Sub(last) >= r.opts.IdleTimeout:
			idle = append(idle, s)
		default:
			continue
		}
		delete(r.sessions, id)
	}
	r.mu.Unlock()
	r.closeAll(old, "lifetime")
	r.closeAll(idle, "idle")
	return len(idle) + len(old)
}

// closeAll closes sessions concurrently and waits for them all.
func (r *Registry) closeAll(ss []*session, reason string) {
	var wg sync.WaitGroup
	for _, s := range ss {
		wg.Go(func() {
			ci, err := s.close()
			r.log.Info("session closed", "session", s.id, "reason", reason, "recording", ci.Recording, "sha256", ci.RecordingSHA256, "err", err)
			if r.opts.OnEnd != nil {
				r.opts.OnEnd(ci, reason)
			}
		})
	}
	wg.Wait()
}

// sweepEvery is how often Run sweeps: often enough that a session outlives
// its limits by at most a tenth of the shorter one, within [1s, 1m].
func (r *Registry) sweepEvery() time.Duration {
	d := min(r.opts.IdleTimeout, r.opts.MaxLifetime) / 10
	return min(max(d, time.Second), time.Minute)
}

// Run sweeps expired sessions periodically until ctx ends or Shutdown is
// called. Run it in its own goroutine.
func (r *Registry) Run(ctx context.Context) {
	t := time.NewTicker(r.sweepEvery())
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-r.stop:
			return
		case <-t.C:
			if n := r.Sweep(); n > 0 {
				r.log.Debug("swept sessions", "count", n)
			}
		}
	}
}

// Shutdown stops Run, refuses further starts and closes every session,
// killing their process trees. It returns ctx's error if ctx ends before
// every session is closed; the closing goes on regardless.
func (r *Registry) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	if !r.closed {
		r.closed = true
		close(r.stop)
	}
	all := make([]*session, 0, len(r.sessions))
	for id, s := range r.sessions {
		all = append(all, s)
		delete(r.sessions, id)
	}
	r.mu.Unlock()
	done := make(chan struct{})
	go func() {
		r.closeAll(all, "shutdown")
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("shut down sessions: %w", errors.Join(ctx.Err(), errors.New("some sessions are still closing")))
	}
}
