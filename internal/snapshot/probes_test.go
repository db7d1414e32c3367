package snapshot

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestProbesCoverWhatRuns runs every tool that uses commands on a ZFS and
// a btrfs source and checks each argv the engine ran against Probes for
// that call: the same argv for ZFS, and for btrfs the same command (the
// subvolume show of each snapshot root names another path than the
// source's). A probe the policy is not shown fails here.
func TestProbesCoverWhatRuns(t *testing.T) {
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return []string{"s1", "s2", "s3"}[i] })
	zfsOut := "tank/home@s1\t1761966000\t0\t1\ntank/home@s2\t1762052400\t0\t1\ntank/home@s3\t1762138800\t0\t1\n"
	srcs := []SourceConfig{
		{Name: "z", Kind: KindZFS, Path: mount, Dataset: "tank/home"},
		{Name: "b", Kind: KindBtrfs, Path: snapdir, Live: mount},
	}
	type call struct {
		tool, ds, from, to string
		do                 func(e *Engine) error
	}
	var calls []call
	for _, ds := range []string{"z", "b"} {
		calls = append(calls,
			call{"snapshot_list", ds, "", "", func(e *Engine) error { _, err := e.List(context.Background(), ListArgs{Dataset: ds}); return err }},
			call{"size_delta", ds, "s1", "s3", func(e *Engine) error {
				_, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: ds, From: "s1", To: "s3"})
				return err
			}},
			call{"size_delta", ds, "s1", LiveSnapshot, func(e *Engine) error {
				_, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: ds, From: "s1", To: LiveSnapshot})
				return err
			}},
			call{"snapshot_pools", ds, "", "", func(e *Engine) error { _, err := e.Pools(context.Background(), PoolsArgs{Dataset: ds}); return err }},
		)
	}
	for _, c := range calls {
		t.Run(c.tool+"/"+c.ds+"/"+c.to, func(t *testing.T) {
			// The ZFS commands answer (with captured output), so each ZFS
			// call runs all it may; btrfs's stop at the first that fails.
			rr := &recordingRunner{answers: map[string]string{
				strings.Join(zfsListArgv("tank/home"), " "):                                zfsOut,
				strings.Join(zfsWrittenArgv("tank/home", "s1", Snapshot{Name: "s3"}), " "): "tank/home@s3\twritten@s1\t123456\n",
				strings.Join(zfsWrittenArgv("tank/home", "s1", Snapshot{Live: true}), " "): "tank/home\twritten@s1\t123456\n",
				strings.Join(zpoolListArgv("tank"), " "):                                   readTestdata(t, "zpool-list.captured.txt"),
				strings.Join(zpoolStatusArgv("tank"), " "):                                 readTestdata(t, "zpool-status.captured.txt"),
				strings.Join(zfsFilesystemsArgv("tank"), " "):                              readTestdata(t, "zfs-list-filesystems.captured.txt"),
				strings.Join(zfsSnapshotNamesArgv("tank"), " "):                            "tank/home@s1\n",
			}}
			for i, name := range []string{"s1", "s2", "s3"} {
				rr.answers["btrfs subvolume show "+filepath.Join(snapdir, name)] = "\tCreation time: \t\t2026-11-0" + string(rune('1'+i)) + " 03:00:00 +0000\n"
			}
			e := newEngine(t, Config{Runner: rr, Sources: srcs})
			if err := c.do(e); err != nil {
				t.Fatal(err)
			}
			var src SourceConfig
			for _, s := range srcs {
				if s.Name == c.ds {
					src = s
				}
			}
			probes := Probes(src, c.tool, c.from, c.to)
			seen := rr.seen()
			if len(seen) == 0 {
				t.Fatal("nothing ran; the test proves nothing")
			}
			for _, argv := range seen {
				ok := slices.ContainsFunc(probes, func(p []string) bool { return slices.Equal(p, argv) })
				if !ok && src.Kind == KindBtrfs {
					ok = slices.ContainsFunc(probes, func(p []string) bool { return len(p) > 3 && slices.Equal(p[:3], argv[:min(3, len(argv))]) })
				}
				if !ok {
					t.Errorf("%s ran %q, which Probes does not name for the policy: %q", c.tool, argv, probes)
				}
			}
		})
	}
}
