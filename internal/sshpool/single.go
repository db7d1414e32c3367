package sshpool

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/ssh"
)

// closeWait bounds how long a one-session connection's slot stays taken
// after its session was released, waiting for the server to close it.
const closeWait = time.Minute

// OneSessionPerConn reports whether a server, by its SSH version string,
// must carry one session per connection at a time. Dropbear before
// 2024.86 closes a session that is open but has not started its program
// yet whenever another session's program exits, and if the program then
// starts it aborts the whole connection on a failed assertion
// (mkj/dropbear#321, fixed by mkj/dropbear#326): a session opened while
// another runs is lost at random. Routers run those versions, and some
// announce no version at all ("SSH-2.0-dropbear"); those are taken to be
// affected too.
func OneSessionPerConn(version string) bool {
	v := strings.ToLower(version)
	i := strings.Index(v, "dropbear")
	if i < 0 {
		return false
	}
	rest := strings.TrimLeft(v[i+len("dropbear"):], "_-")
	// "2022.83", or "0.52" in old releases: the number after the dot
	// counts releases.
	_, release, ok := strings.Cut(rest, ".")
	if !ok {
		return true
	}
	end := 0
	for end < len(release) && release[end] >= '0' && release[end] <= '9' {
		end++
	}
	n, err := strconv.Atoi(release[:end])
	return err != nil || n < 86
}

// notify wakes callers waiting for a one-session connection's slot.
func (p *Pool) notify() {
	p.mu.Lock()
	close(p.wake)
	p.wake = make(chan struct{})
	p.mu.Unlock()
}

// slotRelease returns the function that frees a slot of c taken from
// slots, waking waiters for it if c carries one session.
func (p *Pool) slotRelease(c *conn, slots chan struct{}) func() {
	return sync.OnceFunc(func() {
		<-slots
		if c.single && slots == c.sessions {
			p.notify()
		}
	})
}

// newConnLocked registers a connection to t under key, with a reference
// held, and counts its dial; the caller starts the dial.
func (p *Pool) newConnLocked(key string, t Target) *conn {
	c := &conn{
		key:      key,
		base:     t.Key(),
		target:   t,
		name:     t.Name,
		ready:    make(chan struct{}),
		dead:     make(chan struct{}),
		sessions: make(chan struct{}, p.opts.MaxSessions-1),
		control:  make(chan struct{}, 1),
		lastUsed: p.now(),
	}
	p.conns[key] = c
	p.dials++
	return c
}

// extraLocked returns a live extra connection for the target whose key
// is base, the least used, or nil.
func (p *Pool) extraLocked(base string) *conn {
	var best *conn
	for _, c := range p.conns {
		if c.base != base || c.isDead() {
			continue
		}
		if best == nil || c.refs < best.refs {
			best = c
		}
	}
	return best
}

// singleSlot takes the session slot of a connection to l's target whose
// server carries one session per connection, moving l onto it: l's own
// if free, else another's that is, else a new connection's if the target
// has fewer than MaxSessions-1 and the pool has room, else the first to
// free.
func (l *Lease) singleSlot(ctx context.Context) (*conn, func(), error) {
	c := l.conn()
	x, err := l.p.takeSingle(ctx, c, false, l.p.opts.MaxSessions-1)
	if err != nil {
		return nil, nil, err
	}
	if x != c {
		l.move(x)
	}
	return x, l.p.slotRelease(x, x.sessions), nil
}

// controlSlot is singleSlot for a control session: a kill sent while the
// lease's session runs. It is opened on another connection of the target,
// one more than runs may have if need be, since a session opened beside
// a running one is what such a server loses; l stays where it is.
func (l *Lease) controlSlot(ctx context.Context) (*conn, func(), error) {
	p := l.p
	x, err := p.takeSingle(ctx, l.conn(), true, p.opts.MaxSessions)
	if err != nil {
		return nil, nil, err
	}
	free := p.slotRelease(x, x.sessions)
	return x, sync.OnceFunc(func() {
		free()
		p.release(x)
	}), nil
}

