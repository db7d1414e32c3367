package edge

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"
)

// SourceOptions configures the per-source controls.
type SourceOptions struct {
	// Allowed, when non-empty, is the only client prefixes served; other
	// connections are closed on accept.
	Allowed []netip.Prefix
	// MaxConns caps concurrent connections from one address.
	MaxConns int
	// Rate caps requests per second from one address (Burst at once);
	// 0 = no cap.
	Rate  float64
	Burst int
	// More than MaxFailures rejected tokens from one address within
	// Window lock it out for Duration.
	MaxFailures int
	Window      time.Duration
	Duration    time.Duration
	// OnLock and OnUnlock are told of every change to the lockout table
	// (warden audits them). They run outside the table's lock.
	OnLock   func(Lock)
	OnUnlock func(addr, why string)
	OnEvent  func(Event)
	Now      func() time.Time
	Logger   *slog.Logger
}

// Lock is one entry of the lockout table.
type Lock struct {
	Addr     string    `json:"addr"`
	Since    time.Time `json:"since"`
	Until    time.Time `json:"until"`
	Failures int       `json:"failures"`
}

// Sources is the edge's firewall: a source allowlist, a brute-force
// lockout table (the analogue of a firewall's overload table), and caps
// on concurrent connections and request rate, all per client address.
// A locked address has its connections closed and new ones refused on
// accept, whatever token they carry.
type Sources struct {
	o SourceOptions

	mu     sync.Mutex
	conns  map[netip.Addr]map[*srcConn]struct{}
	fails  map[netip.Prefix][]time.Time
	locks  map[netip.Prefix]Lock
	limits map[netip.Addr]*limiter
}

type limiter struct {
	lim  *rate.Limiter
	seen time.Time
}

// maxTracked bounds the failure and rate tables; above it, stale entries
// are pruned.
const maxTracked = 4096

// NewSources returns the controls for o.
func NewSources(o SourceOptions) *Sources {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	return &Sources{
		o:      o,
		conns:  map[netip.Addr]map[*srcConn]struct{}{},
		fails:  map[netip.Prefix][]time.Time{},
		locks:  map[netip.Prefix]Lock{},
		limits: map[netip.Addr]*limiter{},
	}
}

func (s *Sources) event(e Event) {
	if s.o.OnEvent != nil {
		s.o.OnEvent(e)
	}
}

// allowed reports whether addr is in the allowlist (or there is none).
func (s *Sources) allowed(a netip.Addr) bool {
	if len(s.o.Allowed) == 0 {
		return true
	}
	return slices.ContainsFunc(s.o.Allowed, func(p netip.Prefix) bool { return p.Contains(a) })
}

// lockKey is what the lockout table counts failures against: an IPv4
// address, or the /64 an IPv6 address is in. One IPv6 host is given a /64
// to pick its addresses from, so counting per address would let it guess
// 2^64 times as often.
func lockKey(a netip.Addr) netip.Prefix {
	if a.Is6() && !a.IsLoopback() {
		p, _ := a.Prefix(64)
		return p
	}
	return netip.PrefixFrom(a, a.BitLen())
}

// keyString is how a lockout key is shown: a bare address, or a /64.
func keyString(k netip.Prefix) string {
	if k.IsSingleIP() {
		return k.Addr().String()
	}
	return k.String()
}

// lockedLocked reports whether a is locked out now, expiring its entry
// when its time is up; expired collects the sources unlocked so.
func (s *Sources) lockedLocked(a netip.Addr, expired *[]string) bool {
	return s.keyLockedLocked(lockKey(a), expired)
}

func (s *Sources) keyLockedLocked(k netip.Prefix, expired *[]string) bool {
	l, ok := s.locks[k]
	if !ok {
		return false
	}
	if s.o.Now().Before(l.Until) {
		return true
	}
	delete(s.locks, k)
	*expired = append(*expired, keyString(k))
	return false
}

