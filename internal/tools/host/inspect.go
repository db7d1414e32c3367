package host

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/warden-mcp/warden/internal/command"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
)

func (d *Deps) registerInspect(r *relay.Relay) {
	relay.Add[HostArg, SystemInfo](r, relay.Spec{
		Name: "system_info", Title: "System information",
		Description: "OS, kernel, uptime, CPU, memory, hostname and virtualisation of a host, parsed. Fields a probe could not read are \"unknown\" and the probes list says why.",
		Annotations: readOnly("System information"),
	}, d.planSystemInfo)
	relay.Add[HostArg, DiskUsage](r, relay.Spec{
		Name: "disk_usage", Title: "Disk usage",
		Description: "Mounted file systems with size, used, available and inode use (df), parsed.",
		Annotations: readOnly("Disk usage"),
	}, d.planDiskUsage)
	relay.Add[HostArg, StorageHealth](r, relay.Spec{
		Name: "storage_health", Title: "Storage health",
		Description: "SMART health per disk (smartctl JSON: status, temperature, reallocated/pending sectors, NVMe wear), Linux md RAID state and ZFS pool health where present. Anything that could not be read is \"unknown\" with the reason.",
		Annotations: readOnly("Storage health"),
	}, d.planStorageHealth)
	relay.Add[HostArg, Containers](r, relay.Spec{
		Name: "list_containers", Title: "List containers",
		Description: "Every Docker or Podman container on a host with its image, state and status.",
		Annotations: readOnly("List containers"),
	}, d.planContainers)
	relay.Add[LogsArgs, Logs](r, relay.Spec{
		Name: "container_logs", Title: "Container logs",
		Description: "The last lines of one container's logs (Docker or Podman), with timestamps; tail caps the lines, since limits the age (10m, 2h, 2024-01-02T15:04:05Z).",
		Annotations: readOnly("Container logs"),
	}, d.planLogs)
	relay.Add[ServiceArgs, ServiceState](r, relay.Spec{
		Name: "service_status", Title: "Service status",
		Description: "State of one service under systemd, OpenRC, BusyBox init or SysV init: exists, active, sub-state, enabled, main PID, since when, restarts. Under BusyBox init, which has no service manager, active means a process of that name runs.",
		Annotations: readOnly("Service status"),
	}, d.planServiceStatus)
	relay.Add[HostArg, Exposure](r, relay.Spec{
		Name: "internet_exposure", Title: "Internet exposure",
		Description: "Listening TCP/UDP sockets on non-loopback addresses with their processes, and for each what the host firewall (nftables or iptables) does to new inbound connections: allowed, blocked, conditional or unknown.",
		Annotations: readOnly("Internet exposure"),
	}, d.planExposure)
	relay.Add[PerfArgs, Performance](r, relay.Spec{
		Name: "performance", Title: "Performance snapshot",
		Description: "Load, CPU time split, memory, per-disk IO rates sampled over interval_s seconds (default 1, max 10), and the top processes by CPU.",
		Annotations: readOnly("Performance snapshot"),
	}, d.planPerformance)
	relay.Add[UpdatesArgs, Updates](r, relay.Spec{
		Name: "pending_updates", Title: "Pending updates",
		Description: "Packages with updates available (apt, dnf, apk, pacman, FreeBSD pkg), from the cached index. refresh=true refreshes the index first (a tier-1 side effect; apt, dnf and apk only).",
		Annotations: readOnly("Pending updates"),
	}, d.planUpdates)
	relay.Add[HostArg, FirewallStatus](r, relay.Spec{
		Name: "firewall_status", Title: "Firewall status",
		Description: "Which firewalls are present (nftables, iptables, ufw, FreeBSD pf), whether each is active, and the input policy. \"unknown\" with a reason when a backend could not be read.",
		Annotations: readOnly("Firewall status"),
	}, d.planFirewallStatus)
	relay.Add[RulesArgs, FirewallRules](r, relay.Spec{
		Name: "firewall_rules", Title: "Firewall rules",
		Description: "The firewall's chains and rules, parsed per backend (nftables, iptables, ufw, pf), each rule with its verdict.",
		Annotations: readOnly("Firewall rules"),
	}, d.planFirewallRules)
}

