package confine

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// Confiner starts programs confined to their call's admission. Each level
// (and each narrowed tool profile) has a worker: one OS thread, locked to
// a goroutine that never unlocks it, that has given up its own rights —
// its own mount namespace with every mount read-only (root only), a
// seccomp filter, and a Landlock domain. A program forked from that thread
// inherits all three for good, so confining costs no extra process and
// no runtime start per call. The Go runtime starts new threads from a
// clean template thread, never from a locked one, so nothing else in
// warden runs with these restrictions.
type Confiner struct {
	opts    Options
	protect []string
	growing []string
	temps   []string
	log     *slog.Logger
	abi     int
	mountNS bool
	seccomp bool
	notify  bool // seccomp can hold calls for warden to answer
	binds   bool // and warden can bind for a program (bindFor)
	pid     int
	pgid    int
	enter   int   // the process whose namespaces programs run in; 0: warden's
	entered error // why those namespaces cannot be joined
	status  Status

	// building is held while a worker is built, which lists the
	// directories the rules name (Confiner.held); mu guards the maps.
	building   chan struct{}
	buildSince atomic.Int64  // when the build holding it began (UnixNano); 0: none
	gen        atomic.Uint64 // Rebuild's count: a worker of an earlier one is rebuilt
	mu         sync.Mutex
	workers    map[string]*worker
	owners     map[string]int  // owner keys made per key (ownerKey)
	owned      map[string]bool // and the owner keys themselves
}

// New probes what this kernel and user allow and returns a Confiner for
// it. With req Required it fails unless programs can be confined.
func New(o Options, req Requirement) (*Confiner, error) {
	c := &Confiner{opts: o, log: o.Logger, building: make(chan struct{}, 1), workers: map[string]*worker{}, owners: map[string]int{}, owned: map[string]bool{}, pid: os.Getpid(), pgid: unix.Getpgrp()}
	if c.log == nil {
		c.log = slog.New(slog.DiscardHandler)
	}
	if o.Enter < 0 {
		return nil, fmt.Errorf("confine: pid %d is not a process id", o.Enter)
	}
	c.enter = o.Enter
	var err error
	if c.protect, err = clean(o.Protect); err != nil {
		return nil, fmt.Errorf("confine: protect: %w", err)
	}
	if c.growing, err = clean(o.Growing); err != nil {
		return nil, fmt.Errorf("confine: growing: %w", err)
	}
	if c.enter > 0 {
		c.protect, c.entered = c.hostPaths(c.protect)
		if c.entered == nil {
			c.growing, c.entered = c.hostPaths(c.growing)
		}
	}
	temps := o.TempDirs
	if temps == nil {
		temps = DefaultTempDirs
	}
	if c.enter > 0 {
		// The host's: resolved by each thread once it has joined them.
		c.temps = lexical(temps)
	} else if c.temps, err = clean(temps); err != nil {
		return nil, fmt.Errorf("confine: temp dirs: %w", err)
	}
	for _, p := range slices.Concat(c.protect, c.temps) {
		if p == "/" {
			return nil, errors.New("confine: / cannot be protected or writable as a whole")
		}
	}
	c.probe()
	if err := limitCores(); err != nil {
		c.status.Gaps = append(c.status.Gaps, "a crashing program's core goes to the system's crash handler ("+err.Error()+")")
	}
	if req == Required && !c.status.Active {
		return nil, fmt.Errorf("confinement is required but unavailable: %s", c.status.Mechanism)
	}
	return c, nil
}

