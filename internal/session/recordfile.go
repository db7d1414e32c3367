package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
	"log/slog"
	"os"
	"sync"
	"syscall"
	"time"
)

// A recording's file is written by a goroutine of its own, so a session's
// output, a send and the session's end never wait on it: recordings live
// in warden's state directory, which an operator may put on a share that
// stops answering (an NFS server gone). While the file does not answer,
// events queue in memory up to maxQueued bytes (besides the write under
// way, as large at most); past that they are
// dropped and counted, and a marker event says how many bytes were lost,
// where, once there is room again.

// maxQueued bounds the events a recording holds for a file that does not
// answer.
const maxQueued = 1 << 20

// DefaultRecordWait bounds how long a session's start waits to create its
// recording, and its end to finish it, when Options names no bound.
const DefaultRecordWait = 10 * time.Second

// recordFile is a recording's file and its writer.
type recordFile struct {
	log  *slog.Logger
	name string

	mu         sync.Mutex
	queued     []byte
	lost       int64 // bytes of events dropped since the last marker
	closing    bool
	discarding bool

	wake chan struct{}
	done chan struct{} // closed when the file is finished or removed

	// The writer's own until done is closed.
	f   *os.File
	sum hash.Hash
	err error
}

// start hands f, whose header is written, to a new writer.
func (w *recordFile) start(log *slog.Logger, f *os.File, header []byte) {
	w.log, w.name, w.f, w.sum = log, f.Name(), f, sha256.New()
	w.sum.Write(header)
	w.wake, w.done = make(chan struct{}, 1), make(chan struct{})
	go w.run()
}

// queue adds line for the writer. Unless force, a line that would pass
// maxQueued is dropped and counted, and queue reports false.
func (w *recordFile) queue(line []byte, force bool) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if !force && len(w.queued)+len(line) > maxQueued {
		if w.lost == 0 {
			w.log.Warn("session recording's file is not answering; its events are dropped until it does", "recording", w.name)
		}
		w.lost += int64(len(line))
		return false
	}
	w.queued = append(w.queued, line...)
	w.kick()
	return true
}

// takeLost returns the bytes dropped since the last marker, and forgets
// them, once the queue has room again (or when all).
func (w *recordFile) takeLost(all bool) int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.lost == 0 || !all && len(w.queued) > maxQueued/2 {
		return 0
	}
	n := w.lost
	w.lost = 0
	return n
}

func (w *recordFile) kick() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *recordFile) run() {
	defer close(w.done)
	var buf []byte
	for {
		w.mu.Lock()
		buf, w.queued = w.queued, buf[:0]
		closing, discarding := w.closing, w.discarding
		w.mu.Unlock()
		if len(buf) > 0 {
			if w.err == nil && !discarding {
				n, err := w.f.Write(buf)
				w.sum.Write(buf[:n])
				if err != nil {
					w.err = err
					w.log.Error("session recording failed", "recording", w.name, "err", err)
				}
			}
			continue
		}
		if closing {
			break
		}
		<-w.wake
	}
	if w.discarding {
		_ = w.f.Close()
		_ = os.Remove(w.name)
		return
	}
	sync := w.f.Sync()
	if errors.Is(sync, syscall.EINVAL) {
		sync = nil // a file that cannot be synced (a pipe, some FUSE file systems)
	}
	w.err = errors.Join(w.err, sync, w.f.Close())
}

// finish has the writer write what is queued and close the file, and
// reports whether it did within wait.
func (w *recordFile) finish(wait time.Duration) bool {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	return w.waitDone(wait)
}

// discard has the writer close and remove the file, and waits for it at
// most wait.
func (w *recordFile) discard(wait time.Duration) {
	w.mu.Lock()
	w.closing, w.discarding = true, true
	w.mu.Unlock()
	w.waitDone(wait)
}

func (w *recordFile) waitDone(wait time.Duration) bool {
	w.kick()
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-w.done:
		return true
	case <-t.C:
		return false
	}
}

// digest is the file's SHA-256, once finish reported true.
func (w *recordFile) digest() string {
	return hex.EncodeToString(w.sum.Sum(nil))
}