// SystemInfo is system_info's result.
type SystemInfo struct {
	Hostname       string    `json:"hostname"`
	OS             OSRelease `json:"os"`
	Kernel         string    `json:"kernel"`
	KernelRelease  string    `json:"kernel_release"`
	Arch           string    `json:"arch"`
	UptimeSeconds  *int64    `json:"uptime_seconds,omitempty"`
	CPU            *CPUInfo  `json:"cpu,omitempty"`
	MemTotalBytes  *int64    `json:"mem_total_bytes,omitempty"`
	MemAvailBytes  *int64    `json:"mem_available_bytes,omitempty"`
	SwapTotalBytes *int64    `json:"swap_total_bytes,omitempty"`
	Virtualization string    `json:"virtualization"`
	Probes         []Probe   `json:"probes"`
}

// read plans a call that runs argvs, known before anything runs.
func (d *Deps) read(ctx context.Context, host string, argvs [][]string, run func(ctx context.Context, t *hosts.Host) *relay.Outcome) (*relay.Plan, error) {
	t, host, err := d.target(ctx, host)
	if err != nil {
		return nil, err
	}
	return &relay.Plan{Host: host, Input: input(argvs...), Run: func(ctx context.Context) *relay.Outcome { return run(ctx, t) }}, nil
}

var (
	unameArgv   = []string{"uname", "-snrm"}
	osRelArgv   = []string{"cat", "/etc/os-release"}
	uptimeArgv  = []string{"cat", "/proc/uptime"}
	meminfoArgv = []string{"cat", "/proc/meminfo"}
	cpuinfoArgv = []string{"cat", "/proc/cpuinfo"}
	virtArgv    = []string{"systemd-detect-virt"}
)

func (d *Deps) planSystemInfo(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	return d.read(ctx, a.Host, [][]string{unameArgv, osRelArgv, uptimeArgv, meminfoArgv, cpuinfoArgv, virtArgv}, func(ctx context.Context, t *hosts.Host) *relay.Outcome {
		res := SystemInfo{Hostname: Unknown, Kernel: Unknown, KernelRelease: Unknown, Arch: Unknown, Virtualization: Unknown, OS: OSRelease{ID: Unknown, Name: Unknown}}
		add := func(o out) out { res.Probes = append(res.Probes, o.probe()); return o }
		if o := add(d.exec(ctx, t, unameArgv)); o.ok() {
			if f := strings.Fields(o.stdout); len(f) >= 4 {
				res.Kernel, res.Hostname, res.KernelRelease, res.Arch = f[0], f[1], f[2], f[len(f)-1]
			}
		}
		if o := add(d.exec(ctx, t, osRelArgv)); o.ok() {
			if osr := parseOSRelease(o.stdout); osr.ID != "" {
				res.OS = osr
			}
		}
		if o := add(d.exec(ctx, t, uptimeArgv)); o.ok() {
			if v, ok := parseUptime(o.stdout); ok {
				res.UptimeSeconds = &v
			}
		}
		if o := add(d.exec(ctx, t, meminfoArgv)); o.ok() {
			m := parseMeminfo(o.stdout)
			if v, ok := m["MemTotal"]; ok {
				res.MemTotalBytes = ptr(v)
			}
			if v, ok := m["MemAvailable"]; ok {
				res.MemAvailBytes = ptr(v)
			}
			if v, ok := m["SwapTotal"]; ok {
				res.SwapTotalBytes = ptr(v)
			}
		}
		var cpu CPUInfo
		if o := add(d.exec(ctx, t, cpuinfoArgv)); o.ok() {
			cpu = parseCPUInfo(o.stdout)
			res.CPU = &cpu
		}
		// systemd-detect-virt prints "none" and exits 1 on bare metal.
		if o := add(d.exec(ctx, t, virtArgv, 1)); o.ok() && strings.TrimSpace(o.stdout) != "" {
			res.Virtualization = strings.TrimSpace(o.stdout)
		} else if cpu.Hypervisor {
			res.Virtualization = "vm (cpu hypervisor flag)"
		}
		return &relay.Outcome{Result: res}
	})
}

