package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json")

// fixture reads a fixture without its #fixture: line: the real capture
// NAME.captured.txt, else the format reconstruction NAME.captured-format.txt.
func fixture(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name+".captured.txt"))
	if errors.Is(err, fs.ErrNotExist) {
		b, err = os.ReadFile(filepath.Join("testdata", name+".captured-format.txt"))
	}
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.HasPrefix(s, "#fixture:") {
		_, s, _ = strings.Cut(s, "\n")
	}
	return s
}

// TestGolden runs every parser over its fixture and
// compares the structured result with the golden file.
func TestGolden(t *testing.T) {
	cases := map[string]func(string) any{
		"pfctl-rules":           func(s string) any { return parsePfRules(s) },
		"pfctl-info":            func(s string) any { return parsePfInfo(s) },
		"openrc-status-started": func(s string) any { return parseOpenRCStatus("nginx", s, 0) },
		"openrc-status-stopped": func(s string) any { return parseOpenRCStatus("sshd", s, 3) },
		"openrc-status-missing": func(s string) any { return parseOpenRCStatus("nosuch", s, 1) },
		"apk-list-upgradable":   func(s string) any { return parseApk(s) },
		"dnf-check-update":      func(s string) any { return parseDnf(s) },
		"pkg-version":           func(s string) any { return parsePkg(s) },
		"apt-list-upgradable":   func(s string) any { return parseApt(s) },
		"pacman-qu":             func(s string) any { return parsePacman(s) },
		"mdstat":                func(s string) any { return parseMdstat(s) },
		"zpool-list":            func(s string) any { return parseZpoolList(s) },
		"mdstat-replace":        func(s string) any { return parseMdstat(s) },
		"mdstat-degraded":       func(s string) any { return parseMdstat(s) },
		"smartctl-ata":          func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/sdb", Type: "sat"}, s) },
		"smartctl-ata-failed":   func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/sdc", Type: "usbjmicron"}, s) },
		"smartctl-nvme-media-errors": func(s string) any {
			return parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, s)
		},
		"smartctl-scan":      func(s string) any { return orErr(parseSmartScan(s)) },
		"smartctl-scan-nvme": func(s string) any { return orErr(parseSmartScan(s)) },
		// QEMU's emulated NVMe controller, healthy and with critical
		// warning bits 0x01, 0x04 and 0x08 set (smartctl: FAILED, exit 8).
		"smartctl-nvme-healthy":   func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, s) },
		"smartctl-nvme-warning-1": func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, s) },
		"smartctl-nvme-warning-4": func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, s) },
		"smartctl-nvme-warning-8": func(s string) any { return parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, s) },
		"nft-ruleset":             func(s string) any { return parseNftRuleset(s) },
		"iptables-s":              func(s string) any { return parseIptablesS(s) },
		"ss-listen":               func(s string) any { return parseSS(s) },
		"ipset-list":              func(s string) any { return parseIpsetMembers(s) },
		"ipset-list-terse":        func(s string) any { return parseIpsetTerse(s) },
		"iptables-chain":          func(s string) any { return parseIptChainSources(s, "agent_blocklist") },
		"nft-ruleset-sets":        func(s string) any { return parseNftSets(s) },
		"ip-o-addr":               func(s string) any { return parseIfAddrs(s) },
		"busybox-ifconfig":        func(s string) any { return parseIfAddrs(s) },
		"iptables-version-nft":    func(s string) any { return iptVariant(s) },
		"iptables-version-legacy": func(s string) any { return iptVariant(s) },
		"pfctl-table-show":        func(s string) any { return parsePfTableShow(s) },
		"pfctl-tables":            func(s string) any { return parsePfTables(s) },
		"pfctl-tables-altq":       func(s string) any { return parsePfTables(s) },
		"sockstat-listen":         func(s string) any { return sockstatListeners(parseSockstat(s)) },
		"sockstat-connected":      func(s string) any { return parseSockstat(s) },
		"sockstat-46s":            func(s string) any { return sockstatListeners(parseSockstat(s)) },
		"sockstat-4-zenoss":       func(s string) any { return parseSockstat(s) },
		"sockstat-ptcp-perkeep":   func(s string) any { return parseSockstat(s) },
		"pfctl-table-add": func(s string) any {
			n, of, ok := parsePfTableChange(s, "added")
			return map[string]any{"changed": n, "of": of, "ok": ok}
		},
		"pfctl-table-delete": func(s string) any {
			n, of, ok := parsePfTableChange(s, "deleted")
			return map[string]any{"changed": n, "of": of, "ok": ok}
		},
		"ps":                     func(s string) any { return parsePS(s) },
		"busybox-ps":             func(s string) any { return parseBusyBoxPS(s) },
		"docker-ps":              func(s string) any { return orErr(parseDockerPS(s)) },
		"docker-ps-newer-client": func(s string) any { return orErr(parseDockerPS(s)) },
		"podman-ps":              func(s string) any { return orErr(parsePodmanPS(s)) },
		"smartctl-scan-none":     func(s string) any { return orErr(parseSmartScan(s)) },
		"systemctl-show-web":     func(s string) any { return parseSystemctlShow("capture-web.service", s) },
		"systemctl-show-fail":    func(s string) any { return parseSystemctlShow("capture-fail.service", s) },
		"systemctl-show-flap":    func(s string) any { return parseSystemctlShow("capture-flap.service", s) },
		"systemctl-show-nosuch":  func(s string) any { return parseSystemctlShow("nosuch.service", s) },
		"sysv-status-running":    func(s string) any { return parseSysVStatus("ssh", s, 0) },
		"sysv-status-stopped":    func(s string) any { return parseSysVStatus("ssh", s, 3) },
		"sysv-status-stale":      func(s string) any { return parseSysVStatus("ssh", s, 1) },
		"sysv-status-missing":    func(s string) any { return parseSysVStatus("nosuch", s, 1) },
		"ufw-status": func(s string) any {
			active, chains := parseUfwStatus(s)
			return map[string]any{"active": active, "chains": chains}
		},
	}
	for name, parse := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := json.MarshalIndent(parse(fixture(t, name)), "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", name+".golden.json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s: parser output differs from %s:\ngot:\n%s", name, golden, got)
			}
		})
	}
}

