package confine

import (
	"context"
	"fmt"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// maxBuildWait bounds how long a call waits for its level's worker when
// the directories its rules name do not answer (a stopped FUSE daemon, a
// hard NFS mount whose server is gone, under warden's state dir or audit
// log). Finding a worker takes microseconds and building one
// milliseconds.
const maxBuildWait = 10 * time.Second

// held runs build with c.building held and returns what it returns,
// waiting no longer than ctx and maxBuildWait allow. build lists the
// directories the rules name, which may not answer; it then goes on,
// holding the lock, after its caller has given up — so later builds wait
// on it until it has taken maxBuildWait, and are refused after that
// (lockBuilding), while levels that have their worker go on — and what
// it counted for the caller is given back.
func (c *Confiner) held(ctx context.Context, level string, build func() (*worker, error)) (*worker, error) {
	began := time.Now()
	stuck := func(why string) error {
		return fmt.Errorf("the rules for %s are not ready: %s; a directory they name (warden's state or audit directory, or one beside them) is not answering — is a mount stuck?", level, why)
	}
	if why := c.lockBuilding(ctx); why != "" {
		return nil, stuck(why)
	}
	timer := time.NewTimer(max(maxBuildWait-time.Since(began), time.Second))
	defer timer.Stop()
	type found struct {
		w   *worker
		err error
	}
	done := make(chan found, 1)
	go func() {
		defer c.unlockBuilding()
		w, err := build()
		done <- found{w, err}
	}()
	var why string
	select {
	case f := <-done:
		return f.w, f.err
	case <-ctx.Done():
		why = "not within the call's time"
	case <-timer.C:
		why = fmt.Sprintf("not within %s", maxBuildWait)
	}
	go func() {
		if f := <-done; f.w != nil {
			f.w.release()
		}
	}()
	return nil, stuck(why)
}

// lockBuilding takes c.building, or says why not: it waits while ctx
// allows and until the build holding it has taken maxBuildWait, so the
// starts that find a build stuck past that (the probes of one host tool,
// one after another) are refused at once rather than each waiting
// maxBuildWait again behind it.
func (c *Confiner) lockBuilding(ctx context.Context) string {
	select {
	case c.building <- struct{}{}:
		c.buildSince.Store(time.Now().UnixNano())
		return ""
	default:
	}
	long := fmt.Sprintf("an earlier call has been building them for more than %s", maxBuildWait)
	wait := maxBuildWait
	if since := c.buildSince.Load(); since != 0 {
		if wait = time.Until(time.Unix(0, since).Add(maxBuildWait)); wait <= 0 {
			return long
		}
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	select {
	case c.building <- struct{}{}:
		c.buildSince.Store(time.Now().UnixNano())
		return ""
	case <-ctx.Done():
		return "an earlier call is building them, not within the call's time"
	case <-timer.C:
		return long
	}
}

func (c *Confiner) unlockBuilding() {
	c.buildSince.Store(0)
	<-c.building
}

// worker is one confined thread and the programs it started.
type worker struct {
	h      *handoff
	watch  []watched
	sweeps bool   // see sweep
	gen    uint64 // Confiner.gen when built

	mu        sync.Mutex
	live      int
	retired   bool
	stopped   bool
	pending   *time.Timer   // a sweep to come
	checking  chan struct{} // closed when the check of watch under way ends (outdated)
	changed   bool          // a check found a directory of watch changed
	successor bool          // the worker to follow this one is being built
}

// replace notes whether the worker to follow w is being built.
func (w *worker) replace(on bool) {
	w.mu.Lock()
	w.successor = on
	w.mu.Unlock()
}

// replacing reports whether the worker to follow w is being built.
func (w *worker) replacing() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.successor
}

// sweepAfter is how long a level stays idle before what its programs left
// running is killed: one kill(-1) walks every process on the host, so a
// busy level does it at most this often, never on a call's own path.
const sweepAfter = 200 * time.Millisecond

// checkWait is how long a start waits for the check of the directories
// its worker's rules enumerated before it goes on with those rules, and
// rebuildWait how long for rules built again after one changed. A build
// takes milliseconds, and longer on a busy host, where a program started
// with the earlier rules would not yet see a directory made just before.
const (
	checkWait   = time.Second
	rebuildWait = 5 * time.Second
)

// outdated reports whether a directory w's rules enumerated has changed
// since they were built, so that they are to be built again. A check that
// does not answer within checkWait — a directory on a mount that stopped
// answering, such as the audit log's on an NFS share — finishes alone, and
// w serves meanwhile, every start while it is under way: an entry the
// rules did not enumerate is not granted until they are built again, so
// rules older than a directory refuse more than new ones, never less. A
// change the check finds once it answers has the next start rebuild.
func (w *worker) outdated() bool {
	w.mu.Lock()
	if w.changed || w.checking != nil {
		defer w.mu.Unlock()
		return w.changed
	}
	done := make(chan struct{})
	w.checking = done
	w.mu.Unlock()
	go func() {
		changed := w.stale()
		w.mu.Lock()
		w.changed = w.changed || changed
		w.checking = nil
		w.mu.Unlock()
		close(done)
	}()
	t := time.NewTimer(checkWait)
	defer t.Stop()
	select {
	case <-done:
		w.mu.Lock()
		defer w.mu.Unlock()
		return w.changed
	case <-t.C:
		return false
	}
}

func (w *worker) stale() bool {
	for _, d := range w.watch {
		if d.changed() {
			return true
		}
	}
	return false
}

// retire stops w taking work; its thread ends once its last program has
// been reaped (the thread must outlive them: their parent-death signal
// fires when it exits) and what they left has been swept.
func (w *worker) retire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.retired = true
	if w.live == 0 {
		w.idle()
	}
}

func (w *worker) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.live--
	if w.live == 0 {
		w.idle()
	}
}

// idle is called with w.mu held when no program of w's is live: it
// schedules the sweep, after which a retired worker stops.
func (w *worker) idle() {
	if !w.sweeps {
		if w.retired && !w.stopped {
			w.stopped = true
			w.h.stop()
		}
		return
	}
	if w.pending == nil {
		w.pending = time.AfterFunc(sweepAfter, w.sweep)
	}
}

// sweep kills whatever w's programs left running once none of the calls
// that started them is live: a program that left its process group
// (setsid, setpgid, a double fork) escapes the runner's kill of the group,
// and would otherwise outlive its call holding what it holds (a lock on
// dpkg's lock file, the user's inotify instances, memory, a port) and
// trace or signal the level's later programs. Below tier 2 with Landlock's
// signal scope (ABI 6), kill(-1) from w's thread reaches exactly the
// processes of its domain and those nested in it: its level's programs,
// wherever they moved; never warden (the caller's own process), the host
// or another level. A program started meanwhile puts it off to the next
// time the level is idle.
func (w *worker) sweep() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.pending = nil
	if w.live > 0 || w.stopped {
		return
	}
	w.h.run(func() error { return unix.Kill(-1, unix.SIGKILL) })
	if w.retired {
		w.stopped = true
		w.h.stop()
	}
}