func (s *Sources) unlocked(addrs []string, why string) {
	for _, a := range addrs {
		s.o.Logger.Info("source unlocked", "addr", a, "why", why)
		if s.o.OnUnlock != nil {
			s.o.OnUnlock(a, why)
		}
	}
}

// Listener wraps ln so that connections from sources outside the
// allowlist, locked out, or over their connection cap are closed on accept.
func (s *Sources) Listener(ln net.Listener) net.Listener { return &srcListener{Listener: ln, s: s} }

type srcListener struct {
	net.Listener
	s *Sources
}

func (l *srcListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if tc, ev := l.s.admit(c); tc != nil {
			return tc, nil
		} else {
			c.Close()
			l.s.event(ev)
		}
	}
}

// admit tracks an accepted connection, or says why it is refused.
func (s *Sources) admit(c net.Conn) (*srcConn, Event) {
	a := addrOf(c.RemoteAddr().String())
	var expired []string
	defer func() { s.unlocked(expired, "expired") }()
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case !s.allowed(a):
		return nil, EventSourceRefused
	case s.lockedLocked(a, &expired):
		return nil, EventLocked
	case len(s.conns[a]) >= s.o.MaxConns && s.o.MaxConns > 0:
		return nil, EventConnCap
	}
	tc := &srcConn{Conn: c, s: s, addr: a}
	if s.conns[a] == nil {
		s.conns[a] = map[*srcConn]struct{}{}
	}
	s.conns[a][tc] = struct{}{}
	return tc, ""
}

// srcConn is a tracked connection; closing it untracks it.
type srcConn struct {
	net.Conn
	s    *Sources
	addr netip.Addr
	once sync.Once
}

func (c *srcConn) Close() error {
	c.once.Do(func() {
		c.s.mu.Lock()
		delete(c.s.conns[c.addr], c)
		if len(c.s.conns[c.addr]) == 0 {
			delete(c.s.conns, c.addr)
		}
		c.s.mu.Unlock()
	})
	return c.Conn.Close()
}

type connKey struct{}

// connContext is the http.Server's ConnContext: it remembers the tracked
// connection so that a lockout can spare the one answering the request
// that caused it (that answer then closes it).
func connContext(ctx context.Context, c net.Conn) context.Context {
	if t, ok := c.(*tls.Conn); ok {
		c = t.NetConn()
	}
	if sc, ok := c.(*srcConn); ok {
		return context.WithValue(ctx, connKey{}, sc)
	}
	return ctx
}

// middleware refuses a request from a source outside the allowlist or
// locked out (403) or over its rate (429).
func (s *Sources) middleware(next http.Handler, event func(Event)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := addrOf(r.RemoteAddr)
		var expired []string
		s.mu.Lock()
		refused, locked := !s.allowed(a), s.lockedLocked(a, &expired)
		limited := !refused && !locked && !s.allowRateLocked(a)
		s.mu.Unlock()
		s.unlocked(expired, "expired")
		switch {
		case refused:
			event(EventSourceRefused)
			http.Error(w, "Forbidden: source not allowed", http.StatusForbidden)
		case locked:
			event(EventLocked)
			w.Header().Set("Connection", "close")
			http.Error(w, "Forbidden: source locked out after failed authentication", http.StatusForbidden)
		case limited:
			event(EventRateLimited)
			w.Header().Set("Retry-After", "1")
			http.Error(w, "Too Many Requests", http.StatusTooManyRequests)
		default:
			next.ServeHTTP(w, r)
		}
	})
}

func (s *Sources) allowRateLocked(a netip.Addr) bool {
	if s.o.Rate <= 0 {
		return true
	}
	now := s.o.Now()
	l := s.limits[a]
	if l == nil {
		if len(s.limits) >= maxTracked {
			for k, v := range s.limits {
				if now.Sub(v.seen) > time.Minute {
					delete(s.limits, k)
				}
			}
		}
		l = &limiter{lim: rate.NewLimiter(rate.Limit(s.o.Rate), max(s.o.Burst, 1))}
		s.limits[a] = l
	}
	l.seen = now
	return l.lim.AllowN(now, 1)
}

