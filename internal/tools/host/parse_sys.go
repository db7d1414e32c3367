package host

import (
	"strconv"
	"strings"
)

// OSRelease is what /etc/os-release says.
type OSRelease struct {
	ID         string `json:"id"`
	Name       string `json:"name"`
	Version    string `json:"version,omitempty"`
	PrettyName string `json:"pretty_name,omitempty"`
}

// parseOSRelease reads os-release(5) KEY=value lines.
func parseOSRelease(s string) OSRelease {
	kv := map[string]string{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(l), "=")
		if !ok || strings.HasPrefix(k, "#") {
			continue
		}
		if u, err := strconv.Unquote(v); err == nil {
			v = u
		} else {
			v = strings.Trim(v, `"'`)
		}
		kv[k] = v
	}
	return OSRelease{ID: kv["ID"], Name: kv["NAME"], Version: kv["VERSION_ID"], PrettyName: kv["PRETTY_NAME"]}
}

// parseMeminfo returns /proc/meminfo values in bytes, keyed by field.
func parseMeminfo(s string) map[string]int64 {
	m := map[string]int64{}
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		f := strings.Fields(v)
		if len(f) == 0 {
			continue
		}
		n, err := strconv.ParseInt(f[0], 10, 64)
		if err != nil {
			continue
		}
		if len(f) > 1 && f[1] == "kB" {
			n *= 1024
		}
		m[strings.TrimSpace(k)] = n
	}
	return m
}

// parseUptime returns the first field of /proc/uptime in whole seconds.
func parseUptime(s string) (int64, bool) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, false
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil {
		return 0, false
	}
	return int64(v), true
}

// CPUInfo is what /proc/cpuinfo says.
type CPUInfo struct {
	Model string `json:"model"`
	// Logical is the number of logical CPUs.
	Logical int `json:"logical"`
	// Hypervisor reports whether the CPU flags carry the hypervisor bit.
	Hypervisor bool `json:"hypervisor"`
}

// parseCPUInfo reads /proc/cpuinfo (x86 "model name", ARM "Model" and
// "Hardware").
func parseCPUInfo(s string) CPUInfo {
	var c CPUInfo
	for _, l := range strings.Split(s, "\n") {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "processor":
			c.Logical++
		case "model name", "Model", "Hardware", "cpu model":
			if c.Model == "" {
				c.Model = v
			}
		case "flags":
			if strings.Contains(" "+v+" ", " hypervisor ") {
				c.Hypervisor = true
			}
		}
	}
	return c
}

// Load is the load average.
type Load struct {
	One     float64 `json:"one"`
	Five    float64 `json:"five"`
	Fifteen float64 `json:"fifteen"`
}

// parseLoadavg reads /proc/loadavg.
func parseLoadavg(s string) (Load, bool) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return Load{}, false
	}
	var v [3]float64
	for i := range v {
		x, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return Load{}, false
		}
		v[i] = x
	}
	return Load{v[0], v[1], v[2]}, true
}

// cpuTimes are the aggregate jiffies of the "cpu" line of /proc/stat.
type cpuTimes struct {
	user, nice, system, idle, iowait, irq, softirq, steal uint64
}

func (c cpuTimes) total() uint64 {
	return c.user + c.nice + c.system + c.idle + c.iowait + c.irq + c.softirq + c.steal
}

// parseProcStat reads the aggregate cpu line of /proc/stat.
func parseProcStat(s string) (cpuTimes, bool) {
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 5 || f[0] != "cpu" {
			continue
		}
		var v [8]uint64
		for i := 0; i < 8 && i+1 < len(f); i++ {
			v[i], _ = strconv.ParseUint(f[i+1], 10, 64)
		}
		return cpuTimes{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]}, true
	}
	return cpuTimes{}, false
}

