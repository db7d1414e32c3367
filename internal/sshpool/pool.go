// Package sshpool owns warden's SSH connections: the inventory of hosts
// (warden's own plus ~/.ssh/config), host key verification against
// known_hosts, key and agent authentication, and a pool that keeps one
// connection per user@host:port and everything else that decides trust
// (known_hosts files, host key policy, identities, jump hops; see
// Target.Key) — more, of one session each, for a dropbear that loses
// sessions opened side by side (see OneSessionPerConn) — shared by
// concurrent calls, kept alive, redialled when it dies and closed when
// idle. SFTP clients, port forwards and keyscans are built on it.
package sshpool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"sync"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"
)

var (
	// ErrPoolFull is returned when MaxConns connections are open, none of
	// them idle. Callers report it rather than wait: a fan-out wider than
	// the pool is a configuration problem, not a queue.
	ErrPoolFull = errors.New("ssh connection limit reached")
	// ErrPoolClosed is returned after Close.
	ErrPoolClosed = errors.New("ssh pool closed")
	// ErrConnLost is wrapped by errors about a connection that died while
	// in use.
	ErrConnLost = errors.New("ssh connection lost")
	// ErrNoSlot is returned by SpareChannel when opening a session now
	// would leave no slot free.
	ErrNoSlot = errors.New("no spare session slot")
)

// DialFunc opens the TCP connection to a host's first hop. Tests use it to
// watch or refuse dials.
type DialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// Options tunes a Pool. The zero value gives the production behaviour.
type Options struct {
	// Dial opens TCP connections; nil uses net.Dialer.
	Dial DialFunc
	// AgentSocket is the ssh-agent socket (SSH_AUTH_SOCK); empty means no
	// agent.
	AgentSocket string
	// KeepAlive is the interval between keepalive@openssh.com requests on
	// each connection; zero means 15s, negative disables them.
	KeepAlive time.Duration
	// KeepAliveTimeout is how long a keepalive may go unanswered before
	// the connection is declared dead; zero means 15s.
	KeepAliveTimeout time.Duration
	// IdleTimeout closes a connection nobody has used for that long; zero
	// means 10 minutes.
	IdleTimeout time.Duration
	// MaxConns bounds open connections, jump hops included; zero means 64.
	MaxConns int
	// MaxSessions is how many sessions one connection carries at once, as
	// the server's MaxSessions allows (OpenSSH: 10); zero means 10. One of
	// them is kept for control sessions (remote kills). A server that
	// carries one session per connection (OneSessionPerConn) gets up to
	// MaxSessions-1 connections for its runs instead, and one more for
	// kills.
	MaxSessions int
	// ConnectTimeout bounds connect and handshake when the target names
	// none; zero means 15s.
	ConnectTimeout time.Duration
	// Logger receives diagnostics; nil discards them.
	Logger *slog.Logger
	// Now is the clock for idle accounting; nil means time.Now.
	Now func() time.Time
}

// Pool keeps SSH connections. It is safe for concurrent use.
type Pool struct {
	opts Options
	log  *slog.Logger
	now  func() time.Time

	mu    sync.Mutex
	conns map[string]*conn
	// draining holds connections taken out of conns while leased, each
	// with the reason it is closed once its last lease is released.
	draining map[*conn]error
	closed   bool
	dials    uint64
	failures uint64
	seq      uint64        // numbers the extra connections of one target
	wake     chan struct{} // closed and replaced when a one-session slot may have freed

	appendMu sync.Mutex // known_hosts appends
	stop     chan struct{}
	done     chan struct{}
}

