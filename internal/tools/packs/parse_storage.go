package packs

import (
	"encoding/json"
	"errors"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// A Synology storage pool is md arrays (parse_nas.go), on SHR and on
// multi-volume pools an LVM volume group over them (vg1 with volume_1,
// volume_2 and syno_vg_reserved_area), and on each volume a btrfs or ext4
// file system. This file reads the LVM and btrfs layers.

// Part says whether one layer of a result could be read.
type Part struct {
	// Status is ok or unknown.
	Status string `json:"status"`
	Reason string `json:"reason,omitempty"`
}

// VolumeGroup is one LVM volume group as vgs reports it.
type VolumeGroup struct {
	Name       string `json:"name"`
	SizeBytes  int64  `json:"size_bytes"`
	FreeBytes  int64  `json:"free_bytes"`
	PVs        int    `json:"pvs"`
	LVs        int    `json:"lvs"`
	MissingPVs int    `json:"missing_pvs"`
	// Health is ok, or partial when a physical volume is missing.
	Health string `json:"health"`
}

// LogicalVolume is one LVM logical volume as lvs reports it.
type LogicalVolume struct {
	Name      string `json:"name"`
	VG        string `json:"vg"`
	SizeBytes int64  `json:"size_bytes"`
	// Active is active, inactive, suspended or unknown (lv_attr's state).
	Active string `json:"active"`
	// Health is ok, partial (a device is missing), refresh_needed,
	// mismatches_exist or unknown.
	Health string `json:"health"`
}

// lvmReport is the shape of vgs and lvs --reportformat json.
type lvmReport struct {
	Report []struct {
		VG []map[string]string `json:"vg"`
		LV []map[string]string `json:"lv"`
	} `json:"report"`
}

var errNoReport = errors.New("no LVM report in the output")

func decodeLVM(s string) (lvmReport, error) {
	var r lvmReport
	if err := json.Unmarshal([]byte(s), &r); err != nil {
		return r, err
	}
	if len(r.Report) == 0 {
		return r, errNoReport
	}
	return r, nil
}

func atoi64(s string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(s), "B"), 10, 64)
	return n
}

// parseVGs reads vgs --reportformat json --units b --nosuffix with the
// fields vg_name, vg_attr, vg_size, vg_free, pv_count, lv_count and
// vg_missing_pv_count.
func parseVGs(s string) ([]VolumeGroup, error) {
	r, err := decodeLVM(s)
	if err != nil {
		return nil, err
	}
	out := []VolumeGroup{}
	for _, rep := range r.Report {
		for _, v := range rep.VG {
			if v["vg_name"] == "" {
				continue
			}
			g := VolumeGroup{Name: v["vg_name"], SizeBytes: atoi64(v["vg_size"]), FreeBytes: atoi64(v["vg_free"]),
				PVs: int(atoi64(v["pv_count"])), LVs: int(atoi64(v["lv_count"])), MissingPVs: int(atoi64(v["vg_missing_pv_count"])), Health: "ok"}
			// vg_attr's fourth character is p when the group is partial.
			if a := v["vg_attr"]; g.MissingPVs > 0 || len(a) > 3 && a[3] == 'p' {
				g.Health = "partial"
			}
			out = append(out, g)
		}
	}
	return out, nil
}

// parseLVs reads lvs --reportformat json --units b --nosuffix with the
// fields lv_name, vg_name, lv_attr, lv_size and lv_health_status. A
// segment field in the report repeats a volume once per segment; it is
// listed once.
func parseLVs(s string) ([]LogicalVolume, error) {
	r, err := decodeLVM(s)
	if err != nil {
		return nil, err
	}
	out := []LogicalVolume{}
	seen := map[string]bool{}
	for _, rep := range r.Report {
		for _, v := range rep.LV {
			key := v["vg_name"] + "/" + v["lv_name"]
			if v["lv_name"] == "" || seen[key] {
				continue
			}
			seen[key] = true
			lv := LogicalVolume{Name: v["lv_name"], VG: v["vg_name"], SizeBytes: atoi64(v["lv_size"]), Active: Unknown, Health: Unknown}
			a := v["lv_attr"]
			if len(a) > 4 {
				switch a[4] {
				case 'a':
					lv.Active = "active"
				case '-':
					lv.Active = "inactive"
				case 's':
					lv.Active = "suspended"
				}
			}
			if h := strings.TrimSpace(v["lv_health_status"]); h != "" {
				lv.Health = strings.ReplaceAll(h, " ", "_")
			} else if len(a) > 8 {
				switch a[8] {
				case '-':
					lv.Health = "ok"
				case 'p':
					lv.Health = "partial"
				case 'r':
					lv.Health = "refresh_needed"
				case 'm':
					lv.Health = "mismatches_exist"
				}
			}
			out = append(out, lv)
		}
	}
	return out, nil
}