// TestSmartctlNVMeCriticalWarning holds parseSmartctl to what smartctl
// 7.3 said of QEMU's emulated NVMe controller in a guest
// (testdata/capture/qemu-guest.sh): FAILED, exit 8, with any critical
// warning bit set (available spare, reliability, read-only), PASSED with
// none.
func TestSmartctlNVMeCriticalWarning(t *testing.T) {
	for name, want := range map[string]string{
		"smartctl-nvme-healthy":   "passed",
		"smartctl-nvme-warning-1": "failed",
		"smartctl-nvme-warning-4": "failed",
		"smartctl-nvme-warning-8": "failed",
	} {
		d := parseSmartctl(smartDevice{Name: "/dev/nvme0", Type: "nvme"}, fixture(t, name))
		if d.Health != want || d.Model != "QEMU NVMe Ctrl" || d.Serial != "WARDEN0001" || d.TemperatureC == nil {
			t.Errorf("%s: %+v, want health %s of QEMU NVMe Ctrl WARDEN0001 with a temperature", name, d, want)
		}
	}
}

// TestMdstatTwoArrays: in the guest's listing a raid5 recovering and a
// whole raid1 with a bitmap; only the raid5 is degraded, with its progress.
func TestMdstatTwoArrays(t *testing.T) {
	arrays := parseMdstat(fixture(t, "mdstat"))
	if len(arrays) != 2 {
		t.Fatalf("%d arrays, want 2: %+v", len(arrays), arrays)
	}
	if a := arrays[0]; a.Name != "md1" || a.Level != "raid5" || !a.Degraded || a.Members != "[3/2]" || a.Recovery != "recovery 8.0%" {
		t.Errorf("md1: %+v", a)
	}
	if a := arrays[1]; a.Name != "md0" || a.Level != "raid1" || a.Degraded || a.Members != "[2/2]" || a.Recovery != "" {
		t.Errorf("md0: %+v", a)
	}
}

// orErr keeps a parser's error in the golden file rather than its result.
func orErr[T any](v T, err error) any {
	if err != nil {
		return map[string]string{"error": err.Error()}
	}
	return v
}

