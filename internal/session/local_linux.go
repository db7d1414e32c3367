package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/warden-mcp/warden/internal/runner"
)

// dirWait bounds the look at a session's working directory (see
// runner.DirAnswers).
const dirWait = 10 * time.Second

// Start starts spec's program on this host, confined as ctx's admission
// says. ctx bounds nothing here but the look at its working directory:
// spawning does not block.
func (l *Local) Start(ctx context.Context, spec Spec) (Process, error) {
	if spec.Dir != "" {
		if err := runner.DirAnswers(ctx, l.Looks, spec.Dir, dirWait); err != nil {
			return nil, fmt.Errorf("start %s: %w", spec.Argv[0], err)
		}
	}
	cmd := &exec.Cmd{
		Args: spec.Argv,
		Env:  append([]string{}, spec.Env...), // never nil: nil would inherit warden's
		Dir:  spec.Dir,
		SysProcAttr: &syscall.SysProcAttr{
			Setsid:    true,
			Pdeathsig: syscall.SIGKILL,
		},
	}
	p := &localProcess{cmd: cmd, pty: spec.PTY, grace: l.grace(), log: l.logger(), exited: make(chan struct{}), release: func() {}}
	// The program is looked up where it starts: a confining starter may
	// start it in other namespaces (host_namespace: pid1).
	launch := func() error {
		path, err := lookPath(spec.Argv[0], spec.Env)
		if err != nil {
			return err
		}
		cmd.Path = path
		return cmd.Start()
	}
	start := launch
	if l.Confine != nil {
		start = func() error {
			release, err := l.Confine.Start(ctx, launch)
			p.release = release
			return err
		}
	}
	var err error
	if spec.PTY {
		err = p.startPTY(spec.Cols, spec.Rows, start)
	} else {
		err = p.startPipes(start)
	}
	if err != nil {
		return nil, fmt.Errorf("start %s: %w", spec.Argv[0], err)
	}
	p.pid = cmd.Process.Pid
	go p.watch()
	return p, nil
}

// localProcess is a program started by Local.
type localProcess struct {
	cmd   *exec.Cmd
	pid   int
	pty   bool
	out   *os.File // the PTY master, or the read end of the output pipe
	in    *os.File // the PTY master again, or the write end of the input pipe
	grace time.Duration
	log   *slog.Logger
	// release tells the confiner the program has been reaped.
	release func()

	exited   chan struct{} // closed once the exit status is known
	code     int
	sig      string
	waitErr  error
	reaped   atomic.Bool // watch had to reap (the status could not be read unreaped)
	closeMu  sync.Mutex
	closed   bool
	closeErr error
}

var (
	_ Process        = (*localProcess)(nil)
	_ writeDeadliner = (*localProcess)(nil)
	_ inputCloser    = (*localProcess)(nil)
	_ foregrounder   = (*localProcess)(nil)
	_ silencer       = (*localProcess)(nil)
)

// openPTY opens a pseudo-terminal pair. The master is non-blocking and in
// Go's poller, so closing it unblocks a pending Read even while some
// process still holds the terminal open.
func openPTY() (master, tty *os.File, err error) {
	fd, err := unix.Open("/dev/ptmx", unix.O_RDWR|unix.O_NOCTTY|unix.O_CLOEXEC|unix.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("open pty: %w", err)
	}
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("unlock pty: %w", err)
	}
	n, err := unix.IoctlGetUint32(fd, unix.TIOCGPTN)
	if err != nil {
		unix.Close(fd)
		return nil, nil, fmt.Errorf("pty number: %w", err)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	master = os.NewFile(uintptr(fd), "/dev/ptmx")
	tty, err = os.OpenFile(name, os.O_RDWR|unix.O_NOCTTY, 0)
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("open %s: %w", name, err)
	}
	return master, tty, nil
}

// control runs fn on f's descriptor without taking it out of the poller (as
// f.Fd would).
func control(f *os.File, fn func(fd int) error) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := rc.Control(func(fd uintptr) { ferr = fn(int(fd)) }); err != nil {
		return err
	}
	return ferr
}

func setSize(f *os.File, cols, rows uint16) error {
	return control(f, func(fd int) error {
		return unix.IoctlSetWinsize(fd, unix.TIOCSWINSZ, &unix.Winsize{Col: cols, Row: rows})
	})
}