// CPUUsage is the share of CPU time spent in each state over an interval.
type CPUUsage struct {
	UserPct   float64 `json:"user_pct"`
	SystemPct float64 `json:"system_pct"`
	IOWaitPct float64 `json:"iowait_pct"`
	StealPct  float64 `json:"steal_pct"`
	IdlePct   float64 `json:"idle_pct"`
}

// cpuUsage compares two samples.
func cpuUsage(a, b cpuTimes) (CPUUsage, bool) {
	dt := float64(b.total() - a.total())
	if b.total() <= a.total() {
		return CPUUsage{}, false
	}
	pct := func(x, y uint64) float64 { return round1(float64(y-x) * 100 / dt) }
	return CPUUsage{
		UserPct:   pct(a.user+a.nice, b.user+b.nice),
		SystemPct: pct(a.system+a.irq+a.softirq, b.system+b.irq+b.softirq),
		IOWaitPct: pct(a.iowait, b.iowait),
		StealPct:  pct(a.steal, b.steal),
		IdlePct:   pct(a.idle, b.idle),
	}, true
}

func round1(v float64) float64 { return float64(int64(v*10+0.5)) / 10 }

// diskStat is one whole-disk line of /proc/diskstats.
type diskStat struct {
	readSectors, writeSectors, ioMillis uint64
}

// parseDiskstats reads /proc/diskstats, keeping whole disks (not
// partitions, loop or ram devices).
func parseDiskstats(s string) map[string]diskStat {
	m := map[string]diskStat{}
	for _, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if len(f) < 14 {
			continue
		}
		name := f[2]
		if !wholeDisk(name) {
			continue
		}
		rs, _ := strconv.ParseUint(f[5], 10, 64)
		ws, _ := strconv.ParseUint(f[9], 10, 64)
		io, _ := strconv.ParseUint(f[12], 10, 64)
		m[name] = diskStat{rs, ws, io}
	}
	return m
}

// wholeDisk reports whether a block device name is a whole disk.
func wholeDisk(name string) bool {
	for _, p := range []string{"loop", "ram", "zram", "dm-", "sr", "fd"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	switch {
	case strings.HasPrefix(name, "nvme") || strings.HasPrefix(name, "mmcblk"):
		return !strings.Contains(name, "p") || !strings.ContainsAny(name[strings.LastIndex(name, "p"):], "0123456789")
	case strings.HasPrefix(name, "md"):
		return true
	}
	last := name[len(name)-1]
	return last < '0' || last > '9'
}

// DiskIO is one disk's throughput over the sample interval.
type DiskIO struct {
	Name             string  `json:"name"`
	ReadBytesPerSec  int64   `json:"read_bytes_per_sec"`
	WriteBytesPerSec int64   `json:"write_bytes_per_sec"`
	UtilPct          float64 `json:"util_pct"`
}

// Process is one row of ps. BusyBox's ps has no CPU or memory share:
// there they are absent.
type Process struct {
	PID     int      `json:"pid"`
	User    string   `json:"user"`
	CPUPct  *float64 `json:"cpu_pct,omitempty"`
	MemPct  *float64 `json:"mem_pct,omitempty"`
	RSSKiB  int64    `json:"rss_kib"`
	Command string   `json:"command"`
}

// psArgv lists processes by CPU; GNU procps and BSD ps accept these -o
// names.
var psArgv = []string{"ps", "-eo", "pid,user,pcpu,pmem,rss,comm"}

// busyboxPSArgv is the listing BusyBox's ps can give (routers, NAS
// rescue shells), tried when psArgv is refused: it knows no pcpu or pmem
// and lists every process without -e.
var busyboxPSArgv = []string{"ps", "-o", "pid,user,rss,comm"}

// parseBusyBoxPS reads busyboxPSArgv output (header line first). BusyBox
// prints an RSS over 9999 KiB with a unit: 48m, 2g.
func parseBusyBoxPS(s string) []Process {
	var out []Process
	for i, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if i == 0 || len(f) < 4 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		out = append(out, Process{PID: pid, User: f[1], RSSKiB: busyboxKiB(f[2]), Command: strings.Join(f[3:], " ")})
	}
	return out
}

