package audit

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"
)

// SyncMode says when appended records reach stable storage.
type SyncMode string

// Sync modes.
const (
	// SyncNone writes each record with one write(2) and never fsyncs: a
	// killed process loses nothing, a power cut may lose the newest records.
	SyncNone SyncMode = "none"
	// SyncAlways fsyncs after every record, serialising appenders.
	SyncAlways SyncMode = "always"
	// SyncGroup shares one fsync among concurrent appenders; each Append
	// still returns only after its own record is synced.
	SyncGroup SyncMode = "group"
)

// maxRecord bounds one line. A record whose args or extra would exceed it is
// written with those fields replaced by a note, so the call is still audited.
const maxRecord = 1 << 20

// rotateRetry spaces out rotation attempts after one fails.
const rotateRetry = time.Minute

// Options configure a Log.
type Options struct {
	Path        string // e.g. $WARDEN_STATE_DIR/audit.jsonl; created 0600, its directory 0700
	RotateBytes int64  // rotate before the file would exceed this; 0 = never
	Keep        Keep   // which rotated files to keep; zero = all
	Sync        SyncMode
	Key         []byte // optional HMAC-SHA256 key for a keyed chain
	Node        string // host name recorded in every record
	// Sinks receive every record after it is written locally (records
	// other writers sharing the log append are theirs to ship).
	Sinks  []Sink
	Now    func() time.Time
	Logger *slog.Logger // nil = discard
}

// Log appends records to a hash-chained JSON-lines file. It is safe for
// concurrent use, and any number of Logs, in any number of processes, may
// share one path: each append takes the log's file lock, adopts the chain
// head another writer left, writes its line and updates the head file.
type Log struct {
	path   string
	rotate int64
	keep   Keep
	sync   SyncMode
	node   string
	now    func() time.Time
	log    *slog.Logger
	kid    string
	lock   *fileLock
	headF  *os.File
	sinks  []Sink
	fsync  func(*os.File) error // (*os.File).Sync; tests slow it down

	mu       sync.Mutex
	cond     sync.Cond
	chain    *chain
	f        *os.File
	fi       os.FileInfo // identity of the file f was opened on
	size     int64       // bytes in the current file, as this Log last saw it
	goodEnd  int64       // offset just after the last complete record in it
	seq      uint64
	prev     string
	buf      []byte
	headBuf  []byte
	closed   bool
	healthy  bool
	reason   string
	rotRetry time.Time // no rotation attempt before this, after a failure

	// lost counts the records this Log could not write since its last
	// successful append (disk full, I/O error), from lostSince with the
	// first error: the next append that succeeds is preceded by a record
	// attesting them, so the calls that ran unaudited (tiers below
	// audit.on_failure's) are not silently missing from a chain that
	// verifies.
	lost       int
	lostSince  time.Time
	lostReason string

	// Group commit: records up to synced are on disk; records up to
	// failedThrough were covered by a failed fsync.
	written, synced, failedThrough uint64
	syncing                        bool
	syncErr                        error
	// syncFile is the file a group-commit leader is syncing with l.mu
	// released; one that goes out of use meanwhile (rotated, replaced,
	// a failed write) waits in retired for the leader to close it, so
	// its fsync never meets a closed file.
	syncFile *os.File
	retired  []*os.File
}

var errClosed = errors.New("audit: log is closed")

// Sink receives each record after it is written locally, with the exact
// line written (without its newline), so a copy kept elsewhere verifies
// and anchors the chain. Send is called with the log's locks held: it must
// not block, and must not call back into the Log.
type Sink interface {
	Send(r Record, line []byte)
}

