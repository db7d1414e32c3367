package session

// ring is a byte buffer bounded at limit bytes that overwrites its oldest
// bytes when full and counts what it overwrote. Its storage grows on demand up
// to limit, so an idle session costs little. It is not safe for concurrent
// use; the session's mutex guards it.
type ring struct {
	limit   int
	buf     []byte
	start   int   // index of the oldest byte
	n       int   // bytes held
	dropped int64 // bytes overwritten before anyone took them
}

// minRingAlloc is the first allocation of a ring's storage.
const minRingAlloc = 4 << 10

func newRing(limit int) *ring {
	return &ring{limit: limit}
}

// Len reports how many bytes the ring holds.
func (r *ring) Len() int { return r.n }

// Dropped reports how many bytes were lost to overflow in total.
func (r *ring) Dropped() int64 { return r.dropped }

// Write appends p, dropping the oldest bytes (and, when p alone exceeds the
// limit, p's own head) to make room.
func (r *ring) Write(p []byte) {
	if r.limit <= 0 {
		r.dropped += int64(len(p))
		return
	}
	if len(p) >= r.limit {
		r.grow(r.limit)
		r.dropped += int64(r.n) + int64(len(p)-r.limit)
		copy(r.buf, p[len(p)-r.limit:])
		r.start, r.n = 0, r.limit
		return
	}
	if need := r.n + len(p); need > len(r.buf) && len(r.buf) < r.limit {
		r.grow(min(r.limit, max(need, 2*len(r.buf), minRingAlloc)))
	}
	c := len(r.buf)
	if over := r.n + len(p) - c; over > 0 {
		r.start = (r.start + over) % c
		r.n -= over
		r.dropped += int64(over)
	}
	end := (r.start + r.n) % c
	k := copy(r.buf[end:], p)
	copy(r.buf, p[k:])
	r.n += len(p)
}

// grow replaces the storage with size bytes holding the same content,
// oldest first.
func (r *ring) grow(size int) {
	if size <= len(r.buf) {
		return
	}
	nb := make([]byte, size)
	r.copyOut(nb, r.n)
	r.buf, r.start = nb, 0
}

// copyOut copies the k oldest bytes into dst without removing them.
func (r *ring) copyOut(dst []byte, k int) {
	if k == 0 {
		return
	}
	c := len(r.buf)
	m := copy(dst[:k], r.buf[r.start:min(r.start+k, c)])
	copy(dst[m:k], r.buf[:k-m])
}

// Take removes and returns up to max of the oldest bytes (all of them when
// max <= 0).
func (r *ring) Take(max int) []byte {
	k := r.n
	if max > 0 && max < k {
		k = max
	}
	out := make([]byte, k)
	r.copyOut(out, k)
	r.n -= k
	if r.n == 0 {
		r.start = 0
	} else {
		r.start = (r.start + k) % len(r.buf)
	}
	return out
}
