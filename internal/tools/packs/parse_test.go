package packs

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files")

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	// A capture made here names its provenance on a first "#fixture:" line,
	// which is not program output.
	s := string(b)
	if strings.HasPrefix(s, "#fixture:") {
		_, s, _ = strings.Cut(s, "\n")
	}
	return s
}

// golden compares v, as indented JSON, with testdata/golden/NAME.json.
func golden(t *testing.T, name string, v any) {
	t.Helper()
	got, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got = append(got, '\n')
	path := filepath.Join("testdata", "golden", name+".json")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update)", err)
	}
	if string(got) != string(want) {
		t.Errorf("%s: got\n%s\nwant\n%s", name, got, want)
	}
}

// TestParsersGolden holds every parser to captured output (see
// testdata/README.md for which captures were made here and which come
// from public sources, and the few format samples that are neither).
func TestParsersGolden(t *testing.T) {
	tests := []struct {
		name string
		got  func() any
	}{
		{"arp-here", func() any { return parseARP(read(t, "proc-net-arp-here.txt")) }},
		{"arp-node-exporter", func() any { return parseARP(read(t, "node-exporter-proc-net-arp.txt")) }},
		{"leases-dnsmasq-exporter", func() any { return parseLeases(read(t, "dnsmasq-exporter-dnsmasq.leases")) }},
		// dnsmasq's lease file as OpenWrt keeps it, written here by dnsmasq
		// for BusyBox udhcpc clients: an end time, * for no hostname and no
		// client id, 0 for an infinite lease.
		{"leases-dnsmasq-here", func() any { return parseLeases(read(t, "dnsmasq-here.leases")) }},
		{"leases-aioasuswrt", func() any { return parseLeases(read(t, "aioasuswrt-dnsmasq.leases")) }},
		{"assoc-iwinfo", func() any { return parseAssoc("phy0-ap0", read(t, "zarhus-iwinfo-assoclist.txt")) }},
		{"assoc-iwinfo-none", func() any { return parseAssoc("phy0-ap0", read(t, "zarhus-iwinfo-assoclist-none.txt")) }},
		{"assoc-wl", func() any { return parseAssoc("eth6", read(t, "aioasuswrt-wl-assoclist.txt")) }},
		{"clients-merged-asuswrt", func() any {
			return mergeClients(nil, parseLeases(read(t, "aioasuswrt-dnsmasq.leases")),
				parseAssoc("eth6", read(t, "aioasuswrt-wl-assoclist.txt")))
		}},
		// The router's ARP table, lease file and an OpenWrt station list
		// agree on one MAC (the capture script gave the first DHCP client
		// the station's MAC): arp, dhcp and wireless merge into one client.
		{"clients-merged", func() any {
			return mergeClients(parseARP(read(t, "proc-net-arp-dhcp-here.txt")),
				parseLeases(read(t, "dnsmasq-here.leases")),
				parseAssoc("phy0-ap0", read(t, "zarhus-iwinfo-assoclist.txt")))
		}},
		{"wan-ubus", func() any {
			w, err := parseUbusWAN(read(t, "golangdemon-ubus-wan-status.json"))
			if err != nil {
				t.Fatal(err)
			}
			return w
		}},
		// A real RT-AC68U's nvram (Asuswrt-Merlin 380.59, PPPoE, connected):
		// the address is on ppp0 (wan0_gw_ifname), not on eth0
		// (wan0_ifname, the port under the PPPoE link).
		{"wan-nvram-merlinphp-rt-ac68u", func() any { return nvramWAN(parseNvram(read(t, "merlinphp-rt-ac68u-380.59-nvram.txt"))) }},
		// Asuswrt's unit-less wan_* keys are not the primary WAN's
		// (wan0_*): a router that only shows those gives unknown.
		// The primary WAN's real wan0_* values (an RT-AX88U on Merlin 388,
		// PPPoE) as the router's httpd returned them from nvram: JSON, not
		// `nvram show` text, so the test reads the values into the map
		// parseNvram would make and holds nvramWAN to them.
		{"wan-nvram-asusrouter-rt-ax88u", func() any { return nvramWAN(httpdNvram(t, "asusrouter-rt-ax88u-merlin-388-hook-wan.json")) }},
		{"wan-nvram-aioasuswrt-wan-keys", func() any { return nvramWAN(parseNvram(read(t, "aioasuswrt-nvram-wan.txt"))) }},
		// nvram show on HND models lists a setting moved to /jffs/nvram
		// twice, empty first: the later, real value is the one kept.
		{"nvram-show-issue-764-duplicates", func() any { return parseNvram(read(t, "issue-asuswrt-merlin-ng-764-nvram-show.txt")) }},
		{"ip-addr-busybox", func() any { return parseIPAddr(read(t, "busybox-ip-addr.txt")) }},
		{"ip-addr-iproute2", func() any { return parseIPAddr(read(t, "iproute2-ip-addr.txt")) }},
		{"net-dev-aioasuswrt", func() any { return netDev(parseNetDev(read(t, "aioasuswrt-proc-net-dev.txt"))) }},
		{"net-dev", func() any { return netDev(parseNetDev(read(t, "proc-net-dev.txt"))) }},
		{"ping-busybox", func() any { p, _ := parsePing(read(t, "busybox-ping.txt")); return p }},
		{"ping-busybox-loss", func() any { p, _ := parsePing(read(t, "busybox-ping-loss.txt")); return p }},
		{"traceroute-busybox", func() any { return parseTraceroute(read(t, "busybox-traceroute.txt")) }},
		{"nslookup-busybox", func() any { return parseNslookup(read(t, "busybox-nslookup.txt")) }},
		// DSM's md layout made in a QEMU guest (qemu-guest.sh): five disks,
		// md0/md1 with a slot per bay of an 8-bay box, md2 raid5.
		{"mdstat-qemu-dsm-healthy", func() any { return parseMDStat(read(t, "qemu-dsm-mdstat-healthy.txt")) }},
		{"mdstat-qemu-dsm-degraded", func() any { return parseMDStat(read(t, "qemu-dsm-mdstat-degraded.txt")) }},
		{"mdstat-qemu-dsm-rebuilding", func() any { return parseMDStat(read(t, "qemu-dsm-mdstat-rebuilding.txt")) }},
		{"mdstat-issue-dsm-linear", func() any { return parseMDStat(read(t, "issue-synology-m2-volume-133-mdstat.txt")) }},
		{"mdstat-issue-failed", func() any { return parseMDStat(read(t, "issue-hdo-site-404-mdstat-failed.txt")) }},
		{"mdstat-issue-check", func() any { return parseMDStat(read(t, "issue-centreon-plugins-18-mdstat-check.txt")) }},
		{"dsm-update", func() any {
			return parseDSMUpdate(nil, outs{
				"version":  {{stdout: read(t, "solidcitizen-smart-dsm-7.3.2-VERSION")}},
				"check":    {{stdout: read(t, "systemutils-synoupgrade-check.stdout"), code: 255, why: "synoupgrade exited 255: UPGRADE_CHECKNEWDSM"}},
				"packages": {{stdout: read(t, "systemutils-synopkg-checkupdateall.json")}},
			})
		}},
		// DSM 5.1's VERSION: no productversion and no os_name, and some
		// values unquoted (smallfixnumber=1): the version comes from
		// majorversion.minorversion, "DSM 5.1-5022 Update 1".
		{"dsm-version-dsm-5.1", func() any {
			v, ok := parseDSMVersion(read(t, "issue-salt-18943-dsm-5.1-VERSION"))
			if !ok {
				t.Error("DSM 5.1 VERSION not read")
			}
			return v
		}},
		{"dsm-update-nothing-pending", func() any {
			return parseDSMUpdate(nil, outs{
				"check":    {{code: 1, why: "synoupgrade exited 1: permission denied"}},
				"packages": {{stdout: "[]\n"}},
			})
		}},
		// synosystemctl's get-active-status and get-enable-status answer as
		// systemctl is-active and is-enabled do; these are systemctl's own
		// answers captured here (no DSM capture was found).
		{"state-words-systemctl", func() any {
			return map[string]string{
				"is-enabled ssh":          parseStateWord(read(t, "systemctl-is-enabled-ssh.stdout"), enabledWords),
				"is-enabled debug-shell":  parseStateWord(read(t, "systemctl-is-enabled-debug-shell.stdout"), enabledWords),
				"is-enabled no-such-unit": parseStateWord(read(t, "systemctl-is-enabled-missing.stdout")+read(t, "systemctl-is-enabled-missing.stderr"), enabledWords),
				"is-active ssh, no init":  parseStateWord(read(t, "systemctl-is-active-no-systemd.stdout")+read(t, "systemctl-is-active-no-systemd.stderr"), activeWords),
			}
		}},
		{"dsm-exposure", func() any {
			return parseExposure(nil, outs{
				"relayd":      {{stdout: "active\n"}},
				"relayd_conf": {{stdout: read(t, "handwritten/dsm-host/usr/syno/etc/synorelayd/synorelayd.conf")}},
				"ddns":        {{stdout: read(t, "handwritten/dsm-host/etc/ddns.conf")}},
				"portforward": {{code: 1, why: "ls exited 1: ls: /usr/syno/etc/portforward: No such file or directory"}},
				"synoinfo":    {{stdout: read(t, "handwritten/dsm-host/etc/synoinfo.conf")}},
				"upnpc":       {{stdout: read(t, "upnpc-l-no-igd.stdout"), stderr: read(t, "upnpc-l-no-igd.stderr"), code: 1, why: "upnpc exited 1: No IGD UPnP Device found on the network !"}},
			})
		}},
		{"dsm-exposure-upnp-mappings", func() any {
			return parseExposure(nil, outs{"upnpc": {{stdout: read(t, "upnpc-l-mappings.stdout")}}})
		}},
		{"dsm-exposure-upnp-none", func() any {
			return parseExposure(nil, outs{"upnpc": {{stdout: read(t, "upnpc-l-none.stdout")}}})
		}},
		{"dsm-exposure-upnp-not-connected", func() any {
			return parseExposure(nil, outs{"upnpc": {{stdout: read(t, "upnpc-l-not-connected.stdout"), stderr: read(t, "upnpc-l-not-connected.stderr"),
				code: 1, why: "upnpc exited 1: No valid UPNP Internet Gateway Device found."}}})
		}},
		{"dsm-exposure-unreadable", func() any {
			return parseExposure(nil, outs{
				"relayd":      {{stdout: "Unit synorelayd not found.\n", code: 4, why: "synosystemctl exited 4: Unit synorelayd not found."}},
				"ddns":        {{code: 1, why: "cat: permission denied"}},
				"portforward": {{stdout: "rule.conf\n"}},
			})
		}},
		{"router-updates-openwrt", func() any {
			return parseRouterUpdatesOpenWrt(nil, outs{
				"release": {{stdout: read(t, "issue-luci-6049-openwrt_release")}},
				"lists":   {{stdout: "openwrt_base\nopenwrt_core\n"}},
				"opkg":    {{stdout: read(t, "issue-lede-10934-opkg-list-upgradable.txt")}},
				"apk":     {{code: 127, why: "apk: not found"}},
			})
		}},
		{"router-updates-openwrt-apk", func() any {
			return parseRouterUpdatesOpenWrt(nil, outs{
				"opkg": {{code: 127, why: "opkg: not found"}},
				"apk":  {{stdout: read(t, "apk-list-upgradable.captured.txt")}},
			})
		}},
		{"router-updates-openwrt-apk-none", func() any {
			return parseRouterUpdatesOpenWrt(nil, outs{
				"lists": {{code: 1, why: "ls exited 1: ls: /var/opkg-lists: No such file or directory"}},
				"opkg":  {{code: 127, why: "opkg: not found"}},
				"apk":   {{stdout: read(t, "apk-list-upgradable-none.stdout")}},
			})
		}},
		{"router-updates-openwrt-apk-no-index", func() any {
			return parseRouterUpdatesOpenWrt(nil, outs{
				"lists": {{code: 1, why: "ls exited 1: ls: /var/opkg-lists: No such file or directory"}},
				"opkg":  {{code: 127, why: "opkg: not found"}},
				"apk":   {{stdout: read(t, "apk-list-upgradable-no-index.stdout"), stderr: read(t, "apk-list-upgradable-no-index.stderr")}},
			})
		}},
		{"router-updates-openwrt-no-lists", func() any {
			return parseRouterUpdatesOpenWrt(nil, outs{
				"release": {{stdout: read(t, "issue-luci-6049-openwrt_release")}},
				"lists":   {{code: 1, why: "ls exited 1: ls: /var/opkg-lists: No such file or directory"}},
				"opkg":    {{stdout: ""}},
			})
		}},
		{"router-updates-asus-aioasuswrt", func() any {
			return parseRouterUpdatesAsus(nil, outs{"nvram": {{stdout: read(t, "aioasuswrt-nvram-firmware.txt")}}})
		}},
		{"router-updates-asus", func() any {
			return parseRouterUpdatesAsus(nil, outs{"nvram": {{stdout: read(t, "handwritten/asuswrt-nvram-webs-state.txt")}}})
		}},
		// No webs_state_* key at all (aioasuswrt's grep of wan_ keys).
		{"router-updates-asus-unchecked", func() any {
			return parseRouterUpdatesAsus(nil, outs{"nvram": {{stdout: read(t, "aioasuswrt-nvram-wan.txt")}}})
		}},
		// A real router whose firmware check never finished:
		// webs_state_update is there but empty, webs_state_flag 0.
		{"router-updates-asus-merlinphp-rt-ac68u", func() any {
			return parseRouterUpdatesAsus(nil, outs{"nvram": {{stdout: read(t, "merlinphp-rt-ac68u-380.59-nvram.txt")}}})
		}},
		{"lvm-vgs", func() any { return must(parseVGs(read(t, "lvm-vgs.json"))) }},
		{"lvm-vgs-missing-pv", func() any { return must(parseVGs(read(t, "lvm-vgs-missing-pv.json"))) }},
		{"lvm-lvs", func() any { return must(parseLVs(read(t, "lvm-lvs.json"))) }},
		{"lvm-lvs-missing-pv", func() any { return must(parseLVs(read(t, "lvm-lvs-missing-pv.json"))) }},
		{"btrfs-show", func() any { return parseBtrfsShow(read(t, "btrfs-fi-show.txt")) }},
		{"btrfs-show-missing", func() any { return parseBtrfsShow(read(t, "btrfs-fi-show-missing.txt")) }},
		{"btrfs-volume", func() any {
			return btrfsVolumes(outs{"btrfs_usage": {{item: "volume1", stdout: read(t, "btrfs-fi-usage-b.txt")}},
				"btrfs_stats": {{item: "volume1", stdout: read(t, "btrfs-dev-stats.txt")}}})
		}},
		{"btrfs-volume-missing", func() any {
			return btrfsVolumes(outs{"btrfs_usage": {{item: "volume1", stdout: read(t, "btrfs-fi-usage-b-missing.txt")}},
				"btrfs_stats": {{item: "volume1", stdout: read(t, "btrfs-dev-stats-missing.txt")}}})
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { golden(t, tt.name, tt.got()) })
	}
}

// TestParsersRejectGarbage: output that is not what a parser reads gives
// an empty result or an error, never a panic or invented entries.
// TestMDStatQEMUDSM holds parseMDStat to what the kernel said of DSM's md
// layout made in a QEMU guest (testdata/qemu-dsm-mdstat-*.txt): five
// disks in an 8-bay box ([8/5] is empty bays, not a lost member); the
// third disk failing leaves md2 and md0 degraded with its member marked
// failed and md1 degraded with it removed; added back, md2 rebuilds with
// the kernel's progress and md0 and md1 are whole again.
func TestMDStatQEMUDSM(t *testing.T) {
	type want struct {
		health    string
		slots, up int
		failed    string
		progress  float64
	}
	for file, wants := range map[string]map[string]want{
		"qemu-dsm-mdstat-healthy.txt": {
			"md2": {health: "ok", slots: 5, up: 5},
			"md1": {health: "ok", slots: 8, up: 5},
			"md0": {health: "ok", slots: 8, up: 5},
		},
		"qemu-dsm-mdstat-degraded.txt": {
			"md2": {health: "degraded", slots: 5, up: 4, failed: "vdc5"},
			"md1": {health: "degraded", slots: 8, up: 4},
			"md0": {health: "degraded", slots: 8, up: 4, failed: "vdc1"},
		},
		"qemu-dsm-mdstat-rebuilding.txt": {
			"md2": {health: "rebuilding", slots: 5, up: 4, progress: 7.8},
			"md1": {health: "ok", slots: 8, up: 5},
			"md0": {health: "ok", slots: 8, up: 5},
		},
	} {
		arrays := parseMDStat(read(t, file))
		if len(arrays) != len(wants) {
			t.Errorf("%s: %d arrays, want %d", file, len(arrays), len(wants))
		}
		for _, a := range arrays {
			w, ok := wants[a.Name]
			if !ok {
				t.Errorf("%s: unexpected array %s", file, a.Name)
				continue
			}
			var failed []string
			for _, m := range a.Members {
				if m.Failed {
					failed = append(failed, m.Device)
				}
			}
			progress := 0.0
			if a.ProgressPct != nil {
				progress = *a.ProgressPct
			}
			if a.Health != w.health || a.Slots != w.slots || a.Up != w.up || strings.Join(failed, " ") != w.failed || progress != w.progress {
				t.Errorf("%s %s: health %s [%d/%d] failed %v progress %v, want %+v", file, a.Name, a.Health, a.Slots, a.Up, failed, progress, w)
			}
		}
	}
}

func TestParsersRejectGarbage(t *testing.T) {
	junk := "\x00\xff garbage\nIP address\n1 2 3 4 5 6\n-1 zz:zz 1.2.3 x\n"
	if n := len(parseARP(junk)); n != 0 {
		t.Errorf("arp: %d entries from garbage", n)
	}
	if n := len(parseLeases(junk)); n != 0 {
		t.Errorf("leases: %d entries from garbage", n)
	}
	if n := len(parseAssoc("x", junk)); n != 0 {
		t.Errorf("assoc: %d entries from garbage", n)
	}
	if _, err := parseUbusWAN(junk); err == nil {
		t.Error("ubus: garbage parsed as JSON")
	}
	if _, ok := parsePing(junk); ok {
		t.Error("ping: summary from garbage")
	}
	if _, err := parseVGs(junk); err == nil {
		t.Error("vgs: garbage parsed as a report")
	}
	if _, err := parseLVs(`{"report":[]}`); err == nil {
		t.Error("lvs: an empty report list parsed")
	}
	if n := len(parseBtrfsShow(junk)); n != 0 {
		t.Errorf("btrfs show: %d file systems from garbage", n)
	}
	if w := nvramWAN(parseNvram(junk)); w.State != Unknown {
		t.Errorf("nvram: state %q from garbage", w.State)
	}
}

func FuzzParsers(f *testing.F) {
	f.Add("1625595932 00:00:00:00:00:00 10.10.10.10 host-1 *\n")
	f.Add("assoclist 3C:22:FB:90:11:5E\n")
	f.Add(`{"up":true,"ipv4-address":[{"address":"1.2.3.4","mask":24}]}`)
	f.Fuzz(func(t *testing.T, s string) {
		parseARP(s)
		parseLeases(s)
		parseAssoc("x", s)
		parseUbusWAN(s)
		nvramWAN(parseNvram(s))
		parseIPAddr(s)
		parseNetDev(s)
		parsePing(s)
		parseNslookup(s)
		parseTraceroute(s)
		parseMDStat(s)
		parseVGs(s)
		parseDSMVersion(s)
		parseSynoupgrade(s, 0, "")
		parseCheckUpdateAll(s, "")
		asusFirmware(parseNvram(s))
		parseOpkgUpgradable(s)
		parseApkUpgradable(s)
		parseExposure(nil, outs{"ddns": {{stdout: s}}, "synoinfo": {{stdout: s}}, "relayd_conf": {{stdout: s}}, "upnpc": {{stdout: s}}})
		parseLVs(s)
		parseBtrfsShow(s)
		parseDevStats(s)
		parseBtrfsUsage(s, &BtrfsVolume{})
		parseStateWord(s, activeWords)
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func netDev(m map[string]devCounters) map[string][4]int64 {
	out := map[string][4]int64{}
	for k, v := range m {
		out[k] = [4]int64{v.rx, v.rxErr, v.tx, v.txErr}
	}
	return out
}

// TestStateWords: synosystemctl's one-word answers, and anything else is
// unknown rather than a guess.
func TestStateWords(t *testing.T) {
	for in, want := range map[string]string{"active\n": "active", "inactive\n": "inactive", "failed": "failed", "": Unknown, "Unit nginx not found.\n": Unknown} {
		if got := parseStateWord(in, activeWords); got != want {
			t.Errorf("active %q: %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"enabled\n": "enabled", "disabled\n": "disabled", "yes": Unknown} {
		if got := parseStateWord(in, enabledWords); got != want {
			t.Errorf("enabled %q: %q, want %q", in, got, want)
		}
	}
}

func TestDiskOf(t *testing.T) {
	for in, want := range map[string]string{"sata3p1": "sata3", "nvme0n1p2": "nvme0n1", "sdb5": "sdb", "sda": "sda", "loop0": "loop0"} {
		if got := diskOf(in); got != want {
			t.Errorf("diskOf(%q) = %q, want %q", in, got, want)
		}
	}
}

// httpdNvram reads an Asuswrt httpd answer of nvram values (a JSON object
// of NAME: "value") into the NAME -> value map parseNvram makes; values
// that are not strings (httpd's own get_wan_unit is a number) are skipped.
func httpdNvram(t *testing.T, name string) map[string]string {
	t.Helper()
	var raw map[string]any
	if err := json.Unmarshal([]byte(read(t, name)), &raw); err != nil {
		t.Fatal(err)
	}
	m := map[string]string{}
	for k, v := range raw {
		if s, ok := v.(string); ok {
			m[k] = s
		}
	}
	return m
}

// TestSynologyDetectedFromRealSynoinfo: the Synology pack's detection
// probe (cat /etc/synoinfo.conf) matches a real DSM synoinfo.conf, and
// the other packs' probes do not claim it.
func TestSynologyDetectedFromRealSynoinfo(t *testing.T) {
	ps, err := Builtin()
	if err != nil {
		t.Fatal(err)
	}
	d := NewDetector(ps, nil, 0)
	out := marker + " synology\n" + read(t, "issue-salt-18943-synoinfo.conf-head") + marker + " rc 0\n"
	if got := strings.Join(d.match(out), " "); got != "synology" {
		t.Errorf("detected %q from a real synoinfo.conf, want synology", got)
	}
	// The same file without the keys the probe looks for is not DSM's.
	var rest []string
	for _, l := range strings.Split(read(t, "issue-salt-18943-synoinfo.conf-head"), "\n") {
		if !strings.HasPrefix(l, "unique=") && !strings.HasPrefix(l, "company_title=") {
			rest = append(rest, l)
		}
	}
	if got := d.match(marker + " synology\n" + strings.Join(rest, "\n") + marker + " rc 0\n"); len(got) != 0 {
		t.Errorf("detected %v without unique/company_title/upnpmodelname", got)
	}
}