// takeSingle takes the session slot of a one-session connection to c's
// target: c's own if it is free and not avoided, else another live one's,
// else that of a new connection, dialled if the target has fewer than
// most and the pool has room, else the first to free. A connection other
// than c comes with a reference held. One extra connection is dialled at
// a time per target, as dropbear refuses more than a few unauthenticated
// connections from one address.
func (p *Pool) takeSingle(ctx context.Context, c *conn, avoid bool, most int) (*conn, error) {
	noDial := false
	for {
		if !avoid {
			select {
			case c.sessions <- struct{}{}:
				return c, nil
			default:
			}
		}
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, ErrPoolClosed
		}
		wake := p.wake
		if free := p.freeSlotLocked(c); free != nil {
			p.mu.Unlock()
			return free, nil
		}
		var extra *conn
		if !noDial {
			extra = p.dialExtraLocked(ctx, c, most)
		}
		p.mu.Unlock()
		if extra != nil {
			select {
			case <-extra.ready:
			case <-ctx.Done():
				p.release(extra)
				return nil, fmt.Errorf("open session on %s: waiting for a free session: %w", c.name, ctx.Err())
			}
			if extra.err == nil && !extra.isDead() {
				select {
				case extra.sessions <- struct{}{}:
					return extra, nil
				default: // taken already: look again
				}
			} else {
				p.log.Debug("no extra connection; waiting for a session to free", "host", c.name, "err", extra.err)
				noDial = true
			}
			p.release(extra)
			continue
		}
		if c.isDead() && noDial {
			return nil, fmt.Errorf("open session on %s: %w: %v", c.name, ErrConnLost, c.deadErr)
		}
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, fmt.Errorf("open session on %s: waiting for a free session: %w", c.name, ctx.Err())
		}
	}
}

// freeSlotLocked takes the free session slot of another live connection
// to c's target and a reference on it, or returns nil.
func (p *Pool) freeSlotLocked(c *conn) *conn {
	for _, x := range p.conns {
		if x == c || x.base != c.base || !x.isReady() || x.isDead() || !x.single {
			continue
		}
		select {
		case x.sessions <- struct{}{}:
			x.refs++
			x.lastUsed = p.now()
			return x
		default:
		}
	}
	return nil
}

// dialExtraLocked starts dialling another connection to c's target and
// returns it with a reference held, or nil if one is being dialled
// already, the target has most connections, or the pool is full.
func (p *Pool) dialExtraLocked(ctx context.Context, c *conn, most int) *conn {
	if p.closed {
		return nil
	}
	n := 0
	for _, x := range p.conns {
		if x.base != c.base || x.isDead() {
			continue
		}
		if !x.isReady() {
			return nil
		}
		n++
	}
	if n >= most {
		return nil
	}
	if len(p.conns) >= p.opts.MaxConns && !p.evictIdleLocked() {
		return nil
	}
	p.seq++
	x := p.newConnLocked(fmt.Sprintf("%s\x00extra%d", c.base, p.seq), c.target)
	x.refs++
	go p.dial(ctx, x, c.target)
	return x
}

// holdUntilClosed makes release, the slot of a session on c, free the slot
// only once the server has closed the session, which dropbear does once
// its program has exited and been reaped: a session opened on c before
// then could meet that exit (see OneSessionPerConn). It passes the
// session's requests on, as the caller reads them.
func (p *Pool) holdUntilClosed(c *conn, in <-chan *ssh.Request, release func()) (<-chan *ssh.Request, func()) {
	out := make(chan *ssh.Request)
	closed := make(chan struct{})
	go func() {
		defer close(closed)
		defer close(out)
		for r := range in {
			out <- r
		}
	}()
	return out, sync.OnceFunc(func() {
		go func() {
			timer := time.NewTimer(closeWait)
			defer timer.Stop()
			select {
			case <-closed:
			case <-c.dead:
			case <-timer.C:
				p.log.Warn("server kept a closed session open; freeing its slot", "host", c.name, "after", closeWait)
			}
			release()
		}()
	})
}