// New returns a Pool configured by opts and starts its idle reaper.
func New(opts Options) *Pool {
	if opts.Dial == nil {
		var d net.Dialer
		opts.Dial = d.DialContext
	}
	if opts.KeepAlive == 0 {
		opts.KeepAlive = 15 * time.Second
	}
	if opts.KeepAliveTimeout <= 0 {
		opts.KeepAliveTimeout = 15 * time.Second
	}
	if opts.IdleTimeout <= 0 {
		opts.IdleTimeout = 10 * time.Minute
	}
	if opts.MaxConns <= 0 {
		opts.MaxConns = 64
	}
	if opts.MaxSessions <= 1 {
		opts.MaxSessions = 10
	}
	if opts.ConnectTimeout <= 0 {
		opts.ConnectTimeout = 15 * time.Second
	}
	p := &Pool{
		opts:     opts,
		log:      opts.Logger,
		now:      opts.Now,
		conns:    map[string]*conn{},
		draining: map[*conn]error{},
		wake:     make(chan struct{}),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	if p.log == nil {
		p.log = slog.New(slog.DiscardHandler)
	}
	if p.now == nil {
		p.now = time.Now
	}
	go p.reap()
	return p
}

// conn is one pooled connection, from the start of its dial to its death.
type conn struct {
	key    string // its entry in Pool.conns
	base   string // its target's Key: key itself, or an extra's target
	target Target
	name   string
	ready  chan struct{} // closed when the dial has finished
	err    error         // the dial's error, set before ready closes
	client *ssh.Client
	parent *conn // the jump hop this connection runs through
	// sessions holds the run slots; control the one kept for kills.
	// Both are set before ready closes: one run slot where single.
	sessions chan struct{}
	control  chan struct{}
	// single: the server carries one session at a time (see
	// OneSessionPerConn), so the target may have extra connections.
	single bool

	hostKey     HostKeyStatus
	fingerprint string

	// refs and lastUsed are guarded by Pool.mu.
	refs     int
	lastUsed time.Time

	dead     chan struct{}
	deadOnce sync.Once
	deadErr  error

	sftpMu   sync.Mutex
	sftp     *sftp.Client
	sftpStop func() // ends sftp's session
}

// isReady reports whether c's dial has finished.
func (c *conn) isReady() bool {
	select {
	case <-c.ready:
		return true
	default:
		return false
	}
}

// isDead reports whether c has died.
func (c *conn) isDead() bool {
	select {
	case <-c.dead:
		return true
	default:
		return false
	}
}

// Lease is a connection in use. The pool does not close a leased
// connection for idleness; Release it when done.
//
// On a server that carries one session per connection (see
// OneSessionPerConn), Channel and Session may move the lease to another
// connection of the same target, one with its session free: Client, Dead,
// Err, Ping, Invalidate and ControlChannel then follow the connection the
// new session runs on. Read Client after opening the session, not from
// another goroutine meanwhile.
type Lease struct {
	// Client is the connection; it stays valid until the connection dies.
	Client *ssh.Client
	p      *Pool
	once   sync.Once

	mu sync.Mutex
	c  *conn // guarded by mu
}

// conn returns the connection l holds now.
func (l *Lease) conn() *conn {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.c
}

// move makes l hold c, on which the caller has taken a reference, and
// drops its reference on the one it held.
func (l *Lease) move(c *conn) {
	l.mu.Lock()
	old := l.c
	l.c = c
	l.Client = c.client
	l.mu.Unlock()
	l.p.release(old)
}

// Retain returns a second lease on the same connection, for work that
// outlives this one's Release.
func (l *Lease) Retain() *Lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.p.mu.Lock()
	l.c.refs++
	l.p.mu.Unlock()
	return &Lease{Client: l.Client, c: l.c, p: l.p}
}

// Release returns the connection to the pool. It is safe to call twice.
func (l *Lease) Release() { l.once.Do(func() { l.p.release(l.conn()) }) }

// Dead is closed when the connection dies.
func (l *Lease) Dead() <-chan struct{} { return l.conn().dead }

// Err returns why the connection died, or nil while it lives.
func (l *Lease) Err() error {
	c := l.conn()
	if !c.isDead() {
		return nil
	}
	return c.deadErr
}

// Invalidate closes the connection, so that the next call redials. Use it
// when the connection misbehaves in a way the pool cannot see.
func (l *Lease) Invalidate(why error) { l.p.kill(l.conn(), why) }

// Ping sends a keepalive and returns the round trip, or an error if the
// connection does not answer within the keepalive timeout.
func (l *Lease) Ping(ctx context.Context) (time.Duration, error) {
	return l.p.ping(ctx, l.conn())
}

