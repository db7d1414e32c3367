package main

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// snapshotTools is every snapshot tool the server must offer.
var snapshotTools = []string{
	"snapshot_list", "snapshot_list_dir", "snapshot_read_file", "snapshot_find_files",
	"snapshot_grep", "snapshot_diff", "file_diff", "versions_of", "first_appearance",
	"last_appearance", "find_deleted", "size_breakdown", "top_consumers",
	"stale_snapshots", "bisect_change", "checksum_file", "file_history",
	"snapshots_containing", "snapshot_cadence", "size_delta", "snapshot_pools",
}

// snapFixture is a tree of real snapshots on disk: eight dated directory
// copies (rsnapshot style) with a live copy, a ZFS .zfs/snapshot layout made
// of plain directories, and a snapper .snapshots layout.
type snapFixture struct {
	root    string
	backups string
	live    string
	tank    string
	snapper string
	days    []string // snapshot names, oldest first
	secret  string   // text of a file outside every snapshot root
}

const (
	snapDays     = 8
	unsafeFrom   = 5 // index of the first snapshot whose app.conf says unsafe
	todoGoneFrom = 4 // index of the first snapshot without notes/todo.txt
	newBinFrom   = 2 // index of the first snapshot with data/new.bin
	renamedFrom  = 6 // index of the first snapshot with docs/README.md instead of docs/readme.md
	secretText   = "TOPSECRET-outside-the-snapshots-4242"
	bigFileBytes = 1 << 20
)

func mkfile(t *testing.T, path, content string, mt time.Time) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mt, mt); err != nil {
		t.Fatal(err)
	}
}

// snapTree writes one snapshot's worth of files for day i under dir.
func snapTree(t *testing.T, dir string, i int, mt time.Time) {
	t.Helper()
	conf := "listen=0.0.0.0\nmode=safe\n"
	if i >= unsafeFrom {
		conf = "listen=0.0.0.0\nmode=unsafe\n"
	}
	mkfile(t, filepath.Join(dir, "etc/app.conf"), conf, mt)
	if i < todoGoneFrom {
		mkfile(t, filepath.Join(dir, "notes/todo.txt"), "buy disks\n", mt)
	}
	if i >= newBinFrom {
		mkfile(t, filepath.Join(dir, "data/new.bin"), "fresh\n", mt)
	}
	readme := "docs/readme.md"
	if i >= renamedFrom {
		readme = "docs/README.md"
	}
	mkfile(t, filepath.Join(dir, readme), "# the manual, unchanged by the rename\n", mt)
	mkfile(t, filepath.Join(dir, "data/big.dat"), strings.Repeat("x", bigFileBytes), mt)
	if err := os.Symlink("/etc/passwd", filepath.Join(dir, "etc/escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../../secret.txt", filepath.Join(dir, "etc/escape-rel")); err != nil {
		t.Fatal(err)
	}
}

func newSnapFixture(t *testing.T) *snapFixture {
	t.Helper()
	f := &snapFixture{root: t.TempDir(), secret: secretText}
	f.backups = filepath.Join(f.root, "backups")
	f.live = filepath.Join(f.root, "live")
	mkfile(t, filepath.Join(f.root, "secret.txt"), secretText+"\n", time.Now())
	base := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	for i := range snapDays {
		day := base.AddDate(0, 0, i)
		name := "daily-" + day.Format("2006-01-02")
		f.days = append(f.days, name)
		snapTree(t, filepath.Join(f.backups, name), i, day)
	}
	// The live data went on changing after the last snapshot.
	snapTree(t, f.live, snapDays-1, time.Now())
	if err := os.Remove(filepath.Join(f.live, "data/new.bin")); err != nil {
		t.Fatal(err)
	}

	// ZFS: the mountpoint holds the live data and .zfs/snapshot the
	// snapshots, each a plain directory timed by its mtime.
	f.tank = filepath.Join(f.root, "tank")
	mkfile(t, filepath.Join(f.tank, "srv/index.html"), "v3 live\n", time.Now())
	for i, v := range []string{"v1", "v2"} {
		dir := filepath.Join(f.tank, ".zfs/snapshot", "auto-"+v)
		mt := base.AddDate(0, 0, i)
		mkfile(t, filepath.Join(dir, "srv/index.html"), v+"\n", mt)
		if err := os.Chtimes(dir, mt, mt); err != nil {
			t.Fatal(err)
		}
	}

	// snapper: .snapshots/N/snapshot with info.xml carrying the time.
	f.snapper = filepath.Join(f.root, "home")
	mkfile(t, filepath.Join(f.snapper, "op/.bashrc"), "alias ll='ls -l'\nexport EDITOR=vi\n", time.Now())
	for n, content := range []string{"alias ll='ls -l'\n", "alias ll='ls -l'\nexport EDITOR=nano\n"} {
		dir := filepath.Join(f.snapper, ".snapshots", fmt.Sprint(n+1))
		mkfile(t, filepath.Join(dir, "snapshot/op/.bashrc"), content, base)
		mkfile(t, filepath.Join(dir, "info.xml"), fmt.Sprintf("<?xml version=\"1.0\"?>\n<snapshot>\n  <type>single</type>\n  <num>%d</num>\n  <date>2026-01-0%d 12:00:00</date>\n</snapshot>\n", n+1, n+1), base)
	}
	return f
}

// config is a warden.yaml naming the fixture's three sources.
func (f *snapFixture) config(extra string) string {
	return fmt.Sprintf(`snapshots:
  - name: backups
    kind: dir
    path: %s
    pattern: "daily-*"
    time_format: "2006-01-02"
    live: %s
  - name: tank
    kind: zfs
    path: %s
    dataset: tank/data
  - name: home
    kind: btrfs
    path: %s
%s`, f.backups, f.live, f.tank, f.snapper, extra)
}

// auditRecords reads the audit log of a stopped or running server.
func auditRecords(t *testing.T, state string) []map[string]any {
	t.Helper()
	fh, err := os.Open(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var recs []map[string]any
	sc := bufio.NewScanner(fh)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		m := map[string]any{}
		if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
			t.Fatalf("audit line is not JSON: %v: %s", err, sc.Text())
		}
		recs = append(recs, m)
	}
	return recs
}

