package sshpool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

// ErrNoSFTP is wrapped by SFTP's error when the server has no SFTP to
// offer: it refuses the subsystem (OpenSSH without a Subsystem line), or
// runs a program for it that does not speak SFTP (dropbear, whose
// sftp-server is missing on routers).
var ErrNoSFTP = errors.New("server offers no SFTP subsystem; set files_transport: exec or auto")

// sftpHandshake bounds the SFTP version exchange once the server has
// taken the subsystem request.
const sftpHandshake = 10 * time.Second

// SFTP returns the SFTP client of t's connection, starting it on first use.
// It is cached with the connection, occupies one of its session slots, and
// ends with it, or when its server ends. A server with no SFTP gives an
// error wrapping ErrNoSFTP; the session asked is closed whatever failed.
func (p *Pool) SFTP(ctx context.Context, t Target) (*sftp.Client, error) {
	l, err := p.Acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	defer l.Release()
	c := l.conn()
	c.sftpMu.Lock()
	defer c.sftpMu.Unlock()
	if c.sftp != nil {
		return c.sftp, nil
	}
	release, err := l.slot(ctx, c, c.sessions)
	if err != nil {
		return nil, err
	}
	var s *ssh.Session
	err = l.retryOpen(ctx, c, func() (err error) {
		s, err = c.client.NewSession()
		return err
	})
	if err != nil {
		release()
		return nil, fmt.Errorf("start sftp on %s: %w", c.name, err)
	}
	sc, err := startSFTP(ctx, s)
	if err != nil {
		closeSession(s)
		release()
		if c.single {
			// Dropbear, whose sftp-server is missing, loses about one
			// in five of the sessions opened on the connection next,
			// however long after: it is not used again.
			p.kill(c, errors.New("retired after a failed sftp start"))
		}
		return nil, fmt.Errorf("start sftp on %s: %w", c.name, err)
	}
	c.sftp, c.sftpStop = sc, func() { s.Close() }
	go func() {
		ended := make(chan struct{})
		go func() {
			_ = sc.Wait()
			close(ended)
		}()
		select {
		case <-c.dead:
		case <-ended:
		}
		c.sftpMu.Lock()
		if c.sftp == sc {
			c.sftp, c.sftpStop = nil, nil
		}
		c.sftpMu.Unlock()
		// The session first: closing the client waits for its reader,
		// which ends when the channel does.
		closeSession(s)
		sc.Close()
		release()
	}()
	return sc, nil
}

// errSFTPRetired is why a connection whose SFTP session was retired is
// closed once its leases end.
var errSFTPRetired = errors.New("replaced: its SFTP session was left to a request that did not answer")

// RetireSFTP ends t's SFTP session, if it has one, so that the next call
// starts another. OpenSSH's sftp-server answers one request at a time: one
// that waits on a mount whose server does not answer holds up every
// request after it, whatever its path. The session's end ends its client.
//
// The server keeps the session, and its place among the connection's
// MaxSessions, until its sftp-server ends, when the mount answers: nine
// retired sessions would leave the connection none for commands, which
// would wait for one. So the connection is drained: the next call to t
// dials another, and this one is closed once the commands and sessions
// running on it end.
func (p *Pool) RetireSFTP(t Target) {
	key := t.Key()
	p.mu.Lock()
	var conns []*conn
	for _, c := range p.conns {
		if c.base == key {
			conns = append(conns, c)
		}
	}
	p.mu.Unlock()
	for _, c := range conns {
		c.sftpMu.Lock()
		stop := c.sftpStop
		c.sftp, c.sftpStop = nil, nil
		c.sftpMu.Unlock()
		if stop != nil {
			stop()
			p.drain(c, errSFTPRetired)
		}
	}
}

// startSFTP asks s for the sftp subsystem and completes the handshake. The
// caller closes s if it fails.
func startSFTP(ctx context.Context, s *ssh.Session) (*sftp.Client, error) {
	stdin, err := s.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := s.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stderr := &headBuffer{max: 512}
	s.Stderr = stderr
	if err := s.RequestSubsystem("sftp"); err != nil {
		// x/crypto reports a refusal as "ssh: subsystem request
		// failed"; a transport error is the connection's.
		if strings.Contains(err.Error(), "request failed") {
			return nil, fmt.Errorf("%w (the server refused the sftp subsystem)", ErrNoSFTP)
		}
		return nil, err
	}
	type result struct {
		c   *sftp.Client
		err error
	}
	done := make(chan result, 1)
	go func() {
		c, err := sftp.NewClientPipe(stdout, stdin)
		done <- result{c, err}
	}()
	timer := time.NewTimer(sftpHandshake)
	defer timer.Stop()
	var why string
	select {
	case r := <-done:
		if r.err == nil {
			return r.c, nil
		}
		s.Close()
		why = fmt.Sprintf("its sftp server ended the handshake: %v", r.err)
	case <-timer.C:
		s.Close()
		if r := <-done; r.c != nil {
			r.c.Close()
		}
		why = fmt.Sprintf("its sftp server did not answer within %v", sftpHandshake)
	case <-ctx.Done():
		s.Close()
		if r := <-done; r.c != nil {
			r.c.Close()
		}
		return nil, ctx.Err()
	}
	if said := stderr.String(); said != "" {
		why += fmt.Sprintf("; it said %q", said)
	}
	return nil, fmt.Errorf("%w (%s)", ErrNoSFTP, why)
}

// closeSession closes s and, if it started, waits a while for the server
// to close it too, so that its slot is not taken again before the server
// is done with it (see holdUntilClosed).
func closeSession(s *ssh.Session) {
	s.Close()
	done := make(chan struct{})
	go func() {
		_ = s.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
	}
}

// headBuffer keeps the first max bytes written to it.
type headBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (h *headBuffer) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if room := h.max - len(h.b); room > 0 {
		h.b = append(h.b, p[:min(room, len(p))]...)
	}
	return len(p), nil
}

func (h *headBuffer) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return strings.TrimSpace(string(h.b))
}