// busyboxKiB reads a BusyBox size column in KiB: a number, or one with
// a k, m, g or t unit; anything else is 0.
func busyboxKiB(v string) int64 {
	mult := int64(1)
	if n := len(v); n > 0 {
		switch v[n-1] {
		case 'k':
			v = v[:n-1]
		case 'm':
			mult, v = 1<<10, v[:n-1]
		case 'g':
			mult, v = 1<<20, v[:n-1]
		case 't':
			mult, v = 1<<30, v[:n-1]
		}
	}
	// A unit may come with one decimal (BusyBox's short sizes: 9.8m).
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n < 0 || strings.ContainsAny(v, "eEnNxX+-") {
		return 0
	}
	return int64(n * float64(mult))
}

// parsePS reads psArgv output (header line first).
func parsePS(s string) []Process {
	var out []Process
	for i, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if i == 0 || len(f) < 6 {
			continue
		}
		pid, err := strconv.Atoi(f[0])
		if err != nil {
			continue
		}
		cpu, _ := strconv.ParseFloat(f[2], 64)
		mem, _ := strconv.ParseFloat(f[3], 64)
		rss, _ := strconv.ParseInt(f[4], 10, 64)
		out = append(out, Process{PID: pid, User: f[1], CPUPct: &cpu, MemPct: &mem, RSSKiB: rss, Command: strings.Join(f[5:], " ")})
	}
	return out
}

// Filesystem is one mounted file system.
type Filesystem struct {
	Source      string  `json:"source"`
	Type        string  `json:"type"`
	Mount       string  `json:"mount"`
	SizeBytes   int64   `json:"size_bytes"`
	UsedBytes   int64   `json:"used_bytes"`
	AvailBytes  int64   `json:"avail_bytes"`
	UsedPct     float64 `json:"used_pct"`
	Inodes      int64   `json:"inodes,omitempty"`
	InodesUsed  int64   `json:"inodes_used,omitempty"`
	InodesFree  int64   `json:"inodes_free,omitempty"`
	InodeUsePct float64 `json:"inode_used_pct,omitempty"`
}

// parseDF reads `df -PkT` output: source, type, 1K-blocks, used, available,
// capacity, mount (the mount point may contain spaces).
func parseDF(s string) []Filesystem {
	var out []Filesystem
	for i, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if i == 0 || len(f) < 7 {
			continue
		}
		size, err1 := strconv.ParseInt(f[2], 10, 64)
		used, err2 := strconv.ParseInt(f[3], 10, 64)
		avail, err3 := strconv.ParseInt(f[4], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		fs := Filesystem{Source: f[0], Type: f[1], Mount: strings.Join(f[6:], " "), SizeBytes: size * 1024, UsedBytes: used * 1024, AvailBytes: avail * 1024}
		if used+avail > 0 {
			fs.UsedPct = round1(float64(used) * 100 / float64(used+avail))
		}
		out = append(out, fs)
	}
	return out
}

// inodeUse is one line of `df -Pi`.
type inodeUse struct {
	total, used, free int64
}

// parseDFInodes reads `df -Pi`, keyed by mount point.
func parseDFInodes(s string) map[string]inodeUse {
	m := map[string]inodeUse{}
	for i, l := range strings.Split(s, "\n") {
		f := strings.Fields(l)
		if i == 0 || len(f) < 6 {
			continue
		}
		t, err1 := strconv.ParseInt(f[1], 10, 64)
		u, err2 := strconv.ParseInt(f[2], 10, 64)
		fr, err3 := strconv.ParseInt(f[3], 10, 64)
		if err1 != nil || err2 != nil || err3 != nil {
			continue
		}
		m[strings.Join(f[5:], " ")] = inodeUse{t, u, fr}
	}
	return m
}