func (p *localProcess) startPTY(cols, rows uint16, start func() error) error {
	master, tty, err := openPTY()
	if err != nil {
		return err
	}
	defer tty.Close()
	if err := setSize(master, cols, rows); err != nil {
		master.Close()
		return fmt.Errorf("set terminal size: %w", err)
	}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = tty, tty, tty
	p.cmd.SysProcAttr.Setctty = true
	p.cmd.SysProcAttr.Ctty = 0 // the child's stdin
	if err := start(); err != nil {
		master.Close()
		return err
	}
	p.out, p.in = master, master
	return nil
}

func (p *localProcess) startPipes(start func() error) error {
	inR, inW, err := os.Pipe()
	if err != nil {
		return err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return err
	}
	p.cmd.Stdin, p.cmd.Stdout, p.cmd.Stderr = inR, outW, outW
	err = start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return err
	}
	p.out, p.in = outR, inW
	return nil
}

// watch waits for the program to exit without reaping it: the zombie keeps
// its pid, and so its process group and session ids, from being reused
// until Close has killed the rest of the tree. Close reaps it.
func (p *localProcess) watch() {
	defer close(p.exited)
	var info unix.Siginfo
	for {
		err := unix.Waitid(unix.P_PID, p.pid, &info, unix.WEXITED|unix.WNOWAIT, nil)
		if err == nil {
			break
		}
		if err != unix.EINTR {
			p.log.Debug("waitid failed; reaping to learn the exit status", "pid", p.pid, "err", err)
			p.reapStatus()
			return
		}
	}
	st, err := zombieStatus(p.pid)
	if err != nil {
		p.log.Debug("exit status unreadable; reaping to learn it", "pid", p.pid, "err", err)
		p.reapStatus()
		return
	}
	p.setStatus(st)
}

// reapStatus learns the exit status the ordinary way, giving up the pid.
func (p *localProcess) reapStatus() {
	p.reaped.Store(true)
	err := p.cmd.Wait()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		p.waitErr = err
		return
	}
	if st, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); ok {
		p.setStatus(st)
	}
}

func (p *localProcess) setStatus(st syscall.WaitStatus) {
	switch {
	case st.Signaled():
		p.code, p.sig = -1, signalName(st.Signal())
	default:
		p.code = st.ExitStatus()
	}
}

// zombieStatus reads the wait status of an exited, unreaped process from
// field 52 of /proc/PID/stat (Linux 3.5 and later).
func zombieStatus(pid int) (syscall.WaitStatus, error) {
	f, err := procStat(pid)
	if err != nil {
		return 0, err
	}
	const exitCodeField = 52 - 3 // fields counted after the command name
	if len(f.rest) <= exitCodeField {
		return 0, errors.New("no exit_code field in /proc stat")
	}
	v, err := strconv.Atoi(f.rest[exitCodeField])
	if err != nil {
		return 0, fmt.Errorf("exit_code field: %w", err)
	}
	return syscall.WaitStatus(v), nil
}

func (p *localProcess) Read(b []byte) (int, error) {
	n, err := p.out.Read(b)
	// A PTY master reads EIO once no process has the terminal open.
	if err != nil && (errors.Is(err, syscall.EIO) || errors.Is(err, os.ErrClosed)) {
		err = io.EOF
	}
	return n, err
}

func (p *localProcess) Write(b []byte) (int, error) { return p.in.Write(b) }

// SetWriteDeadline lets a blocked Write be abandoned.
func (p *localProcess) SetWriteDeadline(t time.Time) error { return p.in.SetWriteDeadline(t) }

// CloseInput closes a pipes program's stdin.
func (p *localProcess) CloseInput() error {
	if p.pty {
		return ErrNoTerminal
	}
	return p.in.Close()
}

func (p *localProcess) Resize(cols, rows uint16) error {
	if !p.pty {
		return ErrNoTerminal
	}
	return setSize(p.out, cols, rows)
}

func (p *localProcess) Signal(name string) error {
	sig, ok := signalByName(name)
	if !ok {
		return fmt.Errorf("%w %q", ErrUnknownSignal, name)
	}
	pgrp := p.pid
	if p.pty {
		// The foreground process group is what Ctrl-C reaches: the
		// command a shell is running, or the shell itself at its prompt.
		var fg int
		err := control(p.out, func(fd int) (err error) {
			fg, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
			return err
		})
		if err == nil && fg > 0 {
			pgrp = fg
		}
	}
	if err := unix.Kill(-pgrp, sig); err != nil {
		return fmt.Errorf("kill %s to process group %d: %w", name, pgrp, err)
	}
	return nil
}