// probe finds the strongest mechanisms available and fills status.
func (c *Confiner) probe() {
	if c.enter > 0 && c.entered == nil {
		c.entered = onThread(func() error { return enter(c.enter) })
	}
	if c.entered != nil {
		c.status = Status{Mechanism: "none: " + c.entered.Error()}
		return
	}
	var parts, gaps []string
	abi, err := ll.LandlockGetABIVersion()
	if err == nil && abi >= 1 {
		c.abi = abi
		parts = append(parts, fmt.Sprintf("landlock-v%d", abi))
		if abi < 3 {
			gaps = append(gaps, "truncating an open file is not confined (landlock ABI < 3)")
		}
		if abi < 5 {
			gaps = append(gaps, "device ioctl requests are not confined (landlock ABI < 5)")
		}
		if abi < 6 {
			gaps = append(gaps, "signals are refused by seccomp only, abstract Unix sockets are not scoped, and what a program below tier 2 leaves running outlives its call (landlock ABI < 6)")
		}
	}
	if os.Geteuid() == 0 && onThread(func() error {
		if c.enter > 0 {
			if err := enter(c.enter); err != nil {
				return err
			}
		}
		return unix.Unshare(unix.CLONE_NEWNS)
	}) == nil {
		c.mountNS = true
		parts = append(parts, "mountns")
	} else {
		gaps = append(gaps, "without a mount namespace (root only), programs admitted as benign or approved can change the mode, owner, times, flags and extended attributes of files warden's user owns, warden's own included; their content stays out of reach")
		gaps = append(gaps, "without a mount namespace (root only), approved programs cannot add or remove entries in the directories above warden's own files (its state dir's parents, its config file's directory)")
		if unix.Geteuid() == 0 {
			gaps = append(gaps, "without a mount namespace, root's reads can read the disk that holds warden's files raw")
		}
	}
	if _, ok := arches[runtime.GOARCH]; ok && onThread(func() error {
		if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
			return err
		}
		f := filter{{Code: bpfRet, K: unix.SECCOMP_RET_ALLOW}}
		return f.install()
	}) == nil {
		c.seccomp = true
		parts = append(parts, "seccomp")
		c.notify = notifyContinues() && onThread(func() error {
			if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
				return err
			}
			f := filter{{Code: bpfRet, K: unix.SECCOMP_RET_ALLOW}}
			fd, err := f.installListener()
			if err == nil {
				unix.Close(fd)
			}
			return err
		}) == nil
		if !c.notify {
			gaps = append(gaps, "approved programs can signal or limit warden's threads other than the first (no seccomp listener)")
		}
		if c.binds = c.notify && pidfdGetfdWorks(); !c.binds {
			gaps = append(gaps, "programs below tier 2 can bind a UDP port of their choosing (no seccomp listener or pidfd_getfd, Linux 5.6)")
		}
	} else {
		gaps = append(gaps, "programs can signal warden, reads can change System V IPC objects, POSIX message queues and key rings, and any read can ask a daemon over its socket or bind a UDP port of its choosing (no seccomp)")
	}
	switch {
	case c.abi == 0:
		reason := "landlock is not enabled in this kernel"
		if err != nil {
			reason += " (" + err.Error() + ")"
		}
		c.status = Status{Mechanism: "none: " + reason, Gaps: gaps}
	default:
		if c.enter > 0 {
			parts = append(parts, fmt.Sprintf("pid%d-namespaces", c.enter))
		}
		c.status = Status{Mechanism: strings.Join(parts, "+"), Active: true, Gaps: gaps}
	}
}

// onThread runs fn on a fresh OS thread that is thrown away afterwards,
// so whatever fn changes about the thread dies with it.
func onThread(fn func() error) error {
	done := make(chan error, 1)
	goThrowaway(func() { done <- fn() })
	return <-done
}

// goThrowaway runs fn in a goroutine wired to an OS thread that ends with
// it, so whatever fn changes about the thread (namespaces, Landlock,
// seccomp, capabilities) never reaches other goroutines. That thread is
// never the process's main thread: Go cannot end the main thread, so it
// would keep what fn changed for the rest of the process, and the
// kernel's view of the process (/proc/self: its mounts, root, working
// directory and status) is the main thread's.
func goThrowaway(fn func()) {
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		if unix.Gettid() != unix.Getpid() {
			fn()
			return
		}
		// On the main thread: hold it until fn's goroutine has a thread
		// of its own, which therefore cannot be this one.
		locked := make(chan struct{})
		go func() {
			runtime.LockOSThread() // never unlocked, as above
			close(locked)
			fn()
		}()
		<-locked
		runtime.UnlockOSThread()
	}()
}

// Status reports what holds here.
func (c *Confiner) Status() Status { return c.status }

// Start runs start on the worker of ctx's admission, so the program it
// starts is confined to that admission. Without Landlock the program runs
// with what is left (seccomp, the mount namespace), as the operator was
// warned at startup.
func (c *Confiner) Start(ctx context.Context, start func() error) (func(), error) {
	a, _ := From(ctx)
	w, err := c.worker(ctx, a)
	if err != nil {
		return func() {}, fmt.Errorf("confinement unavailable: %w", err)
	}
	if err = w.h.run(start); err != nil {
		w.release()
		return func() {}, err
	}
	var once sync.Once
	return func() { once.Do(w.release) }, nil
}

