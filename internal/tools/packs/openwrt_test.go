package packs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/sshd"
)

// fakeOpenWrt turns a dropbear + BusyBox server into an OpenWrt router,
// in the server's own mount namespace only: a copy of /etc holding
// openwrt_release and an init script for dnsmasq, a tmpfs /tmp holding
// the lease file, and ubus and iwinfo as programs that answer from
// captured output. Every fake logs its invocation to the returned file.
func fakeOpenWrt(t *testing.T, srv *sshd.Server) string {
	t.Helper()
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	farm := filepath.Join(srv.Dir, "bin")
	// The farm is the server's /usr/bin: the log stays reachable under
	// the tmpfs /tmp.
	logf := filepath.Join(farm, "calls.log")
	if err := os.WriteFile(logf, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logf, 0o666); err != nil {
		t.Fatal(err)
	}
	script := func(path, name, body string) {
		s := "#!/bin/sh\necho \"" + name + " $*\" >> /usr/bin/calls.log\n" + body + "\n"
		os.Remove(path)
		if err := os.WriteFile(path, []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// Copies outside the server's namespace, for it to mount.
	stage := filepath.Join(srv.Dir, "stage")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		t.Fatal(err)
	}
	// Every file a fake reads is copied into the farm: the server's own
	// /tmp hides the checkout when it lives there.
	for _, f := range []string{"ubus-wan.json", "iwinfo-assoclist.txt", "dhcp.leases", "opkg-list-upgradable.txt"} {
		src := map[string]string{
			"ubus-wan.json":            "golangdemon-ubus-wan-status.json",
			"iwinfo-assoclist.txt":     "zarhus-iwinfo-assoclist.txt",
			"dhcp.leases":              "dnsmasq-here.leases",
			"opkg-list-upgradable.txt": "issue-lede-10934-opkg-list-upgradable.txt",
		}[f]
		b, err := os.ReadFile(filepath.Join(td, src))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(farm, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	script(filepath.Join(farm, "ubus"), "ubus", `[ "$1 $2 $3" = "call network.interface.wan status" ] && cat /usr/bin/ubus-wan.json; exit 0`)
	script(filepath.Join(farm, "iwinfo"), "iwinfo", `case "$*" in
"") printf 'phy0-ap0  ESSID: "OpenWrt"\n          Access Point: 02:00:00:00:00:01\n\n' ;;
"phy0-ap0 assoclist") cat /usr/bin/iwinfo-assoclist.txt ;;
esac`)
	script(filepath.Join(farm, "opkg"), "opkg", `[ "$1" = list-upgradable ] && cat /usr/bin/opkg-list-upgradable.txt; exit 0`)
	for _, p := range []string{"firstboot", "jffs2reset", "sysupgrade", "mtd"} {
		script(filepath.Join(farm, p), p, "exit 0")
	}
	release, err := os.ReadFile(filepath.Join(td, "issue-luci-6049-openwrt_release"))
	if err != nil {
		t.Fatal(err)
	}
	mountOwn(t, srv, stage, map[string]string{
		"openwrt_release": string(release),
		"init.d/dnsmasq":  "#!/bin/sh\necho \"/etc/init.d/dnsmasq $*\" >> /usr/bin/calls.log\nexit 0\n",
	}, "cp /usr/bin/dhcp.leases /tmp/dhcp.leases")
	return logf
}

// TestOpenWrtRouter: the same tools on an OpenWrt router answer through
// ubus and iwinfo, and the OpenWrt pack's denied commands never reach it.
func TestOpenWrtRouter(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardenrouter"})
	logf := fakeOpenWrt(t, srv)
	cs, _ := serveRouter(t, srv, policy.Open)

	list := call(t, cs, "appliance_packs", map[string]any{"host": "router"})
	if d, _ := list["detected"].([]any); len(d) != 1 || d[0] != "openwrt" {
		t.Fatalf("detected %v, want [openwrt]; %v", list["detected"], list)
	}
	for _, c := range []string{"firstboot -y", "jffs2reset -y", "sysupgrade -n /tmp/fw.bin", "mtd -r erase rootfs_data", "ubus call system reboot", "sh -c 'firstboot -y'"} {
		if got := call(t, cs, "run_command", map[string]any{"host": "router", "command": c}); got["status"] != "denied" {
			t.Errorf("%q: status %v (%v), want denied", c, got["status"], got["reason"])
		}
	}
	wan := call(t, cs, "wan_status", map[string]any{"host": "router"})
	if wan["state"] != "up" || wan["gateway"] != "192.168.2.1" || wan["device"] != "eth0.1" {
		t.Errorf("wan_status: %v", wan)
	}
	clients := call(t, cs, "router_clients", map[string]any{"host": "router"})
	found := false
	for _, c := range clients["clients"].([]any) {
		m := c.(map[string]any)
		if m["mac"] == "ae:d0:e6:3c:90:ec" {
			found = m["hostname"] == "pixel-7" && m["wireless_interface"] == "phy0-ap0" && m["signal_dbm"] == float64(-35)
		}
	}
	if !found || clients["wireless"] != "ok" {
		t.Errorf("router_clients: the wireless client is not merged from lease and iwinfo: %v", clients)
	}
	leases := call(t, cs, "dhcp_leases", map[string]any{"host": "router"})
	if l, _ := leases["leases"].([]any); len(l) != 3 {
		t.Errorf("dhcp_leases: %v", leases)
	}
	if got := call(t, cs, "router_restart_service", map[string]any{"host": "router", "service": "dnsmasq"}); got["status"] != "ok" {
		t.Errorf("router_restart_service dnsmasq: %v", got)
	}
	// opkg keeps its lists in /var/opkg-lists, gone after a boot: until
	// opkg update (tier 2) runs, "nothing upgradable" cannot be told from
	// "lists never fetched" — unless something is listed.
	up := call(t, cs, "router_updates", map[string]any{"host": "router"})
	fw, _ := up["firmware"].(map[string]any)
	pk, _ := up["packages"].(map[string]any)
	// opkg's own warnings (on the terminal with its list, as the issue's
	// paste shows) are not packages.
	if fw["installed"] != "OpenWrt 21.02.3 r16554-1d4dea6d4f" || fw["available"] != "unknown" || pk["available"] != "yes" || len(pk["pending"].([]any)) != 2 {
		t.Errorf("router_updates: %v", up)
	}
	if got := call(t, cs, "router_restart_service", map[string]any{"host": "router", "service": "wireless"}); got["status"] != "invalid_argument" {
		t.Errorf("router_restart_service wireless (an Asuswrt service) on OpenWrt: %v", got)
	}

	log := logged(t, logf)
	for _, never := range []string{"firstboot", "jffs2reset", "sysupgrade", "mtd", "ubus call system"} {
		if strings.Contains(log, never) {
			t.Errorf("%q reached the router:\n%s", never, log)
		}
	}
	for _, want := range []string{"ubus call network.interface.wan status", "iwinfo phy0-ap0 assoclist", "/etc/init.d/dnsmasq restart", "opkg list-upgradable"} {
		if !strings.Contains(log, want) {
			t.Errorf("%q did not reach the router:\n%s", want, log)
		}
	}
}

// mountOwn gives the server's mount namespace a copy of /etc with files
// added (relative names; scripts under init.d are made executable) and a
// fresh /tmp, then runs then there. Nothing outside the namespace
// changes.
func mountOwn(t *testing.T, srv *sshd.Server, stage string, etcFiles map[string]string, then string) {
	t.Helper()
	etc := filepath.Join(stage, "etc")
	if out, err := exec.Command("cp", "-a", "/etc", etc).CombinedOutput(); err != nil {
		t.Fatalf("copy /etc: %v: %s", err, out)
	}
	for name, body := range etcFiles {
		p := filepath.Join(etc, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		os.Remove(p)
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	pidb, err := os.ReadFile(filepath.Join(srv.Dir, "dropbear.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidb)))
	if err != nil {
		t.Fatal(err)
	}
	// dropbear re-executes itself per connection and reads its host key
	// from the server's directory under /tmp again: that directory is
	// bound back into the fresh /tmp.
	dir, err := filepath.Rel("/tmp", srv.Dir)
	if err != nil || strings.HasPrefix(dir, "..") {
		t.Skipf("the server's directory %s is not under /tmp", srv.Dir)
	}
	script := "mount --bind " + etc + " /etc && mount --bind /tmp /mnt && mount -t tmpfs tmpfs /tmp && " +
		"mkdir -p " + srv.Dir + " && mount --bind /mnt/" + dir + " " + srv.Dir
	if then != "" {
		script += " && " + then
	}
	if out, err := exec.Command("nsenter", "-t", strconv.Itoa(pid), "-m", "--", "sh", "-c", script).CombinedOutput(); err != nil {
		t.Fatalf("make the router's /etc and /tmp: %v: %s", err, out)
	}
}