// Channel opens a "session" channel, waiting for a free session slot or
// ctx. The returned release frees the slot; call it after closing the
// channel.
func (l *Lease) Channel(ctx context.Context) (ssh.Channel, <-chan *ssh.Request, func(), error) {
	c, release, err := l.runSlot(ctx)
	if err != nil {
		return nil, nil, nil, err
	}
	return l.openIn(ctx, c, release)
}

// SpareChannel is Channel for a session opened ahead of need. It does not
// wait, and it takes a slot only if another stays free, so that a session
// kept idle for a later call never makes a call wait for a slot; it
// returns ErrNoSlot otherwise (always, on a connection of one session).
func (l *Lease) SpareChannel(ctx context.Context) (ssh.Channel, <-chan *ssh.Request, func(), error) {
	c := l.conn()
	select {
	case c.sessions <- struct{}{}:
	default:
		return nil, nil, nil, ErrNoSlot
	}
	release := l.p.slotRelease(c, c.sessions)
	if len(c.sessions) == cap(c.sessions) {
		release()
		return nil, nil, nil, ErrNoSlot
	}
	return l.openIn(ctx, c, release)
}

// ControlChannel is Channel on the slot kept for control sessions, such as
// killing a command whose run has used every other slot.
// On a server of one session per connection it is opened on another
// connection to the target (see OneSessionPerConn).
func (l *Lease) ControlChannel(ctx context.Context) (ssh.Channel, <-chan *ssh.Request, func(), error) {
	c := l.conn()
	if c.single {
		x, release, err := l.controlSlot(ctx)
		if err != nil {
			return nil, nil, nil, err
		}
		return l.openIn(ctx, x, release)
	}
	release, err := l.slot(ctx, c, c.control)
	if err != nil {
		return nil, nil, nil, err
	}
	return l.openIn(ctx, c, release)
}

// Session opens an *ssh.Session on a session slot, for callers that want
// the library's conveniences (PTYs, shells). release frees the slot; call
// it after closing the session.
func (l *Lease) Session(ctx context.Context) (*ssh.Session, func(), error) {
	c, release, err := l.runSlot(ctx)
	if err != nil {
		return nil, nil, err
	}
	var s *ssh.Session
	err = l.retryOpen(ctx, c, func() (err error) {
		s, err = c.client.NewSession()
		return err
	})
	if err != nil {
		release()
		return nil, nil, err
	}
	return s, release, nil
}

// runSlot takes a session slot for a command: on the lease's connection,
// waiting for one to free, or on a server of one session per connection
// on whichever connection of the target has its session free.
func (l *Lease) runSlot(ctx context.Context) (*conn, func(), error) {
	c := l.conn()
	if c.single {
		return l.singleSlot(ctx)
	}
	release, err := l.slot(ctx, c, c.sessions)
	return c, release, err
}

// openIn opens a session channel on c in a slot already taken, freeing
// the slot with release if it cannot.
func (l *Lease) openIn(ctx context.Context, c *conn, release func()) (ssh.Channel, <-chan *ssh.Request, func(), error) {
	var (
		ch   ssh.Channel
		reqs <-chan *ssh.Request
	)
	err := l.retryOpen(ctx, c, func() (err error) {
		ch, reqs, err = c.client.OpenChannel("session", nil)
		return err
	})
	if err != nil {
		release()
		return nil, nil, nil, err
	}
	if c.single {
		reqs, release = l.p.holdUntilClosed(c, reqs, release)
	}
	return ch, reqs, release, nil
}

// retryOpen calls open until it succeeds, ctx ends or the server refuses
// for a reason other than a full session table. The server frees a
// session only once both sides have closed its channel, a moment after
// the slot here is released, so a refusal right then is worth a retry.
func (l *Lease) retryOpen(ctx context.Context, c *conn, open func() error) error {
	delay := 2 * time.Millisecond
	for attempt := 0; ; attempt++ {
		err := open()
		var oce *ssh.OpenChannelError
		if err == nil || !errors.As(err, &oce) || attempt >= 20 {
			if err != nil {
				return l.p.sessionError(c, err)
			}
			return nil
		}
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return fmt.Errorf("open session on %s: %w (last refusal: %v)", c.name, ctx.Err(), err)
		}
		delay = min(2*delay, 100*time.Millisecond)
	}
}