// worker returns the live worker for a, building one when there is none or
// when a directory its ruleset enumerated has changed. It counts the
// program about to start.
func (c *Confiner) worker(ctx context.Context, a Admission) (*worker, error) {
	key, prof, owned := string(a.Level), Profile{}, false
	daemons := a.Daemons
	switch a.Level {
	case Read, Temp:
		if daemons {
			key += "+daemons"
		}
		if a.Tool == SessionTool {
			// Sessions live long: in a domain of their own they neither
			// put off the sweep of what the level's commands leave
			// (worker.sweep) nor share tracing and signals with them.
			key += "+session"
		}
		if a.Apart {
			// Approved programs keep the capabilities that read any
			// process of their user's, so a domain apart holds only here.
			key += ":" + a.Tool
		}
		owned = a.Owner != ""
	case Inspect:
		daemons = true
	case Full:
		prof = c.opts.profile(a.Tool)
		// An operator's narrowed block holds a daemon's socket as it holds
		// reads: dockerd would write past confine.writable, or reach the
		// network for a program that has none.
		daemons = daemons || !prof.narrowed()
		if prof.narrowed() {
			key += ":" + a.Tool
			if daemons {
				key += "+daemons"
			}
		}
	default:
		return nil, fmt.Errorf("unknown level %q", a.Level)
	}
	c.mu.Lock()
	if owned {
		key = c.ownerKey(key, a.Owner)
	}
	w := c.workers[key]
	c.mu.Unlock()
	if w != nil && w.gen == c.gen.Load() {
		if (!w.outdated() || w.replacing()) && c.count(key, w) {
			return w, nil
		}
	} else {
		w = nil // of an earlier Rebuild: its rules may grant what the lists now keep
	}
	wait := ctx
	if w != nil {
		// Rules older than a directory refuse more than new ones, never
		// less (worker.outdated): while their successor is built on
		// files that do not answer, they serve.
		var cancel context.CancelFunc
		wait, cancel = context.WithTimeout(ctx, rebuildWait)
		defer cancel()
	}
	nw, err := c.held(wait, key, func() (*worker, error) { return c.build(key, w, a.Level, daemons, prof) })
	if err != nil && w != nil && c.count(key, w) {
		c.log.Warn("confinement rules not rebuilt after a directory they enumerated changed; the earlier ones serve meanwhile", "level", key, "err", err)
		return w, nil
	}
	return nw, err
}

// build builds the worker of key to follow old (nil: none, or one of an
// earlier Rebuild), puts it in old's place and counts a program about to
// start on it. old serves until then (worker.replacing).
func (c *Confiner) build(key string, old *worker, level Level, daemons bool, prof Profile) (*worker, error) {
	c.mu.Lock()
	cur := c.workers[key]
	c.mu.Unlock()
	if cur != nil && cur != old && cur.gen == c.gen.Load() && !cur.outdated() && c.count(key, cur) {
		return cur, nil // built by the call before
	}
	if old != nil {
		old.replace(true)
		defer old.replace(false)
	}
	gen := c.gen.Load()
	w, err := c.newWorker(level, daemons, prof)
	if err != nil {
		c.log.Error("cannot confine; nothing was started", "level", key, "err", err)
		return nil, err
	}
	w.gen, w.live = gen, 1
	c.mu.Lock()
	cur = c.workers[key]
	c.workers[key] = w
	c.mu.Unlock()
	if cur != nil {
		c.log.Debug("confinement rules rebuilt: a directory they enumerated changed, or the lists of protected paths", "level", key)
		cur.retire()
	}
	return w, nil
}

// count counts a program about to start on w, the worker of key, unless
// w was retired or replaced meanwhile.
func (c *Confiner) count(key string, w *worker) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	if c.workers[key] != w || w.retired {
		return false
	}
	w.live++
	return true
}

// maxOwnerDomains bounds the owners given a domain of their own per
// key: each is a thread for good, and identities are many where a
// trusted proxy names them. Owners past it share the key's domain.
const maxOwnerDomains = 32

