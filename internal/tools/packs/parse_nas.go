package packs

import (
	"regexp"
	"strconv"
	"strings"
)

// ServiceState is one DSM service as synosystemctl reports it.
type ServiceState struct {
	Service string `json:"service"`
	// Active is active, inactive, failed, activating, deactivating or
	// unknown (with the reason in probes).
	Active string `json:"active"`
	// Enabled is enabled, disabled, static or unknown.
	Enabled string `json:"enabled"`
}

var (
	activeWords  = set("active inactive failed activating deactivating reloading")
	enabledWords = set("enabled disabled static masked indirect generated")
)

func set(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// parseStateWord reads the one word synosystemctl get-active-status and
// get-enable-status print (exiting non-zero for inactive or disabled, as
// systemctl is-active does); anything else is unknown.
func parseStateWord(s string, words map[string]bool) string {
	w := strings.TrimSpace(s)
	if words[w] {
		return w
	}
	return Unknown
}

// MDArray is one Linux md array: on Synology DSM md0 is the system
// partition mirrored on every disk, md1 the swap, md2 on the storage
// pools (SHR and classic RAID both).
type MDArray struct {
	Name  string `json:"name"`
	Role  string `json:"role" jsonschema:"system, swap or data (DSM's layout)."`
	State string `json:"state" jsonschema:"active, inactive or what the kernel printed."`
	Level string `json:"level,omitempty"`
	// Health is ok, degraded, rebuilding, resyncing, checking or unknown.
	Health string `json:"health"`
	// Slots and Up are the [n/m] counts: member slots and working ones.
	Slots   int        `json:"slots,omitempty"`
	Up      int        `json:"up,omitempty"`
	Members []MDMember `json:"members"`
	// ProgressPct is a running recovery, resync, reshape or check's.
	ProgressPct *float64 `json:"progress_pct,omitempty"`
	Blocks      int64    `json:"blocks_1k,omitempty"`
}

// MDMember is one device of an array.
type MDMember struct {
	Device string `json:"device"`
	Role   int    `json:"role"`
	Failed bool   `json:"failed,omitempty"`
	Spare  bool   `json:"spare,omitempty"`
}

var (
	mdHeadRe   = regexp.MustCompile(`^(md\d+)\s*:\s*(\S+)(?:\s+\((?:auto-)?read-only\))?\s*(.*)$`)
	mdMemberRe = regexp.MustCompile(`^([^\s\[]+)\[(\d+)\]((?:\([A-Z]\))*)$`)
	mdCountRe  = regexp.MustCompile(`\[(\d+)/(\d+)\]\s+\[([U_]+)\]`)
	mdBlocksRe = regexp.MustCompile(`^\s*(\d+) blocks`)
	mdProgRe   = regexp.MustCompile(`(recovery|resync|reshape|check)\s*=\s*([\d.]+)%`)
	mdDelayRe  = regexp.MustCompile(`(resync|recovery)\s*=\s*(DELAYED|PENDING)`)
)

// parseMDStat reads /proc/mdstat.
func parseMDStat(s string) []MDArray {
	out := []MDArray{}
	var cur *MDArray
	for _, l := range strings.Split(s, "\n") {
		if m := mdHeadRe.FindStringSubmatch(strings.TrimRight(l, " \r")); m != nil {
			out = append(out, MDArray{Name: m[1], State: m[2], Health: Unknown, Members: []MDMember{}})
			cur = &out[len(out)-1]
			switch cur.Name {
			case "md0":
				cur.Role = "system"
			case "md1":
				cur.Role = "swap"
			default:
				cur.Role = "data"
			}
			rest := strings.Fields(m[3])
			if len(rest) > 0 && !strings.Contains(rest[0], "[") {
				cur.Level, rest = rest[0], rest[1:]
			}
			for _, f := range rest {
				if mm := mdMemberRe.FindStringSubmatch(f); mm != nil {
					role, _ := strconv.Atoi(mm[2])
					cur.Members = append(cur.Members, MDMember{Device: mm[1], Role: role,
						Failed: strings.Contains(mm[3], "(F)"), Spare: strings.Contains(mm[3], "(S)")})
				}
			}
			continue
		}
		if cur == nil || strings.TrimSpace(l) == "" {
			if strings.TrimSpace(l) == "" {
				cur = nil
			}
			continue
		}
		if m := mdBlocksRe.FindStringSubmatch(l); m != nil {
			cur.Blocks, _ = strconv.ParseInt(m[1], 10, 64)
		}
		if m := mdCountRe.FindStringSubmatch(l); m != nil {
			cur.Slots, _ = strconv.Atoi(m[1])
			cur.Up, _ = strconv.Atoi(m[2])
			cur.Health = "ok"
			if cur.Up < cur.Slots {
				cur.Health = "degraded"
			}
		}
		if m := mdProgRe.FindStringSubmatch(l); m != nil {
			v, _ := strconv.ParseFloat(m[2], 64)
			cur.ProgressPct = &v
			cur.Health = map[string]string{"recovery": "rebuilding", "resync": "resyncing", "reshape": "reshaping", "check": "checking"}[m[1]]
		} else if m := mdDelayRe.FindStringSubmatch(l); m != nil {
			cur.Health = map[string]string{"recovery": "rebuilding", "resync": "resyncing"}[m[1]]
		}
	}
	disks := map[string]bool{}
	for _, a := range out {
		for _, m := range a.Members {
			disks[diskOf(m.Device)] = true
		}
	}
	for i := range out {
		if out[i].Health == "degraded" && unusedBays(&out[i], disks) {
			out[i].Health = "ok"
		}
		for _, m := range out[i].Members {
			if m.Failed && out[i].Health == "ok" {
				out[i].Health = "degraded"
			}
		}
		if out[i].State == "inactive" {
			out[i].Health = "inactive"
		}
	}
	return out
}

// unusedBays reports whether an array's missing slots are bays with no
// disk rather than lost members: DSM builds md0 and md1 (raid1 on every
// disk) with a slot per bay, so a 5-disk 8-bay box shows [8/5]. They are
// empty bays when no member failed and the array holds every disk that
// any array of the box uses.
func unusedBays(a *MDArray, disks map[string]bool) bool {
	if a.Role == "data" || a.Level != "raid1" || len(a.Members) != a.Up {
		return false
	}
	have := map[string]bool{}
	for _, m := range a.Members {
		if m.Failed {
			return false
		}
		have[diskOf(m.Device)] = true
	}
	for d := range disks {
		if !have[d] {
			return false
		}
	}
	return true
}

var partRe = regexp.MustCompile(`^(.*?\d)p\d+$|^((?:sd|hd|vd|xvd)[a-z]+)\d+$`)

// diskOf is the disk a partition is on: sata3p1 → sata3, nvme0n1p2 →
// nvme0n1, sdb5 → sdb.
func diskOf(dev string) string {
	if m := partRe.FindStringSubmatch(dev); m != nil {
		if m[1] != "" {
			return m[1]
		}
		return m[2]
	}
	return dev
}
