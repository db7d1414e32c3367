package packs_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/localhost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
	exectools "github.com/warden-mcp/warden/internal/tools/exec"
	"github.com/warden-mcp/warden/internal/tools/packs"
)

const routerPath = "PATH=/bin:/usr/bin:/sbin:/usr/sbin"

// fakeAsus turns a dropbear + BusyBox server into an Asuswrt-Merlin
// router: nvram, service and wl are programs that answer from captured
// output and log every invocation to the returned file; the dnsmasq lease
// file is placed where Asuswrt keeps it, in the server's own mount
// namespace only.
func fakeAsus(t *testing.T, srv *sshd.Server) string {
	t.Helper()
	td, err := filepath.Abs("testdata")
	if err != nil {
		t.Fatal(err)
	}
	logf := filepath.Join(srv.Dir, "calls.log")
	if err := os.WriteFile(logf, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logf, 0o666); err != nil {
		t.Fatal(err)
	}
	prog := func(name, body string) {
		s := "#!/bin/sh\necho \"" + name + " $*\" >> " + logf + "\n" + body + "\n"
		// The farm may hold a BusyBox applet link of that name.
		os.Remove(filepath.Join(srv.Dir, "bin", name))
		if err := os.WriteFile(filepath.Join(srv.Dir, "bin", name), []byte(s), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// nvram answers from the captures (testdata/README.md): a real
	// RT-AC68U's whole nvram (productid, wl_ifnames eth1 eth2, the
	// primary WAN's wan0_* keys), then the firmware check's keys and the
	// unit-less wan_* keys as aioasuswrt published them, and the
	// duplicated keys of issue 764. get prints the bare value, the last
	// one shown as nvram show lists it.
	nv := ""
	for _, f := range []string{"merlinphp-rt-ac68u-380.59-nvram.txt", "aioasuswrt-nvram-wan.txt", "aioasuswrt-nvram-firmware.txt", "issue-asuswrt-merlin-ng-764-nvram-show.txt"} {
		nv += " " + filepath.Join(td, f)
	}
	prog("nvram", `case "$1" in
get) [ $# -eq 2 ] && cat`+nv+` | sed -n "s/^$2=//p" | tail -n 1 ;;
show) cat`+nv+` ;;
esac`)
	// Asuswrt's rc: service_main sends the action to rc and prints this.
	prog("service", `printf '\nDone.\n'`)
	prog("wl", `[ "$2" = eth1 ] && cat `+td+`/aioasuswrt-wl-assoclist.txt; exit 0`)
	for _, p := range []string{"mtd-write", "mtd-erase", "mtd", "flash_erase"} {
		prog(p, "exit 0")
	}
	pidb, err := os.ReadFile(filepath.Join(srv.Dir, "dropbear.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidb)))
	if err != nil {
		t.Fatal(err)
	}
	leases := filepath.Join(td, "aioasuswrt-dnsmasq.leases")
	out, err := exec.Command("nsenter", "-t", strconv.Itoa(pid), "-m", "--", "sh", "-c",
		"mount -t tmpfs tmpfs /var/lib/misc && cp "+leases+" /var/lib/misc/dnsmasq.leases").CombinedOutput()
	if err != nil {
		t.Fatalf("place the lease file: %v: %s", err, out)
	}
	return logf
}

type discard struct{}

func (discard) Append(_ context.Context, r audit.Record) (audit.Record, error) { return r, nil }
func (discard) Healthy() (bool, string)                                        { return true, "" }

// serveRouter serves run_command and the pack tools for host "router",
// under the real classifier with the packs' guard, in mode.
func serveRouter(t *testing.T, srv *sshd.Server, mode policy.Mode) (*mcp.ClientSession, *packs.Detector) {
	t.Helper()
	return serveHost(t, srv, mode, "router")
}

// serveHost is serveRouter with the inventory name of the host.
func serveHost(t *testing.T, srv *sshd.Server, mode policy.Mode, name string) (*mcp.ClientSession, *packs.Detector) {
	t.Helper()
	pool, inv, _ := sshpooltest.Server(t, srv, name)
	run := local.New(local.Options{})
	lp, err := localhost.New(localhost.Options{Runner: run, Inspect: run, Bare: run, Env: []string{routerPath}})
	if err != nil {
		t.Fatal(err)
	}
	sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: pool, Env: []string{routerPath, "LANG=C"}})
	if err != nil {
		t.Fatal(err)
	}
	set := hosts.New(lp, sp)
	t.Cleanup(func() { set.Close() })
	all, err := packs.Load(packs.Options{})
	if err != nil {
		t.Fatal(err)
	}
	det := packs.NewDetector(all, []string{routerPath}, 20*time.Second)
	base, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	guard, err := packs.NewGuard(base, all, det)
	if err != nil {
		t.Fatal(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "router", Version: "1"}, nil)
	r := relay.New(s, relay.Options{Policy: guard, Audit: discard{}, Mode: mode})
	limits := exectools.Limits{DefaultTimeout: 30 * time.Second, MaxTimeout: 30 * time.Second, DefaultMaxBytes: 1 << 16, MaxBytes: 1 << 16, MaxStdinBytes: 1 << 16}
	exectools.Register(r, exectools.Deps{Limits: limits, ScriptDir: t.TempDir(), Hosts: set.Resolve})
	packs.Register(r, packs.Deps{Hosts: set.Resolve, Packs: all, Detector: det, Env: []string{routerPath, "LANG=C"}})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, det
}

func call(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) map[string]any {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	got := map[string]any{}
	b, _ := json.Marshal(res.StructuredContent)
	json.Unmarshal(b, &got)
	return got
}

func logged(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestAsuswrtRouter reaches a dropbear + BusyBox "router" whose nvram,
// service and wl are fakes that log each invocation: the pack tools
// detect it as Asuswrt-Merlin and return structured results, while the
// commands its pack denies — typed into run_command in open mode, even
// before the pack was detected — never reach it.
func TestAsuswrtRouter(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardenrouter"})
	logf := fakeAsus(t, srv)
	cs, det := serveRouter(t, srv, policy.Open)

	denied := []string{
		"service reboot",
		"nvram erase",
		"mtd-write -i /tmp/fw.trx -d linux",
		"mtd write /tmp/fw.bin linux",
		"/usr/bin/service restart_reboot",
		"sh -c 'nvram erase'",
		"busybox sh -c \"service reboot\"",
		"true; nvram set restore_defaults=1",
		"flash_erase /dev/mtd3 0 0",
	}
	// Before detection every pack's rules apply.
	if _, probed := det.Known("router"); probed {
		t.Fatal("router probed before any call")
	}
	for _, c := range denied[:3] {
		got := call(t, cs, "run_command", map[string]any{"host": "router", "command": c})
		if got["status"] != "denied" {
			t.Errorf("before detection, %q: status %v (%v), want denied", c, got["status"], got["reason"])
		}
	}

	list := call(t, cs, "appliance_packs", map[string]any{"host": "router"})
	if d, _ := list["detected"].([]any); len(d) != 1 || d[0] != "asuswrt-merlin" {
		t.Fatalf("detected %v, want [asuswrt-merlin]; %v", list["detected"], list)
	}

	for _, c := range denied {
		got := call(t, cs, "run_command", map[string]any{"host": "router", "command": c})
		if got["status"] != "denied" {
			t.Errorf("%q: status %v (%v), want denied", c, got["status"], got["reason"])
		}
	}

	clients := call(t, cs, "router_clients", map[string]any{"host": "router"})
	if clients["status"] != "ok" || clients["wireless"] != "ok" {
		t.Fatalf("router_clients: %v", clients)
	}
	byMAC := map[string]map[string]any{}
	for _, c := range clients["clients"].([]any) {
		m := c.(map[string]any)
		byMAC[m["mac"].(string)] = m
	}
	if c := byMAC["08:09:10:11:12:14"]; c == nil || c["ip"] != "123.123.123.126" || c["wireless"] != true || c["wireless_interface"] != "eth1" {
		t.Errorf("wireless client merged from lease and wl: %v", c)
	}
	if c := byMAC["01:02:03:04:06:10"]; c == nil || c["hostname"] != "android" || c["wireless"] != false {
		t.Errorf("client known from its lease only: %v", c)
	}
	leases := call(t, cs, "dhcp_leases", map[string]any{"host": "router"})
	if l, _ := leases["leases"].([]any); len(l) != 3 {
		t.Errorf("dhcp_leases: %v", leases)
	}
	wan := call(t, cs, "wan_status", map[string]any{"host": "router"})
	if wan["state"] != "up" || wan["gateway"] != "125.96.128.1" || wan["device"] != "ppp0" {
		t.Errorf("wan_status: %v", wan)
	}
	ifs := call(t, cs, "interfaces", map[string]any{"host": "router"})
	if l, _ := ifs["interfaces"].([]any); len(l) == 0 {
		t.Errorf("interfaces: %v", ifs)
	}
	// An unprivileged login cannot ping here (no raw socket, and the
	// host's ping_group_range is left alone); the call still answers with
	// the output and why, and the summary parser is golden-tested.
	ping := call(t, cs, "diagnostics", map[string]any{"host": "router", "tool": "ping", "target": "127.0.0.1", "count": 2})
	if ping["tool"] != "ping" || ping["target"] != "127.0.0.1" || !strings.Contains(ping["output"].(string), "PING 127.0.0.1") {
		t.Errorf("diagnostics ping: %v", ping)
	}
	for _, bad := range []map[string]any{
		{"host": "router", "tool": "ping", "target": "-oProxyCommand=x"},
		{"host": "router", "tool": "ping", "target": "127.0.0.1", "count": 1000},
		{"host": "router", "tool": "ping", "target": "2852039166"},
		{"host": "router", "tool": "ping", "target": "a b"},
		{"host": "router", "tool": "rm", "target": "127.0.0.1"},
	} {
		if got := call(t, cs, "diagnostics", bad); got["status"] != "invalid_argument" {
			t.Errorf("diagnostics %v: status %v, want invalid_argument", bad, got["status"])
		}
	}

	// The firmware check's nvram keys as aioasuswrt captured them: a check
	// finished (webs_state_update=1) and found nothing newer (flag 0).
	// firmver and buildno are aioasuswrt's (zeroed by that project, which
	// showed no extendno); the extendno is the RT-AC68U's.
	up := call(t, cs, "router_updates", map[string]any{"host": "router"})
	if fw, _ := up["firmware"].(map[string]any); fw["available"] != "no" || fw["installed"] != "0.0.0.0.000.00_X6.6.1" || fw["latest"] == "" {
		t.Errorf("router_updates after the router's firmware check found nothing newer: %v", up)
	}

	// router_restart_service is tier 2: in open mode it runs, over the
	// firmware's own enumerated set.
	rs := call(t, cs, "router_restart_service", map[string]any{"host": "router", "service": "dnsmasq"})
	if rs["status"] != "ok" || rs["output"] != "Done." {
		t.Errorf("router_restart_service dnsmasq: %v", rs)
	}
	if got := call(t, cs, "router_restart_service", map[string]any{"host": "router", "service": "odhcpd"}); got["status"] != "invalid_argument" {
		t.Errorf("router_restart_service odhcpd (an OpenWrt service) on Asuswrt: %v", got)
	}
	// reboot is tier 3: even in open mode it waits for approval, and the
	// approval text gives the lock-out reasoning.
	rb := call(t, cs, "reboot", map[string]any{"host": "router"})
	if rb["status"] != "approval_required" || !strings.Contains(rb["reason"].(string), "recovered at the device") {
		t.Errorf("reboot: %v", rb)
	}
	t.Logf("reboot: %s", rb["reason"])

	log := logged(t, logf)
	for _, never := range []string{"service reboot", "nvram erase", "nvram set", "mtd", "flash_erase", "service restart_reboot"} {
		if strings.Contains(log, never) {
			t.Errorf("%q reached the router:\n%s", never, log)
		}
	}
	for _, want := range []string{"nvram get productid", "nvram show", "wl -i eth1 assoclist", "wl -i eth2 assoclist", "service restart_dnsmasq"} {
		if !strings.Contains(log, want) {
			t.Errorf("%q did not reach the router:\n%s", want, log)
		}
	}
}