// Silent reports whether its terminal reads a line without echo: canonical
// mode with ECHO off, a password prompt (silent.go).
func (p *localProcess) Silent() bool {
	if !p.pty {
		return false
	}
	var t *unix.Termios
	err := control(p.out, func(fd int) (err error) {
		t, err = unix.IoctlGetTermios(fd, unix.TCGETS)
		return err
	})
	return err == nil && t.Lflag&unix.ECHO == 0 && t.Lflag&unix.ICANON != 0
}

// Foreground reports what leads its terminal's foreground process group
// (foreground.go).
func (p *localProcess) Foreground() (Foreground, error) {
	if !p.pty {
		return Foreground{}, ErrNoTerminal
	}
	select {
	case <-p.exited:
		return Foreground{}, ErrNotFound
	default:
	}
	var fg int
	err := control(p.out, func(fd int) (err error) {
		fg, err = unix.IoctlGetInt(fd, unix.TIOCGPGRP)
		return err
	})
	if err != nil {
		return Foreground{}, err
	}
	// The program itself counts only as a shell at its prompt: a session
	// started with a command (sh -c 'x; sh') runs its programs in its own
	// process group, which stays the foreground while they read. It leads
	// its own session, so its process group is its pid.
	shell := interactiveShell(fg) && aloneInGroup(fg)
	return Foreground{Shell: shell, Own: shell && fg == p.pid, Group: fg}, nil
}

// aloneInGroup reports whether no process but pid is in process group
// pid. A shell at its prompt leads its group alone; one with job control
// off (set +m, or built without it) runs its programs in its own group,
// so it leads the foreground while a program that outlived Ctrl-C reads.
func aloneInGroup(pid int) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	group := strconv.Itoa(pid)
	for _, e := range ents {
		if e.Name() == group || e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue // gone since the listing
		}
		// pid (comm) state ppid pgrp …: comm may hold spaces and ')'.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) > 2 && f[2] == group {
			return false
		}
	}
	return true
}

// interactiveShell reports whether process pid is a shell reading
// commands from its terminal, as a shell typed into the session is: it
// leads the foreground process group while it waits at its prompt
// (ShellAtPrompt).
func interactiveShell(pid int) bool {
	comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", pid))
	if err != nil {
		return false
	}
	name := strings.TrimSpace(string(comm))
	cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
	if err != nil || len(cmdline) == 0 {
		return false
	}
	in, _ := os.Readlink(fmt.Sprintf("/proc/%d/fd/0", pid))
	args := strings.Split(strings.TrimSuffix(string(cmdline), "\x00"), "\x00")
	return ShellAtPrompt(name, systemProgram(pid, name), in, args[1:])
}

// systemProgram reports whether process pid runs the same file as the
// system's program name (in /bin, /usr/bin or /usr/local/bin): the name a process has is
// its file's, which a link or a copy under another directory chooses.
func systemProgram(pid int, name string) bool {
	exe, err := os.Stat(fmt.Sprintf("/proc/%d/exe", pid))
	if err != nil || strings.ContainsRune(name, '/') {
		return false
	}
	for _, dir := range []string{"/bin/", "/usr/bin/", "/usr/local/bin/"} {
		if fi, err := os.Stat(dir + name); err == nil && os.SameFile(exe, fi) {
			return true
		}
	}
	return false
}

func (p *localProcess) Wait() (int, string, error) {
	<-p.exited
	return p.code, p.sig, p.waitErr
}