// StorageHealth is storage_health's result.
type StorageHealth struct {
	// SMART is ok or unknown; Disks is meaningful only when ok.
	SMART       string      `json:"smart"`
	SMARTReason string      `json:"smart_reason,omitempty"`
	Disks       []Disk      `json:"disks"`
	RAID        string      `json:"raid" jsonschema:"ok, absent (no md arrays, or no md driver) or unknown."`
	Arrays      []RAIDArray `json:"arrays"`
	ZFS         string      `json:"zfs" jsonschema:"ok or unknown."`
	ZFSReason   string      `json:"zfs_reason,omitempty"`
	Pools       []Pool      `json:"pools"`
	Probes      []Probe     `json:"probes"`
}

var (
	smartScanArgv = []string{"smartctl", "--scan", "-j"}
	mdstatArgv    = []string{"cat", "/proc/mdstat"}
)

func smartArgv(dev smartDevice) []string {
	a := []string{"smartctl", "-j", "-H", "-A", "-i"}
	if dev.Type != "" {
		a = append(a, "-d", dev.Type)
	}
	return append(a, "--", dev.Name)
}

func (d *Deps) planStorageHealth(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	// The per-disk smartctl calls are known only after the scan; the
	// policy reads them as "smartctl -j -H -A -i -- DEVICE".
	described := [][]string{smartScanArgv, smartArgv(smartDevice{Name: "/dev/DEVICE"}), mdstatArgv, zpoolArgv}
	return d.read(ctx, a.Host, described, func(ctx context.Context, t *hosts.Host) *relay.Outcome {
		res := StorageHealth{SMART: Unknown, Disks: []Disk{}, RAID: Unknown, Arrays: []RAIDArray{}, ZFS: Unknown, Pools: []Pool{}}
		add := func(o out) out { res.Probes = append(res.Probes, o.probe()); return o }
		if o := add(d.exec(ctx, t, smartScanArgv)); !o.ok() {
			res.SMARTReason = o.why
		} else if devs, err := parseSmartScan(o.stdout); err != nil {
			res.SMARTReason = "smartctl --scan output: " + err.Error()
		} else if len(devs) == 0 {
			res.SMARTReason = "smartctl found no SMART-capable devices (virtual disks usually have none)"
		} else {
			res.SMART = "ok"
			for _, dev := range devs {
				o := add(d.exec(ctx, t, smartArgv(dev), anyCode...))
				if !smartctlAnswered(o.code) || o.why != "" && !strings.Contains(o.why, "exited") {
					why := o.why
					if why == "" || strings.Contains(why, "exited") {
						why = fmt.Sprintf("smartctl could not open %s (exit %d): %s", dev.Name, o.code, command.FirstLine(o.stdout, o.stderr))
					}
					res.Disks = append(res.Disks, Disk{Device: dev.Name, Type: dev.Type, Health: Unknown, Reason: why})
					continue
				}
				res.Disks = append(res.Disks, parseSmartctl(dev, o.stdout))
			}
		}
		switch o := add(d.exec(ctx, t, mdstatArgv)); {
		case o.ok():
			res.Arrays = parseMdstat(o.stdout)
			res.RAID = "ok"
			if len(res.Arrays) == 0 {
				res.RAID = "absent"
			}
		case o.code == 1 && strings.Contains(o.stderr, "No such file"):
			// Without /proc/mdstat the md driver is not loaded, so no
			// md array can exist; other RAID (hardware, ZFS) is not md.
			res.RAID = "absent"
		}
		if o := add(d.exec(ctx, t, zpoolArgv)); o.ok() {
			res.ZFS, res.Pools = "ok", parseZpoolList(o.stdout)
		} else {
			res.ZFSReason = o.why
		}
		return &relay.Outcome{Result: res}
	})
}

// anyCode lets smartctl's bitmask exit codes through to smartctlAnswered.
var anyCode = func() []int {
	c := make([]int, 255)
	for i := range c {
		c[i] = i + 1
	}
	return c
}()

// Containers is list_containers' result.
type Containers struct {
	Runtime    string      `json:"runtime" jsonschema:"docker, podman or unknown."`
	Reason     string      `json:"reason,omitempty"`
	Containers []Container `json:"containers"`
}

// runtimeOf picks the container runtime present on t.
func (d *Deps) runtimeOf(ctx context.Context, t *hosts.Host) (string, string) {
	found := d.detect(ctx, t, "docker", "podman")
	switch {
	case found["docker"]:
		return "docker", ""
	case found["podman"]:
		return "podman", ""
	}
	return "", "neither docker nor podman was found"
}

