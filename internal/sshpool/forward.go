package sshpool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"sync"
	"time"
)

// ForwardKind is the direction of a port forward, as in ssh -L, -R, -D.
type ForwardKind string

const (
	ForwardLocal   ForwardKind = "local"
	ForwardRemote  ForwardKind = "remote"
	ForwardDynamic ForwardKind = "dynamic"
)

// DefaultForwardBind is where local and dynamic forwards listen when the
// caller names no address: loopback, any free port.
const DefaultForwardBind = "127.0.0.1:0"

// maxForwardConns bounds the connections one forward carries at once;
// more are refused.
const maxForwardConns = 64

// dialTimeout bounds each connection a forward opens on the far side.
const dialTimeout = 15 * time.Second

// Forward is an open port forward. Counting and limiting forwards is the
// caller's job; a Forward bounds only its own connections.
type Forward struct {
	Kind ForwardKind
	// To is the address connections are carried to; for a dynamic
	// forward, empty (each SOCKS request names its own).
	To string

	ln    net.Listener
	done  chan struct{}
	once  sync.Once
	mu    sync.Mutex
	conns map[net.Conn]struct{}
	wg    sync.WaitGroup
	stop  func() // releases what the forward holds (a lease)
}

// Addr is where the forward accepts connections: a local address for
// local and dynamic forwards, the remote listener's for a remote one.
func (f *Forward) Addr() net.Addr { return f.ln.Addr() }

// Done is closed when the forward has stopped, by Close or because its
// connection died.
func (f *Forward) Done() <-chan struct{} { return f.done }

// Close stops accepting, cuts every carried connection and waits for them.
func (f *Forward) Close() error {
	f.shutdown()
	f.wg.Wait()
	return nil
}

func (f *Forward) shutdown() {
	f.once.Do(func() {
		close(f.done)
		f.ln.Close()
		f.mu.Lock()
		for c := range f.conns {
			c.Close()
		}
		f.mu.Unlock()
		if f.stop != nil {
			f.stop()
		}
	})
}

func newForward(kind ForwardKind, to string, ln net.Listener) *Forward {
	return &Forward{Kind: kind, To: to, ln: ln, done: make(chan struct{}), conns: map[net.Conn]struct{}{}}
}

// track registers c for Close; it reports false (and closes c) when the
// forward is full or stopped.
func (f *Forward) track(c net.Conn) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	select {
	case <-f.done:
		c.Close()
		return false
	default:
	}
	if len(f.conns) >= maxForwardConns {
		c.Close()
		return false
	}
	f.conns[c] = struct{}{}
	return true
}

func (f *Forward) untrack(cs ...net.Conn) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range cs {
		delete(f.conns, c)
		c.Close()
	}
}

// serve accepts until the listener closes, handing each connection to
// handle on its own goroutine.
func (f *Forward) serve(handle func(net.Conn)) {
	f.wg.Add(1)
	go func() {
		defer f.wg.Done()
		defer f.shutdown()
		for {
			c, err := f.ln.Accept()
			if err != nil {
				return
			}
			if !f.track(c) {
				continue
			}
			f.wg.Add(1)
			go func() {
				defer f.wg.Done()
				handle(c)
			}()
		}
	}()
}

// LocalForward listens on bindAddr (DefaultForwardBind when empty) and
// carries each connection to remoteAddr as dialled from t, like ssh -L.
// Each connection leases t's pooled connection, so a forward survives a
// redial.
func (p *Pool) LocalForward(ctx context.Context, t Target, bindAddr, remoteAddr string) (*Forward, error) {
	if err := validateHostPort(remoteAddr); err != nil {
		return nil, fmt.Errorf("local forward: %w", err)
	}
	// Connect now, so a host that cannot be reached fails the call.
	if _, err := p.Client(ctx, t); err != nil {
		return nil, err
	}
	ln, err := listenLocal(bindAddr)
	if err != nil {
		return nil, fmt.Errorf("local forward: %w", err)
	}
	f := newForward(ForwardLocal, remoteAddr, ln)
	f.serve(func(c net.Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
		defer cancel()
		l, err := p.Acquire(ctx, t)
		if err != nil {
			p.log.Debug("local forward: connect", "host", t.Name, "err", err)
			f.untrack(c)
			return
		}
		defer l.Release()
		far, err := l.Client.DialContext(ctx, "tcp", remoteAddr)
		if err != nil {
			p.log.Debug("local forward: dial", "host", t.Name, "to", remoteAddr, "err", err)
			f.untrack(c)
			return
		}
		f.pipe(c, far)
	})
	return f, nil
}

