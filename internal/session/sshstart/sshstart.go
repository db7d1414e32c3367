// Package sshstart owns interactive sessions on remote hosts: the
// session.Starter that runs a session's program over a pooled SSH
// connection, in a remote pseudo-terminal (RequestPty, window changes) or
// with pipes, with the same contract as the local starter.
//
// The program gets exactly Spec.Env (through env -i, as the SSH runner
// does: OpenSSH refuses most "env" requests). Before exec-ing it the remote
// script reports its pid, which is the remote session's id: sshd makes
// every session's child a session leader. That pid is how signals reach
// what a terminal's Ctrl-C would reach and how Close kills everything the
// program started, from a second "control" SSH session, by kill(1) — which
// works for root logins too, where OpenSSH refuses "signal" requests.
// Interrupt, quit and suspend on a terminal are sent as the characters
// themselves (^C, ^\, ^Z), as a user's keyboard would.
package sshstart

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/shellword"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Pool is what the starter needs of sshpool.Pool.
type Pool interface {
	Acquire(ctx context.Context, t sshpool.Target) (*sshpool.Lease, error)
}

// Starter starts session programs on one remote host.
type Starter struct {
	Pool   Pool
	Target sshpool.Target
	// KillGrace is the pause between HUP+TERM and KILL on Close (default
	// session.DefaultKillGrace).
	KillGrace time.Duration
	// LoginHome gives the program the remote login's own HOME in place of
	// any HOME in Spec.Env, which names a directory of warden's machine.
	LoginHome bool
	// SlotWait bounds how long a start waits for one of the connection's
	// sessions to free when commands and sessions hold them all (default
	// DefaultSlotWait): a session may hold one for hours.
	SlotWait time.Duration
	// Logger receives diagnostics (nil: discard).
	Logger *slog.Logger
}

var _ session.Starter = (*Starter)(nil)

// DefaultSlotWait is Starter.SlotWait's default.
const DefaultSlotWait = 10 * time.Second

// Start runs spec's program on the target. ctx bounds connecting and
// starting only.
func (s *Starter) Start(ctx context.Context, spec session.Spec) (session.Process, error) {
	if len(spec.Argv) == 0 {
		return nil, errors.New("ssh session: empty argv")
	}
	marker := "WARDEN" + randHex()
	if s.LoginHome {
		env := make([]string, 0, len(spec.Env))
		for _, kv := range spec.Env {
			if !strings.HasPrefix(kv, "HOME=") {
				env = append(env, kv)
			}
		}
		spec.Env = env
	}
	cmd, err := command(spec, marker, s.LoginHome)
	if err != nil {
		return nil, fmt.Errorf("ssh session: %w", err)
	}
	lease, err := s.Pool.Acquire(ctx, s.Target)
	if err != nil {
		return nil, err
	}
	wait := s.SlotWait
	if wait <= 0 {
		wait = DefaultSlotWait
	}
	sctx, cancel := context.WithTimeoutCause(ctx, wait, fmt.Errorf(
		"no session on %s freed within %s: commands and sessions hold every one the connection may carry; close a session, or try again", s.Target.Name, wait))
	sess, release, err := lease.Session(sctx)
	if err != nil && sctx.Err() != nil {
		err = context.Cause(sctx)
	}
	cancel()
	if err != nil {
		lease.Release()
		return nil, fmt.Errorf("ssh session: %w", err)
	}
	p := &process{
		s: s, lease: lease, sess: sess, release: release, pty: spec.PTY,
		pidSet: make(chan struct{}), done: make(chan struct{}),
	}
	fail := func(err error) (session.Process, error) {
		sess.Close()
		release()
		lease.Release()
		return nil, fmt.Errorf("ssh session on %s: %w", s.Target.Name, err)
	}
	if p.stdin, err = sess.StdinPipe(); err != nil {
		return fail(err)
	}
	stdout, err := sess.StdoutPipe()
	if err != nil {
		return fail(err)
	}
	filtered := &markerReader{r: stdout, marker: []byte(marker + "pid:"), onPid: p.setPid}
	if spec.PTY {
		term := envValue(spec.Env, "TERM")
		if term == "" {
			term = "xterm-256color"
		}
		// The special characters are the ones warden's line model
		// follows (tools/sessions/line.go), asked for explicitly: a
		// remote system's own defaults may differ (erase is ^H on some),
		// and a remote sh would then type a DEL that warden applied.
		modes := ssh.TerminalModes{ssh.ECHO: 1, ssh.TTY_OP_ISPEED: 38400, ssh.TTY_OP_OSPEED: 38400,
			ssh.VERASE: 0x7f, ssh.VKILL: 0x15, ssh.VWERASE: 0x17, ssh.VINTR: 0x03, ssh.VEOF: 0x04,
			ssh.VQUIT: 0x1c, ssh.VSUSP: 0x1a, ssh.VLNEXT: 0x16, ssh.VREPRINT: 0x12, ssh.VEOL: 0xff, ssh.VEOL2: 0xff,
			ssh.ICANON: 1, ssh.ISIG: 1, ssh.IEXTEN: 1, ssh.ICRNL: 1, ssh.INLCR: 0, ssh.IGNCR: 0}
		if err := sess.RequestPty(term, int(spec.Rows), int(spec.Cols), modes); err != nil {
			return fail(fmt.Errorf("request pty: %w", err))
		}
	}
	var stderr io.Reader
	if !spec.PTY {
		if stderr, err = sess.StderrPipe(); err != nil {
			return fail(err)
		}
	}
	if err := sess.Start(cmd); err != nil {
		return fail(fmt.Errorf("start: %w", err))
	}
	primed := make(chan error, 1)
	go func() { primed <- filtered.prime() }()
	select {
	case err := <-primed:
		if err != nil {
			// The program may have run and exited at once (a wrong
			// directory); its output and status are still reported.
			s.log().Debug("ssh session start", "host", s.Target.Name, "err", err)
		}
	case <-ctx.Done():
		return fail(ctx.Err())
	}
	p.out = filtered
	if stderr != nil {
		// Merged only now: the report line is read from stdout alone.
		p.out = merge(filtered, stderr)
	}
	go p.wait()
	return p, nil
}