// Close kills the tree: HUP, CONT and TERM to every process in it, then KILL
// to whatever is left after the grace period; then it reaps the program
// and closes the terminal or pipes.
func (p *localProcess) Close() error {
	p.closeMu.Lock()
	defer p.closeMu.Unlock()
	if p.closed {
		return p.closeErr
	}
	p.closed = true
	p.killTree(unix.SIGHUP, unix.SIGCONT, unix.SIGTERM)
	deadline := time.Now().Add(p.grace)
	for p.alive() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if p.alive() {
		p.killTree(unix.SIGKILL)
	}
	var err error
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
		err = fmt.Errorf("process %d survived SIGKILL", p.pid)
	}
	// Everything is dead (or beyond reach), so the ids can be released.
	if err == nil {
		if !p.reaped.Load() {
			_ = p.cmd.Wait()
		}
		p.release()
	}
	err = errors.Join(err, p.out.Close())
	if p.in != p.out {
		if cerr := p.in.Close(); cerr != nil && !errors.Is(cerr, os.ErrClosed) {
			err = errors.Join(err, cerr)
		}
	}
	p.closeErr = err
	return err
}

// alive reports whether the program or anything in its tree still runs.
func (p *localProcess) alive() bool {
	select {
	case <-p.exited:
	default:
		return true
	}
	return len(p.tree()) > 0
}

// killTree sends sigs to the process group and to every live process of the
// tree.
func (p *localProcess) killTree(sigs ...unix.Signal) {
	pids := p.tree()
	for _, sig := range sigs {
		if !p.reaped.Load() {
			_ = unix.Kill(-p.pid, sig)
		}
		for _, pid := range pids {
			_ = unix.Kill(pid, sig)
		}
	}
}

// tree lists the live (non-zombie) processes belonging to the program: those
// in its session or process group and their descendants. Once the program
// has been reaped its ids may be reused, so only descendants of live members
// can be found — and there are none left to find by then.
func (p *localProcess) tree() []int {
	if p.reaped.Load() {
		return nil
	}
	procs := scanProcs()
	members := map[int]bool{}
	for _, pr := range procs {
		if pr.pid == p.pid || pr.sid == p.pid || pr.pgrp == p.pid {
			members[pr.pid] = true
		}
	}
	for grew := true; grew; {
		grew = false
		for _, pr := range procs {
			if !members[pr.pid] && members[pr.ppid] {
				members[pr.pid] = true
				grew = true
			}
		}
	}
	var live []int
	for _, pr := range procs {
		if members[pr.pid] && pr.state != "Z" && pr.pid != os.Getpid() {
			live = append(live, pr.pid)
		}
	}
	return live
}

// procInfo is the part of /proc/PID/stat the tree walk needs.
type procInfo struct {
	pid, ppid, pgrp, sid int
	state                string
	rest                 []string // every field after the command name
}

func procStat(pid int) (procInfo, error) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procInfo{}, err
	}
	// The command name is in parentheses and may hold anything, even ")".
	i := strings.LastIndexByte(string(b), ')')
	if i < 0 {
		return procInfo{}, errors.New("malformed /proc stat")
	}
	rest := strings.Fields(string(b[i+1:]))
	if len(rest) < 4 {
		return procInfo{}, errors.New("short /proc stat")
	}
	pi := procInfo{pid: pid, state: rest[0], rest: rest}
	pi.ppid, _ = strconv.Atoi(rest[1])
	pi.pgrp, _ = strconv.Atoi(rest[2])
	pi.sid, _ = strconv.Atoi(rest[3])
	return pi, nil
}

// scanProcs reads every process's stat; processes that vanish mid-scan are
// skipped.
func scanProcs() []procInfo {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	out := make([]procInfo, 0, len(entries))
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if pi, err := procStat(pid); err == nil {
			out = append(out, pi)
		}
	}
	return out
}

func signalByName(name string) (unix.Signal, bool) {
	switch name {
	case "INT":
		return unix.SIGINT, true
	case "TERM":
		return unix.SIGTERM, true
	case "KILL":
		return unix.SIGKILL, true
	case "HUP":
		return unix.SIGHUP, true
	case "QUIT":
		return unix.SIGQUIT, true
	case "TSTP":
		return unix.SIGTSTP, true
	case "CONT":
		return unix.SIGCONT, true
	case "WINCH":
		return unix.SIGWINCH, true
	case "USR1":
		return unix.SIGUSR1, true
	case "USR2":
		return unix.SIGUSR2, true
	}
	return 0, false
}

// signalName names a signal without the SIG prefix ("INT"), or by number
// when unix has no name for it.
func signalName(s syscall.Signal) string {
	if n := unix.SignalName(s); n != "" {
		return strings.TrimPrefix(n, "SIG")
	}
	return strconv.Itoa(int(s))
}
