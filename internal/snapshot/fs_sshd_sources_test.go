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

	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	"github.com/warden-mcp/warden/internal/snapshot/btrfstest"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// sshdHost starts a real OpenSSH server on loopback, logged in as the
// user running the test (root in CI), and returns the pool and target
// warden would reach it by.
func sshdHost(t *testing.T) (*sshpool.Pool, sshpool.Target) {
	t.Helper()
	pool, _, target := sshpooltest.Server(t, sshd.Start(t, sshd.Options{}), "nas")
	return pool, target
}

// TestRealSSHDBtrfsSource runs the shared suite, every tool, against real
// read-only btrfs snapshot subvolumes on a loop device, reached as an
// inventory host is: files over the SFTP session of a real OpenSSH server
// logged in as root, and `btrfs subvolume show`, `btrfs filesystem usage`,
// `btrfs subvolume list` and `btrfs qgroup show` on the host through the
// SSH runner. The times are the ones btrfs recorded, snapshot_pools lists
// the real subvolumes and size_delta the real quota groups, so the
// commands did run over SSH and were parsed.
func TestRealSSHDBtrfsSource(t *testing.T) {
	mnt := btrfstest.Mount(t)
	live, snaps := btrfsScenario(t, mnt)
	pool, target := sshdHost(t)
	client, err := pool.SFTP(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	open := SFTPOpener(client)
	t.Run("sftp", func(t *testing.T) {
		rr := &recordingRunner{next: sshrunner.New(pool, target, sshrunner.Options{})}
		e := newEngine(t, Config{Runner: rr, OpenFS: open, Sources: []SourceConfig{{Name: "vol", Kind: KindBtrfs, Path: snaps, Live: live}}})
		ctx := context.Background()
		list, err := e.List(ctx, ListArgs{Dataset: "vol"})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range list.Snapshots {
			want, ok := parseBtrfsCreation([]byte(mustRun(t, "btrfs", "subvolume", "show", s.Root)))
			if !ok || !s.Time.Equal(want) {
				t.Errorf("%s time = %v, want creation time %v (btrfs subvolume show over SSH)", s.Name, s.Time, want)
			}
		}
		runSuite(t, e, "vol")

		pools, err := e.Pools(ctx, PoolsArgs{Dataset: "vol"})
		if err != nil {
			t.Fatal(err)
		}
		var subs []string
		for _, s := range pools.Subvolumes {
			subs = append(subs, s.Path+map[bool]string{true: " (snapshot)"}[s.Snapshot])
		}
		if want := []string{"live", "snaps/s1 (snapshot)", "snaps/s2 (snapshot)", "snaps/s3 (snapshot)"}; !pools.Available || !slices.Equal(subs, want) ||
			len(pools.Pools) != 1 || pools.Pools[0].SizeBytes != 256<<20 || len(pools.Pools[0].Devices) != 1 || !strings.HasPrefix(pools.Pools[0].Devices[0].Path, "/dev/loop") {
			t.Errorf("snapshot_pools over SSH: subvolumes %v (want %v), %+v", subs, want, pools)
		}
		delta, err := e.SizeDelta(ctx, SizeDeltaArgs{Dataset: "vol", From: "s1", To: "s3"})
		if err != nil {
			t.Fatal(err)
		}
		if delta.Btrfs == nil || (delta.Btrfs.Error == "") == (delta.Btrfs.From == nil) {
			t.Errorf("size_delta over SSH: btrfs = %+v, want the quota groups or why there are none", delta.Btrfs)
		}
		ran := map[string]bool{}
		for _, argv := range rr.seen() {
			if !commandAllowed(argv) {
				t.Errorf("ran %q over SSH", argv)
			}
			ran[strings.Join(argv[:3], " ")] = true
		}
		for _, want := range []string{"btrfs subvolume show", "btrfs subvolume list", "btrfs filesystem usage", "btrfs qgroup show"} {
			if !ran[want] {
				t.Errorf("%s never ran over SSH (ran %v)", want, ran)
			}
		}
	})
	// With quotas enabled on the host, size_delta reads both snapshots'
	// quota groups over SSH.
	mustRun(t, "btrfs", "quota", "enable", mnt)
	mustRun(t, "btrfs", "quota", "rescan", "-w", mnt)
	e := newEngine(t, Config{Runner: sshrunner.New(pool, target, sshrunner.Options{}), OpenFS: open,
		Sources: []SourceConfig{{Name: "vol", Kind: KindBtrfs, Path: snaps, Live: live}}})
	delta, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: "vol", From: "s1", To: "s3"})
	if err != nil {
		t.Fatal(err)
	}
	if b := delta.Btrfs; b == nil || b.Error != "" || b.From == nil || b.To == nil || b.To.Snapshot != "s3" || !strings.HasPrefix(b.From.ID, "0/") {
		t.Errorf("quotas on, over SSH: %+v", b)
	}
}

