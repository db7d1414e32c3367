package snapshot

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"strconv"
	"strings"
)

// Qgroup is a btrfs subvolume's quota-group accounting.
type Qgroup struct {
	Snapshot   string `json:"snapshot"`
	ID         string `json:"qgroupid" jsonschema:"0/<subvolume id>"`
	Referenced int64  `json:"referenced_bytes" jsonschema:"bytes the subvolume references"`
	Exclusive  int64  `json:"exclusive_bytes" jsonschema:"bytes only this subvolume references: freed if it were deleted"`
}

// BtrfsSpace is what btrfs quota groups say about two snapshots.
type BtrfsSpace struct {
	From            *Qgroup `json:"from,omitempty"`
	To              *Qgroup `json:"to,omitempty"`
	ReferencedDelta int64   `json:"referenced_delta_bytes"`
	Error           string  `json:"error,omitempty" jsonschema:"why the quota groups could not be read (quotas not enabled, not root); the walk's figures stand"`
}

// btrfsSpace reads the quota groups of both snapshots' subvolumes. Quotas
// are often off (they cost write performance), so failure is reported,
// not fatal.
func (e *Engine) btrfsSpace(ctx context.Context, src SourceConfig, from, to Snapshot) *BtrfsSpace {
	b := &BtrfsSpace{}
	out, err := e.run(ctx, btrfsQgroupArgv(src.Path))
	if err != nil {
		b.Error = err.Error()
		return b
	}
	groups, err := parseQgroups(out)
	if err != nil {
		b.Error = err.Error()
		return b
	}
	for _, s := range []struct {
		snap Snapshot
		dst  **Qgroup
	}{{from, &b.From}, {to, &b.To}} {
		out, err := e.run(ctx, btrfsShowArgv(s.snap.Root))
		if err != nil {
			b.Error = err.Error()
			return b
		}
		id, ok := parseSubvolumeID(out)
		if !ok {
			b.Error = fmt.Sprintf("btrfs subvolume show %s: no subvolume id", s.snap.Root)
			return b
		}
		q, ok := groups["0/"+id]
		if !ok {
			b.Error = fmt.Sprintf("no quota group 0/%s for %s", id, s.snap.Name)
			return b
		}
		q.Snapshot = s.snap.Name
		*s.dst = &q
	}
	b.ReferencedDelta = b.To.Referenced - b.From.Referenced
	return b
}

// parseQgroups reads `btrfs qgroup show --raw`: a header, a dashes line,
// then "0/258  2113536  16384  path" rows.
func parseQgroups(out []byte) (map[string]Qgroup, error) {
	groups := map[string]Qgroup{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 3 || !strings.Contains(f[0], "/") || f[0] == "--------" {
			continue
		}
		ref, err1 := strconv.ParseInt(f[1], 10, 64)
		excl, err2 := strconv.ParseInt(f[2], 10, 64)
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("parse btrfs qgroup show: %q: not byte counts (was --raw given?)", sc.Text())
		}
		groups[f[0]] = Qgroup{ID: f[0], Referenced: ref, Exclusive: excl}
	}
	if len(groups) == 0 {
		return nil, fmt.Errorf("parse btrfs qgroup show: no quota groups in the output")
	}
	return groups, nil
}

// parseSubvolumeID finds "Subvolume ID: 258" in `btrfs subvolume show`.
func parseSubvolumeID(out []byte) (string, bool) {
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if ok && strings.TrimSpace(k) == "Subvolume ID" {
			id := strings.TrimSpace(v)
			if _, err := strconv.ParseUint(id, 10, 64); err == nil {
				return id, true
			}
		}
	}
	return "", false
}
