package packs_test

import (
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestSynologyNAS reaches the NAS test host (fakeDSM: dropbear + BusyBox
// with DSM's programs answering from captured output): it is detected as
// Synology; service status and restart go through synosystemctl; storage
// pools read every layer (a degraded md array, LVM, btrfs); the update
// check says unknown with the reason where DSM's answer cannot be read;
// the exposure view covers QuickConnect, DDNS, router forwards and UPnP
// each with a state or the reason it is unknown; and the pack's denied
// commands never reach it.
func TestSynologyNAS(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardenrouter"})
	logf := fakeDSM(t, srv)
	cs, _ := serveRouter(t, srv, policy.Open)

	list := call(t, cs, "appliance_packs", map[string]any{"host": "router"})
	if d, _ := list["detected"].([]any); len(d) != 1 || d[0] != "synology" {
		t.Fatalf("detected %v, want [synology]; %v", list["detected"], list)
	}
	if got := call(t, cs, "run_command", map[string]any{"host": "router", "command": "synodsdefault --reset-config"}); got["status"] != "denied" {
		t.Errorf("synodsdefault: %v", got)
	}
	nginx := call(t, cs, "dsm_service_status", map[string]any{"host": "router", "service": "nginx"})
	if nginx["active"] != "active" || nginx["enabled"] != "enabled" {
		t.Errorf("nginx: %v", nginx)
	}
	smbd := call(t, cs, "dsm_service_status", map[string]any{"host": "router", "service": "smbd"})
	if smbd["active"] != "inactive" || smbd["enabled"] != "disabled" {
		t.Errorf("smbd: %v", smbd)
	}
	if got := call(t, cs, "dsm_service_status", map[string]any{"host": "router", "service": "-h"}); got["status"] != "invalid_argument" {
		t.Errorf("service -h: %v", got)
	}
	if got := call(t, cs, "dsm_restart_service", map[string]any{"host": "router", "service": "nginx"}); got["status"] != "ok" {
		t.Errorf("dsm_restart_service: %v", got)
	}

	pools := call(t, cs, "storage_pools", map[string]any{"host": "router"})
	if pools["status"] != "ok" {
		t.Fatalf("storage_pools: %v", pools)
	}
	// sata3 failed: the pool (md2), and DSM's system and swap mirrors
	// on every disk with it; LVM and btrfs above it are still whole.
	if d := strings.Join(anyStrings(pools["degraded"]), " "); d != "md2 md1 md0" {
		t.Errorf("degraded %q, want md2 md1 md0", d)
	}
	if pools["lvm"].(map[string]any)["status"] != "ok" || len(pools["volume_groups"].([]any)) != 1 || len(pools["logical_volumes"].([]any)) != 3 {
		t.Errorf("lvm: %v %v %v", pools["lvm"], pools["volume_groups"], pools["logical_volumes"])
	}
	vols := pools["btrfs_volumes"].([]any)
	if pools["btrfs"].(map[string]any)["status"] != "ok" || len(vols) != 1 || vols[0].(map[string]any)["mount"] != "/volume1" || vols[0].(map[string]any)["health"] != "ok" {
		t.Errorf("btrfs: %v %v", pools["btrfs"], vols)
	}

	up := call(t, cs, "dsm_update_status", map[string]any{"host": "router"})
	if in := up["installed"].(map[string]any); in["display"] != "DSM 7.3.2-86009" {
		t.Errorf("installed: %v", in)
	}
	if d := up["dsm"].(map[string]any); d["available"] != "unknown" || d["answer"] != "UPGRADE_CHECKNEWDSM" || !strings.Contains(d["reason"].(string), "does not document") {
		t.Errorf("dsm update: %v", d)
	}
	if p := up["packages"].(map[string]any); p["available"] != "yes" || len(p["pending"].([]any)) != 1 || p["pending"].([]any)[0] != "ActiveBackup → 3.2.0-25053" {
		t.Errorf("package updates: %v", p)
	}

	ex := call(t, cs, "dsm_exposure", map[string]any{"host": "router"})
	items := map[string]map[string]any{}
	for _, it := range ex["items"].([]any) {
		m := it.(map[string]any)
		items[m["name"].(string)] = m
	}
	want := map[string]string{"quickconnect": "on", "ddns": "on", "router_port_forwards": "off", "upnp": "on"}
	for name, state := range want {
		if items[name] == nil || items[name]["state"] != state {
			t.Errorf("exposure %s: %v, want state %s", name, items[name], state)
		}
	}
	if s := strings.Join(anyStrings(items["ddns"]["detail"]), " "); !strings.Contains(s, "examplenas.synology.me") || strings.Contains(s, "never-shown") {
		t.Errorf("ddns detail %q: the host name, never the password", s)
	}
	if s := strings.Join(anyStrings(items["upnp"]["detail"]), " "); !strings.Contains(s, "mappings: unknown") {
		t.Errorf("upnp mappings should be unknown with the reason: %v", items["upnp"])
	}

	// A router tool on a NAS says which packs provide it.
	if got := call(t, cs, "wan_status", map[string]any{"host": "router"}); got["status"] != "error" || !strings.Contains(got["reason"].(string), "detected: synology") {
		t.Errorf("wan_status on a NAS: %v", got)
	}

	log := logged(t, logf)
	if strings.Contains(log, "synodsdefault") {
		t.Errorf("synodsdefault reached the NAS:\n%s", log)
	}
	for _, want := range []string{"synosystemctl get-active-status nginx", "synosystemctl get-enable-status smbd", "synosystemctl restart nginx",
		"vgs --reportformat json", "btrfs filesystem usage -b /volume1", "synoupgrade --check", "upnpc -l"} {
		if !strings.Contains(log, want) {
			t.Errorf("%q did not reach the NAS:\n%s", want, log)
		}
	}
}

func anyStrings(v any) []string {
	var out []string
	xs, _ := v.([]any)
	for _, x := range xs {
		s, _ := x.(string)
		out = append(out, s)
	}
	return out
}