// RemoteForward asks t to listen on remoteBind and carries each connection
// it accepts to localAddr dialled from here, like ssh -R. The forward ends
// with t's connection; open it again after a redial.
func (p *Pool) RemoteForward(ctx context.Context, t Target, remoteBind, localAddr string) (*Forward, error) {
	if err := validateHostPort(localAddr); err != nil {
		return nil, fmt.Errorf("remote forward: %w", err)
	}
	if err := validateHostPort(remoteBind); err != nil {
		return nil, fmt.Errorf("remote forward: %w", err)
	}
	l, err := p.Acquire(ctx, t)
	if err != nil {
		return nil, err
	}
	ln, err := l.Client.Listen("tcp", remoteBind)
	if err != nil {
		l.Release()
		return nil, fmt.Errorf("remote forward on %s %s: %w", t.Name, remoteBind, err)
	}
	f := newForward(ForwardRemote, localAddr, ln)
	f.stop = l.Release
	go func() {
		select {
		case <-l.Dead():
			f.shutdown()
		case <-f.done:
		}
	}()
	f.serve(func(c net.Conn) {
		d := net.Dialer{Timeout: dialTimeout}
		near, err := d.Dial("tcp", localAddr)
		if err != nil {
			p.log.Debug("remote forward: dial", "to", localAddr, "err", err)
			f.untrack(c)
			return
		}
		f.pipe(c, near)
	})
	return f, nil
}

// DynamicForward listens on bindAddr (DefaultForwardBind when empty) as a
// SOCKS5 proxy whose connections are dialled from t, like ssh -D. Only
// CONNECT without authentication is supported. allow, when set, is asked
// about each destination (host:port) before it is dialled: the
// destinations are chosen after the forward was admitted, one connection
// at a time, so this is where host rules reach them.
func (p *Pool) DynamicForward(ctx context.Context, t Target, bindAddr string, allow func(addr string) error) (*Forward, error) {
	if _, err := p.Client(ctx, t); err != nil {
		return nil, err
	}
	ln, err := listenLocal(bindAddr)
	if err != nil {
		return nil, fmt.Errorf("dynamic forward: %w", err)
	}
	f := newForward(ForwardDynamic, "", ln)
	f.serve(func(c net.Conn) {
		ctx, cancel := context.WithTimeout(context.Background(), dialTimeout)
		defer cancel()
		_ = c.SetDeadline(time.Now().Add(dialTimeout))
		to, err := socksRequest(c)
		if err != nil {
			p.log.Debug("dynamic forward: socks", "err", err)
			f.untrack(c)
			return
		}
		if allow != nil {
			if err := allow(to); err != nil {
				p.log.Warn("dynamic forward: destination refused", "host", t.Name, "to", to, "err", err)
				_, _ = c.Write(socksReply(socksNotAllowed))
				f.untrack(c)
				return
			}
		}
		var far net.Conn
		l, err := p.Acquire(ctx, t)
		if err == nil {
			defer l.Release()
			far, err = l.Client.DialContext(ctx, "tcp", to)
		}
		if err != nil {
			p.log.Debug("dynamic forward: dial", "host", t.Name, "to", to, "err", err)
			_, _ = c.Write(socksReply(socksRefused))
			f.untrack(c)
			return
		}
		if _, err := c.Write(socksReply(socksOK)); err != nil {
			f.untrack(c, far)
			return
		}
		_ = c.SetDeadline(time.Time{})
		f.pipe(c, far)
	})
	return f, nil
}

