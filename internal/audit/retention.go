package audit

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"
)

// Keep says which rotated files retention keeps: at most Files of them
// (the newest), and none rotated more than MaxAge ago. Zero fields do not
// limit. The current file is always kept.
type Keep struct {
	Files  int
	MaxAge time.Duration
}

func (k Keep) zero() bool { return k.Files == 0 && k.MaxAge == 0 }

func (k Keep) validate() error {
	if k.Files < 0 {
		return fmt.Errorf("negative keep files %d", k.Files)
	}
	if k.MaxAge < 0 {
		return fmt.Errorf("negative keep max age %s", k.MaxAge)
	}
	return nil
}

// Pruning records: when retention deletes rotated files, the log appends a
// chained record naming them and the position (seq and prev) at which the
// oldest kept record starts, so Verify can start there instead of at seq 1
// and still tell pruning from deletion.
const prunedDecision = "pruned"

// prunedExtra is the attestation carried in a pruning record's Extra.
type prunedExtra struct {
	Files        []string `json:"files"`
	KeptFromSeq  uint64   `json:"kept_from_seq"`
	KeptFromPrev string   `json:"kept_from_prev"`
}

// pruneLocked deletes the rotated files retention no longer keeps and
// records it. It runs with the file lock held and f open on the current
// file. Failures are logged: retention never stops an append.
func (l *Log) pruneLocked() {
	rotated, err := rotatedFiles(l.path)
	if err != nil {
		l.log.Error("audit retention: cannot list rotated files", "err", err)
		return
	}
	_, stem, ext := splitPath(l.path)
	now := l.now().UTC()
	drop := 0
	if l.keep.Files > 0 && len(rotated) > l.keep.Files {
		drop = len(rotated) - l.keep.Files
	}
	if l.keep.MaxAge > 0 {
		for i := drop; i < len(rotated); i++ {
			t, ok := rotatedTime(filepath.Base(rotated[i]), stem, ext)
			if !ok || now.Sub(t) <= l.keep.MaxAge {
				break
			}
			drop = i + 1
		}
	}
	if drop == 0 {
		return
	}
	// The first record of the oldest kept file names its predecessor's
	// hash; that position is what the pruning record attests.
	from := Anchor{Seq: l.seq + 1, Hash: l.prev}
	for _, f := range append(rotated[drop:], l.path) {
		if a, ok, err := firstRecord(f); err != nil {
			l.log.Error("audit retention: cannot read the oldest kept file; nothing pruned", "file", f, "err", err)
			return
		} else if ok {
			from = a
			break
		}
	}
	var names []string
	for _, f := range rotated[:drop] {
		if err := os.Remove(f); err != nil && !errors.Is(err, os.ErrNotExist) {
			l.log.Error("audit retention: cannot delete a rotated file", "file", f, "err", err)
			break
		}
		names = append(names, filepath.Base(f))
	}
	if len(names) == 0 {
		return
	}
	if l.sync != SyncNone {
		syncDir(filepath.Dir(l.path))
	}
	if len(names) < drop {
		// Something was left: the oldest kept record is the first one in
		// the oldest file still there.
		from = Anchor{}
		for _, f := range rotated[len(names):] {
			if a, ok, _ := firstRecord(f); ok {
				from = a
				break
			}
		}
	}
	l.log.Info("audit retention pruned rotated files", "files", names, "kept_from_seq", from.Seq)
	r := Record{
		ID: newID(), Node: l.node, KeyID: l.kid, Tool: recoveryTool, Decision: prunedDecision, Status: "ok",
		Reason: fmt.Sprintf("retention deleted %d rotated file(s)", len(names)),
		Extra: map[string]any{
			"files": names, "kept_from_seq": from.Seq, "kept_from_prev": from.Hash,
		},
	}
	mid, err := l.encode(&r)
	if err == nil {
		_, err = l.appendLineLocked(&r, mid, nil)
	}
	if err != nil {
		l.log.Error("audit retention: cannot record the pruning", "err", err)
	}
}

// firstRecord returns the position of the first complete record in path.
func firstRecord(path string) (Anchor, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return Anchor{}, false, err
	}
	defer f.Close()
	lr := newLineReader(f, 0, 0)
	for {
		ln, err := lr.next()
		if errors.Is(err, io.EOF) {
			return Anchor{}, false, nil
		}
		if err != nil {
			return Anchor{}, false, err
		}
		if !ln.terminated || ln.tooLong {
			continue
		}
		if p, err := parseLine(ln.b); err == nil {
			return Anchor{Seq: p.meta.Seq, Hash: p.prev}, true, nil
		}
	}
}