// ownerKey is key for owner's calls, with c.mu held: a key of the owner's
// own while fewer than maxOwnerDomains owners have one.
func (c *Confiner) ownerKey(key, owner string) string {
	own := key + "@" + owner
	if c.owned[own] {
		return own
	}
	if c.owners[key] >= maxOwnerDomains {
		return key
	}
	c.owned[own] = true
	c.owners[key]++
	return own
}

// newWorker starts the thread of level, which builds its rules and gives
// up its rights before taking work. Without daemons, its programs cannot
// make a Unix socket (Admission.Daemons).
func (c *Confiner) newWorker(level Level, daemons bool, prof Profile) (*worker, error) {
	more, err := c.listed(c.opts.Protected)
	if err != nil {
		return nil, err
	}
	protect := slices.Concat(c.protect, more)
	if level != Full {
		private, err := c.listed(c.opts.Private)
		if err != nil {
			return nil, err
		}
		protect = slices.Concat(protect, private)
	}
	// Below tier 2, with Landlock's signal scope, what a level leaves
	// running is killed whenever none of its programs is (worker.sweep).
	sweeps := level != Full && c.abi >= 6
	var f filter
	if c.seccomp {
		var err error
		o := filterOpts{denyMeta: level == Read || level == Inspect, confined: level != Full, noUnix: !daemons, notify: c.notify, bind: c.binds && level != Full, scoped: sweeps, probes: level == Inspect}
		if f, err = signalFilter(c.pid, c.pgid, o); err != nil {
			return nil, err
		}
	}
	h, err := newHandoff()
	if err != nil {
		return nil, err
	}
	w := &worker{h: h, sweeps: sweeps}
	ready := make(chan error, 1)
	goThrowaway(func() {
		listener, watch, err := c.setup(level, prof, f, protect)
		w.watch = watch // read only after ready
		if listener >= 0 {
			go serveNotify(listener, c.pid, level != Full)
		}
		ready <- err
		if err != nil {
			h.close()
			return
		}
		h.serve()
	})
	if err := <-ready; err != nil {
		return nil, fmt.Errorf("confine %s: %w", level, err)
	}
	return w, nil
}

// listed returns the paths list gives now, cleaned and, when c enters
// another process's namespaces, found there.
func (c *Confiner) listed(list func() []string) ([]string, error) {
	if list == nil {
		return nil, nil
	}
	paths, err := clean(list())
	if err != nil || c.enter == 0 || len(paths) == 0 {
		return paths, err
	}
	return c.hostPaths(paths)
}

// Rebuild has every level build its rules again for its next program,
// from the lists as they are then (Options.Protected, Options.Private):
// warden calls it when a reload may have changed them. Programs already
// running keep the rules they started with.
func (c *Confiner) Rebuild() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen.Add(1)
	for key, w := range c.workers {
		w.retire()
		delete(c.workers, key)
	}
}

// setup gives up the calling thread's rights for level — in the target's
// namespaces when c enters them, so that the rules name the target's files
// — and returns the seccomp listener (-1 if none) and the directories its
// rules enumerated.
func (c *Confiner) setup(level Level, prof Profile, f filter, protect []string) (int, []watched, error) {
	temps := c.temps
	if c.enter > 0 {
		if err := enter(c.enter); err != nil {
			return -1, nil, err
		}
		var err error
		if temps, err = clean(temps); err != nil {
			return -1, nil, err
		}
	}
	// Found here, in the namespaces the programs run in: the devices are
	// the host's.
	protect = append(protect[:len(protect):len(protect)], watchdogs("/dev")...)
	var rs *ruleset
	if c.abi > 0 {
		var err error
		if rs, err = c.ruleset(level, prof, protect, temps); err != nil {
			return -1, nil, err
		}
		defer rs.close()
	}
	listener, err := c.restrict(level, rs, f, protect, temps)
	if err != nil || rs == nil {
		return listener, nil, err
	}
	watch := rs.watch
	if c.enter > 0 {
		// Other threads look at them from warden's own namespaces.
		root := fmt.Sprintf("/proc/%d/root", c.enter)
		for i := range watch {
			watch[i].path = root + watch[i].path
		}
	}
	return listener, watch, nil
}

