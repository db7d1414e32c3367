package audit

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// rotatedLayout names rotated files; fixed width, so name order is time
// order, and Log keeps each new name above the newest existing one, so name
// order is chain order even when the clock steps back.
const rotatedLayout = "20060102T150405.000"

// rotateLocked renames the current file to stem-<UTC time>Z.ext next to it
// and starts a new one. The chain simply continues: the new file's first
// record has the old file's last hash as prev.
func (l *Log) rotateLocked() error {
	if err := l.syncLocked(); err != nil {
		return err
	}
	name, err := l.rotatedName()
	if err != nil {
		return fmt.Errorf("audit: rotate %s: %w", l.path, err)
	}
	// Rename while the fd is open: if it fails, nothing has changed.
	if err := os.Rename(l.path, name); err != nil {
		return fmt.Errorf("audit: rotate %s: %w", l.path, err)
	}
	if err := l.closeFileLocked(l.f); err != nil {
		l.log.Warn("audit log close after rotation failed", "err", err)
	}
	l.f, l.fi, l.size, l.goodEnd = nil, nil, 0, 0
	if l.sync != SyncNone {
		syncDir(filepath.Dir(l.path))
	}
	l.log.Info("audit log rotated", "to", name, "seq", l.seq)
	// The chain head is the one just written to the rotated file; the new
	// file is empty.
	seq, prev := l.seq, l.prev
	if err := l.openLocked(); err != nil {
		return err
	}
	l.seq, l.prev = seq, prev
	if !l.keep.zero() {
		l.pruneLocked()
	}
	return nil
}

// rotatedName names the next rotated file: the current time, or just after
// the newest rotated file's, whichever is later, so names stay in chain
// order whichever writer rotates and however the clock steps.
func (l *Log) rotatedName() (string, error) {
	dir, stem, ext := splitPath(l.path)
	t := l.now().UTC()
	name := func(t time.Time) string { return stem + "-" + t.Format(rotatedLayout) + "Z" + ext }
	rotated, err := rotatedFiles(l.path)
	if err != nil {
		return "", err
	}
	if len(rotated) > 0 {
		if prev, ok := rotatedTime(filepath.Base(rotated[len(rotated)-1]), stem, ext); ok && !t.After(prev.Add(time.Millisecond-1)) {
			t = prev.Add(time.Millisecond)
		}
	}
	return filepath.Join(dir, name(t)), nil
}

func splitPath(path string) (dir, stem, ext string) {
	dir, base := filepath.Split(path)
	ext = filepath.Ext(base)
	return dir, strings.TrimSuffix(base, ext), ext
}

// rotatedTime parses the time out of a rotated file's base name.
func rotatedTime(name, stem, ext string) (time.Time, bool) {
	ts, ok := strings.CutPrefix(name, stem+"-")
	if !ok {
		return time.Time{}, false
	}
	if ts, ok = strings.CutSuffix(ts, "Z"+ext); !ok || len(ts) != len(rotatedLayout) {
		return time.Time{}, false
	}
	t, err := time.Parse(rotatedLayout, ts)
	return t, err == nil
}

// OwnPatterns returns path.Match patterns naming every file the log at
// path keeps: the log itself, its head and lock files, and its rotated
// files, existing or still to come. A path policy that keeps warden's own
// files from the agent refuses all of them, wherever the log lives: the
// rotated files are the log's history, and a forged one named to sort
// after the real ones would be read as part of the chain.
func OwnPatterns(path string) []string {
	dir, stem, ext := splitPath(path)
	return []string{
		quoteGlob(path), quoteGlob(HeadPath(path)), quoteGlob(LockPath(path)),
		quoteGlob(dir+stem+"-") + "*" + quoteGlob("Z"+ext),
	}
}

// quoteGlob escapes the path.Match metacharacters of a literal name.
func quoteGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// Files lists the files of the log at path in chain order: rotated files
// oldest first, then path itself. It fails with an error wrapping
// fs.ErrNotExist when there are none.
func Files(path string) ([]string, error) {
	files, err := rotatedFiles(path)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() {
		files = append(files, path)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("audit: no log at %s: %w", path, fs.ErrNotExist)
	}
	return files, nil
}

// rotatedFiles lists the rotated files of the log at path, oldest first.
func rotatedFiles(path string) ([]string, error) {
	dir, stem, ext := splitPath(path)
	entries, err := os.ReadDir(filepath.Clean(dir + "."))
	if err != nil {
		return nil, fmt.Errorf("audit: list %s: %w", path, err)
	}
	var files []string
	for _, e := range entries {
		if _, ok := rotatedTime(e.Name(), stem, ext); ok && e.Type().IsRegular() {
			files = append(files, filepath.Join(dir, e.Name()))
		}
	}
	slices.Sort(files)
	return files, nil
}
