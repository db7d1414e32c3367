package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"path/filepath"
	"regexp"
	"strings"
	"time"
)

// snapperInfoMax bounds how much of a snapper info.xml is read.
const snapperInfoMax = 64 << 10

// snapperDateRE finds snapper's snapshot time, written in UTC.
var snapperDateRE = regexp.MustCompile(`<date>([0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2})</date>`)

// snapperDir returns snapper's .snapshots directory for src and the live
// subvolume it belongs to, or "" when src is not in snapper's layout.
func (e *Engine) snapperDir(ctx context.Context, src SourceConfig) (dir, live string) {
	if filepath.Base(src.Path) == ".snapshots" {
		return src.Path, filepath.Dir(src.Path)
	}
	cand := filepath.Join(src.Path, ".snapshots")
	if _, err := e.statDir(ctx, cand); err == nil {
		return cand, src.Path
	}
	return "", ""
}

// listBtrfs lists btrfs snapshots: snapper's .snapshots/N/snapshot with
// times from N/info.xml, or a directory of read-only snapshot subvolumes
// timed by `btrfs subvolume show` (when a runner is configured) or mtime.
func (e *Engine) listBtrfs(ctx context.Context, src SourceConfig) ([]Snapshot, error) {
	if dir, _ := e.snapperDir(ctx, src); dir != "" {
		return e.listSnapper(ctx, dir)
	}
	dirs, err := e.subdirs(ctx, src.Path)
	if err != nil {
		return nil, err
	}
	snaps := make([]Snapshot, 0, len(dirs))
	for _, fi := range dirs {
		root := filepath.Join(src.Path, fi.Name())
		t := fi.ModTime()
		if e.runner != nil {
			if ct, ok := e.btrfsCreation(ctx, root); ok {
				t = ct
			}
		}
		snaps = append(snaps, Snapshot{Name: fi.Name(), Time: t, Root: root})
	}
	return snaps, nil
}

// listSnapper lists snapper's numbered snapshots under dir.
func (e *Engine) listSnapper(ctx context.Context, dir string) ([]Snapshot, error) {
	dirs, err := e.subdirs(ctx, dir)
	if err != nil {
		return nil, err
	}
	fsys, err := e.openFS(ctx, dir)
	if err != nil {
		return nil, err
	}
	defer closeFS(fsys)
	var snaps []Snapshot
	for _, fi := range dirs {
		n := fi.Name()
		if strings.Trim(n, "0123456789") != "" {
			continue
		}
		si, err := fsys.Lstat(n + "/snapshot")
		if err != nil || !si.IsDir() {
			continue
		}
		t := si.ModTime()
		if it, ok := snapperTime(fsys, n+"/info.xml"); ok {
			t = it
		} else if e.runner != nil {
			if ct, ok := e.btrfsCreation(ctx, filepath.Join(dir, n, "snapshot")); ok {
				t = ct
			}
		}
		snaps = append(snaps, Snapshot{Name: n, Time: t, Root: filepath.Join(dir, n, "snapshot")})
	}
	return snaps, nil
}

// snapperTime reads the <date> of a snapper info.xml.
func snapperTime(fsys FS, name string) (time.Time, bool) {
	info, err := fsys.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return time.Time{}, false
	}
	f, err := fsys.Open(name)
	if err != nil {
		return time.Time{}, false
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, snapperInfoMax))
	if err != nil {
		return time.Time{}, false
	}
	m := snapperDateRE.FindSubmatch(b)
	if m == nil {
		return time.Time{}, false
	}
	t, err := time.ParseInLocation("2006-01-02 15:04:05", string(m[1]), time.UTC)
	return t, err == nil
}

// btrfsCreation asks `btrfs subvolume show` for a subvolume's creation time.
func (e *Engine) btrfsCreation(ctx context.Context, root string) (time.Time, bool) {
	out, err := e.run(ctx, btrfsShowArgv(root))
	if err != nil {
		e.log.Debug("snapshot: btrfs subvolume show failed; using mtime", "root", root, "err", err)
		return time.Time{}, false
	}
	return parseBtrfsCreation(out)
}

// parseBtrfsCreation finds "Creation time: 2026-11-22 00:26:15 +0000" in
// `btrfs subvolume show` output.
func parseBtrfsCreation(out []byte) (time.Time, bool) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok || strings.TrimSpace(k) != "Creation time" {
			continue
		}
		t, err := time.Parse("2006-01-02 15:04:05 -0700", strings.TrimSpace(v))
		if err != nil {
			return time.Time{}, false
		}
		return t, true
	}
	return time.Time{}, false
}
