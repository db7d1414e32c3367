package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// PoolsArgs are the arguments of snapshot_pools.
type PoolsArgs struct {
	Dataset string `json:"dataset" jsonschema:"dataset name"`
}

// Pool is one ZFS pool or btrfs filesystem.
type Pool struct {
	Name             string   `json:"name" jsonschema:"pool name (zfs), or the source path whose filesystem this is (btrfs)"`
	Health           string   `json:"health,omitempty" jsonschema:"zfs: ONLINE, DEGRADED, FAULTED, OFFLINE, UNAVAIL or REMOVED"`
	State            string   `json:"state,omitempty" jsonschema:"zfs: the state line of zpool status"`
	Status           string   `json:"status,omitempty" jsonschema:"zfs: the first line of zpool status' status, when it has one"`
	Errors           string   `json:"errors,omitempty" jsonschema:"zfs: the errors line of zpool status"`
	SizeBytes        int64    `json:"size_bytes,omitempty"`
	AllocBytes       int64    `json:"alloc_bytes,omitempty"`
	FreeBytes        int64    `json:"free_bytes,omitempty"`
	CapacityPct      int64    `json:"capacity_pct,omitempty"`
	FragmentationPct int64    `json:"fragmentation_pct,omitempty"`
	Devices          []Device `json:"devices,omitempty"`
}

// Device is one device of a btrfs filesystem.
type Device struct {
	ID   int64  `json:"n" jsonschema:"1 for the first device listed"`
	Path string `json:"path"`
}

// DatasetUsage is one ZFS filesystem of the pool.
type DatasetUsage struct {
	Name       string `json:"name"`
	Mountpoint string `json:"mountpoint,omitempty"`
	Used       int64  `json:"used_bytes"`
	Available  int64  `json:"available_bytes"`
	Referenced int64  `json:"referenced_bytes"`
	Snapshots  int    `json:"snapshots"`
}

// Subvolume is one btrfs subvolume.
type Subvolume struct {
	ID       int64  `json:"id"`
	Path     string `json:"path" jsonschema:"relative to the filesystem's top level"`
	Snapshot bool   `json:"snapshot" jsonschema:"btrfs subvolume list -s lists it"`
}

// PoolsResult is the result of snapshot_pools.
type PoolsResult struct {
	Dataset    string         `json:"dataset"`
	Kind       string         `json:"kind"`
	Available  bool           `json:"available" jsonschema:"whether the source has pool listings (zfs with dataset:, btrfs) and they could be read"`
	Reason     string         `json:"reason,omitempty" jsonschema:"why there is no listing, or what part failed"`
	Commands   []string       `json:"commands" jsonschema:"the read-only commands run"`
	Pools      []Pool         `json:"pools"`
	Datasets   []DatasetUsage `json:"datasets,omitempty" jsonschema:"zfs: the filesystems of the pool with usage and snapshot counts"`
	Subvolumes []Subvolume    `json:"subvolumes,omitempty" jsonschema:"btrfs: every subvolume of the filesystem"`
	Truncated  bool           `json:"truncated"`
}

// Pools lists the pool or filesystem a dataset lives on (snapshot_pools):
// for ZFS the pool's health and space (zpool list, zpool status) and its
// filesystems with usage and snapshot counts; for btrfs the filesystem's
// devices and its subvolumes. Directory sources have none.
func (e *Engine) Pools(ctx context.Context, args PoolsArgs) (PoolsResult, error) {
	ctx, cancel := e.withTimeout(ctx, "snapshot_pools", 0)
	defer cancel()
	src, err := e.source(args.Dataset)
	if err != nil {
		return PoolsResult{}, err
	}
	res := PoolsResult{Dataset: src.Name, Kind: src.Kind, Commands: []string{}, Pools: []Pool{}}
	if e.runner == nil {
		res.Reason = "no command runner is configured for this source"
		return res, nil
	}
	switch {
	case src.Kind == KindZFS && src.Dataset != "":
		e.zfsPools(ctx, src, &res)
	case src.Kind == KindBtrfs:
		e.btrfsPools(ctx, src, &res)
	case src.Kind == KindZFS:
		res.Reason = "this zfs source has no dataset: configured, so its pool is unknown"
	default:
		res.Reason = "directory sources have no pool"
	}
	max := e.limits.ListEntries.Max
	if len(res.Datasets) > max {
		res.Datasets, res.Truncated = res.Datasets[:max], true
	}
	if len(res.Subvolumes) > max {
		res.Subvolumes, res.Truncated = res.Subvolumes[:max], true
	}
	return res, nil
}

