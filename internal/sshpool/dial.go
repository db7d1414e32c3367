package sshpool

import (
	"context"
	"errors"
	"fmt"
	"net"

	"golang.org/x/crypto/ssh"
)

// Stage names the step of a dial that failed.
type Stage string

const (
	// StageJump: a ProxyJump hop could not be reached.
	StageJump Stage = "jump"
	// StageConnect: the TCP connection (direct or through the last hop)
	// failed or timed out.
	StageConnect Stage = "connect"
	// StageHandshake: the SSH handshake failed before the host key was
	// checked.
	StageHandshake Stage = "handshake"
	// StageHostKey: the host key is unknown or changed; the error wraps a
	// *HostKeyError.
	StageHostKey Stage = "host-key"
	// StageAuth: the host key was verified but no key was accepted.
	StageAuth Stage = "auth"
)

// clientVersion is the SSH identification warden sends.
const clientVersion = "SSH-2.0-warden"

// DialError is a failed connection to a target. Its message is fit for the
// agent: it names the host and the step that failed, never key material.
type DialError struct {
	Name  string
	Addr  string
	Stage Stage
	Err   error
}

func (e *DialError) Error() string {
	switch e.Stage {
	case StageJump:
		return fmt.Sprintf("connect to %s: jump host unreachable: %v", e.Name, e.Err)
	case StageHostKey:
		return fmt.Sprintf("connect to %s: %v", e.Name, e.Err)
	case StageAuth:
		return fmt.Sprintf("connect to %s (%s): authentication failed: %v", e.Name, e.Addr, e.Err)
	}
	return fmt.Sprintf("connect to %s (%s): %s: %v", e.Name, e.Addr, e.Stage, e.Err)
}

func (e *DialError) Unwrap() error { return e.Err }

// dial connects c to t and publishes the outcome on c.ready. It runs on its
// own goroutine, bounded by the connect timeout rather than by the caller
// that started it, since others may be waiting for the same connection.
func (p *Pool) dial(callerCtx context.Context, c *conn, t Target) {
	timeout := t.ConnectTimeout
	if timeout <= 0 {
		timeout = p.opts.ConnectTimeout
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(callerCtx), timeout)
	defer cancel()
	client, parent, hk, err := p.connect(ctx, t)

	p.mu.Lock()
	closed := p.closed
	if err != nil {
		p.failures++
	}
	p.mu.Unlock()
	if err == nil && closed {
		client.Close()
		if parent != nil {
			p.release(parent)
		}
		err = ErrPoolClosed
	}
	if err != nil {
		c.err = err
		p.kill(c, err)
		close(c.ready)
		return
	}
	c.client = client
	c.parent = parent
	c.hostKey = hk.status
	c.fingerprint = ssh.FingerprintSHA256(hk.offered)
	if OneSessionPerConn(string(client.ServerVersion())) {
		c.single = true
		c.sessions = make(chan struct{}, 1)
		p.log.Debug("server carries one session per connection; its target gets more connections instead", "host", c.name, "version", string(client.ServerVersion()))
	}
	close(c.ready)
	if c.single {
		p.notify()
	}
	go p.watch(c)
}

// connect dials t, through its jump hops if it has any, verifies the host
// key and authenticates. parent is the last hop's connection, referenced
// for as long as the new one lives.
func (p *Pool) connect(ctx context.Context, t Target) (client *ssh.Client, parent *conn, hk *hostKeyCheck, err error) {
	fail := func(stage Stage, err error) (*ssh.Client, *conn, *hostKeyCheck, error) {
		if parent != nil {
			p.release(parent)
		}
		return nil, nil, hk, &DialError{Name: t.Name, Addr: t.Addr(), Stage: stage, Err: err}
	}
	hk, err = newHostKeyCheck(t, &p.appendMu)
	if err != nil {
		return fail(StageHostKey, err)
	}
	signers, agentConn, err := p.signers(t)
	if err != nil {
		return fail(StageAuth, err)
	}
	defer agentConn.Close()

	var nc net.Conn
	if len(t.Jump) > 0 {
		parent, err = p.get(ctx, t.hop(len(t.Jump)-1))
		if err != nil {
			return fail(StageJump, err)
		}
		nc, err = parent.client.DialContext(ctx, "tcp", t.Addr())
		if err != nil {
			return fail(StageConnect, fmt.Errorf("through %s: %w", parent.name, err))
		}
	} else {
		nc, err = p.opts.Dial(ctx, "tcp", t.Addr())
		if err != nil {
			return fail(StageConnect, err)
		}
	}

	cfg := &ssh.ClientConfig{
		User:              t.User,
		Auth:              []ssh.AuthMethod{ssh.PublicKeys(signers...)},
		HostKeyCallback:   hk.callback,
		HostKeyAlgorithms: hk.algorithms(),
		ClientVersion:     clientVersion,
	}
	// NewClientConn takes no context: closing the connection is what
	// interrupts a handshake that outlives the deadline.
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	sc, chans, reqs, err := ssh.NewClientConn(nc, t.Addr(), cfg)
	interrupted := !stop()
	if err != nil {
		nc.Close()
		var hke *HostKeyError
		switch {
		case errors.As(err, &hke):
			return fail(StageHostKey, hke)
		case hk.status == HostKeyKnown || hk.status == HostKeyAdded:
			if interrupted {
				return fail(StageAuth, fmt.Errorf("timed out: %w", ctx.Err()))
			}
			return fail(StageAuth, fmt.Errorf("as %s, none of %d keys was accepted: %w", t.User, len(signers), err))
		case interrupted:
			return fail(StageConnect, fmt.Errorf("handshake timed out: %w", ctx.Err()))
		}
		return fail(StageHandshake, err)
	}
	return ssh.NewClient(sc, chans, reqs), parent, hk, nil
}