// Fail records a rejected token from r's source and reports whether it
// locked the source out. A lockout closes every other connection of the
// source at once; the caller closes r's after answering.
func (s *Sources) Fail(r *http.Request) bool {
	k := lockKey(addrOf(r.RemoteAddr))
	cur, _ := r.Context().Value(connKey{}).(*srcConn)
	now := s.o.Now()
	s.mu.Lock()
	var expired []string
	if s.keyLockedLocked(k, &expired) {
		s.mu.Unlock()
		return true
	}
	if len(s.fails) >= maxTracked {
		for old, v := range s.fails {
			if len(v) == 0 || now.Sub(v[len(v)-1]) > s.o.Window {
				delete(s.fails, old)
			}
		}
	}
	f := append(s.fails[k], now)
	for len(f) > 0 && now.Sub(f[0]) > s.o.Window {
		f = f[1:]
	}
	if len(f) <= s.o.MaxFailures {
		s.fails[k] = f
		s.mu.Unlock()
		s.unlocked(expired, "expired")
		return false
	}
	delete(s.fails, k)
	l := Lock{Addr: keyString(k), Since: now, Until: now.Add(s.o.Duration), Failures: len(f)}
	s.locks[k] = l
	var victims []*srcConn
	for a, cs := range s.conns {
		if !k.Contains(a) {
			continue
		}
		for c := range cs {
			if c != cur {
				victims = append(victims, c)
			}
		}
	}
	s.mu.Unlock()
	s.unlocked(expired, "expired")
	for _, c := range victims {
		c.Close()
	}
	s.o.Logger.Warn("source locked out after failed authentication", "addr", l.Addr, "failures", l.Failures, "until", l.Until)
	if s.o.OnLock != nil {
		s.o.OnLock(l)
	}
	return true
}

// List returns the lockout table, oldest first; expired entries are
// removed (and reported) on the way.
func (s *Sources) List() []Lock {
	var expired []string
	s.mu.Lock()
	out := make([]Lock, 0, len(s.locks))
	for k := range s.locks {
		if s.keyLockedLocked(k, &expired) {
			out = append(out, s.locks[k])
		}
	}
	s.mu.Unlock()
	s.unlocked(expired, "expired")
	slices.SortFunc(out, func(a, b Lock) int { return a.Since.Compare(b.Since) })
	return out
}

// Delete unlocks one source, given as an address or as the /64 the list
// shows; it reports whether it was locked.
func (s *Sources) Delete(addr string) (bool, error) {
	var k netip.Prefix
	if p, err := netip.ParsePrefix(addr); err == nil {
		k = lockKey(p.Addr().Unmap())
	} else if a, err := netip.ParseAddr(addr); err == nil {
		k = lockKey(a.Unmap())
	} else {
		return false, fmt.Errorf("lockout delete: %q is not an address", addr)
	}
	s.mu.Lock()
	_, ok := s.locks[k]
	delete(s.locks, k)
	delete(s.fails, k)
	s.mu.Unlock()
	if ok {
		s.unlocked([]string{keyString(k)}, "deleted by the operator")
	}
	return ok, nil
}

// Flush empties the table and reports how many entries it held.
func (s *Sources) Flush() int {
	s.mu.Lock()
	var addrs []string
	for k := range s.locks {
		addrs = append(addrs, keyString(k))
	}
	clear(s.locks)
	clear(s.fails)
	s.mu.Unlock()
	slices.Sort(addrs)
	s.unlocked(addrs, "flushed by the operator")
	return len(addrs)
}

// addrOf parses the address of a host:port, unmapping IPv4-in-IPv6; an
// unparsable one is the zero Addr, which is its own source.
func addrOf(hostport string) netip.Addr {
	ap, err := netip.ParseAddrPort(hostport)
	if err != nil {
		return netip.Addr{}
	}
	return ap.Addr().Unmap()
}