// Open opens or creates the log at o.Path and resumes its chain from the
// last complete record of the newest file. A torn tail left by a crash is
// kept in place, terminated, and attested by a chained recovery record.
func Open(o Options) (*Log, error) {
	if o.Path == "" {
		return nil, errors.New("audit: open: no path")
	}
	switch o.Sync {
	case "":
		o.Sync = SyncNone
	case SyncNone, SyncAlways, SyncGroup:
	default:
		return nil, fmt.Errorf("audit: open: unknown sync mode %q (want none, always or group)", o.Sync)
	}
	if o.RotateBytes < 0 {
		return nil, fmt.Errorf("audit: open: negative rotate size %d", o.RotateBytes)
	}
	if err := o.Keep.validate(); err != nil {
		return nil, fmt.Errorf("audit: open: %w", err)
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o700); err != nil {
		return nil, fmt.Errorf("audit: open: %w", err)
	}
	lock, err := openLock(LockPath(o.Path))
	if err != nil {
		return nil, fmt.Errorf("audit: open %s: %w", o.Path, err)
	}
	headF, err := os.OpenFile(HeadPath(o.Path), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		lock.close()
		return nil, fmt.Errorf("audit: open %s: %w", o.Path, err)
	}
	l := &Log{
		path: o.Path, rotate: o.RotateBytes, keep: o.Keep, sync: o.Sync, node: o.Node,
		now: o.Now, log: o.Logger, lock: lock, headF: headF, sinks: o.Sinks, fsync: (*os.File).Sync,
		chain: newChain(o.Key), prev: Genesis, healthy: true,
	}
	l.kid = l.chain.kid
	l.cond.L = &l.mu
	l.mu.Lock()
	err = l.lock.lock()
	if err == nil {
		err = l.openLocked()
		if err == nil && !l.keep.zero() {
			l.pruneLocked()
		}
		l.lock.unlock()
	}
	l.mu.Unlock()
	if err != nil {
		headF.Close()
		lock.close()
		return nil, err
	}
	return l, nil
}

// resume finds the chain head in the newest file that holds a record.
func (l *Log) resume() error {
	files, err := Files(l.path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("audit: open: %w", err)
	}
	l.seq, l.prev = 0, Genesis
	for i := len(files) - 1; i >= 0; i-- {
		t, err := scanTail(files[i])
		if err != nil {
			return fmt.Errorf("audit: open: %w", err)
		}
		if t.found {
			l.seq, l.prev = t.seq, t.hash
			return nil
		}
	}
	return nil
}

// tail describes the end of a log file: its last complete record and any
// bytes after it.
type tail struct {
	found   bool
	seq     uint64
	hash    string
	goodEnd int64 // offset just after the last record's newline (0 if none)
	size    int64
}

// scanTail reads a file backwards to its last complete record.
func scanTail(path string) (tail, error) {
	var t tail
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return t, nil
	}
	if err != nil {
		return t, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return t, err
	}
	t.size = fi.Size()
	br := newBackReader(f, t.size)
	for {
		ln, err := br.prev()
		if errors.Is(err, io.EOF) {
			return t, nil
		}
		if err != nil {
			return t, err
		}
		if !ln.terminated || ln.tooLong {
			continue
		}
		p, err := parseLine(ln.b)
		if err != nil {
			continue
		}
		t.found, t.seq, t.hash, t.goodEnd = true, p.meta.Seq, p.hash, ln.start+ln.size+1
		return t, nil
	}
}

// catchUpLocked makes f the file at the log's path and seq/prev the chain
// head in it, whoever wrote last. It runs with the file lock held. When
// this Log wrote last (same file, same size), it costs one stat.
func (l *Log) catchUpLocked() error {
	if l.f == nil {
		return l.openLocked()
	}
	fi, err := os.Stat(l.path)
	if err != nil || !os.SameFile(fi, l.fi) {
		// Rotated (or replaced) by someone else: the records this Log
		// wrote there were synced by the rotating writer when the mode
		// asks for it.
		l.closeFileLocked(l.f)
		l.f = nil
		return l.openLocked()
	}
	if fi.Size() == l.size {
		return nil
	}
	return l.adoptLocked(fi, false)
}

