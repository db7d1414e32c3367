package main

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"
)

// server_info, through the real MCP client, reports warden's agent per
// host: on a host served through it, the version, the path in use and why
// (the build set's build, uploaded) and its confinement; on a host where
// it cannot run under auto, the fallback reason; on a host not yet
// called, that it starts on the first call. hosts_list says the same.
func TestServerInfoAgents(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("logs in as a user of its own, which needs root")
	}
	srv := sshd.Start(t, sshd.Options{User: "wardentest"})
	known := filepath.Join(t.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	// The build set holds this warden for this platform.
	builds := t.TempDir()
	arch := runtime.GOARCH
	if arch == "arm" {
		arch = "armv7"
	}
	name := "warden-" + runtime.GOOS + "-" + arch
	b, err := os.ReadFile(wardenBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(builds, name), b, 0o755); err != nil {
		t.Fatal(err)
	}
	sum := fmt.Sprintf("%x", sha256.Sum256(b))
	if err := os.WriteFile(filepath.Join(builds, "SHA256SUMS"), []byte(sum+"  "+name+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	host := func(n, extra string) string {
		return fmt.Sprintf("  - {name: %s, address: %s, port: %d, user: %s, identity_files: [%s], %s}\n", n, srv.Host, srv.Port, srv.User, srv.UserKey.Path, extra)
	}
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	yaml := "ssh:\n  config: none\n  known_hosts: " + known + "\nagent:\n  builds: " + builds + "\nhosts:\n" +
		host("box", "agent: required") + host("broken", "agent: auto, agent_path: /nonexistent/warden") + host("later", "agent: auto")
	if err := os.WriteFile(cfg, []byte(yaml), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_CONFIG="+cfg)
	s := startStdio(t, env, state, nil)
	for h, want := range map[string]string{"box": "through\n", "broken": "through\n"} {
		if res, got := callTool(t, s.cs, "run_command", map[string]any{"host": h, "command": "echo through"}); got["stdout"] != want {
			t.Fatalf("run_command on %s: %s", h, text(res))
		}
	}
	_, info := callTool(t, s.cs, "server_info", nil)
	agents := map[string]map[string]any{}
	list, _ := info["agents"].([]any)
	for _, a := range list {
		m, _ := a.(map[string]any)
		agents[fmt.Sprint(m["host"])] = m
	}
	box := agents["box"]
	path, _ := box["path"].(string)
	if path != "" {
		t.Cleanup(func() { os.RemoveAll(filepath.Dir(path)) })
	}
	if box["state"] != "running" || box["mode"] != "required" || box["version"] == "" || box["version"] == nil ||
		!strings.Contains(path, "/.cache/warden/agent/"+sum[:16]+"-") ||
		box["why"] != "uploaded from the build set "+builds || box["confinement"] == nil {
		t.Errorf("server_info agents box: %v", box)
	}
	if br := agents["broken"]; br["state"] != "fallback" || !strings.Contains(fmt.Sprint(br["reason"]), "/nonexistent/warden is missing") {
		t.Errorf("server_info agents broken: %v", br)
	}
	if l := agents["later"]; l["state"] != "idle" || l["mode"] != "auto" {
		t.Errorf("server_info agents later: %v", l)
	}
	if len(agents) != 3 {
		t.Errorf("server_info agents: %v, want box, broken and later", list)
	}
	_, hl := callTool(t, s.cs, "hosts_list", nil)
	hostsOut, _ := hl["hosts"].([]any)
	for _, h := range hostsOut {
		m, _ := h.(map[string]any)
		if m["name"] == "box" {
			if c := fmt.Sprint(m["confinement"]); !strings.Contains(c, path+": uploaded from the build set "+builds) {
				t.Errorf("hosts_list box confinement %q does not name %s and why", c, path)
			}
		}
	}
	// Ending the MCP session ends warden, and warden's agents with it.
	s.cs.Close()
	for deadline := time.Now().Add(60 * time.Second); path != "" && len(processesWith(path)) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent is still running: %v", processesWith(path))
		}
	}
}