// BtrfsFS is one btrfs file system as btrfs filesystem show lists it.
type BtrfsFS struct {
	Label   string        `json:"label"`
	UUID    string        `json:"uuid"`
	Devices int           `json:"devices"`
	Missing int           `json:"missing"`
	Members []BtrfsMember `json:"members"`
	// Health is ok, or degraded when a device is missing.
	Health string `json:"health"`
}

// BtrfsMember is one device of a btrfs file system.
type BtrfsMember struct {
	ID      int    `json:"devid"`
	Path    string `json:"path"`
	Missing bool   `json:"missing,omitempty"`
}

var (
	btrfsLabelRe = regexp.MustCompile(`^Label:\s+(?:'(.*)'|(none))\s+uuid:\s+([0-9a-f-]{36})`)
	btrfsTotalRe = regexp.MustCompile(`^\s*Total devices (\d+)`)
	btrfsDevRe   = regexp.MustCompile(`^\s*devid\s+(\d+)\s+size\s+\S+\s+used\s+\S+\s+path\s+(.*?)\s*$`)
)

// parseBtrfsShow reads btrfs filesystem show: a missing device is a devid
// line whose path is MISSING (btrfs-progs 5 and later) or, in older
// versions, a "*** Some devices missing" line.
func parseBtrfsShow(s string) []BtrfsFS {
	out := []BtrfsFS{}
	var cur *BtrfsFS
	for _, l := range strings.Split(s, "\n") {
		if m := btrfsLabelRe.FindStringSubmatch(l); m != nil {
			out = append(out, BtrfsFS{Label: m[1], UUID: m[3], Members: []BtrfsMember{}, Health: "ok"})
			cur = &out[len(out)-1]
			continue
		}
		if cur == nil {
			continue
		}
		if m := btrfsTotalRe.FindStringSubmatch(l); m != nil {
			cur.Devices, _ = strconv.Atoi(m[1])
		} else if m := btrfsDevRe.FindStringSubmatch(l); m != nil {
			id, _ := strconv.Atoi(m[1])
			d := BtrfsMember{ID: id, Path: m[2]}
			if d.Path == "MISSING" || d.Path == "" {
				d.Path, d.Missing = "", true
			}
			cur.Members = append(cur.Members, d)
		} else if strings.Contains(l, "Some devices missing") {
			cur.Health = "degraded"
		}
	}
	for i := range out {
		f := &out[i]
		for _, d := range f.Members {
			if d.Missing {
				f.Missing++
			}
		}
		if f.Missing == 0 && f.Devices > len(f.Members) {
			f.Missing = f.Devices - len(f.Members)
		}
		if f.Missing > 0 {
			f.Health = "degraded"
		}
	}
	return out
}

// BtrfsVolume is one mounted btrfs volume (DSM's /volumeN): its space
// from btrfs filesystem usage -b and its error counters from btrfs device
// stats.
type BtrfsVolume struct {
	Mount        string `json:"mount"`
	SizeBytes    *int64 `json:"size_bytes,omitempty"`
	UsedBytes    *int64 `json:"used_bytes,omitempty"`
	FreeBytes    *int64 `json:"free_estimated_bytes,omitempty"`
	MissingBytes *int64 `json:"missing_bytes,omitempty"`
	DataProfile  string `json:"data_profile,omitempty"`
	// Errors are the non-zero error counters, "device.counter": n.
	Errors map[string]int64 `json:"errors"`
	// Health is ok, degraded (a device missing), errors (a counter above
	// zero) or unknown (neither command answered).
	Health string `json:"health"`
}

var (
	usageLineRe   = regexp.MustCompile(`^\s+(Device size|Used|Free \(estimated\)|Device missing):\s+(\d+)`)
	usageDataRe   = regexp.MustCompile(`^Data,([A-Za-z0-9]+):`)
	devStatLineRe = regexp.MustCompile(`^\[(.+)\]\.(\w+)\s+(\d+)\s*$`)
)

// parseBtrfsUsage reads the figures of btrfs filesystem usage -b (raw
// bytes) into v.
func parseBtrfsUsage(s string, v *BtrfsVolume) {
	for _, l := range strings.Split(s, "\n") {
		if m := usageLineRe.FindStringSubmatch(l); m != nil {
			n, err := strconv.ParseInt(m[2], 10, 64)
			if err != nil {
				continue
			}
			switch m[1] {
			case "Device size":
				v.SizeBytes = &n
			case "Used":
				v.UsedBytes = &n
			case "Free (estimated)":
				v.FreeBytes = &n
			case "Device missing":
				v.MissingBytes = &n
			}
		} else if m := usageDataRe.FindStringSubmatch(l); m != nil && v.DataProfile == "" {
			v.DataProfile = m[1]
		}
	}
}

