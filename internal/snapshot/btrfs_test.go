package snapshot

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/snapshot/btrfstest"
)

// TestBtrfsSnapshots runs the suite against real read-only btrfs snapshot
// subvolumes, timed by `btrfs subvolume show` through a real runner.
func TestBtrfsSnapshots(t *testing.T) {
	mnt := btrfstest.Mount(t)
	live, snaps := btrfsScenario(t, mnt)
	// The snapshots really are read-only subvolumes.
	if err := os.WriteFile(filepath.Join(snaps, "s1", "x"), nil, 0o644); err == nil {
		t.Fatal("wrote into a read-only snapshot")
	}

	rr := &recordingRunner{next: execRunner{}}
	e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "vol", Kind: KindBtrfs, Path: snaps, Live: live}}})
	res, err := e.List(context.Background(), ListArgs{Dataset: "vol"})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Snapshots {
		out := mustRun(t, "btrfs", "subvolume", "show", s.Root)
		want, ok := parseBtrfsCreation([]byte(out))
		if !ok || !s.Time.Equal(want) {
			t.Errorf("%s time = %v, want creation time %v from btrfs subvolume show", s.Name, s.Time, want)
		}
		if time.Since(s.Time) > 10*time.Minute {
			t.Errorf("%s time %v is not recent", s.Name, s.Time)
		}
	}
	for _, argv := range rr.seen() {
		if !slices.Equal(argv[:3], []string{"btrfs", "subvolume", "show"}) {
			t.Errorf("engine ran %q", argv)
		}
	}
	runSuite(t, e, "vol")
	t.Run("live", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(live, "after.txt"), []byte("after\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(filepath.Join(live, "new.txt")); err != nil {
			t.Fatal(err)
		}
		deleted := func(after string) []string {
			t.Helper()
			res, err := e.FindDeleted(context.Background(), FindDeletedArgs{Dataset: "vol", After: after, AgainstLive: true})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range res.Deleted {
				got = append(got, d.Path+"@"+d.LastSeen+".."+d.GoneIn)
			}
			return got
		}
		// Over the whole range: present in s1, gone from live. new.txt did
		// not exist in s1, so it is not in this answer (by definition).
		if got, want := deleted(""), []string{"old.txt@s1..s2"}; !slices.Equal(got, want) {
			t.Errorf("deleted since s1 = %v, want %v", got, want)
		}
		list, err := e.List(context.Background(), ListArgs{Dataset: "vol"})
		if err != nil {
			t.Fatal(err)
		}
		after := list.Snapshots[2].Time.Format(time.RFC3339Nano)
		if got, want := deleted(after), []string{"new.txt@s3.." + LiveSnapshot}; !slices.Equal(got, want) {
			t.Errorf("deleted since s3 = %v, want %v", got, want)
		}
	})
}

// TestBtrfsSnapper runs the suite against snapper's layout on real btrfs:
// <subvolume>/.snapshots/N/snapshot with N/info.xml giving the time.
func TestBtrfsSnapper(t *testing.T) {
	mnt := btrfstest.Mount(t)
	outside := makeOutside(t, mnt)
	sv := filepath.Join(mnt, "home")
	mustRun(t, "btrfs", "subvolume", "create", sv)
	mustRun(t, "btrfs", "subvolume", "create", filepath.Join(sv, ".snapshots"))
	sc := newScenario(outside)
	for i, step := range sc.steps {
		step(t, sv)
		n := filepath.Join(sv, ".snapshots", fmt.Sprint(i+1))
		if err := os.Mkdir(n, 0o750); err != nil {
			t.Fatal(err)
		}
		mustRun(t, "btrfs", "subvolume", "snapshot", "-r", sv, filepath.Join(n, "snapshot"))
		// snapper writes its time in UTC; make it disagree with creation
		// order to prove info.xml wins.
		when := time.Date(2026, 11, 10-i, 3, 0, 0, 0, time.UTC)
		writeFile(t, n, "info.xml", fmt.Sprintf("<?xml version=\"1.0\"?>\n<snapshot>\n  <type>single</type>\n  <num>%d</num>\n  <date>%s</date>\n  <description>test</description>\n</snapshot>\n", i+1, when.Format("2006-01-02 15:04:05")), time.Time{})
	}
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "home", Kind: KindBtrfs, Path: sv}}})
	res, err := e.List(context.Background(), ListArgs{Dataset: "home"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range res.Snapshots {
		got = append(got, s.Name+"@"+s.Time.Format("01-02"))
	}
	if want := []string{"3@11-08", "2@11-09", "1@11-10"}; !slices.Equal(got, want) {
		t.Fatalf("snapper snapshots = %v, want %v", got, want)
	}
	if !res.HasLive {
		t.Error("snapper layout has no live data")
	}
	// Put the times in creation order for the shared suite.
	for i := range 3 {
		when := time.Date(2026, 11, 1+i, 3, 0, 0, 0, time.UTC)
		writeFile(t, filepath.Join(sv, ".snapshots", fmt.Sprint(i+1)), "info.xml", "<snapshot><date>"+when.Format("2006-01-02 15:04:05")+"</date></snapshot>", time.Time{})
	}
	runSuite(t, e, "home", "1", "2", "3")
}

// btrfsScenario plays the shared scenario on a btrfs filesystem mounted
// at mnt: the live subvolume mnt/live, a read-only snapshot of it in
// mnt/snaps after each step, with the scenario's symlinks pointing to a
// directory outside both.
func btrfsScenario(t *testing.T, mnt string) (live, snaps string) {
	t.Helper()
	outside := makeOutside(t, mnt)
	live = filepath.Join(mnt, "live")
	snaps = filepath.Join(mnt, "snaps")
	mustRun(t, "btrfs", "subvolume", "create", live)
	if err := os.Mkdir(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	sc := newScenario(outside)
	for i, step := range sc.steps {
		step(t, live)
		mustRun(t, "btrfs", "subvolume", "snapshot", "-r", live, filepath.Join(snaps, sc.names[i]))
		if i < len(sc.steps)-1 {
			// Creation times have one-second resolution.
			time.Sleep(1100 * time.Millisecond)
		}
	}
	return live, snaps
}