// openLocked opens the current file for appending and adopts its tail.
func (l *Log) openLocked() error {
	f, err := os.OpenFile(l.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("audit: open %s: %w", l.path, err)
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return fmt.Errorf("audit: open %s: %w", l.path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return fmt.Errorf("audit: open %s: not a regular file", l.path)
	}
	if fi.Mode().Perm()&0o077 != 0 {
		if err := f.Chmod(0o600); err != nil {
			l.log.Warn("audit log is readable by others and could not be restricted", "path", l.path, "err", err)
		}
	}
	if fi.Size() == 0 && l.sync != SyncNone {
		syncDir(filepath.Dir(l.path))
	}
	// ours: this Log's own failed write left the bytes after goodEnd, and
	// nobody has written since.
	ours := l.fi != nil && os.SameFile(l.fi, fi) && fi.Size() == l.size && fi.Size() >= l.goodEnd
	l.f, l.fi = f, fi
	return l.adoptLocked(fi, ours)
}

// adoptLocked takes the chain head from the file f is open on (size and
// identity in fi) and deals with bytes after its last complete record:
// ones this Log left there by a failed write (ours), or a single torn line
// left by a crash, are attested by a recovery record; anything else is
// terminated and left for Verify to report.
func (l *Log) adoptLocked(fi os.FileInfo, ours bool) error {
	size := fi.Size()
	start := l.goodEnd
	if !ours {
		if h, err := readHeadAt(l.headF); err == nil && h.Ino == inode(fi) && h.Ino != 0 && h.End == size {
			// The head was written for exactly this file and size.
			l.seq, l.prev, start = h.Seq, h.Hash, size
		} else {
			t, err := scanTail(l.path)
			if err != nil {
				return fmt.Errorf("audit: open %s: %w", l.path, err)
			}
			known := Anchor{Seq: l.seq, Hash: l.prev}
			if h, err := readHeadAt(l.headF); err == nil && h.Seq > known.Seq {
				known = Anchor{Seq: h.Seq, Hash: h.Hash}
			}
			if t.found {
				l.seq, l.prev = t.seq, t.hash
			} else if err := l.resume(); err != nil {
				return err
			}
			if l.seq < known.Seq {
				// Records this Log or the head file knew of are gone:
				// continuing from them leaves the gap in the chain, for
				// Verify to report, rather than a shorter chain that
				// verifies.
				l.log.Error("audit log ends before records already written; continuing the chain after them so verify reports the gap",
					"path", l.path, "log_ends_at", l.seq, "written_through", known.Seq)
				l.seq, l.prev = known.Seq, known.Hash
			}
			start = t.goodEnd
			if t.size != size {
				// Read between our stat and now: only a writer that
				// ignores the lock does that; take what was read.
				size = t.size
			}
		}
	}
	l.size, l.goodEnd = size, start
	if l.size == start {
		return nil
	}
	sum, hasNL, endsNL, err := hashRegion(l.path, start, l.size)
	if err != nil {
		return fmt.Errorf("audit: open %s: %w", l.path, err)
	}
	prefix := []byte("\n")
	if endsNL {
		prefix = nil
	}
	torn := l.size - start
	if !ours && hasNL {
		l.log.Error("audit log has unrecognised lines after its last record; left in place for verify to report",
			"path", l.path, "offset", start, "bytes", torn)
		if prefix != nil {
			if _, err := l.f.Write(prefix); err != nil {
				return fmt.Errorf("audit: open %s: %w", l.path, err)
			}
			l.size++
		}
		l.goodEnd = l.size
		return nil
	}
	sum.Write(prefix)
	l.log.Warn("audit log has a torn final line from an interrupted write; attesting it and continuing",
		"path", l.path, "offset", start, "bytes", torn)
	r := Record{
		Tool: recoveryTool, Decision: recoveryDecision, Status: "ok", Node: l.node,
		Reason: "torn line from an interrupted write left in place",
		Extra: map[string]any{
			"torn_bytes":  torn + int64(len(prefix)),
			"torn_sha256": hex.EncodeToString(sum.Sum(nil)),
		},
	}
	mid, err := l.encode(&r)
	if err != nil {
		return err
	}
	if _, err := l.appendLineLocked(&r, mid, prefix); err != nil {
		return err
	}
	return l.syncLocked()
}

// Append fills r's TS, Seq, Node, Prev and Hash (and ID when empty), writes
// it as one line and, per the sync mode, waits until it is on disk. The
// write is attempted whatever the state of ctx: a cancelled call must still
// leave its record. The returned Record is what was written.
func (l *Log) Append(ctx context.Context, r Record) (Record, error) {
	_ = ctx
	if r.ID == "" {
		r.ID = newID()
	}
	r.Node = l.node
	r.KeyID = l.kid
	mid, err := l.encode(&r)
	if err != nil {
		return Record{}, err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	h, err := l.writeLocked(&r, mid)
	if err != nil {
		if !errors.Is(err, errClosed) {
			if l.lost == 0 {
				l.lostSince, l.lostReason = l.now().UTC(), err.Error()
			}
			l.lost++
		}
		return Record{}, err
	}
	r.TS, r.Seq, r.Prev, r.Hash = h.ts, h.seq, h.prev, h.hash
	switch l.sync {
	case SyncAlways:
		err = l.syncLocked()
	case SyncGroup:
		err = l.groupSyncLocked(h.seq)
	}
	if err != nil {
		return r, err
	}
	l.setHealthy()
	return r, nil
}

// encode marshals the fields of r between seq and prev, redacting its reason.
// A call is never left unaudited for want of encodable fields: invalid
// Args are replaced by their redacted string form, and Extra that cannot be
// encoded or makes the line too long by a note.
func (l *Log) encode(r *Record) ([]byte, error) {
	// A reason may quote the command it explains (a classifier's finding,
	// a program's error): it is redacted like the arguments.
	r.Reason = Redact(r.Reason)
	b, err := marshal(bodyOf(r))
	if err != nil && len(r.Args) > 0 && !json.Valid(r.Args) {
		r.Args = RedactArgs(r.Args, DefaultMaxValue)
		b, err = marshal(bodyOf(r))
	}
	if err != nil && r.Extra != nil {
		r.Extra = map[string]any{"omitted": "extra could not be encoded: " + err.Error()}
		b, err = marshal(bodyOf(r))
	}
	if err != nil {
		return nil, fmt.Errorf("audit: encode record: %w", err)
	}
	if len(b) > maxRecord-512 {
		n := len(b)
		r.Args, _ = json.Marshal(fmt.Sprintf("[args omitted: record was %d bytes]", n))
		if r.Extra != nil {
			r.Extra = map[string]any{"omitted": fmt.Sprintf("extra omitted: record was %d bytes", n)}
		}
		if b, err = marshal(bodyOf(r)); err != nil {
			return nil, fmt.Errorf("audit: encode record: %w", err)
		}
		if len(b) > maxRecord-512 {
			return nil, fmt.Errorf("audit: encode record: %d bytes even without args and extra", len(b))
		}
	}
	return b, nil
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// head is what writeLocked assigned to a record.
type head struct {
	ts   time.Time
	seq  uint64
	prev string
	hash string
}

// writeLocked chains one record whose middle fields are mid and writes it
// under the file lock, after catching up with other writers and rotating
// when due.
func (l *Log) writeLocked(r *Record, mid []byte) (head, error) {
	var h head
	if l.closed {
		return h, errClosed
	}
	if err := l.lock.lock(); err != nil {
		l.fail(err)
		return h, err
	}
	defer l.lock.unlock()
	if err := l.catchUpLocked(); err != nil {
		l.fail(err)
		return h, err
	}
	// l.mu is never released while the file lock is held: flock is per
	// open file, so a second goroutine of this process would take it too.
	// A group-commit leader may be fsyncing the file being rotated; the
	// rotation leaves it to the leader to close (closeFileLocked).
	if l.rotate > 0 && l.size > 0 && l.size+int64(len(mid))+256 > l.rotate && !l.now().Before(l.rotRetry) {
		if err := l.rotateLocked(); err != nil {
			// Keep appending to the current file; retry later.
			l.log.Error("audit log rotation failed; still appending to the current file", "err", err)
			l.rotRetry = l.now().Add(rotateRetry)
			if l.f == nil {
				if err := l.openLocked(); err != nil {
					l.fail(err)
					return h, err
				}
			}
		}
	}
	if l.lost > 0 {
		if err := l.attestLostLocked(); err != nil {
			return h, err
		}
	}
	return l.appendLineLocked(r, mid, nil)
}

// attestLostLocked appends the record that says how many records this Log
// could not write, since when and why, before the first record it writes
// again.
func (l *Log) attestLostLocked() error {
	r := Record{
		Tool: recoveryTool, Decision: lostDecision, Status: "error", Node: l.node, KeyID: l.kid, ID: newID(),
		Reason: fmt.Sprintf("%d records could not be written from %s: %s", l.lost, l.lostSince.Format(time.RFC3339), l.lostReason),
		Extra:  map[string]any{"lost_records": l.lost, "lost_since": l.lostSince.Format(time.RFC3339Nano)},
	}
	mid, err := l.encode(&r)
	if err != nil {
		return err
	}
	if _, err := l.appendLineLocked(&r, mid, nil); err != nil {
		return err
	}
	l.lost = 0
	return nil
}

// appendLineLocked chains one record whose middle fields are mid (encoded
// from r), writes prefix+line with a single write(2), updates the head file
// and hands the record to the sinks. The file lock is held and f is the
// current file, caught up.
func (l *Log) appendLineLocked(r *Record, mid, prefix []byte) (head, error) {
	var h head
	h.ts, h.seq, h.prev = l.now().UTC(), l.seq+1, l.prev
	b := append(l.buf[:0], prefix...)
	start := len(b)
	b = append(b, `{"ts":"`...)
	b = h.ts.AppendFormat(b, time.RFC3339Nano)
	b = append(b, `","seq":`...)
	b = strconv.AppendUint(b, h.seq, 10)
	b = append(b, ',')
	b = append(b, mid[1:len(mid)-1]...)
	b = append(b, `,"prev":"`...)
	b = append(b, h.prev...)
	b = append(b, '"')
	h.hash = l.chain.hashLine(h.prev, b[start:])
	b = append(b, `,"hash":"`...)
	b = append(b, h.hash...)
	b = append(b, "\"}\n"...)
	if cap(b) <= 64<<10 {
		l.buf = b
	}
	n, err := l.f.Write(b)
	l.size += int64(n)
	if err != nil {
		err = fmt.Errorf("audit: write %s: %w", l.path, err)
		l.fail(err)
		// Reopen on the next append: the fd may be unusable, and bytes a
		// short write left behind are attested then.
		l.closeFileLocked(l.f)
		l.f = nil
		return h, err
	}
	l.goodEnd = l.size
	l.seq, l.prev, l.written = h.seq, h.hash, h.seq
	l.headBuf = encodeHead(l.headBuf, headLine{Seq: h.seq, Hash: h.hash, Ino: inode(l.fi), End: l.size})
	if _, err := l.headF.WriteAt(l.headBuf, 0); err != nil {
		// The record is written; only the tail anchor is stale.
		l.log.Error("audit head file write failed; truncation of the newest records is not detectable until it succeeds", "err", err)
	}
	if len(l.sinks) > 0 {
		out := *r
		out.TS, out.Seq, out.Prev, out.Hash = h.ts, h.seq, h.prev, h.hash
		line := bytes.Clone(b[start : len(b)-1])
		for _, s := range l.sinks {
			s.Send(out, line)
		}
	}
	return h, nil
}

// syncLocked fsyncs the current file unless the mode is none.
func (l *Log) syncLocked() error {
	if l.sync == SyncNone || l.f == nil {
		return nil
	}
	if err := l.fsync(l.f); err != nil {
		err = fmt.Errorf("audit: sync %s: %w", l.path, err)
		l.fail(err)
		l.failedThrough = l.written
		return err
	}
	l.headF.Sync()
	l.synced = l.written
	return nil
}

// groupSyncLocked waits until record seq is on disk. The first waiter with
// no fsync in flight becomes the leader and syncs everything written so
// far, with the mutex released so other appenders keep writing meanwhile.
func (l *Log) groupSyncLocked(seq uint64) error {
	for {
		if l.failedThrough >= seq {
			return l.syncErr
		}
		if l.synced >= seq {
			return nil
		}
		if l.syncing {
			l.cond.Wait()
			continue
		}
		if l.f == nil {
			// The fd went away after this record was written; the file was
			// closed, which does not make the data durable.
			if err := l.lock.lock(); err != nil {
				l.fail(err)
				return err
			}
			err := l.catchUpLocked()
			l.lock.unlock()
			if err != nil {
				l.fail(err)
				return err
			}
		}
		l.syncing = true
		target, f := l.written, l.f
		l.syncFile = f
		l.mu.Unlock()
		err := l.fsync(f)
		if err == nil {
			l.headF.Sync()
		}
		l.mu.Lock()
		l.syncing, l.syncFile = false, nil
		for _, r := range l.retired {
			r.Close()
		}
		l.retired = nil
		if err != nil {
			l.syncErr = fmt.Errorf("audit: sync %s: %w", l.path, err)
			l.failedThrough = max(l.failedThrough, target)
			l.fail(l.syncErr)
		} else {
			l.synced = max(l.synced, target)
		}
		l.cond.Broadcast()
	}
}

// closeFileLocked closes f, or, while a group-commit leader syncs it
// with l.mu released, leaves it to the leader to close when its fsync
// returns.
func (l *Log) closeFileLocked(f *os.File) error {
	if f == l.syncFile {
		l.retired = append(l.retired, f)
		return nil
	}
	return f.Close()
}

func (l *Log) fail(err error) {
	if l.healthy || l.reason != err.Error() {
		l.log.Error("audit log write failed", "err", err)
	}
	l.healthy, l.reason = false, err.Error()
}

func (l *Log) setHealthy() {
	if !l.healthy {
		l.log.Info("audit log writes succeed again", "path", l.path)
	}
	l.healthy, l.reason = true, ""
}

// Healthy reports whether the last write succeeded; after a failed write or
// sync it is false, with the reason, until a later one succeeds.
func (l *Log) Healthy() (ok bool, reason string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.healthy, l.reason
}

// Head returns the seq and hash of the newest record this Log wrote or
// saw, for anchoring the chain somewhere an attacker on this host cannot
// rewrite: truncating the log and rewriting its head file to match is only
// detectable against such an anchor.
func (l *Log) Head() (seq uint64, hash string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.seq, l.prev
}

// Close syncs (unless the mode is none) and closes the log.
func (l *Log) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	for l.syncing {
		l.cond.Wait()
	}
	var err error
	if l.f != nil {
		err = l.syncLocked()
		if cerr := l.f.Close(); err == nil && cerr != nil {
			err = fmt.Errorf("audit: close: %w", cerr)
		}
		l.f = nil
	}
	l.closed = true
	if l.sync != SyncNone {
		l.headF.Sync()
	}
	l.headF.Close()
	if uerr := l.lock.close(); err == nil && uerr != nil {
		err = fmt.Errorf("audit: close: %w", uerr)
	}
	l.cond.Broadcast()
	return err
}

// hashRegion hashes bytes [start, end) of path and reports whether they
// contain a newline and whether they end with one.
func hashRegion(path string, start, end int64) (h hash.Hash, hasNL, endsNL bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, false, err
	}
	defer f.Close()
	h = sha256.New()
	buf := make([]byte, 32<<10)
	for off := start; off < end; {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), end-off)], off)
		if n == 0 && err != nil {
			return nil, false, false, err
		}
		chunk := buf[:n]
		h.Write(chunk)
		hasNL = hasNL || bytes.IndexByte(chunk, '\n') >= 0
		endsNL = chunk[n-1] == '\n'
		off += int64(n)
	}
	return h, hasNL, endsNL, nil
}

func newID() string {
	var b [12]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// syncDir makes a created or renamed directory entry durable. Failure only
// weakens durability, so it is not reported.
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}