// ruleset builds the Landlock ruleset of level.
func (c *Confiner) ruleset(level Level, prof Profile, protect, temps []string) (*ruleset, error) {
	var terms []string
	if level != Full {
		terms = slices.Concat(terminals("/dev"), inputs("/dev"))
	}
	rs, err := newRuleset(c.abi, slices.Concat(protect, terms), level == Full && prof.NoNetwork && c.abi >= 4, level != Full)
	if err != nil {
		return nil, err
	}
	// No mount covers the terminals and input devices: Landlock alone
	// keeps them out of reach, as it does a protected path that does not
	// exist.
	rs.uncovered = append(rs.uncovered, terms...)
	if rs.covered = c.mountNS; rs.covered {
		rs.uncovered = append(rs.uncovered, c.growing...)
	}
	grant := func(root string, rights uint64) {
		if err == nil {
			err = rs.tree(root, rights)
		}
	}
	switch {
	case level == Full && len(prof.Writable) == 0:
		grant("/", rs.all)
	default:
		grant("/", readRights)
		if level == Read || level == Temp {
			if err == nil {
				err = rs.deviceIoctls("/dev")
			}
		} else {
			grant("/dev", readRights|ll.AccessFSIoctlDev)
		}
		if level == Temp || level == Full {
			for _, t := range temps {
				grant(t, rs.all)
			}
		}
		if level == Full {
			w, cerr := clean(prof.Writable)
			if cerr != nil {
				err = cerr
			}
			for _, p := range w {
				grant(p, rs.all)
			}
		}
	}
	for _, d := range devices {
		grant(d, deviceRights)
	}
	if err != nil {
		rs.close()
		return nil, err
	}
	return rs, nil
}

// restrict gives up the calling thread's rights for level: the mount
// namespace first (mounting needs rights Landlock takes away), then the
// capabilities, no_new_privs, the seccomp filter and the Landlock domain.
// It returns the filter's listener, or -1 when there is none.
func (c *Confiner) restrict(level Level, rs *ruleset, f filter, protect, temps []string) (listener int, err error) {
	listener = -1
	defer func() {
		if err != nil && listener >= 0 {
			unix.Close(listener)
			listener = -1
		}
	}()
	if c.mountNS {
		if err := c.mounts(level, protect, temps); err != nil {
			return listener, err
		}
	}
	if err := dropCaps(level, f != nil); err != nil {
		return listener, err
	}
	if rs == nil && f == nil {
		return listener, nil
	}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return listener, fmt.Errorf("no_new_privs: %w", err)
	}
	if f != nil {
		if c.notify {
			listener, err = f.installListener()
		} else {
			err = f.install()
		}
		if err != nil {
			return listener, err
		}
	}
	if rs != nil {
		// The thread's own denials are not logged to the audit
		// subsystem: each sweep (worker.sweep) is refused every process
		// outside the domain. Programs, which exec, are not logged
		// either, as by default.
		var flags uint32
		if c.abi >= 7 {
			flags = ll.FlagRestrictSelfLogSameExecOff
		}
		if err := ll.LandlockRestrictSelf(rs.fd, flags); err != nil {
			return listener, fmt.Errorf("landlock restrict: %w", err)
		}
	}
	return listener, nil
}