// slot takes one of slots, c's, waiting for it to free.
func (l *Lease) slot(ctx context.Context, c *conn, slots chan struct{}) (func(), error) {
	select {
	case slots <- struct{}{}:
		return l.p.slotRelease(c, slots), nil
	case <-c.dead:
		return nil, fmt.Errorf("open session on %s: %w: %v", c.name, ErrConnLost, c.deadErr)
	case <-ctx.Done():
		return nil, fmt.Errorf("open session on %s: waiting for a free session: %w", c.name, ctx.Err())
	}
}

// sessionError explains a failed channel open. A server that refuses a
// channel is alive; a transport that fails is not, and the connection is
// dropped so the next call redials.
func (p *Pool) sessionError(c *conn, err error) error {
	var open *ssh.OpenChannelError
	if errors.As(err, &open) {
		return fmt.Errorf("open session on %s: %w", c.name, err)
	}
	p.kill(c, err)
	return fmt.Errorf("open session on %s: %w: %v", c.name, ErrConnLost, err)
}

// Acquire returns a lease on the connection for t, dialling it (and its
// jump hops) if none is open. Concurrent callers for one target share one
// dial. A caller whose ctx ends stops waiting; the dial itself continues,
// bounded by the connect timeout, for the others.
func (p *Pool) Acquire(ctx context.Context, t Target) (*Lease, error) {
	c, err := p.get(ctx, t)
	if err != nil {
		return nil, err
	}
	return &Lease{Client: c.client, c: c, p: p}, nil
}

// Client returns the shared client for t. It does not hold the connection
// against idle closing; long-lived users should Acquire instead.
func (p *Pool) Client(ctx context.Context, t Target) (*ssh.Client, error) {
	l, err := p.Acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	l.Release()
	return l.Client, nil
}

// Stats is a snapshot of the pool for metrics.
type Stats struct {
	// Open counts live connections, jump hops included.
	Open int
	// Dialing counts dials in progress.
	Dialing int
	// Leased counts connections with at least one lease.
	Leased int
	// Dials and DialFailures count since the pool started.
	Dials, DialFailures uint64
}

// Stats reports the pool's current state.
func (p *Pool) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	s := Stats{Dials: p.dials, DialFailures: p.failures}
	for _, c := range p.conns {
		select {
		case <-c.ready:
			if c.err == nil && !c.isDead() {
				s.Open++
				if c.refs > 0 {
					s.Leased++
				}
			}
		default:
			s.Dialing++
		}
	}
	return s
}

// Close closes every connection. Calls after Close fail with ErrPoolClosed.
func (p *Pool) Close() error {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil
	}
	p.closed = true
	conns := make([]*conn, 0, len(p.conns)+len(p.draining))
	for _, c := range p.conns {
		conns = append(conns, c)
	}
	for c := range p.draining {
		conns = append(conns, c)
	}
	p.mu.Unlock()
	close(p.stop)
	<-p.done
	for _, c := range conns {
		select {
		case <-c.ready:
			p.kill(c, ErrPoolClosed)
		default:
			// The dial sees p.closed when it finishes and closes itself.
		}
	}
	return nil
}

// get returns a ready connection for t with a reference held.
func (p *Pool) get(ctx context.Context, t Target) (*conn, error) {
	key := t.Key()
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, ErrPoolClosed
	}
	c := p.conns[key]
	if c != nil && c.isDead() {
		delete(p.conns, key)
		c = nil
	}
	if c == nil {
		c = p.extraLocked(key)
	}
	if c == nil {
		if len(p.conns) >= p.opts.MaxConns && !p.evictIdleLocked() {
			p.mu.Unlock()
			return nil, fmt.Errorf("connect to %s: %w (%d open, none idle)", t.Name, ErrPoolFull, p.opts.MaxConns)
		}
		c = p.newConnLocked(key, t)
		go p.dial(ctx, c, t)
	}
	c.refs++
	p.mu.Unlock()

	select {
	case <-c.ready:
	case <-ctx.Done():
		p.release(c)
		return nil, fmt.Errorf("connect to %s: %w", t.Name, ctx.Err())
	}
	if c.err != nil {
		p.release(c)
		return nil, c.err
	}
	if c.isDead() {
		p.release(c)
		return nil, fmt.Errorf("connect to %s: %w: %v", t.Name, ErrConnLost, c.deadErr)
	}
	return c, nil
}

