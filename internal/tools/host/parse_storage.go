package host

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
)

// smartDevice is one device from `smartctl --scan -j`.
type smartDevice struct {
	Name string `json:"name"`
	Type string `json:"type"`
}

var (
	devNameRE  = regexp.MustCompile(`^/dev/[A-Za-z0-9][A-Za-z0-9/_.-]{0,63}$`)
	devTypeRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9,_+-]{0,31}$`)
	poolNameRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_.:-]{0,127}$`)
)

// parseSmartScan reads `smartctl --scan -j`, keeping only device names and
// types that are safe to pass back as arguments.
func parseSmartScan(s string) ([]smartDevice, error) {
	var v struct {
		Devices []smartDevice `json:"devices"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		return nil, err
	}
	var out []smartDevice
	for _, d := range v.Devices {
		if devNameRE.MatchString(d.Name) && !strings.Contains(d.Name, "..") && (d.Type == "" || devTypeRE.MatchString(d.Type)) {
			out = append(out, d)
		}
	}
	return out, nil
}

// Disk is one disk's SMART health.
type Disk struct {
	Device string `json:"device"`
	Type   string `json:"type,omitempty"`
	Model  string `json:"model,omitempty"`
	Serial string `json:"serial,omitempty"`
	// Health is passed, failed or unknown.
	Health          string `json:"health"`
	Reason          string `json:"reason,omitempty"`
	TemperatureC    *int   `json:"temperature_c,omitempty"`
	PowerOnHours    *int64 `json:"power_on_hours,omitempty"`
	Reallocated     *int64 `json:"reallocated_sectors,omitempty"`
	Pending         *int64 `json:"pending_sectors,omitempty"`
	Uncorrectable   *int64 `json:"offline_uncorrectable,omitempty"`
	NVMePercentUsed *int64 `json:"nvme_percentage_used,omitempty"`
	NVMeMediaErrors *int64 `json:"nvme_media_errors,omitempty"`
}

// parseSmartctl reads `smartctl -j -H -A -i` output for one device.
func parseSmartctl(dev smartDevice, s string) Disk {
	d := Disk{Device: dev.Name, Type: dev.Type, Health: Unknown}
	var v struct {
		ModelName   string `json:"model_name"`
		Serial      string `json:"serial_number"`
		SmartStatus *struct {
			Passed bool `json:"passed"`
		} `json:"smart_status"`
		Temperature *struct {
			Current int `json:"current"`
		} `json:"temperature"`
		PowerOnTime *struct {
			Hours int64 `json:"hours"`
		} `json:"power_on_time"`
		ATA *struct {
			Table []struct {
				ID  int `json:"id"`
				Raw struct {
					Value int64 `json:"value"`
				} `json:"raw"`
			} `json:"table"`
		} `json:"ata_smart_attributes"`
		NVMe *struct {
			PercentageUsed *int64 `json:"percentage_used"`
			MediaErrors    *int64 `json:"media_errors"`
		} `json:"nvme_smart_health_information_log"`
		Smartctl struct {
			Messages []struct {
				String   string `json:"string"`
				Severity string `json:"severity"`
			} `json:"messages"`
		} `json:"smartctl"`
	}
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		d.Reason = "smartctl output is not JSON: " + err.Error()
		return d
	}
	d.Model, d.Serial = v.ModelName, v.Serial
	switch {
	case v.SmartStatus == nil:
		d.Reason = "smartctl reported no SMART status"
		for _, m := range v.Smartctl.Messages {
			d.Reason = m.String
		}
	case v.SmartStatus.Passed:
		d.Health = "passed"
	default:
		d.Health = "failed"
	}
	if v.Temperature != nil {
		d.TemperatureC = ptr(v.Temperature.Current)
	}
	if v.PowerOnTime != nil {
		d.PowerOnHours = ptr(v.PowerOnTime.Hours)
	}
	if v.ATA != nil {
		for _, a := range v.ATA.Table {
			switch a.ID {
			case 5:
				d.Reallocated = ptr(a.Raw.Value)
			case 197:
				d.Pending = ptr(a.Raw.Value)
			case 198:
				d.Uncorrectable = ptr(a.Raw.Value)
			}
		}
	}
	if v.NVMe != nil {
		d.NVMePercentUsed, d.NVMeMediaErrors = v.NVMe.PercentageUsed, v.NVMe.MediaErrors
	}
	return d
}

// smartctlAnswered reports whether a smartctl exit status means it read
// the device: bits 0 and 1 are command-line and open failures, the other
// bits describe the disk.
func smartctlAnswered(code int) bool { return code >= 0 && code&3 == 0 }

// RAIDArray is one Linux md array from /proc/mdstat.
type RAIDArray struct {
	Name    string   `json:"name"`
	State   string   `json:"state"`
	Level   string   `json:"level"`
	Devices []string `json:"devices"`
	// Members is "[2/2]": devices wanted / devices working.
	Members  string `json:"members,omitempty"`
	Status   string `json:"status,omitempty"`
	Degraded bool   `json:"degraded"`
	Recovery string `json:"recovery,omitempty"`
}

var (
	mdLineRE   = regexp.MustCompile(`^(md\S+)\s*:\s*(\S+)\s+(?:\((\S+)\)\s+)?(\S+)\s+(.*)$`)
	mdStatusRE = regexp.MustCompile(`\[(\d+)/(\d+)\]\s+\[([U_]+)\]`)
	mdRecovRE  = regexp.MustCompile(`(recovery|resync|reshape|check)\s*=\s*([\d.]+%)`)
)

// parseMdstat reads /proc/mdstat.
func parseMdstat(s string) []RAIDArray {
	var out []RAIDArray
	var cur *RAIDArray
	for _, l := range strings.Split(s, "\n") {
		if m := mdLineRE.FindStringSubmatch(l); m != nil {
			out = append(out, RAIDArray{Name: m[1], State: m[2], Level: m[4], Devices: strings.Fields(m[5])})
			cur = &out[len(out)-1]
			if m[3] != "" {
				cur.State += " (" + m[3] + ")"
			}
			continue
		}
		if cur == nil {
			continue
		}
		if m := mdStatusRE.FindStringSubmatch(l); m != nil {
			cur.Members = "[" + m[1] + "/" + m[2] + "]"
			cur.Status = m[3]
			want, _ := strconv.Atoi(m[1])
			have, _ := strconv.Atoi(m[2])
			cur.Degraded = have < want || strings.Contains(m[3], "_")
		}
		if m := mdRecovRE.FindStringSubmatch(l); m != nil {
			cur.Recovery = m[1] + " " + m[2]
		}
		if strings.TrimSpace(l) == "" {
			cur = nil
		}
	}
	return out
}

// Pool is one ZFS pool.
type Pool struct {
	Name   string `json:"name"`
	Health string `json:"health"`
	Size   int64  `json:"size_bytes"`
	Alloc  int64  `json:"alloc_bytes"`
	Free   int64  `json:"free_bytes"`
}

// zpoolArgv lists pools, tab-separated, exact numbers.
var zpoolArgv = []string{"zpool", "list", "-H", "-p", "-o", "name,health,size,alloc,free"}

// parseZpoolList reads zpoolArgv output.
func parseZpoolList(s string) []Pool {
	var out []Pool
	for _, l := range strings.Split(s, "\n") {
		f := strings.Split(strings.TrimSpace(l), "\t")
		if len(f) < 5 || !poolNameRE.MatchString(f[0]) {
			continue
		}
		size, _ := strconv.ParseInt(f[2], 10, 64)
		alloc, _ := strconv.ParseInt(f[3], 10, 64)
		free, _ := strconv.ParseInt(f[4], 10, 64)
		out = append(out, Pool{Name: f[0], Health: f[1], Size: size, Alloc: alloc, Free: free})
	}
	return out
}