func (d *Deps) planContainers(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	rt, why := d.runtimeOf(ctx, t)
	argv := dockerPSArgv
	if rt == "podman" {
		argv = podmanPSArgv
	}
	return &relay.Plan{Host: host, Input: input(detectArgv("docker", "podman"), argv), Run: func(ctx context.Context) *relay.Outcome {
		res := Containers{Runtime: Unknown, Containers: []Container{}}
		if rt == "" {
			res.Reason = why
			return &relay.Outcome{Status: relay.StatusError, Reason: why, Result: res}
		}
		o := d.exec(ctx, t, argv)
		if !o.ok() {
			res.Reason = o.why
			return &relay.Outcome{Status: relay.StatusError, Reason: o.why, Result: res}
		}
		parse := parseDockerPS
		if rt == "podman" {
			parse = parsePodmanPS
		}
		cs, err := parse(o.stdout)
		if err != nil {
			res.Reason = rt + " ps output: " + err.Error()
			return &relay.Outcome{Status: relay.StatusError, Reason: res.Reason, Result: res}
		}
		res.Runtime, res.Containers = rt, cs
		return &relay.Outcome{Result: res}
	}}, nil
}

// LogsArgs are container_logs' arguments.
type LogsArgs struct {
	Name  string `json:"name" jsonschema:"Container name or ID."`
	Host  string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Tail  int    `json:"tail,omitempty" jsonschema:"Lines from the end (default 100, max 5000)."`
	Since string `json:"since,omitempty" jsonschema:"Only newer logs: a duration like 10m or 2h, a date, an RFC 3339 time or a Unix time."`
}

// Logs is container_logs' result.
type Logs struct {
	Name      string `json:"name"`
	Runtime   string `json:"runtime"`
	Stdout    string `json:"stdout"`
	Stderr    string `json:"stderr"`
	Truncated bool   `json:"truncated"`
}