// parseDevStats returns btrfs device stats' non-zero counters and whether
// it read any counter at all.
func parseDevStats(s string) (map[string]int64, bool) {
	errs := map[string]int64{}
	read := false
	for _, l := range strings.Split(s, "\n") {
		if m := devStatLineRe.FindStringSubmatch(l); m != nil {
			read = true
			if n, _ := strconv.ParseInt(m[3], 10, 64); n > 0 {
				errs[m[1]+"."+m[2]] = n
			}
		}
	}
	return errs, read
}

// btrfsVolumes joins each mount's usage and device stats.
func btrfsVolumes(o outs) []BtrfsVolume {
	byMount := map[string]*BtrfsVolume{}
	var mounts []string
	get := func(item string) *BtrfsVolume {
		m := "/" + item
		if v, ok := byMount[m]; ok {
			return v
		}
		v := &BtrfsVolume{Mount: m, Errors: map[string]int64{}, Health: Unknown}
		byMount[m] = v
		mounts = append(mounts, m)
		return v
	}
	for _, r := range o["btrfs_usage"] {
		v := get(r.item)
		if r.why == "" {
			parseBtrfsUsage(r.stdout, v)
			if v.SizeBytes != nil {
				v.Health = "ok"
			}
		}
	}
	for _, r := range o["btrfs_stats"] {
		v := get(r.item)
		// btrfs device stats exits non-zero when a counter is above zero
		// (with --check) or a device is missing; its output still counts.
		if errs, ok := parseDevStats(r.stdout); ok {
			v.Errors = errs
			if v.Health == Unknown {
				v.Health = "ok"
			}
		}
	}
	sort.Strings(mounts)
	out := []BtrfsVolume{}
	for _, m := range mounts {
		v := byMount[m]
		if v.MissingBytes != nil && *v.MissingBytes > 0 {
			v.Health = "degraded"
		} else if len(v.Errors) > 0 {
			v.Health = "errors"
		}
		out = append(out, *v)
	}
	return out
}

// part says whether the named steps answered, and why not.
func part(o outs, ids ...string) Part {
	for _, id := range ids {
		rs := o[id]
		if len(rs) == 0 {
			return Part{Status: Unknown, Reason: id + " did not run"}
		}
		for _, r := range rs {
			if r.why != "" {
				return Part{Status: Unknown, Reason: r.why}
			}
		}
	}
	return Part{Status: "ok"}
}

// parsePools is storage_pools' parser.
func parsePools(_ map[string]string, o outs) Pools {
	p := Pools{Arrays: []MDArray{}, VolumeGroups: []VolumeGroup{}, LogicalVolumes: []LogicalVolume{},
		Filesystems: []BtrfsFS{}, Volumes: []BtrfsVolume{}, Degraded: []string{}}
	if s, ok := o.first("mdstat"); ok {
		p.Arrays = parseMDStat(s)
	}
	p.LVM = part(o, "vgs", "lvs")
	if p.LVM.Status == "ok" {
		vgs, err := parseVGs(o["vgs"][0].stdout)
		if err == nil {
			var lvs []LogicalVolume
			lvs, err = parseLVs(o["lvs"][0].stdout)
			p.VolumeGroups, p.LogicalVolumes = vgs, lvs
		}
		if err != nil {
			p.LVM = Part{Status: Unknown, Reason: "vgs/lvs output is not an LVM JSON report (LVM before 2.02.158 has no --reportformat json): " + err.Error()}
			p.VolumeGroups, p.LogicalVolumes = []VolumeGroup{}, []LogicalVolume{}
		}
	}
	p.Btrfs = part(o, "btrfs_show")
	if s, ok := o.first("btrfs_show"); ok {
		p.Filesystems = parseBtrfsShow(s)
	}
	p.Volumes = btrfsVolumes(o)
	if p.Btrfs.Status == "ok" {
		for _, v := range p.Volumes {
			if v.Health == Unknown {
				p.Btrfs = Part{Status: Unknown, Reason: "neither btrfs filesystem usage nor btrfs device stats answered for " + v.Mount}
				break
			}
		}
	}
	for _, a := range p.Arrays {
		if a.Health != "ok" {
			p.Degraded = append(p.Degraded, a.Name)
		}
	}
	for _, g := range p.VolumeGroups {
		if g.Health != "ok" {
			p.Degraded = append(p.Degraded, "vg:"+g.Name)
		}
	}
	for _, l := range p.LogicalVolumes {
		if l.Health != "ok" && l.Health != Unknown {
			p.Degraded = append(p.Degraded, "lv:"+l.VG+"/"+l.Name)
		}
	}
	for _, f := range p.Filesystems {
		if f.Health != "ok" {
			p.Degraded = append(p.Degraded, "btrfs:"+f.Label)
		}
	}
	for _, v := range p.Volumes {
		if v.Health != "ok" && v.Health != Unknown {
			p.Degraded = append(p.Degraded, v.Mount)
		}
	}
	return p
}
