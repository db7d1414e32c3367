// Package local owns running a command on the machine warden itself runs
// on: argv exec with exactly the environment asked for, in a process group
// of its own that is killed as a whole on timeout, on cancellation and when
// the command exits, with output drained through fixed buffers into the
// shared bounded capture.
package local

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
)

// DefaultDrain is how long output is still read after the command and its
// process group are gone, for a process that left the group while holding
// the command's stdout or stderr open.
const DefaultDrain = 100 * time.Millisecond

// readBuf is the size of each output read: one default pipe's capacity.
const readBuf = 64 << 10

// sweepReads bounds the final non-blocking reads after the drain deadline,
// so a writer that escaped the group cannot keep the call alive.
const sweepReads = 16

// Options tunes a Runner. The zero value gives the production behaviour.
type Options struct {
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// ProgressEvery is how often Request.Progress is called; zero means
	// runner.ProgressEvery.
	ProgressEvery time.Duration
	// KillGrace is the time between SIGTERM and SIGKILL to the group on
	// timeout or cancellation; zero means runner.KillGrace.
	KillGrace time.Duration
	// Drain is how long output is still read once the group is gone; zero
	// means DefaultDrain.
	Drain time.Duration
	// Confine starts each command so that it inherits the confinement of
	// its call's admission (see package confine); nil starts commands
	// unconfined, for runners that bring a sandbox of their own.
	Confine Starter
	// Looks bounds the looks at working directories that wait at once
	// (see runner.Looks); nil bounds nothing.
	Looks *runner.Looks
}

// Starter runs start, which starts one process, so that the process is
// confined as ctx's admission says; release is called once the process
// has been reaped.
type Starter interface {
	Start(ctx context.Context, start func() error) (release func(), err error)
}

// Runner runs commands on the local host. Argv[0] without a slash is looked
// up in the PATH given in Request.Env (or a fixed system default when Env
// names none), never in warden's own environment. Relative PATH entries
// are skipped. A Runner is safe for concurrent use and must not be copied.
type Runner struct {
	log           *slog.Logger
	progressEvery time.Duration
	killGrace     time.Duration
	drain         time.Duration
	confine       Starter
	looks         *runner.Looks
	bufs          sync.Pool
	null          *os.File // /dev/null, every stdin-less command's stdin; nil if it could not be opened
	// detach starts each command in a session of its own: warden has a
	// controlling terminal, which its commands must not get.
	detach bool
}

var _ runner.Runner = (*Runner)(nil)

// New returns a Runner configured by opts.
func New(opts Options) *Runner {
	r := &Runner{
		log:           opts.Logger,
		progressEvery: opts.ProgressEvery,
		killGrace:     opts.KillGrace,
		drain:         opts.Drain,
		confine:       opts.Confine,
		looks:         opts.Looks,
		detach:        hasTerminal(),
	}
	if r.log == nil {
		r.log = slog.New(slog.DiscardHandler)
	}
	if r.progressEvery <= 0 {
		r.progressEvery = runner.ProgressEvery
	}
	if r.killGrace <= 0 {
		r.killGrace = runner.KillGrace
	}
	if r.drain <= 0 {
		r.drain = DefaultDrain
	}
	r.bufs.New = func() any { b := make([]byte, readBuf); return &b }
	// One read-only /dev/null serves every command: it holds no state a
	// child could change for another, and opening it per command costs
	// seven system calls. Without it, each command opens its own.
	if null, err := os.Open(os.DevNull); err == nil {
		r.null = null
	}
	return r
}

