package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// buildCopies builds the scenario as directory copies: the live tree is
// changed step by step and copied with cp -a after each step to
// parent/<name(i)>.
func buildCopies(t *testing.T, dir, parent string, name func(i int) string) {
	t.Helper()
	outside := makeOutside(t, dir)
	live := filepath.Join(dir, "live")
	sc := newScenario(outside)
	for i, step := range sc.steps {
		step(t, live)
		copyTree(t, live, filepath.Join(parent, name(i)))
	}
}

func TestDirSource(t *testing.T) {
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	stamps := []string{"2026-11-01T0300", "2026-11-02T0300", "2026-11-03T0300"}
	buildCopies(t, dir, backups, func(i int) string { return "backup-" + stamps[i] })
	// Dated names sort by their time, not by the mtime cp gave them:
	// make the mtimes disagree with the names.
	for i, s := range stamps {
		mt := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(backups, "backup-"+s), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	// A directory not matching the pattern is not a snapshot.
	if err := os.MkdirAll(filepath.Join(backups, "lost+found"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "backups", Kind: KindDir, Path: backups, Pattern: "backup-*", TimeFormat: "2006-01-02T1504"}}})
	res, err := e.List(context.Background(), ListArgs{Dataset: "backups"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Snapshots {
		got = append(got, s.Name+"@"+s.Time.Format("2006-01-02T15:04"))
	}
	want := []string{"backup-2026-11-01T0300@2026-11-01T03:00", "backup-2026-11-02T0300@2026-11-02T03:00", "backup-2026-11-03T0300@2026-11-03T03:00"}
	if !slices.Equal(got, want) {
		t.Fatalf("snapshots = %v, want %v", got, want)
	}

	// The shared suite names snapshots s1..s3: move the copies there,
	// timed by mtime this time.
	suiteDir := filepath.Join(dir, "suite")
	if err := os.MkdirAll(suiteDir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i, s := range stamps {
		to := filepath.Join(suiteDir, fmt.Sprintf("s%d", i+1))
		if err := os.Rename(filepath.Join(backups, "backup-"+s), to); err != nil {
			t.Fatal(err)
		}
		mt := t0.Add(time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(to, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	e = newEngine(t, Config{Sources: []SourceConfig{{Name: "copies", Kind: KindDir, Path: suiteDir, Pattern: "s*", Live: filepath.Join(dir, "live")}}})
	runSuite(t, e, "copies")
	t.Run("live", func(t *testing.T) {
		res, err := e.Diff(context.Background(), DiffArgs{Dataset: "copies", A: "s3", B: LiveSnapshot})
		if err != nil {
			t.Fatal(err)
		}
		if res.AddedCount+res.RemovedCount+res.ModifiedCount != 0 {
			t.Errorf("s3 vs live differ: %+v", res)
		}
	})
}

func TestRsnapshotByMtime(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 11, 20, 3, 0, 0, 0, time.UTC)
	// rsnapshot: daily.0 is the newest.
	for i := range 4 {
		root := filepath.Join(dir, fmt.Sprintf("daily.%d", i))
		writeFile(t, root, "etc/motd", fmt.Sprintf("day %d\n", i), time.Time{})
		mt := base.Add(-time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(root, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, "weekly.0"), 0o755); err != nil {
		t.Fatal(err)
	}
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "rs", Kind: KindDir, Path: dir, Pattern: "daily.*"}}})
	res, err := e.List(context.Background(), ListArgs{Dataset: "rs"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Snapshots {
		got = append(got, s.Name)
	}
	if want := []string{"daily.3", "daily.2", "daily.1", "daily.0"}; !slices.Equal(got, want) {
		t.Fatalf("order = %v, want %v (oldest first by mtime)", got, want)
	}
	res, err = e.List(context.Background(), ListArgs{Dataset: "rs", After: "2026-11-18", Before: "2026-11-19T12:00:00Z"})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Snapshots) != 2 || res.Snapshots[0].Name != "daily.2" {
		t.Fatalf("range = %+v, want daily.2, daily.1", res.Snapshots)
	}
	e.now = func() time.Time { return base.Add(time.Hour) }
	st, err := e.Stale(context.Background(), StaleArgs{Dataset: "rs", OlderThan: "2d"})
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Snapshots) != 2 || st.Snapshots[0].Name != "daily.3" || st.Snapshots[1].Name != "daily.2" {
		t.Fatalf("stale 2d = %+v, want daily.3, daily.2", st.Snapshots)
	}
}

func TestZFSLayout(t *testing.T) {
	dir := t.TempDir()
	mount := filepath.Join(dir, "tank-home")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return fmt.Sprintf("s%d", i+1) })
	// Live data at the mountpoint.
	copyTree(t, filepath.Join(dir, "live", "etc"), filepath.Join(mount, "etc"))
	setMtimes(t, snapdir)

	t.Run("directory", func(t *testing.T) {
		e := newEngine(t, Config{Sources: []SourceConfig{{Name: "home", Kind: KindZFS, Path: mount}}})
		runSuite(t, e, "home")
	})

	t.Run("zfs_list", func(t *testing.T) {
		// zfs list is authoritative for times and space when configured;
		// its order (s3 oldest here) must win over directory mtimes.
		out := "tank/home@s3\t1761966000\t0\t1000\ntank/home@s1\t1762052400\t4096\t2000\ntank/home@s2\t1762138800\t8192\t3000\n"
		rr := &recordingRunner{answers: map[string]string{strings.Join(zfsListArgv("tank/home"), " "): out}}
		e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "home", Kind: KindZFS, Path: mount, Dataset: "tank/home"}}})
		res, err := e.List(context.Background(), ListArgs{Dataset: "home"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.Snapshots {
			got = append(got, fmt.Sprintf("%s/%d/%d", s.Name, s.Used, s.Referenced))
		}
		if want := []string{"s3/0/1000", "s1/4096/2000", "s2/8192/3000"}; !slices.Equal(got, want) {
			t.Fatalf("snapshots = %v, want %v", got, want)
		}
		if res.Snapshots[0].Root != filepath.Join(snapdir, "s3") {
			t.Errorf("root = %s", res.Snapshots[0].Root)
		}
		if !res.HasLive {
			t.Errorf("zfs source has no live data")
		}
		argvs := rr.seen()
		if len(argvs) != 1 || !slices.Equal(argvs[0], []string{"zfs", "list", "-H", "-p", "-o", "name,creation,used,referenced", "-t", "snapshot", "-d", "1", "tank/home"}) {
			t.Errorf("argv = %q", argvs)
		}
		// Reading works through the listed roots, and @live reads the mountpoint.
		r, err := e.ReadFile(context.Background(), ReadFileArgs{Dataset: "home", Snapshot: LiveSnapshot, Path: "etc/app.conf"})
		if err != nil || r.Content != "port=8081\nmode=prod\n" {
			t.Errorf("live read = %q, %v", r.Content, err)
		}
	})

	t.Run("zfs_list_fails", func(t *testing.T) {
		rr := &recordingRunner{}
		e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "home", Kind: KindZFS, Path: mount, Dataset: "tank/home"}}})
		res, err := e.List(context.Background(), ListArgs{Dataset: "home"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Snapshots) != 3 || res.Snapshots[0].Name != "s1" {
			t.Errorf("fallback to .zfs/snapshot: %+v", res.Snapshots)
		}
	})
}

// setMtimes dates snapshots s1..s3 under dir a day apart, as ZFS reports
// creation times through .zfs/snapshot.
func setMtimes(t *testing.T, dir string) {
	t.Helper()
	for i := range 3 {
		mt := t0.Add(time.Duration(i) * 24 * time.Hour)
		if err := os.Chtimes(filepath.Join(dir, fmt.Sprintf("s%d", i+1)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}