// evictIdleLocked closes the least recently used unleased connection to
// make room, reporting whether it found one.
func (p *Pool) evictIdleLocked() bool {
	var victim *conn
	for _, c := range p.conns {
		select {
		case <-c.ready:
		default:
			continue
		}
		if c.refs == 0 && (victim == nil || c.lastUsed.Before(victim.lastUsed)) {
			victim = c
		}
	}
	if victim == nil {
		return false
	}
	delete(p.conns, victim.key)
	go p.kill(victim, errors.New("closed to make room for another connection"))
	return true
}

func (p *Pool) release(c *conn) {
	p.mu.Lock()
	c.refs--
	c.lastUsed = p.now()
	why, drained := p.draining[c]
	drained = drained && c.refs == 0
	p.mu.Unlock()
	if drained {
		go p.kill(c, why)
	}
}

// drain takes c out of the pool, so that the next call to its target dials
// another connection, and closes c once its last lease is released: the
// commands and sessions running on it go on.
func (p *Pool) drain(c *conn, why error) {
	p.mu.Lock()
	if p.conns[c.key] == c {
		delete(p.conns, c.key)
	}
	idle := c.refs == 0
	if !idle {
		p.draining[c] = why
	}
	p.mu.Unlock()
	if idle {
		p.kill(c, why)
	}
}

// kill marks c dead, closes it and forgets it; the first reason wins.
func (p *Pool) kill(c *conn, why error) {
	c.deadOnce.Do(func() {
		c.deadErr = why
		close(c.dead)
		p.mu.Lock()
		if p.conns[c.key] == c {
			delete(p.conns, c.key)
		}
		delete(p.draining, c)
		p.mu.Unlock()
		if c.client != nil {
			c.client.Close()
		}
		if c.parent != nil {
			p.release(c.parent)
		}
		if why != nil && !errors.Is(why, ErrPoolClosed) {
			p.log.Debug("ssh connection closed", "conn", c.key, "reason", why)
		}
		p.notify()
	})
}

// reap closes connections that have been idle longer than IdleTimeout.
func (p *Pool) reap() {
	defer close(p.done)
	every := min(p.opts.IdleTimeout/4, 30*time.Second)
	every = max(every, 10*time.Millisecond)
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-tick.C:
		}
		now := p.now()
		var idle []*conn
		p.mu.Lock()
		for _, c := range p.conns {
			select {
			case <-c.ready:
			default:
				continue
			}
			if c.refs == 0 && now.Sub(c.lastUsed) >= p.opts.IdleTimeout {
				idle = append(idle, c)
			}
		}
		p.mu.Unlock()
		for _, c := range idle {
			p.kill(c, errors.New("idle"))
		}
	}
}

// ping sends one keepalive@openssh.com request and times the answer.
// OpenSSH answers unknown global requests with a failure, which still
// proves the connection alive.
func (p *Pool) ping(ctx context.Context, c *conn) (time.Duration, error) {
	start := time.Now()
	done := make(chan error, 1)
	go func() {
		_, _, err := c.client.SendRequest("keepalive@openssh.com", true, nil)
		done <- err
	}()
	timer := time.NewTimer(p.opts.KeepAliveTimeout)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			return 0, fmt.Errorf("keepalive: %w", err)
		}
		return time.Since(start), nil
	case <-timer.C:
		return 0, fmt.Errorf("keepalive: no answer within %v", p.opts.KeepAliveTimeout)
	case <-ctx.Done():
		return 0, ctx.Err()
	}
}

// watch marks c dead when its transport ends or stops answering
// keepalives.
func (p *Pool) watch(c *conn) {
	go func() {
		err := c.client.Wait()
		if err == nil {
			err = errors.New("closed by the server")
		}
		p.kill(c, err)
	}()
	if p.opts.KeepAlive < 0 {
		return
	}
	tick := time.NewTicker(p.opts.KeepAlive)
	defer tick.Stop()
	for {
		select {
		case <-c.dead:
			return
		case <-tick.C:
		}
		if _, err := p.ping(context.Background(), c); err != nil {
			p.kill(c, err)
			return
		}
	}
}
