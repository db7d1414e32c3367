package policy

import (
	"bytes"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The deny list knows a program by its name, and a copy of its file under
// another name (made by any means: cp, base64 -d, a compiler's output, a
// download) is, by name, an unknown program. On this machine the file
// itself can be asked: programFiles finds the files of the programs the
// deny list names on the search path and tells a file that holds one of
// them, whole or with bytes appended, from any other.

// defaultPath is where local programs are looked for when Rules.Path is
// empty.
const defaultPath = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"

const (
	headSize       = 4 << 10  // bytes of a program file compared first
	maxCompare     = 64 << 20 // a program file larger is not compared
	programsFresh  = time.Minute
	maxSeenFiles   = 4096 // candidate files remembered
	maxProgramRead = maxInput
)

// programFiles is the deny list's program files on this machine. It is
// built when first asked and again once a minute (packages change), and
// safe for concurrent use.
type programFiles struct {
	dirs []string

	mu    sync.Mutex
	built time.Time
	known []*progFile
	seen  map[fileStamp]*progFile // what a candidate file was found to be (nil: none)
}

// progFile is one program file the deny list names.
type progFile struct {
	path string // where it was found
	name string // its own name: the last component once links are resolved
	fi   fs.FileInfo
	head []byte
}

// fileStamp tells one state of a candidate file from another: a write
// changes its change time, which, unlike its modification time, no
// program can set back.
type fileStamp struct {
	path   string
	size   int64
	change int64
}

func newProgramFiles(searchPath string) *programFiles {
	if searchPath == "" {
		searchPath = defaultPath
	}
	var dirs []string
	for _, d := range filepath.SplitList(searchPath + ":" + defaultPath) {
		if strings.HasPrefix(d, "/") && !slices.Contains(dirs, path.Clean(d)) {
			dirs = append(dirs, path.Clean(d))
		}
	}
	return &programFiles{dirs: dirs}
}

// watchedNames are the names whose files are watched: every name the
// deny list reads, and the multi-call programs that run them by another
// name (busybox reboot).
func watchedNames() []string {
	names := map[string]bool{"busybox": true, "toybox": true}
	for _, m := range []map[string]bool{denyTriggers, powerPrograms, fsWipers, otherInits, applianceDeniers, diskDeniers, fleetRunners} {
		for n := range m {
			names[n] = true
		}
	}
	return slices.Sorted(maps.Keys(names))
}

// refresh finds the watched program files, once a minute at most.
func (pf *programFiles) refresh() {
	if !pf.built.IsZero() && time.Since(pf.built) < programsFresh {
		return
	}
	pf.built, pf.known, pf.seen = time.Now(), nil, nil
	names := watchedNames()
	for _, d := range pf.dirs {
		found := slices.Clone(names)
		if m, err := filepath.Glob(filepath.Join(d, "mkfs*")); err == nil {
			for _, p := range m {
				found = append(found, filepath.Base(p))
			}
		}
		for _, n := range found {
			pf.add(filepath.Join(d, n))
		}
	}
}

// add records the program file at p, once however many names lead to it.
func (pf *programFiles) add(p string) {
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 || fi.Size() > maxCompare {
		return
	}
	for _, k := range pf.known {
		if os.SameFile(k.fi, fi) {
			return
		}
	}
	head, _, err := readHead(p)
	if err != nil {
		return
	}
	name := path.Base(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		name = path.Base(r)
	}
	pf.known = append(pf.known, &progFile{path: p, name: name, fi: fi, head: head})
}

// identify returns the watched program file the file at p (fi) holds,
// whole or followed by more bytes, or nil.
func (pf *programFiles) identify(p string, fi fs.FileInfo) *progFile {
	pf.mu.Lock()
	defer pf.mu.Unlock()
	pf.refresh()
	for _, k := range pf.known {
		if os.SameFile(k.fi, fi) {
			return k
		}
	}
	stamp := fileStamp{p, fi.Size(), changed(fi).UnixNano()}
	if k, ok := pf.seen[stamp]; ok {
		return k
	}
	var found *progFile
	if head, _, err := readHead(p); err == nil {
		for _, k := range pf.known {
			if k.fi.Size() <= fi.Size() && bytes.HasPrefix(head, k.head) && samePrefix(k.path, p, k.fi.Size()) &&
				(found == nil || strictest(k, found)) {
				found = k
			}
		}
	}
	if pf.seen == nil || len(pf.seen) >= maxSeenFiles {
		pf.seen = map[fileStamp]*progFile{}
	}
	pf.seen[stamp] = found
	return found
}

// strictest reports whether a file that holds both a and b is better
// taken for a than for b: a program denied whatever its arguments before
// one that is not, and a longer match (b's bytes followed by more may be
// a).
func strictest(a, b *progFile) bool {
	da, db := denyCheck(a.name, nil) != "", denyCheck(b.name, nil) != ""
	if da != db {
		return da
	}
	return a.fi.Size() > b.fi.Size()
}

// lookPath returns the file a program name without a slash runs, found
// in dirs, or "".
func lookPath(name string, dirs []string) string {
	for _, d := range dirs {
		p := filepath.Join(d, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

// readHead returns the first headSize bytes of the regular file p.
func readHead(p string) ([]byte, fs.FileInfo, error) {
	f, fi, err := openRegular(p)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	b := make([]byte, headSize)
	n, err := io.ReadFull(f, b)
	if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
		return nil, nil, err
	}
	return b[:n], fi, nil
}

// samePrefix reports whether the first n bytes of the files a and b are
// the same.
func samePrefix(a, b string, n int64) bool {
	fa, _, err := openRegular(a)
	if err != nil {
		return false
	}
	defer fa.Close()
	fb, _, err := openRegular(b)
	if err != nil {
		return false
	}
	defer fb.Close()
	ba, bb := make([]byte, 64<<10), make([]byte, 64<<10)
	for n > 0 {
		k := int(min(n, int64(len(ba))))
		if _, err := io.ReadFull(fa, ba[:k]); err != nil {
			return false
		}
		if _, err := io.ReadFull(fb, bb[:k]); err != nil {
			return false
		}
		if !bytes.Equal(ba[:k], bb[:k]) {
			return false
		}
		n -= int64(k)
	}
	return true
}