func listenLocal(bindAddr string) (net.Listener, error) {
	if bindAddr == "" {
		bindAddr = DefaultForwardBind
	}
	if err := validateHostPort(bindAddr); err != nil {
		return nil, err
	}
	return net.Listen("tcp", bindAddr)
}

// pipe copies both ways until both sides are done, passing half-closes
// on, then closes both.
func (f *Forward) pipe(a, b net.Conn) {
	if !f.track(b) {
		f.untrack(a)
		return
	}
	var wg sync.WaitGroup
	wg.Add(2)
	cp := func(dst, src net.Conn) {
		defer wg.Done()
		_, _ = io.Copy(dst, src)
		if cw, ok := dst.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		} else {
			dst.Close()
		}
	}
	go cp(a, b)
	go cp(b, a)
	wg.Wait()
	f.untrack(a, b)
}

func validateHostPort(addr string) error {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Errorf("address %q: %w", printable(addr), err)
	}
	if host != "" {
		if err := ValidateHost(host); err != nil {
			return err
		}
	}
	n, err := strconv.Atoi(port)
	if err != nil || n < 0 || n > 65535 {
		return fmt.Errorf("address %q: bad port: %w", printable(addr), ErrInvalidName)
	}
	return nil
}

// SOCKS5 reply codes used here (RFC 1928).
const (
	socksOK         = 0x00
	socksNotAllowed = 0x02 // connection not allowed by ruleset
	socksRefused    = 0x05
)

var errSocks = errors.New("socks5")

// socksRequest reads a SOCKS5 greeting and CONNECT request from c and
// returns the address asked for.
func socksRequest(c net.Conn) (string, error) {
	var hdr [2]byte
	if _, err := io.ReadFull(c, hdr[:]); err != nil {
		return "", err
	}
	if hdr[0] != 5 {
		return "", fmt.Errorf("%w: version %d", errSocks, hdr[0])
	}
	methods := make([]byte, hdr[1])
	if _, err := io.ReadFull(c, methods); err != nil {
		return "", err
	}
	noAuth := false
	for _, m := range methods {
		noAuth = noAuth || m == 0
	}
	if !noAuth {
		_, _ = c.Write([]byte{5, 0xff})
		return "", fmt.Errorf("%w: client offers no unauthenticated method", errSocks)
	}
	if _, err := c.Write([]byte{5, 0}); err != nil {
		return "", err
	}
	var req [4]byte
	if _, err := io.ReadFull(c, req[:]); err != nil {
		return "", err
	}
	if req[0] != 5 || req[1] != 1 {
		_, _ = c.Write(socksReply(0x07))
		return "", fmt.Errorf("%w: only CONNECT is supported", errSocks)
	}
	var host string
	switch req[3] {
	case 1, 4:
		ip := make(net.IP, 4)
		if req[3] == 4 {
			ip = make(net.IP, 16)
		}
		if _, err := io.ReadFull(c, ip); err != nil {
			return "", err
		}
		host = ip.String()
	case 3:
		var n [1]byte
		if _, err := io.ReadFull(c, n[:]); err != nil {
			return "", err
		}
		name := make([]byte, n[0])
		if _, err := io.ReadFull(c, name); err != nil {
			return "", err
		}
		host = string(name)
		if err := ValidateHost(host); err != nil {
			_, _ = c.Write(socksReply(0x01))
			return "", err
		}
	default:
		_, _ = c.Write(socksReply(0x08))
		return "", fmt.Errorf("%w: address type %d", errSocks, req[3])
	}
	var port [2]byte
	if _, err := io.ReadFull(c, port[:]); err != nil {
		return "", err
	}
	return net.JoinHostPort(host, strconv.Itoa(int(port[0])<<8|int(port[1]))), nil
}

func socksReply(code byte) []byte {
	return []byte{5, code, 0, 1, 0, 0, 0, 0, 0, 0}
}
