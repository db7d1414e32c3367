package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/snapshot/btrfstest"
)

func readTestdata(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestZFSPoolsCaptured answers snapshot_pools' commands with real OpenZFS
// output recorded by a third party (testdata/README.md says where): the
// pool's health and space, its filesystems and their snapshot counts.
func TestZFSPoolsCaptured(t *testing.T) {
	snaps := string(firstFields([]byte(readTestdata(t, "zfs-list-snapshots.captured.txt")), 1))
	rr := &recordingRunner{answers: map[string]string{
		strings.Join(zpoolListArgv("tank"), " "):      readTestdata(t, "zpool-list.captured.txt"),
		"zpool status tank":                           readTestdata(t, "zpool-status.captured.txt"),
		strings.Join(zfsFilesystemsArgv("tank"), " "): readTestdata(t, "zfs-list-filesystems.captured.txt"),
		"zfs list -H -o name -t snapshot -r tank":     snaps,
	}}
	e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "data", Kind: KindZFS, Path: "/tank/data", Dataset: "tank/data"}}})
	res, err := e.Pools(context.Background(), PoolsArgs{Dataset: "data"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Available || res.Reason != "" || len(res.Pools) != 1 {
		t.Fatalf("pools = %+v", res)
	}
	p := res.Pools[0]
	if p.Name != "tank" || p.Health != "ONLINE" || p.State != "ONLINE" || p.Errors != "No known data errors" || p.SizeBytes != 1006632960 || p.AllocBytes != 335360 || p.FreeBytes != 1006297600 || p.FragmentationPct != 3 {
		t.Errorf("tank = %+v", p)
	}
	got := map[string]DatasetUsage{}
	for _, d := range res.Datasets {
		got[d.Name] = d
	}
	if len(got) != 4 || got["tank/data"].Used != 49152 || got["tank/data"].Snapshots != 1 || got["tank/data/customer"].Snapshots != 1 || got["tank/home"].Snapshots != 0 || got["tank/home"].Mountpoint != "/tank/home" {
		t.Errorf("datasets = %+v", res.Datasets)
	}
	for _, argv := range rr.seen() {
		if !commandAllowed(argv) {
			t.Errorf("ran %q, not an allowed command", argv)
		}
	}
	// A directory source has no pool, and says so.
	e = newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: t.TempDir()}}})
	if res, err := e.Pools(context.Background(), PoolsArgs{Dataset: "d"}); err != nil || res.Available || res.Reason == "" {
		t.Errorf("dir source: %+v %v", res, err)
	}
}

func TestParsePoolsRefusesGarbage(t *testing.T) {
	for _, out := range []string{"tank\t1\n", "tank\tx\t1\t1\t1\t1\tONLINE\n"} {
		if _, err := parseZpoolList([]byte(out)); err == nil {
			t.Errorf("zpool list %q parsed", out)
		}
	}
	if _, err := parseZFSFilesystems([]byte("tank\t/tank\n")); err == nil {
		t.Error("short zfs list parsed")
	}
	for _, out := range []string{"Qgroupid Referenced Exclusive\n-------- ---------- ---------\n", "0/5 16.00KiB 16.00KiB <toplevel>\n"} {
		if _, err := parseQgroups([]byte(out)); err == nil {
			t.Errorf("qgroup show %q parsed", out)
		}
	}
	if _, ok := parseSubvolumeID([]byte("\tSubvolume ID: \t\tx\n")); ok {
		t.Error("a non-numeric subvolume id parsed")
	}
	if _, err := parseBtrfsUsage([]byte("nothing here\n")); err == nil {
		t.Error("empty btrfs filesystem usage parsed")
	}
	if _, err := parseBtrfsUsage([]byte("Overall:\n    Device size:\t\t 256.00MiB\n    Used:\t\t 1\n    Free (estimated):\t 1\n")); err == nil {
		t.Error("human-readable sizes parsed")
	}
}

// TestBtrfsPools lists a real loop-mounted btrfs: its device and its
// subvolumes, snapshots marked.
func TestBtrfsPools(t *testing.T) {
	mnt := btrfstest.Mount(t)
	live := filepath.Join(mnt, "live")
	snaps := filepath.Join(mnt, "snaps")
	mustRun(t, "btrfs", "subvolume", "create", live)
	if err := os.Mkdir(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, live, "f", "x", t0)
	mustRun(t, "btrfs", "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
	e := newEngine(t, Config{Runner: execRunner{}, Sources: []SourceConfig{{Name: "vol", Kind: KindBtrfs, Path: snaps, Live: live}}})
	res, err := e.Pools(context.Background(), PoolsArgs{Dataset: "vol"})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Available || res.Reason != "" || len(res.Pools) != 1 || len(res.Pools[0].Devices) != 1 || !strings.HasPrefix(res.Pools[0].Devices[0].Path, "/dev/loop") || res.Pools[0].SizeBytes != 256<<20 || res.Pools[0].AllocBytes == 0 || res.Pools[0].FreeBytes == 0 {
		t.Fatalf("pools = %+v", res)
	}
	var got []string
	for _, s := range res.Subvolumes {
		got = append(got, s.Path+map[bool]string{true: " (snapshot)", false: ""}[s.Snapshot])
	}
	if want := []string{"live", "snaps/s1 (snapshot)"}; !slices.Equal(got, want) {
		t.Errorf("subvolumes = %v, want %v", got, want)
	}
}

// TestBtrfsQgroups: with quotas enabled on a real btrfs, size_delta adds
// the quota groups of both snapshots; without them it says why and the
// walk's answer stands.
func TestBtrfsQgroups(t *testing.T) {
	mnt := btrfstest.Mount(t)
	live := filepath.Join(mnt, "live")
	snaps := filepath.Join(mnt, "snaps")
	mustRun(t, "btrfs", "subvolume", "create", live)
	if err := os.Mkdir(snaps, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, live, "small", "x", t0)
	mustRun(t, "btrfs", "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
	writeFile(t, live, "big", strings.Repeat("y", 2<<20), t1)
	mustRun(t, "sync")
	mustRun(t, "btrfs", "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s2"))
	e := newEngine(t, Config{Runner: execRunner{}, Sources: []SourceConfig{{Name: "vol", Kind: KindBtrfs, Path: snaps, Live: live}}})
	res, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: "vol", From: "s1", To: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Delta != 2<<20 || res.Btrfs == nil || res.Btrfs.Error == "" {
		t.Fatalf("quotas off: delta %d, btrfs %+v; want the walk's answer and why there are no quota groups", res.Delta, res.Btrfs)
	}
	mustRun(t, "btrfs", "quota", "enable", mnt)
	mustRun(t, "btrfs", "quota", "rescan", "-w", mnt)
	res, err = e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: "vol", From: "s1", To: "s2"})
	if err != nil {
		t.Fatal(err)
	}
	b := res.Btrfs
	if b == nil || b.Error != "" || b.From == nil || b.To == nil || b.ReferencedDelta < 2<<20 || b.To.Snapshot != "s2" || !strings.HasPrefix(b.From.ID, "0/") {
		t.Fatalf("quotas on: %+v (from %+v to %+v)", b, b.From, b.To)
	}
}