// TestExposureVerdicts evaluates the nftables and iptables rule sets
// captured in a network namespace (testdata/capture/firewall-netns.sh)
// against ports the way internet_exposure does.
func TestExposureVerdicts(t *testing.T) {
	nftChains := parseNftRuleset(fixture(t, "nft-ruleset"))
	iptChains := parseIptablesS(fixture(t, "iptables-s"))
	tests := []struct {
		backend string
		chains  []Chain
		proto   string
		port    int
		want    string
	}{
		{"nftables", nftChains, "tcp", 22, FWConditional},
		{"nftables", nftChains, "tcp", 443, FWAllowed},
		{"nftables", nftChains, "udp", 51820, FWAllowed},
		{"nftables", nftChains, "tcp", 8050, FWBlocked},
		{"nftables", nftChains, "tcp", 8080, FWBlocked},
		{"nftables", nftChains, "udp", 443, FWBlocked},
		{"iptables", iptChains, "tcp", 80, FWAllowed},
		{"iptables", iptChains, "tcp", 22, FWConditional},
		{"iptables", iptChains, "tcp", 9100, FWConditional},
		{"iptables", iptChains, "tcp", 3306, FWBlocked},
		{"iptables", iptChains, "udp", 5353, FWBlocked},
		{"iptables", iptChains, "udp", 443, FWBlocked},
		{"nftables", nftChains, "tcp", 9100, FWConditional},
		{"nftables", nftChains, "tcp", 2222, FWConditional},
		{"nftables", nil, "tcp", 22, FWAllowed},
	}
	for _, tt := range tests {
		got := evalChains(tt.backend, tt.chains, tt.proto, tt.port)
		if got.Verdict != tt.want {
			t.Errorf("%s %s/%d = %+v; want %s", tt.backend, tt.proto, tt.port, got, tt.want)
		}
	}
}

func TestParseSmallFormats(t *testing.T) {
	if got := parseOSRelease("PRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nNAME=\"Debian GNU/Linux\"\nVERSION_ID=\"12\"\nID=debian\n"); got.ID != "debian" || got.Version != "12" || got.PrettyName != "Debian GNU/Linux 12 (bookworm)" {
		t.Errorf("parseOSRelease = %+v", got)
	}
	m := parseMeminfo("MemTotal:        2000 kB\nMemAvailable:    1000 kB\nHugePages_Total:       0\n")
	if m["MemTotal"] != 2000*1024 || m["MemAvailable"] != 1000*1024 || m["HugePages_Total"] != 0 {
		t.Errorf("parseMeminfo = %v", m)
	}
	a, _ := parseProcStat("cpu  100 0 50 800 50 0 0 0 0 0\n")
	b, _ := parseProcStat("cpu  200 0 100 1600 100 0 0 0 0 0\n")
	if u, ok := cpuUsage(a, b); !ok || u.UserPct != 10 || u.SystemPct != 5 || u.IdlePct != 80 || u.IOWaitPct != 5 {
		t.Errorf("cpuUsage = %+v %v", u, ok)
	}
	for name, want := range map[string]bool{"sda": true, "sda1": false, "nvme0n1": true, "nvme0n1p2": false, "vda": true, "loop0": false, "md0": true, "mmcblk0": true, "mmcblk0p1": false, "dm-0": false} {
		if got := wholeDisk(name); got != want {
			t.Errorf("wholeDisk(%q) = %v; want %v", name, got, want)
		}
	}
	fs := parseDF("Filesystem     Type 1024-blocks    Used Available Capacity Mounted on\n/dev/vda1      ext4    1000     250       750      25% /mnt/my disk\n")
	if len(fs) != 1 || fs[0].Mount != "/mnt/my disk" || fs[0].UsedPct != 25 || fs[0].SizeBytes != 1024000 {
		t.Errorf("parseDF = %+v", fs)
	}
	peers := sshPeers("0 0 10.0.0.2:22 192.0.2.9:50123 users:((\"sshd\",pid=1,fd=4))\n0 0 10.0.0.2:443 198.51.100.1:5000 users:((\"caddy\",pid=2,fd=4))\n")
	if len(peers) != 1 || peers[0].String() != "192.0.2.9" {
		t.Errorf("sshPeers = %v", peers)
	}
	if got := sshConnection("203.0.113.5 50000 10.0.0.2 22\n203.0.113.5 50000 22\n"); len(got) != 2 || got[0].String() != "203.0.113.5" {
		t.Errorf("sshConnection = %v", got)
	}
	devs, err := parseSmartScan(`{"devices":[{"name":"/dev/sda","type":"sat"},{"name":"-d","type":"x"},{"name":"/dev/../etc/shadow","type":"ata"},{"name":"/dev/nvme0","type":"nvme"}]}`)
	if err != nil || len(devs) != 2 {
		t.Errorf("parseSmartScan kept %+v, %v; want sda and nvme0 only", devs, err)
	}
	if !smartctlAnswered(0) || !smartctlAnswered(8) || smartctlAnswered(2) || smartctlAnswered(1) {
		t.Error("smartctlAnswered misreads the exit bitmask")
	}
	// OpenRC's transient and failure states, which the captures lack
	// (OpenRC prints them on stderr, as " * status: NAME").
	for sub, want := range map[string]string{"crashed": "failed", "starting": "activating", "stopping": "deactivating", "inactive": Unknown} {
		if got := parseOpenRCStatus("x", " * status: "+sub+"\n", 0); got.Active != want || got.Sub != sub {
			t.Errorf("OpenRC status %s: Active, Sub = %q, %q; want %q, %q", sub, got.Active, got.Sub, want, sub)
		}
	}
}