func (s *Starter) grace() time.Duration {
	if s.KillGrace <= 0 {
		return session.DefaultKillGrace
	}
	return s.KillGrace
}

func (s *Starter) log() *slog.Logger {
	if s.Logger == nil {
		return slog.New(slog.DiscardHandler)
	}
	return s.Logger
}

// command builds the remote script: report the pid, change directory, then
// exec the program with exactly spec.Env.
func command(spec session.Spec, marker string, loginHome bool) (string, error) {
	for _, a := range spec.Argv {
		if strings.IndexByte(a, 0) >= 0 {
			return "", fmt.Errorf("argument %q contains NUL", a)
		}
	}
	if spec.Argv[0] == "" || strings.Contains(spec.Argv[0], "=") {
		return "", fmt.Errorf("program name %q cannot be run remotely", spec.Argv[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "echo %spid:$$\n", marker)
	if spec.Dir != "" {
		if strings.IndexByte(spec.Dir, 0) >= 0 {
			return "", errors.New("directory contains NUL")
		}
		fmt.Fprintf(&b, "cd -- %s || exit 127\n", shellword.Quote(spec.Dir))
	}
	b.WriteString("exec env -i")
	if loginHome {
		b.WriteString(` HOME="$HOME"`)
	}
	for _, kv := range spec.Env {
		name, _, ok := strings.Cut(kv, "=")
		if !ok || !shellword.ValidName(name) || strings.IndexByte(kv, 0) >= 0 {
			return "", fmt.Errorf("environment entry %q: want NAME=value", kv)
		}
		b.WriteString(" " + shellword.Quote(kv))
	}
	for _, a := range spec.Argv {
		b.WriteString(" " + shellword.Quote(a))
	}
	return b.String(), nil
}

// process is one running remote session program.
type process struct {
	s       *Starter
	lease   *sshpool.Lease
	sess    *ssh.Session
	release func()
	stdin   io.WriteCloser
	out     io.Reader
	pty     bool

	mu     sync.Mutex
	pid    int
	pidSet chan struct{}

	done     chan struct{} // closed when the program's exit is known
	code     int
	signal   string
	waitErr  error
	closeOne sync.Once
}

func (p *process) setPid(pid int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid == 0 && pid > 1 {
		p.pid = pid
		close(p.pidSet)
	}
}

// remotePid returns the session leader's pid, waiting briefly for the
// script to report it.
func (p *process) remotePid() (int, error) {
	select {
	case <-p.pidSet:
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pid == 0 {
		return 0, errors.New("remote pid unknown")
	}
	return p.pid, nil
}

func (p *process) Read(b []byte) (int, error)  { return p.out.Read(b) }
func (p *process) Write(b []byte) (int, error) { return p.stdin.Write(b) }

// CloseInput ends the program's standard input (EOF for a pipes session).
func (p *process) CloseInput() error { return p.stdin.Close() }

func (p *process) Resize(cols, rows uint16) error {
	if !p.pty {
		return session.ErrNoTerminal
	}
	return p.sess.WindowChange(int(rows), int(cols))
}

// controlChars are the signals a terminal's line discipline raises from a
// typed character, for the foreground process group.
var controlChars = map[string]string{"INT": "\x03", "QUIT": "\x1c", "TSTP": "\x1a"}

func (p *process) Signal(name string) error {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(name)), "SIG")
	ok := false
	for _, s := range session.Signals() {
		ok = ok || s == n
	}
	if !ok {
		return fmt.Errorf("%w %q", session.ErrUnknownSignal, name)
	}
	if c, ok := controlChars[n]; ok && p.pty {
		_, err := p.stdin.Write([]byte(c))
		return err
	}
	pid, err := p.remotePid()
	if err != nil {
		return err
	}
	if !p.pty {
		return p.control(fmt.Sprintf("kill -%s -%d", n, pid)) // the program's process group
	}
	// The terminal's foreground process group: field 8 (tpgid) of the
	// session leader's /proc stat, counted after the ")" ending comm.
	// dash's kill takes no "--": a process group follows the signal.
	return p.control(fmt.Sprintf("s=$(cat /proc/%d/stat) || exit 1\ns=${s##*\")\"}\nset -- $s\nkill -%s \"-$6\"", pid, n))
}

// control runs a short sh script in a control session of the connection
// (controlOutput).
func (p *process) control(script string) error {
	_, err := p.controlOutput(script, 4096)
	return err
}

// killSession signals every process of the remote session: pkill -s where
// procps has it, else the session leader's process group.
func (p *process) killSession(sig string) {
	pid, err := p.remotePid()
	if err != nil {
		return
	}
	cmd := fmt.Sprintf("pkill -%s -s %d 2>/dev/null || kill -%s -%d 2>/dev/null; true", sig, pid, sig, pid)
	if err := p.control(cmd); err != nil {
		p.s.log().Debug("remote session kill failed", "host", p.s.Target.Name, "signal", sig, "err", err)
	}
}

// Close ends the program and everything it started: HUP and TERM to the
// whole remote session, KILL after the grace period, then the channel is
// closed.
func (p *process) Close() error {
	p.closeOne.Do(func() {
		select {
		case <-p.done:
			// The program exited; what it left behind in its session
			// still goes.
			p.killSession("KILL")
		default:
			p.killSession("HUP")
			p.killSession("TERM")
			select {
			case <-p.done:
			case <-time.After(p.s.grace()):
			}
			p.killSession("KILL")
		}
		p.sess.Close()
		p.release()
		p.lease.Release()
	})
	return nil
}

func (p *process) wait() {
	err := p.sess.Wait()
	var ee *ssh.ExitError
	var missing *ssh.ExitMissingError
	switch {
	case err == nil:
	case errors.As(err, &ee):
		if sig := ee.Signal(); sig != "" {
			p.code, p.signal = -1, sig
		} else {
			p.code = ee.ExitStatus()
		}
	case errors.As(err, &missing):
		p.code, p.waitErr = -1, errors.New("the remote side reported no exit status (connection lost or channel closed)")
	default:
		p.code, p.waitErr = -1, err
	}
	close(p.done)
}

func (p *process) Wait() (int, string, error) {
	<-p.done
	return p.code, p.signal, p.waitErr
}

// markerReader drops the pid report line the script prints before the
// program starts, passing on whatever else it reads. prime reads until the
// line is seen, so Start returns only once the program is about to run and
// nothing typed can be echoed ahead of the report.
type markerReader struct {
	r      io.Reader
	marker []byte
	onPid  func(int)
	rest   []byte // read past the report, not yet returned
}

// maxBeforeMarker bounds what is held while looking for the report.
const maxBeforeMarker = 8 << 10

func (m *markerReader) prime() error {
	var buf []byte
	tmp := make([]byte, 1024)
	for {
		if i := bytes.Index(buf, m.marker); i >= 0 {
			if j := bytes.IndexByte(buf[i:], '\n'); j >= 0 {
				line := strings.TrimRight(string(buf[i+len(m.marker):i+j]), "\r")
				if pid, err := strconv.Atoi(line); err == nil {
					m.onPid(pid)
				}
				m.rest = append(buf[:i:i], buf[i+j+1:]...)
				return nil
			}
		}
		if len(buf) > maxBeforeMarker {
			m.rest = buf
			return errors.New("the remote script did not report its pid")
		}
		n, err := m.r.Read(tmp)
		buf = append(buf, tmp[:n]...)
		if err != nil {
			m.rest = buf
			return fmt.Errorf("remote program ended before it started: %w", err)
		}
	}
}

func (m *markerReader) Read(b []byte) (int, error) {
	if len(m.rest) > 0 {
		n := copy(b, m.rest)
		m.rest = m.rest[n:]
		return n, nil
	}
	return m.r.Read(b)
}

// merge interleaves two readers into one, as a pipes session's output.
func merge(a, b io.Reader) io.Reader {
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, r := range []io.Reader{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			buf := make([]byte, 16<<10)
			for {
				n, err := r.Read(buf)
				if n > 0 {
					mu.Lock()
					_, werr := pw.Write(buf[:n])
					mu.Unlock()
					if werr != nil {
						return
					}
				}
				if err != nil {
					return
				}
			}
		}()
	}
	go func() {
		wg.Wait()
		pw.Close()
	}()
	return pr
}

func envValue(env []string, name string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if v, ok := strings.CutPrefix(env[i], name+"="); ok {
			return v
		}
	}
	return ""
}

func randHex() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