// runLogged runs a pinned command and records it in the result.
func (e *Engine) runLogged(ctx context.Context, res *PoolsResult, argv []string) ([]byte, error) {
	res.Commands = append(res.Commands, strings.Join(argv, " "))
	return e.run(ctx, argv)
}

func (e *Engine) zfsPools(ctx context.Context, src SourceConfig, res *PoolsResult) {
	pool, _, _ := strings.Cut(src.Dataset, "/")
	out, err := e.runLogged(ctx, res, zpoolListArgv(pool))
	if err != nil {
		res.Reason = err.Error()
		return
	}
	all, err := parseZpoolList(out)
	if err != nil {
		res.Reason = err.Error()
		return
	}
	pools := []Pool{}
	for _, p := range all {
		if p.Name == pool {
			pools = append(pools, p)
		}
	}
	if out, err := e.runLogged(ctx, res, zpoolStatusArgv(pool)); err == nil {
		st := parseZpoolStatus(out)
		for i := range pools {
			if s, ok := st[pools[i].Name]; ok {
				pools[i].State, pools[i].Status, pools[i].Errors = s.State, s.Status, s.Errors
			}
		}
	} else {
		res.Reason = err.Error()
	}
	res.Pools, res.Available = pools, true
	out, err = e.runLogged(ctx, res, zfsFilesystemsArgv(pool))
	if err != nil {
		res.Reason = err.Error()
		return
	}
	all2, err := parseZFSFilesystems(out)
	if err != nil {
		res.Reason = err.Error()
		return
	}
	for _, d := range all2 {
		if d.Name == pool || strings.HasPrefix(d.Name, pool+"/") {
			res.Datasets = append(res.Datasets, d)
		}
	}
	out, err = e.runLogged(ctx, res, zfsSnapshotNamesArgv(pool))
	if err != nil {
		res.Reason = err.Error()
		return
	}
	counts := map[string]int{}
	for _, line := range strings.Split(string(out), "\n") {
		name, _, _ := strings.Cut(line, "\t")
		if ds, _, ok := strings.Cut(name, "@"); ok {
			counts[ds]++
		}
	}
	for i := range res.Datasets {
		res.Datasets[i].Snapshots = counts[res.Datasets[i].Name]
	}
}

// zpoolListArgv asks for one pool's size, space and health as exact numbers.
func zpoolListArgv(pool string) []string {
	return []string{"zpool", "list", "-H", "-p", "-o", "name,size,alloc,free,capacity,fragmentation,health", pool}
}

// zfsFilesystemsArgv lists a pool's filesystems with exact usage.
func zfsFilesystemsArgv(pool string) []string {
	return []string{"zfs", "list", "-H", "-p", "-t", "filesystem", "-o", "name,mountpoint,mounted,type,used,available,referenced,origin,canmount", "-r", pool}
}

// parseZpoolList reads `zpool list -H -p -o
// name,size,alloc,free,capacity,fragmentation,health`. A malformed line
// fails the parse, so a format change is noticed rather than half-read.
func parseZpoolList(out []byte) ([]Pool, error) {
	var pools []Pool
	for n, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return nil, fmt.Errorf("parse zpool list line %d: %d fields, want 7", n+1, len(f))
		}
		p := Pool{Name: f[0], Health: f[6]}
		for i, dst := range []*int64{&p.SizeBytes, &p.AllocBytes, &p.FreeBytes, &p.CapacityPct, &p.FragmentationPct} {
			v, err := parseZFSNumber(strings.TrimSuffix(f[i+1], "%"))
			if err != nil {
				return nil, fmt.Errorf("parse zpool list line %d field %d: %w", n+1, i+2, err)
			}
			*dst = v
		}
		pools = append(pools, p)
	}
	return pools, nil
}

// poolStatus is what warden reads of one pool in `zpool status`.
type poolStatus struct{ State, Status, Errors string }

// parseZpoolStatus reads the state, status and errors lines of each pool
// in `zpool status` output; anything else (the config tree, scan lines)
// is left to the operator.
func parseZpoolStatus(out []byte) map[string]poolStatus {
	st := map[string]poolStatus{}
	var name string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "pool":
			name = v
			st[name] = poolStatus{}
		case "state", "status", "errors":
			if name == "" {
				continue
			}
			s := st[name]
			switch k {
			case "state":
				s.State = v
			case "status":
				s.Status = v
			case "errors":
				s.Errors = v
			}
			st[name] = s
		}
	}
	return st
}