// TestRealSSHDDirSource runs the shared suite, every tool, against a
// `kind: dir` source of dated copies on an SSH host: over the SFTP
// session of a real OpenSSH server, and over the exec channel of a
// dropbear router with BusyBox (as files_transport: exec reads it; one
// OpenSSH session per operation would be the same commands, only slower).
// Names are matched by pattern and timed by time_format, the live data
// configured.
func TestRealSSHDDirSource(t *testing.T) {
	pool, target := sshdHost(t)
	client, err := pool.SFTP(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	opens := map[string]OpenFSFunc{"openssh-sftp": SFTPOpener(client), "dropbear-exec": ExecOpener(routerExec(t))}
	dir := t.TempDir()
	backups := filepath.Join(dir, "backups")
	names := []string{"daily-2026-11-01", "daily-2026-11-02", "daily-2026-11-03"}
	buildCopies(t, dir, backups, func(i int) string { return names[i] })
	// The names, not the mtimes cp gave the copies, time them: make the
	// mtimes disagree with the names.
	for i, n := range names {
		mt := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC).Add(-time.Duration(i) * time.Hour)
		if err := os.Chtimes(filepath.Join(backups, n), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	// Neither a directory outside the pattern nor a symlinked snapshot
	// directory is a snapshot.
	if err := os.MkdirAll(filepath.Join(backups, "lost+found"), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(dir, "outside"), filepath.Join(backups, "daily-2026-11-04"))
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			e := newEngine(t, Config{OpenFS: open, Sources: []SourceConfig{{Name: "copies", Kind: KindDir, Path: backups,
				Pattern: "daily-*", TimeFormat: "2006-01-02", Live: filepath.Join(dir, "live")}}})
			list, err := e.List(context.Background(), ListArgs{Dataset: "copies"})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range list.Snapshots {
				got = append(got, fmt.Sprintf("%s@%s", s.Name, s.Time.Format("01-02")))
			}
			if want := []string{"daily-2026-11-01@11-01", "daily-2026-11-02@11-02", "daily-2026-11-03@11-03"}; !slices.Equal(got, want) || !list.HasLive {
				t.Fatalf("snapshots = %v (live %v), want %v and the live data", got, list.HasLive, want)
			}
			runSuite(t, e, "copies", names...)
			cad, err := e.Cadence(context.Background(), CadenceArgs{Dataset: "copies"})
			if err != nil {
				t.Fatal(err)
			}
			if len(cad.Schemes) != 1 || cad.Schemes[0].Scheme != "daily" || len(cad.Schemes[0].Gaps) != 0 {
				t.Errorf("cadence over SSH = %+v, want one daily scheme without gaps", cad.Schemes)
			}
			pools, err := e.Pools(context.Background(), PoolsArgs{Dataset: "copies"})
			if err != nil || pools.Available || pools.Reason == "" {
				t.Errorf("snapshot_pools of a directory source = %+v, %v; want unavailable with the reason", pools, err)
			}
			d, err := e.Diff(context.Background(), DiffArgs{Dataset: "copies", A: names[2], B: LiveSnapshot})
			if err != nil || d.AddedCount+d.RemovedCount+d.ModifiedCount != 0 {
				t.Errorf("newest copy against @live over SSH: %+v, %v; want no difference", d, err)
			}
		})
	}
}
