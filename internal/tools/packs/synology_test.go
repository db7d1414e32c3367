package packs_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestSynologyNAS: a dropbear + BusyBox host with DSM's /etc/synoinfo.conf
// and a synosystemctl that logs each invocation is detected as Synology;
// service status and restart go through synosystemctl, storage_pools says
// why it cannot tell where the kernel has no md driver, and the pack's
// denied commands never reach it.
func TestSynologyNAS(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardenrouter"})
	farm := filepath.Join(srv.Dir, "bin")
	logf := filepath.Join(farm, "calls.log")
	if err := os.WriteFile(logf, nil, 0o666); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(logf, 0o666); err != nil {
		t.Fatal(err)
	}
	fake := func(name, body string) {
		p := filepath.Join(farm, name)
		os.Remove(p)
		if err := os.WriteFile(p, []byte("#!/bin/sh\necho \""+name+" $*\" >> /usr/bin/calls.log\n"+body+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// As systemctl is-active: the word, and a non-zero exit when inactive.
	fake("synosystemctl", `case "$1 $2" in
"get-active-status nginx") echo active ;;
"get-enable-status nginx") echo enabled ;;
"get-active-status smbd") echo inactive; exit 3 ;;
"get-enable-status smbd") echo disabled; exit 1 ;;
esac`)
	fake("synodsdefault", "exit 0")
	stage := filepath.Join(srv.Dir, "stage")
	if err := os.MkdirAll(stage, 0o755); err != nil {
		t.Fatal(err)
	}
	mountOwn(t, srv, stage, map[string]string{
		"synoinfo.conf": "unique=\"synology_geminilake_224+\"\nupnpmodelname=\"DS224+\"\ncompany_title=\"Synology\"\n",
	}, "")
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
	if _, err := os.Stat("/proc/mdstat"); err != nil {
		// No md driver in this kernel: the call says why it cannot tell.
		probes, _ := pools["probes"].([]any)
		if pools["status"] != "error" || len(probes) != 1 || probes[0].(map[string]any)["status"] != "unknown" {
			t.Errorf("storage_pools without md: %v", pools)
		}
	} else if pools["status"] != "ok" {
		t.Errorf("storage_pools: %v", pools)
	}
	// A router tool on a NAS says which packs provide it.
	if got := call(t, cs, "wan_status", map[string]any{"host": "router"}); got["status"] != "error" || !strings.Contains(got["reason"].(string), "detected: synology") {
		t.Errorf("wan_status on a NAS: %v", got)
	}

	log := logged(t, logf)
	if strings.Contains(log, "synodsdefault") {
		t.Errorf("synodsdefault reached the NAS:\n%s", log)
	}
	for _, want := range []string{"synosystemctl get-active-status nginx", "synosystemctl get-enable-status smbd", "synosystemctl restart nginx"} {
		if !strings.Contains(log, want) {
			t.Errorf("%q did not reach the NAS:\n%s", want, log)
		}
	}
}