func (d *Deps) planLogs(ctx context.Context, _ *relay.Call, a *LogsArgs) (*relay.Plan, error) {
	if !containerNameRE.MatchString(a.Name) {
		return nil, fmt.Errorf("container name %q is not a valid name or ID", a.Name)
	}
	if a.Tail < 0 || a.Tail > 5000 {
		return nil, errors.New("tail must be between 1 and 5000")
	}
	if a.Since != "" && !sinceRE.MatchString(a.Since) {
		return nil, fmt.Errorf("since %q is not a duration (10m), a date, an RFC 3339 time or a Unix time", a.Since)
	}
	tail := a.Tail
	if tail == 0 {
		tail = 100
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	rt, why := d.runtimeOf(ctx, t)
	if rt == "" {
		rt = "docker"
	}
	argv := []string{rt, "logs", "--timestamps", "--tail", itoa(tail)}
	if a.Since != "" {
		argv = append(argv, "--since", a.Since)
	}
	argv = append(argv, "--", a.Name)
	return &relay.Plan{Host: host, Input: input(detectArgv("docker", "podman"), argv), Run: func(ctx context.Context) *relay.Outcome {
		if why != "" {
			return relay.Fail(relay.StatusError, "%s", why)
		}
		res, err := d.runRaw(ctx, t, argv)
		if err != nil {
			return relay.Fail(relay.StatusError, "%v", err)
		}
		if res.ExitCode != 0 {
			return relay.Fail(relay.StatusError, "%s logs exited %d: %s", rt, res.ExitCode, command.FirstLine(string(res.Stderr), string(res.Stdout)))
		}
		l := Logs{Name: a.Name, Runtime: rt, Stdout: command.ValidUTF8(res.Stdout), Stderr: command.ValidUTF8(res.Stderr), Truncated: res.Truncated}
		return &relay.Outcome{Result: l, Output: append(append([]byte(nil), res.Stdout...), res.Stderr...)}
	}}, nil
}

// ServiceArgs name one service.
type ServiceArgs struct {
	Name string `json:"name" jsonschema:"Service or unit name, e.g. nginx or nginx.service."`
	Host string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
}

func checkService(name string) error {
	if !serviceNameRE.MatchString(name) {
		return fmt.Errorf("service name %q is not valid (letters, digits and @._:+- only, not starting with -)", name)
	}
	return nil
}

func serviceStatusArgv(mgr, name string) []string {
	switch mgr {
	case "systemd":
		return systemctlShowArgv(name)
	case "openrc":
		return []string{"rc-service", name, "status"}
	case "sysv":
		return []string{"service", name, "status"}
	case "busybox":
		return busyboxStatusArgv(name)
	}
	return nil
}

func (d *Deps) planServiceStatus(ctx context.Context, _ *relay.Call, a *ServiceArgs) (*relay.Plan, error) {
	if err := checkService(a.Name); err != nil {
		return nil, err
	}
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	mgr := strings.TrimSpace(d.exec(ctx, t, initArgv).stdout)
	argv := serviceStatusArgv(mgr, a.Name)
	in := input(initArgv)
	if argv != nil {
		in = input(initArgv, argv)
	}
	return &relay.Plan{Host: host, Input: in, Run: func(ctx context.Context) *relay.Outcome {
		if argv == nil {
			st := ServiceState{Name: a.Name, Manager: Unknown, Active: Unknown, Reason: "no systemd, OpenRC, BusyBox init or SysV service command found"}
			return &relay.Outcome{Status: relay.StatusError, Reason: st.Reason, Result: st}
		}
		o := d.exec(ctx, t, argv, anyCode...)
		if o.why != "" && !strings.Contains(o.why, "exited") {
			st := ServiceState{Name: a.Name, Manager: mgr, Active: Unknown, Reason: o.why}
			return &relay.Outcome{Status: relay.StatusError, Reason: o.why, Result: st}
		}
		var st ServiceState
		switch mgr {
		case "systemd":
			st = parseSystemctlShow(a.Name, o.stdout)
		case "openrc":
			st = parseOpenRCStatus(a.Name, o.stdout+o.stderr, o.code)
		case "busybox":
			st = parseBusyBoxStatus(a.Name, o.stdout)
		default:
			st = parseSysVStatus(a.Name, o.stdout+o.stderr, o.code)
		}
		return &relay.Outcome{Result: st}
	}}, nil
}

// Exposure is internet_exposure's result.
type Exposure struct {
	Sockets []Socket `json:"sockets" jsonschema:"Listening sockets not bound to loopback."`
	// Firewall names the backend used for the verdicts, or unknown.
	Firewall       string  `json:"firewall"`
	FirewallReason string  `json:"firewall_reason,omitempty"`
	Probes         []Probe `json:"probes"`
}

var (
	ssListenArgv = []string{"ss", "-H", "-tulpn"}
	nftListArgv  = []string{"nft", "-a", "list", "ruleset"}
	iptSArgv     = []string{"iptables", "-S"}
	ip6tSArgv    = []string{"ip6tables", "-S"}
)

// chainsOf reads the input filter from nftables, else iptables.
func (d *Deps) chainsOf(ctx context.Context, t *hosts.Host, probes *[]Probe) (string, []Chain, string) {
	o := d.exec(ctx, t, nftListArgv)
	*probes = append(*probes, o.probe())
	if o.ok() {
		return "nftables", parseNftRuleset(o.stdout), ""
	}
	oi := d.exec(ctx, t, iptSArgv)
	*probes = append(*probes, oi.probe())
	if oi.ok() {
		return "iptables", parseIptablesS(oi.stdout), ""
	}
	return Unknown, nil, o.why + "; " + oi.why
}

func (d *Deps) planExposure(ctx context.Context, _ *relay.Call, a *HostArg) (*relay.Plan, error) {
	return d.read(ctx, a.Host, [][]string{ssListenArgv, nftListArgv, iptSArgv}, func(ctx context.Context, t *hosts.Host) *relay.Outcome {
		res := Exposure{Sockets: []Socket{}, Firewall: Unknown}
		o := d.exec(ctx, t, ssListenArgv)
		res.Probes = append(res.Probes, o.probe())
		if !o.ok() {
			return &relay.Outcome{Status: relay.StatusError, Reason: o.why, Result: res}
		}
		res.Sockets = parseSS(o.stdout)
		backend, chains, why := d.chainsOf(ctx, t, &res.Probes)
		res.Firewall, res.FirewallReason = backend, why
		for i := range res.Sockets {
			s := &res.Sockets[i]
			reach := Reach{Backend: Unknown, Verdict: Unknown, Reason: "the firewall could not be read: " + why}
			if backend != Unknown {
				reach = evalChains(backend, chains, s.Proto, s.Port)
			}
			s.Firewall = &reach
		}
		return &relay.Outcome{Result: res}
	})
}

// PerfArgs are performance's arguments.
type PerfArgs struct {
	Host      string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	IntervalS int    `json:"interval_s,omitempty" jsonschema:"Sampling interval in seconds (default 1, max 10)."`
	Top       int    `json:"top,omitempty" jsonschema:"Processes to list (default 10, max 50)."`
}

// Performance is performance's result.
type Performance struct {
	IntervalS int       `json:"interval_s"`
	Load      *Load     `json:"load,omitempty"`
	CPU       *CPUUsage `json:"cpu,omitempty"`
	MemTotal  *int64    `json:"mem_total_bytes,omitempty"`
	MemAvail  *int64    `json:"mem_available_bytes,omitempty"`
	Disks     []DiskIO  `json:"disks"`
	Top       []Process `json:"top_processes"`
	// TopBy is what top_processes is ordered by: cpu, or rss where ps
	// shows no CPU share (BusyBox).
	TopBy  string  `json:"top_by,omitempty" jsonschema:"cpu, or rss where ps shows no CPU share (BusyBox)."`
	Probes []Probe `json:"probes"`
}

var (
	statArgv  = []string{"cat", "/proc/stat"}
	dstatArgv = []string{"cat", "/proc/diskstats"}
	loadArgv  = []string{"cat", "/proc/loadavg"}
)

func (d *Deps) planPerformance(ctx context.Context, _ *relay.Call, a *PerfArgs) (*relay.Plan, error) {
	if a.IntervalS < 0 || a.IntervalS > 10 || a.Top < 0 || a.Top > 50 {
		return nil, errors.New("interval_s must be 0-10 and top 0-50")
	}
	iv := max(a.IntervalS, 1)
	top := a.Top
	if top == 0 {
		top = 10
	}
	return d.read(ctx, a.Host, [][]string{statArgv, dstatArgv, loadArgv, meminfoArgv, psArgv, busyboxPSArgv}, func(ctx context.Context, t *hosts.Host) *relay.Outcome {
		res := Performance{IntervalS: iv, Disks: []DiskIO{}, Top: []Process{}}
		add := func(o out) out { res.Probes = append(res.Probes, o.probe()); return o }
		s1, d1 := add(d.exec(ctx, t, statArgv)), add(d.exec(ctx, t, dstatArgv))
		if err := d.Sleep(ctx, time.Duration(iv)*time.Second); err != nil {
			return relay.Fail(relay.StatusError, "cancelled while sampling")
		}
		s2, d2 := add(d.exec(ctx, t, statArgv)), add(d.exec(ctx, t, dstatArgv))
		if s1.ok() && s2.ok() {
			a1, ok1 := parseProcStat(s1.stdout)
			a2, ok2 := parseProcStat(s2.stdout)
			if u, ok := cpuUsage(a1, a2); ok1 && ok2 && ok {
				res.CPU = &u
			}
		}
		if d1.ok() && d2.ok() {
			before, after := parseDiskstats(d1.stdout), parseDiskstats(d2.stdout)
			names := make([]string, 0, len(after))
			for n := range after {
				names = append(names, n)
			}
			sort.Strings(names)
			for _, n := range names {
				b, ok := before[n]
				if !ok {
					continue
				}
				x := after[n]
				res.Disks = append(res.Disks, DiskIO{
					Name:             n,
					ReadBytesPerSec:  int64(x.readSectors-b.readSectors) * 512 / int64(iv),
					WriteBytesPerSec: int64(x.writeSectors-b.writeSectors) * 512 / int64(iv),
					UtilPct:          min(100, round1(float64(x.ioMillis-b.ioMillis)/float64(iv*10))),
				})
			}
		}
		if o := add(d.exec(ctx, t, loadArgv)); o.ok() {
			if l, ok := parseLoadavg(o.stdout); ok {
				res.Load = &l
			}
		}
		if o := add(d.exec(ctx, t, meminfoArgv)); o.ok() {
			m := parseMeminfo(o.stdout)
			if v, ok := m["MemTotal"]; ok {
				res.MemTotal = ptr(v)
			}
			if v, ok := m["MemAvailable"]; ok {
				res.MemAvail = ptr(v)
			}
		}
		if o := add(d.exec(ctx, t, psArgv)); o.ok() {
			ps := parsePS(o.stdout)
			sort.SliceStable(ps, func(i, j int) bool { return *ps[i].CPUPct > *ps[j].CPUPct })
			res.Top, res.TopBy = ps[:min(top, len(ps))], "cpu"
		} else if o := add(d.exec(ctx, t, busyboxPSArgv)); o.ok() {
			ps := parseBusyBoxPS(o.stdout)
			sort.SliceStable(ps, func(i, j int) bool { return ps[i].RSSKiB > ps[j].RSSKiB })
			res.Top, res.TopBy = ps[:min(top, len(ps))], "rss"
		}
		return &relay.Outcome{Result: res}
	})
}

// UpdatesArgs are pending_updates' arguments.
type UpdatesArgs struct {
	Host    string `json:"host,omitempty" jsonschema:"local (default) or a host name from hosts_list."`
	Refresh bool   `json:"refresh,omitempty" jsonschema:"Refresh the package index first (apt, dnf, apk)."`
}

// Updates is pending_updates' result.
type Updates struct {
	Manager string `json:"manager" jsonschema:"apt, dnf, apk, pacman, pkg or unknown."`
	Reason  string `json:"reason,omitempty"`
	// Count is the updates an upgrade would install: Held ones are
	// listed but not counted.
	Count   int      `json:"count"`
	Updates []Update `json:"updates"`
	// Security counts updates from security repositories where the
	// manager says so (apt, dnf).
	Security  int  `json:"security"`
	Refreshed bool `json:"refreshed"`
}

// tally counts the updates an upgrade would install and the security
// ones among them.
func (u *Updates) tally() {
	for _, x := range u.Updates {
		if x.Held {
			continue
		}
		u.Count++
		if x.Security {
			u.Security++
		}
	}
}

func (d *Deps) planUpdates(ctx context.Context, _ *relay.Call, a *UpdatesArgs) (*relay.Plan, error) {
	t, host, err := d.target(ctx, a.Host)
	if err != nil {
		return nil, err
	}
	found := d.detect(ctx, t, managers...)
	mgr := ""
	for _, m := range managers {
		if found[m] {
			mgr = m
			break
		}
	}
	argvs := [][]string{detectArgv(managers...)}
	refresh := refreshArgv[mgr]
	p := &relay.Plan{Host: host}
	if a.Refresh {
		if refresh == nil {
			return nil, fmt.Errorf("refresh is not supported for %s", orUnknown(mgr))
		}
		argvs = append(argvs, refresh)
		p.Tier = policy.TierBenign
	}
	if mgr != "" {
		argvs = append(argvs, updateArgv[mgr])
	}
	p.Input = input(argvs...)
	p.Run = func(ctx context.Context) *relay.Outcome {
		res := Updates{Manager: Unknown, Updates: []Update{}}
		if mgr == "" {
			res.Reason = "no apt, dnf, apk, pacman or pkg found"
			return &relay.Outcome{Status: relay.StatusError, Reason: res.Reason, Result: res}
		}
		res.Manager = mgr
		if a.Refresh {
			if o := d.exec(ctx, t, refresh); !o.ok() {
				res.Reason = "refresh failed: " + o.why
				return &relay.Outcome{Status: relay.StatusError, Reason: res.Reason, Result: res}
			}
			res.Refreshed = true
		}
		codes := []int{}
		if mgr == "dnf" {
			codes = append(codes, 100)
		}
		o := d.exec(ctx, t, updateArgv[mgr], codes...)
		if !o.ok() {
			res.Reason = o.why
			return &relay.Outcome{Status: relay.StatusError, Reason: o.why, Result: res}
		}
		res.Updates = parseUpdates(mgr, o.stdout)
		res.tally()
		return &relay.Outcome{Result: res}
	}
	return p, nil
}

func orUnknown(s string) string {
	if s == "" {
		return "an unknown package manager"
	}
	return s
}
