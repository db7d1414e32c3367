package remotefs

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"github.com/pkg/sftp"
	xssh "golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshpool"
)

// Files is how one host's files are reached: exactly one of SFTP and Exec
// is set, as Transport says.
type Files struct {
	Transport Transport
	SFTP      *sftp.Client
	Exec      *Exec
}

// SFTPPool is what a Picker needs of sshpool.Pool.
type SFTPPool interface {
	Pool
	SFTP(ctx context.Context, t sshpool.Target) (*sftp.Client, error)
}

// probeTimeout bounds the SFTP handshake of a probe; a server that runs
// no SFTP server answers it at once, with an exit or a refusal.
const probeTimeout = 15 * time.Second

// Picker chooses, per host, between SFTP and the exec channel: the host's
// forced transport if it has one, else SFTP when the server offers it.
// The first file call on a host probes it once — an SFTP session of its
// own, closed right after the handshake — and the answer is kept for that
// host and connection target (a host whose address or user changes is
// probed again). It is safe for concurrent use.
type Picker struct {
	pool  SFTPPool
	force func(host string) Transport
	log   *slog.Logger

	mu     sync.Mutex
	chosen map[string]choice // by host name
	// execs holds one Exec per host and connection target, so that the
	// commands of a dropbear host run one at a time across calls.
	execs map[string]*Exec
}

type choice struct {
	key       string // Target.Key() when it was made
	transport Transport
}

// NewPicker returns a Picker over pool. force returns a host's configured
// files_transport ("" or Auto to probe); nil means Auto for every host.
func NewPicker(pool SFTPPool, force func(host string) Transport, log *slog.Logger) *Picker {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if force == nil {
		force = func(string) Transport { return Auto }
	}
	return &Picker{pool: pool, force: force, log: log, chosen: map[string]choice{}, execs: map[string]*Exec{}}
}

// Chosen reports how host's files are reached: its forced transport, the
// one a probe chose, or Auto before the first file call has probed it.
func (p *Picker) Chosen(host string) Transport {
	if f := p.force(host); f == SFTP || f == ExecTransport {
		return f
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.chosen[host]; ok {
		return c.transport
	}
	return Auto
}

// Pick returns how t's files are reached, probing the server on the first
// call for an Auto host.
func (p *Picker) Pick(ctx context.Context, t sshpool.Target) (Files, error) {
	tr := p.force(t.Name)
	if tr != SFTP && tr != ExecTransport {
		tr = p.remembered(t)
	}
	if tr == "" {
		var err error
		tr, err = p.probe(ctx, t)
		if err != nil {
			return Files{}, err
		}
	}
	if tr == ExecTransport {
		return Files{Transport: ExecTransport, Exec: p.exec(t)}, nil
	}
	c, err := p.pool.SFTP(ctx, t)
	if err != nil {
		return Files{}, fmt.Errorf("sftp to %s: %w", t.Name, err)
	}
	return Files{Transport: SFTP, SFTP: c}, nil
}

// exec returns the Exec of t.
func (p *Picker) exec(t sshpool.Target) *Exec {
	key := t.Name + "|" + t.Key()
	p.mu.Lock()
	defer p.mu.Unlock()
	e, ok := p.execs[key]
	if !ok {
		e = NewExec(SSH(p.pool, t))
		p.execs[key] = e
	}
	return e
}

func (p *Picker) remembered(t sshpool.Target) Transport {
	p.mu.Lock()
	defer p.mu.Unlock()
	if c, ok := p.chosen[t.Name]; ok && c.key == t.Key() {
		return c.transport
	}
	return ""
}

// probe asks the server for an SFTP session and completes its handshake.
// A server that refuses the subsystem (OpenSSH without a Subsystem line)
// or whose SFTP server never answers (dropbear without sftp-server, which
// runs the missing program and exits) has none; a connection that fails
// is an error, not an answer.
func (p *Picker) probe(ctx context.Context, t sshpool.Target) (Transport, error) {
	lease, err := p.pool.Acquire(ctx, t)
	if err != nil {
		return "", err
	}
	defer lease.Release()
	why, err := sftpProbe(ctx, lease)
	if err != nil {
		return "", fmt.Errorf("probe sftp on %s: %w", t.Name, err)
	}
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if err := lease.Err(); err != nil {
		return "", fmt.Errorf("probe sftp on %s: %w: %v", t.Name, sshpool.ErrConnLost, err)
	}
	tr := SFTP
	if why != nil {
		if sshpool.OneSessionPerConn(string(lease.Client.ServerVersion())) {
			// Dropbear loses some of the sessions opened after its
			// missing sftp-server exited, however long after: the
			// exec transport starts on a connection of its own.
			lease.Invalidate(errors.New("retired after the sftp probe"))
		}
		tr = ExecTransport
		p.log.Info("host has no SFTP server; its files are reached over the exec channel", "host", t.Name, "reason", why)
	} else {
		p.log.Debug("host serves SFTP", "host", t.Name)
	}
	p.mu.Lock()
	p.chosen[t.Name] = choice{key: t.Key(), transport: tr}
	p.mu.Unlock()
	return tr, nil
}

// sftpProbe returns why the server offers no SFTP, or nil if it does; err
// is a failure to ask at all. It waits for the server to close the probe's
// session before it returns: dropbear 2022.82 to 2024.85 mishandles a
// session opened while another's program is exiting (see SSH), and on a
// router the probe's program (the missing sftp-server) exits at once.
func sftpProbe(ctx context.Context, lease *sshpool.Lease) (why, err error) {
	ch, reqs, release, err := lease.Channel(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		for r := range reqs {
			if r.WantReply {
				_ = r.Reply(false, nil)
			}
		}
	}()
	defer func() {
		ch.Close()
		select {
		case <-closed:
		case <-time.After(5 * time.Second):
		}
	}()
	ok, err := ch.SendRequest("subsystem", true, xssh.Marshal(struct{ Name string }{"sftp"}))
	if err != nil {
		return nil, err
	}
	if !ok {
		return errors.New("the server refused the sftp subsystem"), nil
	}
	go func() { _, _ = io.Copy(io.Discard, ch.Stderr()) }()
	done := make(chan error, 1)
	go func() {
		c, err := sftp.NewClientPipe(ch, ch)
		if err == nil {
			c.Close()
		}
		done <- err
	}()
	ctx, cancel := context.WithTimeout(ctx, probeTimeout)
	defer cancel()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("sftp handshake: %w", err), nil
		}
		return nil, nil
	case <-ctx.Done():
		ch.Close()
		<-done
		return fmt.Errorf("sftp handshake: no answer within %s", probeTimeout), nil
	}
}