// mounts moves the calling thread into a mount namespace of its own that
// still receives the host's new mounts but sends none back. There warden's
// own paths are covered by empty read-only mounts (so not even their mode
// or times can change), and, below Full, every mount is read-only but for
// the temporary directories at Temp.
func (c *Confiner) mounts(level Level, protect, temps []string) error {
	var raw []string
	if level == Read || level == Temp {
		raw = rawNodes(protect) // before the masks below hide what is under them
	}
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return fmt.Errorf("mount namespace: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_SLAVE, ""); err != nil {
		return fmt.Errorf("make mounts private: %w", err)
	}
	if err := pinAbove(protect); err != nil {
		return err
	}
	for _, p := range protect {
		if err := mask(p); err != nil {
			return err
		}
	}
	if level == Full {
		return nil
	}
	// Reading /proc/kmsg takes the kernel's messages from the one buffer
	// every reader of it shares (rsyslog's imklog): what a read took never
	// reaches the system's log. dmesg reads /dev/kmsg, where each reader
	// has its own place.
	if err := mask("/proc/kmsg"); err != nil {
		return err
	}
	for _, n := range raw {
		if err := mask(n); err != nil {
			return err
		}
	}
	var writable []string
	if level == Temp {
		for _, t := range temps {
			if fi, err := os.Stat(t); err != nil || !fi.IsDir() {
				continue
			}
			// A bind of the directory onto itself is a mount of its own,
			// which can stay writable when the rest is made read-only.
			if err := unix.Mount(t, t, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
				return fmt.Errorf("bind %s: %w", t, err)
			}
			writable = append(writable, t)
		}
	}
	if err := unix.MountSetattr(-1, "/", unix.AT_RECURSIVE, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil {
		return fmt.Errorf("read-only mounts: %w", err)
	}
	for _, t := range writable {
		if err := unix.MountSetattr(-1, t, unix.AT_RECURSIVE, &unix.MountAttr{Attr_clr: unix.MOUNT_ATTR_RDONLY}); err != nil {
			return fmt.Errorf("writable %s: %w", t, err)
		}
	}
	// Masks inside a writable temporary directory stay read-only.
	for _, p := range protect {
		if err := unix.MountSetattr(-1, p, 0, &unix.MountAttr{Attr_set: unix.MOUNT_ATTR_RDONLY}); err != nil && !errors.Is(err, unix.ENOENT) && !errors.Is(err, unix.EINVAL) {
			return fmt.Errorf("read-only mask %s: %w", p, err)
		}
	}
	return nil
}

// pinAbove makes each directory above a protected path (but /) a mount
// point of its own by binding it onto itself. A mount point cannot be
// removed or renamed, so where the rules let programs remove and rename
// directories beside warden's paths (ruleset.covered), none can move a
// directory holding one away and plant another in its place. A rename or
// hard link across a pinned directory fails as across file systems.
func pinAbove(protect []string) error {
	var dirs []string
	for _, p := range protect {
		for d := filepath.Dir(p); d != "/"; d = filepath.Dir(d) {
			dirs = append(dirs, d)
		}
	}
	// Outermost first: a bind copies the mounts beneath it, so binding an
	// inner directory first would leave a shadowed copy under the outer.
	slices.Sort(dirs)
	for _, d := range slices.Compact(dirs) {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() {
			continue
		}
		if err := unix.Mount(d, d, "", unix.MS_BIND|unix.MS_REC, ""); err != nil {
			return fmt.Errorf("pin %s: %w", d, err)
		}
	}
	return nil
}

// mask covers p with an empty read-only mount: a directory with a tmpfs
// of mode 000, a file with /dev/null. A path that does not exist is left
// to Landlock.
func mask(p string) error {
	fi, err := os.Lstat(p)
	if err != nil {
		return nil
	}
	if fi.IsDir() {
		err = unix.Mount("warden-mask", p, "tmpfs", unix.MS_RDONLY|unix.MS_NOSUID|unix.MS_NODEV|unix.MS_NOEXEC, "mode=000,size=4k")
	} else {
		err = unix.Mount("/dev/null", p, "", unix.MS_BIND, "")
		if err == nil {
			err = unix.Mount("", p, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, "")
		}
	}
	if err != nil {
		return fmt.Errorf("mask %s: %w", p, err)
	}
	return nil
}

// HideProcess makes warden's own process non-dumpable, so that a program
// running as the same user without CAP_SYS_PTRACE cannot read its
// /proc/PID/environ, mem or fd (Landlock refuses it to confined programs
// of any user). It also marks every descriptor above stderr close-on-exec:
// what warden's own parent left open (a client's pipes, a shell's files)
// would otherwise reach every program warden starts, whatever its
// confinement, as /dev/fd/N.
func HideProcess() error {
	if err := closeInheritedOnExec(); err != nil {
		return fmt.Errorf("inherited descriptors: %w", err)
	}
	return unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0)
}

// closeInheritedOnExec sets close-on-exec on every descriptor from 3 up.
func closeInheritedOnExec() error {
	err := unix.CloseRange(3, ^uint(0), unix.CLOSE_RANGE_CLOEXEC)
	if err == nil || !errors.Is(err, unix.ENOSYS) && !errors.Is(err, unix.EINVAL) {
		return err
	}
	// Before Linux 5.11: one by one.
	entries, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return err
	}
	for _, e := range entries {
		if fd, err := strconv.Atoi(e.Name()); err == nil && fd > 2 {
			unix.CloseOnExec(fd)
		}
	}
	return nil
}