// Run starts req.Argv and waits for it to exit, time out or be cancelled,
// then kills whatever is left of its process group. A command that ran
// returns a nil error whatever its exit; an error means nothing ran.
func (r *Runner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	if len(req.Argv) == 0 {
		return runner.Result{}, errors.New("run: empty argv")
	}
	if err := ctx.Err(); err != nil {
		return runner.Result{}, fmt.Errorf("run: %w", err)
	}
	if req.Dir != "" {
		if err := runner.DirAnswers(ctx, r.looks, req.Dir, req.Timeout); err != nil {
			return runner.Result{}, fmt.Errorf("run: %w", err)
		}
	}
	p, err := openPipes(len(req.Stdin) > 0, r.null)
	if err != nil {
		return runner.Result{}, fmt.Errorf("run: %w", err)
	}
	env := req.Env
	if env == nil {
		// os.StartProcess inherits warden's environment for a nil Env.
		env = []string{}
	}
	// The readers start before the command does, so that they are ready,
	// parked in the poller, while the command is being started.
	capture := runner.NewCapture(req.MaxBytes)
	var wg sync.WaitGroup
	wg.Add(2)
	go r.drainPipe(p.out, capture.Stdout(), &wg)
	go r.drainPipe(p.err, capture.Stderr(), &wg)

	start := time.Now()
	var proc *os.Process
	var path string
	var lookErr error
	// The program is looked up where it starts: a confining starter may
	// start it in other namespaces (host_namespace: pid1), whose files are
	// not warden's.
	release, err := r.start(ctx, req.Timeout, func() error {
		if path, lookErr = lookPath(req.Argv[0], req.Env); lookErr != nil {
			return lookErr
		}
		var err error
		proc, err = os.StartProcess(path, req.Argv, &os.ProcAttr{
			Dir:   req.Dir,
			Env:   env,
			Files: []*os.File{p.childIn, p.childOut, p.childErr},
			Sys:   sysProcAttr(r.detach),
		})
		return err
	})
	p.closeChild()
	if err != nil {
		// Nothing holds the write ends now: the readers see EOF.
		if p.in != nil {
			_ = p.in.Close()
		}
		wg.Wait()
		if lookErr != nil {
			return runner.Result{}, fmt.Errorf("run: %w", lookErr)
		}
		// A start refused before the program was looked up names it as
		// given.
		return runner.Result{}, startError(cmp.Or(path, req.Argv[0]), req.Dir, err)
	}
	defer release()

	if p.in != nil {
		wg.Add(1)
		go feed(p.in, req.Stdin, &wg)
	}

	k := &killer{pgid: proc.Pid, grace: r.killGrace}
	if req.Timeout > 0 {
		k.mu.Lock()
		k.timeout = time.AfterFunc(req.Timeout, func() { k.stop(stopTimeout) })
		k.mu.Unlock()
	}
	stopWatch := context.AfterFunc(ctx, func() { k.stop(stopCancel) })
	stopProgress := capture.ReportProgress(req.Progress, r.progressEvery, start, time.Now)

	state, waitErr := r.wait(proc, k)
	stopWatch()

	// The group is gone unless something left it; stop waiting for output
	// a little after, and stop feeding stdin nobody will read.
	deadline := time.Now().Add(r.drain)
	_ = p.out.SetReadDeadline(deadline)
	_ = p.err.SetReadDeadline(deadline)
	if p.in != nil {
		_ = p.in.SetWriteDeadline(time.Now())
	}
	wg.Wait()
	stopProgress()

	res := runner.Result{Duration: time.Since(start)}
	capture.Fill(&res)
	switch k.why {
	case stopTimeout:
		res.TimedOut = true
	case stopCancel:
		res.Canceled = true
	}
	if waitErr != nil {
		return res, fmt.Errorf("run: wait %q: %w", path, waitErr)
	}
	res.ExitCode = exitCode(state)
	return res, nil
}

// start runs startProc through the confining starter, if any, which
// waits for its confinement no longer than the command's timeout.
func (r *Runner) start(ctx context.Context, timeout time.Duration, startProc func() error) (func(), error) {
	if r.confine == nil {
		return func() {}, startProc()
	}
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	return r.confine.Start(ctx, startProc)
}

// wait blocks until the command's main process exits, then kills what is
// left of its group. Where the platform allows, the group is killed while
// the exited leader is still unreaped, so its pid — the group id — cannot
// have been reused by an unrelated process when the signal is sent.
func (r *Runner) wait(proc *os.Process, k *killer) (*os.ProcessState, error) {
	if err := waitExited(proc.Pid); err != nil {
		state, werr := proc.Wait()
		k.exited()
		killGroup(k.pgid, syscall.SIGKILL)
		return state, werr
	}
	k.exited()
	killGroup(k.pgid, syscall.SIGKILL)
	return proc.Wait()
}

// drainPipe copies f into w through one fixed buffer until EOF or the drain
// deadline, then takes what is already buffered in the pipe without
// waiting, and closes f.
func (r *Runner) drainPipe(f *os.File, w io.Writer, wg *sync.WaitGroup) {
	defer wg.Done()
	defer f.Close()
	bp := r.bufs.Get().(*[]byte)
	defer r.bufs.Put(bp)
	buf := *bp
	for {
		n, err := f.Read(buf)
		if n > 0 {
			_, _ = w.Write(buf[:n])
		}
		if err == nil {
			continue
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			r.log.Warn("command output still held open after its process group exited; stopped reading",
				"pipe", f.Name())
			sweep(f, w, buf)
		}
		return
	}
}

// sweep reads what is already in the pipe without blocking, at most
// sweepReads buffers, so bytes written before the group died are kept even
// when the deadline passed before the reader got to them.
func sweep(f *os.File, w io.Writer, buf []byte) {
	rc, err := f.SyscallConn()
	if err != nil {
		return
	}
	_ = rc.Control(func(fd uintptr) {
		for range sweepReads {
			n, err := syscall.Read(int(fd), buf)
			if n <= 0 || err != nil {
				return
			}
			_, _ = w.Write(buf[:n])
		}
	})
}

// feed writes data to the child's stdin and closes it. A child that exits
// without reading makes the write fail with EPIPE, which is not an error
// of the run.
func feed(f *os.File, data []byte, wg *sync.WaitGroup) {
	defer wg.Done()
	_, _ = f.Write(data)
	_ = f.Close()
}

// exitCode follows the shell convention: the exit status, or 128+signal
// for a process killed by a signal.
func exitCode(state *os.ProcessState) int {
	ws, ok := state.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return state.ExitCode()
}

// startError explains why the command could not start, naming the missing
// directory rather than the program when the directory is what is missing.
func startError(path, dir string, err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	if dir != "" {
		if _, serr := os.Stat(dir); serr != nil {
			var spe *os.PathError
			if errors.As(serr, &spe) {
				serr = spe.Err
			}
			return fmt.Errorf("run: dir %q: %w", dir, serr)
		}
	}
	return fmt.Errorf("run: exec %q: %w", path, err)
}