// parseZFSFilesystems reads `zfs list -H -p -t filesystem -o
// name,mountpoint,mounted,type,used,available,referenced,origin,canmount`.
func parseZFSFilesystems(out []byte) ([]DatasetUsage, error) {
	var ds []DatasetUsage
	for n, line := range strings.Split(strings.TrimRight(string(out), "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 9 {
			return nil, fmt.Errorf("parse zfs list line %d: %d fields, want 9", n+1, len(f))
		}
		d := DatasetUsage{Name: f[0], Mountpoint: f[1]}
		for i, dst := range []*int64{&d.Used, &d.Available, &d.Referenced} {
			v, err := parseZFSNumber(f[4+i])
			if err != nil {
				return nil, fmt.Errorf("parse zfs list line %d field %d: %w", n+1, 5+i, err)
			}
			*dst = v
		}
		ds = append(ds, d)
	}
	return ds, nil
}

func (e *Engine) btrfsPools(ctx context.Context, src SourceConfig, res *PoolsResult) {
	out, err := e.runLogged(ctx, res, btrfsUsageArgv(src.Path))
	if err != nil {
		res.Reason = err.Error()
		return
	}
	p, err := parseBtrfsUsage(out)
	if err != nil {
		res.Reason = err.Error()
		return
	}
	p.Name = src.Path
	res.Pools, res.Available = []Pool{p}, true
	out, err = e.runLogged(ctx, res, btrfsSubvolumesArgv(src.Path, false))
	if err != nil {
		res.Reason = err.Error()
		return
	}
	subs := parseBtrfsSubvolumes(out)
	out, err = e.runLogged(ctx, res, btrfsSubvolumesArgv(src.Path, true))
	if err != nil {
		res.Reason = err.Error()
	} else {
		snaps := map[int64]bool{}
		for _, s := range parseBtrfsSubvolumes(out) {
			snaps[s.ID] = true
		}
		for i := range subs {
			subs[i].Snapshot = snaps[subs[i].ID]
		}
	}
	res.Subvolumes = subs
}

// parseBtrfsUsage reads `btrfs filesystem usage -b`: the Overall section's
// device size, used and free (estimated) bytes, and the devices named in
// the per-profile sections (each once, with its bytes under Unallocated
// as free).
func parseBtrfsUsage(out []byte) (Pool, error) {
	var p Pool
	seen := map[string]bool{}
	found := 0
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "/") {
			if f := strings.Fields(line); len(f) == 2 && !seen[f[0]] {
				seen[f[0]] = true
				p.Devices = append(p.Devices, Device{ID: int64(len(p.Devices) + 1), Path: f[0]})
			}
			continue
		}
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		var dst *int64
		switch strings.TrimSpace(k) {
		case "Device size":
			dst = &p.SizeBytes
		case "Used":
			dst = &p.AllocBytes
		case "Free (estimated)":
			dst = &p.FreeBytes
		default:
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			return Pool{}, fmt.Errorf("parse btrfs filesystem usage: %q has no value", line)
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			return Pool{}, fmt.Errorf("parse btrfs filesystem usage: %q: not a byte count (was -b given?)", line)
		}
		*dst = n
		found++
	}
	if found < 3 {
		return Pool{}, fmt.Errorf("parse btrfs filesystem usage: found %d of device size, used and free", found)
	}
	if p.SizeBytes > 0 {
		p.CapacityPct = p.AllocBytes * 100 / p.SizeBytes
	}
	return p, nil
}

// parseBtrfsSubvolumes reads `btrfs subvolume list` lines: "ID 256 gen 9
// top level 5 path live". Lines it does not recognise are skipped.
func parseBtrfsSubvolumes(out []byte) []Subvolume {
	var subs []Subvolume
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		line := sc.Text()
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "ID" {
			continue
		}
		id, err := strconv.ParseInt(f[1], 10, 64)
		if err != nil {
			continue
		}
		_, p, ok := strings.Cut(line, " path ")
		if !ok {
			continue
		}
		subs = append(subs, Subvolume{ID: id, Path: p})
	}
	return subs
}