// TestParsePfVerdicts covers rule forms the captured ruleset lacks. The
// lines follow pfctl's print_rule (sbin/pfctl/pfctl_parser.c); they are not
// captured output.
func TestParsePfVerdicts(t *testing.T) {
	tests := []struct{ rule, want string }{
		{"block return in quick on em0 proto tcp from <bruteforce> to any", "reject"},
		{"block return-rst in on em0 proto tcp from any to any port = 23", "reject"},
		{"block return-icmp(port-unr, port-unr) in on em0 proto udp all", "reject"},
		{"block drop in log all", "drop"},
		{"pass out all flags S/SA keep state", "accept"},
		{"match in all scrub (no-df)", "match"},
	}
	for _, tt := range tests {
		c := parsePfRules("No ALTQ support in kernel\n" + tt.rule + "\n")
		if len(c) != 1 || len(c[0].Rules) != 1 || c[0].Rules[0].Verdict != tt.want {
			t.Errorf("parsePfRules(%q) = %+v; want one rule with verdict %s", tt.rule, c, tt.want)
		}
	}
	for in, want := range map[string]string{"Status: Disabled                              Debug: Urgent\n": "inactive", "": Unknown, "pfctl: /dev/pf: Permission denied\n": Unknown} {
		if got := parsePfInfo(in); got != want {
			t.Errorf("parsePfInfo(%q) = %s; want %s", in, got, want)
		}
	}
}

// A package pacman holds back (IgnorePkg) is listed as held and not
// counted among the updates an upgrade installs.
func TestUpdatesTallySkipsHeld(t *testing.T) {
	b, err := os.ReadFile("testdata/pacman-qu.captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	_, out, _ := strings.Cut(string(b), "\n") // the #fixture: line
	u := Updates{Updates: parsePacman(out)}
	u.tally()
	if len(u.Updates) != 3 || u.Count != 2 || !u.Updates[0].Held || u.Updates[1].Held {
		t.Errorf("tally of %+v: count %d", u.Updates, u.Count)
	}
}

// BusyBox prints a size column in KiB, with a unit once it is too wide;
// what is not a size reads as 0, never as a wrong number.
func TestBusyBoxKiB(t *testing.T) {
	for in, want := range map[string]int64{
		"9336": 9336, "48m": 48 << 10, "2g": 2 << 20, "1t": 1 << 30, "512k": 512,
		"9.8m": 10035, "": 0, "m": 0, "12q": 0, "-": 0, "-5": 0, "1e3": 0, "NaN": 0, "Inf": 0,
	} {
		if got := busyboxKiB(in); got != want {
			t.Errorf("busyboxKiB(%q) = %d, want %d", in, got, want)
		}
	}
}