// mustOK calls a snapshot tool and fails the test unless it succeeded.
func mustOK(t *testing.T, s *stdioServer, tool string, args map[string]any) map[string]any {
	t.Helper()
	res, got := callTool(t, s.cs, tool, args)
	if res.IsError || got["status"] != "ok" {
		t.Fatalf("%s(%v): %s", tool, args, text(res))
	}
	return got
}

func list(m map[string]any, key string) []any {
	v, _ := m[key].([]any)
	return v
}

func obj(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

// TestSnapshotTools drives every snapshot tool through the real binary in
// readonly mode, so each is admitted as tier 0, and checks real answers
// against the fixture and an audit record for every call.
func TestSnapshotTools(t *testing.T) {
	f := newSnapFixture(t)
	cfg := writeFile(t, f.config(""))
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	calls := map[string]int{}
	call := func(tool string, args map[string]any) map[string]any {
		t.Helper()
		calls[tool]++
		return mustOK(t, s, tool, args)
	}
	first, last := f.days[0], f.days[snapDays-1]

	t.Run("tools are listed read-only", func(t *testing.T) {
		lt, err := s.cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, tool := range lt.Tools {
			if !slices.Contains(snapshotTools, tool.Name) {
				continue
			}
			seen[tool.Name] = true
			a := tool.Annotations
			if a == nil || !a.ReadOnlyHint || !a.IdempotentHint || a.OpenWorldHint == nil || *a.OpenWorldHint {
				t.Errorf("%s annotations = %+v, want read-only, idempotent, closed world", tool.Name, a)
			}
			if !strings.Contains(tool.Description, "backups (dir)") {
				t.Errorf("%s description does not name the configured datasets: %q", tool.Name, tool.Description)
			}
		}
		for _, name := range snapshotTools {
			if !seen[name] {
				t.Errorf("tool %s is not listed", name)
			}
		}
	})

	t.Run("snapshot_list", func(t *testing.T) {
		got := call("snapshot_list", map[string]any{"dataset": "backups"})
		snaps := list(got, "snapshots")
		if len(snaps) != snapDays || obj(snaps[0])["name"] != first || obj(snaps[snapDays-1])["name"] != last {
			t.Fatalf("snapshots = %v, want %d from %s to %s", snaps, snapDays, first, last)
		}
		if ts := obj(snaps[0])["time"]; ts != "2026-01-01T00:00:00Z" {
			t.Errorf("time of %s = %v, want the date from its name", first, ts)
		}
		if got["has_live"] != true {
			t.Errorf("has_live = %v, want true (live: is configured)", got["has_live"])
		}
		ranged := call("snapshot_list", map[string]any{"dataset": "backups", "after": "2026-01-03", "before": "2026-01-04"})
		if n := len(list(ranged, "snapshots")); n != 2 {
			t.Errorf("after/before kept %d snapshots, want 2: %v", n, ranged)
		}
		zfs := call("snapshot_list", map[string]any{"dataset": "tank"})
		if names := fmt.Sprint(list(zfs, "snapshots")); !strings.Contains(names, "auto-v1") || !strings.Contains(names, "auto-v2") || zfs["kind"] != "zfs" {
			t.Errorf("zfs snapshots = %v, want auto-v1 and auto-v2 from .zfs/snapshot", zfs)
		}
		snapper := call("snapshot_list", map[string]any{"dataset": "home"})
		if snaps := list(snapper, "snapshots"); len(snaps) != 2 || obj(snaps[1])["time"] != "2026-01-02T12:00:00Z" {
			t.Errorf("snapper snapshots = %v, want 1 and 2 timed by info.xml", snaps)
		}
	})

	t.Run("snapshot_list_dir", func(t *testing.T) {
		got := call("snapshot_list_dir", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc"})
		types := map[string]any{}
		for _, e := range list(got, "entries") {
			types[obj(e)["path"].(string)] = obj(e)["type"]
		}
		if types["etc/app.conf"] != "file" || types["etc/escape"] != "symlink" {
			t.Errorf("entries = %v, want app.conf a file and escape a symlink", types)
		}
	})

	t.Run("snapshot_read_file", func(t *testing.T) {
		got := call("snapshot_read_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/app.conf"})
		if got["content"] != "listen=0.0.0.0\nmode=safe\n" {
			t.Errorf("content = %q", got["content"])
		}
		live := call("snapshot_read_file", map[string]any{"dataset": "tank", "snapshot": "@live", "path": "srv/index.html"})
		if live["content"] != "v3 live\n" {
			t.Errorf("@live content = %q, want the mountpoint's file", live["content"])
		}
		link := call("snapshot_read_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/escape"})
		if link["type"] != "symlink" || link["link_target"] != "/etc/passwd" || link["content"] != "" {
			t.Errorf("symlink read = %v, want it described, not followed", link)
		}
		paged := call("snapshot_read_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "data/big.dat", "max_bytes": 10, "offset": 5})
		if paged["content"] != "xxxxxxxxxx" || paged["truncated"] != true {
			t.Errorf("paged read = %v, want 10 bytes and truncated", paged)
		}
	})

	t.Run("escapes are refused", func(t *testing.T) {
		passwd, _ := os.ReadFile("/etc/passwd")
		for _, p := range []string{"../../etc/passwd", "../../secret.txt", "/etc/passwd", "etc/../../../secret.txt", "etc/escape-rel"} {
			calls["snapshot_read_file"]++
			res, got := callTool(t, s.cs, "snapshot_read_file", map[string]any{"dataset": "backups", "snapshot": first, "path": p})
			body := text(res)
			if strings.Contains(body, secretText) || (len(passwd) > 0 && strings.Contains(body, "root:x:0:0")) {
				t.Fatalf("%s leaked content outside the snapshot: %s", p, body)
			}
			if p == "etc/escape-rel" {
				// A symlink inside the snapshot is described, never followed.
				if got["status"] != "ok" || got["type"] != "symlink" {
					t.Errorf("%s: %s, want a symlink description", p, body)
				}
				continue
			}
			if !res.IsError || got["status"] != "invalid_argument" {
				t.Errorf("%s: status %v, want invalid_argument: %s", p, got["status"], body)
			}
		}
		for _, snap := range []string{"../backups", "daily;id", "-o x"} {
			calls["snapshot_list_dir"]++
			res, got := callTool(t, s.cs, "snapshot_list_dir", map[string]any{"dataset": "backups", "snapshot": snap})
			if !res.IsError || got["status"] != "invalid_argument" {
				t.Errorf("snapshot %q: status %v, want invalid_argument", snap, got["status"])
			}
		}
		for _, ds := range []string{"pool;id", "-o x", "a b", "nope"} {
			calls["snapshot_list"]++
			res, got := callTool(t, s.cs, "snapshot_list", map[string]any{"dataset": ds})
			if !res.IsError || got["status"] != "invalid_argument" {
				t.Errorf("dataset %q: status %v, want invalid_argument", ds, got["status"])
			}
		}
	})

	t.Run("snapshot_find_files", func(t *testing.T) {
		got := call("snapshot_find_files", map[string]any{"dataset": "backups", "pattern": "todo*"})
		var where []string
		for _, f := range list(got, "files") {
			where = append(where, obj(f)["snapshot"].(string))
		}
		if len(where) != todoGoneFrom || !slices.Contains(where, first) || slices.Contains(where, last) {
			t.Errorf("todo* found in %v, want the first %d snapshots", where, todoGoneFrom)
		}
	})

	t.Run("snapshot_grep", func(t *testing.T) {
		got := call("snapshot_grep", map[string]any{"dataset": "backups", "snapshot": last, "regex": "mode=(un)?safe"})
		m := list(got, "matches")
		if len(m) != 1 || obj(m[0])["path"] != "etc/app.conf" || obj(m[0])["line"] != 2.0 || obj(m[0])["text"] != "mode=unsafe" {
			t.Errorf("matches = %v, want etc/app.conf line 2 mode=unsafe", m)
		}
	})

	t.Run("snapshot_diff", func(t *testing.T) {
		got := call("snapshot_diff", map[string]any{"dataset": "backups", "a": first, "b": last})
		paths := func(key, field string) []string {
			var out []string
			for _, e := range list(got, key) {
				out = append(out, fmt.Sprint(obj(e)[field]))
			}
			return out
		}
		if !slices.Contains(paths("removed", "path"), "notes/todo.txt") {
			t.Errorf("removed = %v, want notes/todo.txt", paths("removed", "path"))
		}
		if !slices.Contains(paths("added", "path"), "data/new.bin") {
			t.Errorf("added = %v, want data/new.bin", paths("added", "path"))
		}
		if !slices.Contains(paths("modified", "path"), "etc/app.conf") {
			t.Errorf("modified = %v, want etc/app.conf", paths("modified", "path"))
		}
		if r := list(got, "renamed"); len(r) != 1 || obj(r[0])["from"] != "docs/readme.md" || obj(r[0])["to"] != "docs/README.md" {
			t.Errorf("renamed = %v, want docs/readme.md -> docs/README.md", r)
		}
	})

	t.Run("file_diff", func(t *testing.T) {
		got := call("file_diff", map[string]any{"dataset": "backups", "a": first, "b": last, "path": "etc/app.conf"})
		d, _ := got["diff"].(string)
		if !strings.Contains(d, "-mode=safe") || !strings.Contains(d, "+mode=unsafe") || got["identical"] != false {
			t.Errorf("diff = %q", d)
		}
		snapper := call("file_diff", map[string]any{"dataset": "home", "a": "1", "b": "@live", "path": "op/.bashrc"})
		if d, _ := snapper["diff"].(string); !strings.Contains(d, "+export EDITOR=vi") {
			t.Errorf("snapper diff against @live = %q", d)
		}
	})

	t.Run("versions_of", func(t *testing.T) {
		got := call("versions_of", map[string]any{"dataset": "backups", "path": "etc/app.conf"})
		v := list(got, "versions")
		if len(v) != 2 {
			t.Fatalf("versions = %v, want 2 distinct contents", v)
		}
		want := sha256.Sum256([]byte("listen=0.0.0.0\nmode=safe\n"))
		if obj(v[0])["sha256"] != hex.EncodeToString(want[:]) || len(list(obj(v[0]), "snapshots")) != unsafeFrom || len(list(obj(v[1]), "snapshots")) != snapDays-unsafeFrom {
			t.Errorf("versions = %v, want safe in %d snapshots then unsafe in %d", v, unsafeFrom, snapDays-unsafeFrom)
		}
	})

	t.Run("first_appearance and last_appearance", func(t *testing.T) {
		got := call("first_appearance", map[string]any{"dataset": "backups", "path": "data/new.bin"})
		if got["snapshot"] != f.days[newBinFrom] || got["neighbor"] != f.days[newBinFrom-1] {
			t.Errorf("first_appearance = %v, want %s after %s", got, f.days[newBinFrom], f.days[newBinFrom-1])
		}
		got = call("last_appearance", map[string]any{"dataset": "backups", "path": "notes/todo.txt"})
		if got["snapshot"] != f.days[todoGoneFrom-1] || got["neighbor"] != f.days[todoGoneFrom] {
			t.Errorf("last_appearance = %v, want %s before %s", got, f.days[todoGoneFrom-1], f.days[todoGoneFrom])
		}
	})

	t.Run("find_deleted", func(t *testing.T) {
		got := call("find_deleted", map[string]any{"dataset": "backups"})
		var deleted []string
		for _, d := range list(got, "deleted") {
			deleted = append(deleted, obj(d)["path"].(string))
			if obj(d)["path"] == "notes/todo.txt" && (obj(d)["last_seen"] != f.days[todoGoneFrom-1] || obj(d)["gone_in"] != f.days[todoGoneFrom]) {
				t.Errorf("todo.txt bracketed by %v..%v, want %s..%s", obj(d)["last_seen"], obj(d)["gone_in"], f.days[todoGoneFrom-1], f.days[todoGoneFrom])
			}
		}
		if !slices.Contains(deleted, "notes/todo.txt") || slices.Contains(deleted, "docs/readme.md") {
			t.Errorf("deleted = %v, want notes/todo.txt and not the renamed readme", deleted)
		}
		if m := list(got, "moved"); len(m) != 1 || obj(m[0])["to"] != "docs/README.md" {
			t.Errorf("moved = %v, want the readme rename", m)
		}
		live := call("find_deleted", map[string]any{"dataset": "backups", "after": f.days[newBinFrom][len("daily-"):], "against_live": true})
		if fmt.Sprint(live["to"]) != "@live" || !strings.Contains(fmt.Sprint(live["deleted"]), "data/new.bin") {
			t.Errorf("against live = %v, want data/new.bin deleted in @live", live)
		}
	})

	t.Run("size_breakdown and top_consumers", func(t *testing.T) {
		got := call("size_breakdown", map[string]any{"dataset": "backups", "snapshot": last, "depth": 1})
		sizes := map[string]float64{}
		for _, d := range list(got, "dirs") {
			sizes[obj(d)["path"].(string)] = obj(d)["bytes"].(float64)
		}
		if sizes["data"] < bigFileBytes || sizes["etc"] >= 1024 {
			t.Errorf("sizes = %v, want data >= 1 MiB and etc small", sizes)
		}
		top := call("top_consumers", map[string]any{"dataset": "backups", "snapshot": last, "n": 1})
		if files := list(top, "files"); len(files) != 1 || obj(files[0])["path"] != "data/big.dat" {
			t.Errorf("top files = %v, want data/big.dat", files)
		}
	})

	t.Run("stale_snapshots", func(t *testing.T) {
		got := call("stale_snapshots", map[string]any{"dataset": "backups", "older_than": "1d"})
		if n := len(list(got, "snapshots")); n != snapDays {
			t.Errorf("stale = %d snapshots, want all %d (they are from 2026-01)", n, snapDays)
		}
		// Still listed afterwards: the tool reports, nothing is destroyed.
		if n := len(list(call("snapshot_list", map[string]any{"dataset": "backups"}), "snapshots")); n != snapDays {
			t.Errorf("after stale_snapshots %d snapshots remain, want %d", n, snapDays)
		}
	})

	t.Run("bisect_change", func(t *testing.T) {
		got := call("bisect_change", map[string]any{"dataset": "backups", "path": "etc/app.conf", "predicate": "contains", "value": "unsafe"})
		if got["flipped"] != true || got["first_changed"] != f.days[unsafeFrom] || got["last_unchanged"] != f.days[unsafeFrom-1] {
			t.Errorf("bisect = %v, want the flip at %s", got, f.days[unsafeFrom])
		}
		bound := int(math.Ceil(math.Log2(snapDays))) + 1
		if v := list(got, "visited"); len(v) > bound || len(v) == 0 {
			t.Errorf("bisect visited %d snapshots, want 1..%d", len(v), bound)
		}
	})

	t.Run("checksum_file", func(t *testing.T) {
		got := call("checksum_file", map[string]any{"dataset": "backups", "snapshot": last, "path": "data/big.dat"})
		want := sha256.Sum256([]byte(strings.Repeat("x", bigFileBytes)))
		if got["digest"] != hex.EncodeToString(want[:]) || got["size"] != float64(bigFileBytes) {
			t.Errorf("checksum = %v", got)
		}
	})

	t.Run("file_history and snapshots_containing", func(t *testing.T) {
		got := call("file_history", map[string]any{"dataset": "backups", "path": "etc/app.conf"})
		revs := list(got, "revisions")
		if len(revs) != snapDays {
			t.Fatalf("file_history = %v, want %d revisions", got, snapDays)
		}
		var changed []string
		for _, r := range revs {
			if obj(r)["change"] == "modified" {
				changed = append(changed, obj(r)["snapshot"].(string))
			}
		}
		if !slices.Equal(changed, []string{f.days[unsafeFrom]}) || got["changes"] != 1.0 {
			t.Errorf("modified in %v (changes %v), want only %s", changed, got["changes"], f.days[unsafeFrom])
		}
		unsafe := sha256.Sum256([]byte("listen=0.0.0.0\nmode=unsafe\n"))
		got = call("snapshots_containing", map[string]any{"dataset": "backups", "path": "etc/app.conf", "sha256": hex.EncodeToString(unsafe[:])})
		if n := len(list(got, "snapshots")); n != snapDays-unsafeFrom || obj(list(got, "snapshots")[0])["snapshot"] != f.days[unsafeFrom] {
			t.Errorf("snapshots_containing unsafe = %v, want %d from %s", got, snapDays-unsafeFrom, f.days[unsafeFrom])
		}
	})

	t.Run("snapshot_cadence", func(t *testing.T) {
		got := call("snapshot_cadence", map[string]any{"dataset": "backups"})
		sc := list(got, "schemes")
		if len(sc) != 1 || obj(sc[0])["scheme"] != "daily" || obj(sc[0])["count"] != float64(snapDays) || obj(sc[0])["gap_count"] != 0.0 {
			t.Errorf("cadence = %v, want one daily scheme of %d snapshots without gaps", got, snapDays)
		}
		// The fixture's snapshots are from January 2026: long overdue.
		if got["verdict"] != "late" || obj(sc[0])["newest"] != last {
			t.Errorf("verdict = %v, newest %v; want late, %s", got["verdict"], obj(sc[0])["newest"], last)
		}
	})

	t.Run("size_delta", func(t *testing.T) {
		got := call("size_delta", map[string]any{"dataset": "backups", "from": f.days[newBinFrom-1], "to": f.days[newBinFrom]})
		files := list(got, "files")
		if got["delta_bytes"] != float64(len("fresh\n")) || got["added_bytes"] != float64(len("fresh\n")) || len(files) != 1 || obj(files[0])["path"] != "data/new.bin" {
			t.Errorf("size_delta = %v, want data/new.bin added (6 bytes) and nothing else", got)
		}
	})

	t.Run("snapshot_pools", func(t *testing.T) {
		got := call("snapshot_pools", map[string]any{"dataset": "backups"})
		if got["available"] != false || !strings.Contains(fmt.Sprint(got["reason"]), "no pool") {
			t.Errorf("snapshot_pools on a directory source = %v, want unavailable with the reason", got)
		}
	})

	t.Run("special files are never opened", func(t *testing.T) {
		// A snapshot of a root file system holds device nodes, and
		// opening one opens the live device (/dev/watchdog's open arms
		// the watchdog). A FIFO with a writer blocked in its open stands
		// in; the tools may describe it, never open it.
		for _, d := range []string{filepath.Join(f.tank, "fifos"), filepath.Join(f.backups, last, "fifos")} {
			if err := os.Mkdir(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		cases := []struct {
			tool string
			fifo string // below the dataset's root (tank live, or backups' last snapshot)
			args map[string]any
			ok   bool // the call may succeed (it walks past the FIFO)
		}{
			{"snapshot_read_file", "tank/read", map[string]any{"dataset": "tank", "snapshot": "@live", "path": "fifos/read"}, false},
			{"snapshot_read_file", "tank/read_off", map[string]any{"dataset": "tank", "snapshot": "@live", "path": "fifos/read_off", "offset": 2, "max_bytes": 1}, false},
			{"snapshot_read_file", "backups/read", map[string]any{"dataset": "backups", "snapshot": last, "path": "fifos/read"}, false},
			{"checksum_file", "tank/sum", map[string]any{"dataset": "tank", "snapshot": "@live", "path": "fifos/sum"}, false},
			{"checksum_file", "backups/sum", map[string]any{"dataset": "backups", "snapshot": last, "path": "fifos/sum"}, false},
			{"snapshot_grep", "tank/grep", map[string]any{"dataset": "tank", "snapshot": "@live", "path": "fifos", "regex": "x"}, true},
			{"versions_of", "backups/versions", map[string]any{"dataset": "backups", "path": "fifos/versions"}, true},
			{"file_history", "backups/history", map[string]any{"dataset": "backups", "path": "fifos/history"}, true},
			{"bisect_change", "backups/bisect", map[string]any{"dataset": "backups", "path": "fifos/bisect", "predicate": "contains", "value": "x"}, true},
			{"file_diff", "backups/diff", map[string]any{"dataset": "backups", "a": last, "b": last, "path": "fifos/diff"}, true},
		}
		dirs := map[string]string{"tank": filepath.Join(f.tank, "fifos"), "backups": filepath.Join(f.backups, last, "fifos")}
		released := map[string]func() bool{}
		for _, c := range cases {
			ds, name, _ := strings.Cut(c.fifo, "/")
			released[c.fifo] = hostfstest.BlockedFIFO(t, filepath.Join(dirs[ds], name))
		}
		time.Sleep(100 * time.Millisecond)
		for _, c := range cases {
			calls[c.tool]++
			if _, got := callTool(t, s.cs, c.tool, c.args); got["status"] == "ok" && !c.ok {
				t.Errorf("%s of a FIFO succeeded: %v", c.tool, got)
			}
		}
		time.Sleep(200 * time.Millisecond)
		for name, rel := range released {
			if rel() {
				t.Errorf("%s: the FIFO was opened", name)
			}
		}
	})

	t.Run("every call is audited", func(t *testing.T) {
		recs := auditRecords(t, state)
		perTool := map[string]int{}
		for _, r := range recs {
			tool, _ := r["tool"].(string)
			if !slices.Contains(snapshotTools, tool) {
				continue
			}
			perTool[tool]++
			if r["tier"] != 0.0 {
				t.Errorf("%s audited at tier %v, want 0", tool, r["tier"])
			}
			if r["status"] == "ok" && (r["output_sha256"] == nil || r["output_len"] == nil) {
				t.Errorf("%s record has no output digest: %v", tool, r)
			}
			if b, _ := json.Marshal(r); strings.Contains(string(b), secretText) || strings.Contains(string(b), "mode=unsafe") {
				t.Errorf("%s record carries output text: %s", tool, b)
			}
		}
		for _, name := range snapshotTools {
			if calls[name] == 0 {
				t.Errorf("%s was never called", name)
			}
			if perTool[name] != calls[name] {
				t.Errorf("%s: %d audit records for %d calls", name, perTool[name], calls[name])
			}
		}
	})
}

// TestSnapshotPinnedCommandIsPoliced shows that the zfs list the engine may
// run is what the policy evaluates: an operator deny rule on it refuses
// calls on the ZFS dataset, audited as denied, while a directory dataset,
// which runs nothing, is unaffected.
func TestSnapshotPinnedCommandIsPoliced(t *testing.T) {
	f := newSnapFixture(t)
	cfg := writeFile(t, f.config("policy:\n  deny:\n    - 'zfs +list'\n"))
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "snapshot_list", map[string]any{"dataset": "tank"})
	if !res.IsError || got["status"] != "denied" {
		t.Fatalf("snapshot_list on zfs with zfs list denied: %s, want denied", text(res))
	}
	mustOK(t, s, "snapshot_list", map[string]any{"dataset": "backups"})
	var decisions []string
	for _, r := range auditRecords(t, state) {
		if r["tool"] == "snapshot_list" {
			decisions = append(decisions, fmt.Sprint(r["status"]))
		}
	}
	if !slices.Equal(decisions, []string{"denied", "ok"}) {
		t.Errorf("audited statuses = %v, want [denied ok]", decisions)
	}
}

// TestSnapshotToolsWithoutSources checks that a server with no snapshots:
// still offers the tools, and that they explain themselves.
func TestSnapshotToolsWithoutSources(t *testing.T) {
	env, state := wardenEnv(t)
	s := startStdio(t, env, state, nil)
	for tool, args := range map[string]map[string]any{
		"snapshot_list": {"dataset": "tank"},
		"versions_of":   {"dataset": "tank", "path": "etc/app.conf"},
	} {
		res, got := callTool(t, s.cs, tool, args)
		if !res.IsError || got["status"] != "invalid_argument" || !strings.Contains(text(res), "no snapshot sources configured") {
			t.Errorf("%s: %s, want invalid_argument naming the missing configuration", tool, text(res))
		}
	}
	if n := len(auditRecords(t, state)); n != 2 {
		t.Errorf("%d audit records, want 2", n)
	}
}

// TestSnapshotBadSourceFailsStartup checks that a source the server cannot
// serve stops it from starting, with a message saying which and why.
func TestSnapshotBadSourceFailsStartup(t *testing.T) {
	tests := []struct {
		name, entry, want string
	}{
		{"remote host without inventory", "name: b\n    kind: dir\n    path: /srv/backups\n    host: nas", `host "nas"`},
		{"relative path", "name: b\n    kind: dir\n    path: backups", "must be absolute"},
		{"hostile name", "name: \"pool;id\"\n    kind: dir\n    path: /srv/backups", "pool;id"},
		{"unknown kind", "name: b\n    kind: lvm\n    path: /srv", "lvm"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := writeFile(t, "snapshots:\n  - "+tc.entry+"\n")
			env, _ := wardenEnv(t, "WARDEN_CONFIG="+cfg)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, wardenBin, "serve")
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			if err == nil || !strings.Contains(string(out), tc.want) {
				t.Fatalf("serve: err = %v, output %q; want a startup error mentioning %q", err, out, tc.want)
			}
		})
	}
}
