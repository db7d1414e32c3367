package snapshot

import "strings"

// Probes returns every command a tool may run for src, each as the engine
// runs it, so that the policy evaluates all of them before the call runs
// and an operator deny rule on any one (zfs get, zpool, btrfs qgroup)
// refuses the call: the source's listing command for every tool; for
// size_delta also written@from of to (ZFS) or the quota groups (btrfs);
// for snapshot_pools the pool, filesystem and subvolume listings. from and
// to are size_delta's arguments as given. A source that runs nothing has
// none.
func Probes(src SourceConfig, tool, from, to string) [][]string {
	var out [][]string
	switch {
	case src.Kind == KindZFS && src.Dataset != "":
		out = append(out, zfsListArgv(src.Dataset))
		switch tool {
		case "size_delta":
			out = append(out, zfsWrittenArgv(src.Dataset, from, Snapshot{Name: to, Live: to == LiveSnapshot}))
		case "snapshot_pools":
			pool, _, _ := strings.Cut(src.Dataset, "/")
			out = append(out, zpoolListArgv(pool), zpoolStatusArgv(pool), zfsFilesystemsArgv(pool), zfsSnapshotNamesArgv(pool))
		}
	case src.Kind == KindBtrfs:
		out = append(out, btrfsShowArgv(src.Path))
		switch tool {
		case "size_delta":
			out = append(out, btrfsQgroupArgv(src.Path))
		case "snapshot_pools":
			out = append(out, btrfsUsageArgv(src.Path), btrfsSubvolumesArgv(src.Path, false), btrfsSubvolumesArgv(src.Path, true))
		}
	}
	return out
}

// zpoolStatusArgv is the argv that reads a pool's state and errors.
func zpoolStatusArgv(pool string) []string { return []string{"zpool", "status", pool} }

// zfsSnapshotNamesArgv is the argv that names every snapshot in a pool.
func zfsSnapshotNamesArgv(pool string) []string {
	return []string{"zfs", "list", "-H", "-o", "name", "-t", "snapshot", "-r", pool}
}

// btrfsQgroupArgv is the argv that reads a filesystem's quota groups.
func btrfsQgroupArgv(path string) []string {
	return []string{"btrfs", "qgroup", "show", "--raw", path}
}

// btrfsUsageArgv is the argv that reads a filesystem's space in bytes.
func btrfsUsageArgv(path string) []string {
	return []string{"btrfs", "filesystem", "usage", "-b", path}
}

// btrfsSubvolumesArgv is the argv that lists a filesystem's subvolumes,
// or with snapshots only its snapshots.
func btrfsSubvolumesArgv(path string, snapshots bool) []string {
	if snapshots {
		return []string{"btrfs", "subvolume", "list", "-s", path}
	}
	return []string{"btrfs", "subvolume", "list", path}
}
