package main

import (
	"archive/tar"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostInspectionTools drives the read-only host tools through the real
// binary: they run in readonly mode (tier 0), return parsed results, and
// every call is audited.
func TestHostInspectionTools(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=readonly")
	s := startStdio(t, env, state, nil)
	for _, tool := range []string{"system_info", "disk_usage", "storage_health", "internet_exposure", "performance", "firewall_status", "firewall_rules", "firewall_diagnose", "pending_updates"} {
		res, got := callTool(t, s.cs, tool, map[string]any{})
		if got["status"] == "denied" || got["status"] == "approval_required" || got["status"] == "invalid_argument" {
			t.Errorf("%s in readonly mode: %v (%s)", tool, got["status"], text(res))
		}
	}
	_, sys := callTool(t, s.cs, "system_info", map[string]any{})
	host, _ := os.Hostname()
	if sys["hostname"] != host || sys["kernel"] != "Linux" {
		t.Errorf("system_info hostname=%v kernel=%v; want %s Linux", sys["hostname"], sys["kernel"], host)
	}
	if _, ok := sys["mem_total_bytes"].(float64); !ok {
		t.Errorf("system_info has no memory total: %v", sys)
	}
	_, du := callTool(t, s.cs, "disk_usage", map[string]any{})
	found := false
	for _, f := range du["filesystems"].([]any) {
		if f.(map[string]any)["mount"] == "/" {
			found = true
		}
	}
	if !found {
		t.Errorf("disk_usage lists no / mount: %v", du)
	}
	// A mutation is refused in readonly mode and reaches no host.
	_, got := callTool(t, s.cs, "firewall_block", map[string]any{"address": "203.0.113.7"})
	if got["status"] != "denied" {
		t.Errorf("firewall_block in readonly mode: %v", got)
	}
	// Bad arguments never reach a host: names that look like options.
	for tool, args := range map[string]map[string]any{
		"container_logs":    {"name": "--help"},
		"restart_container": {"name": "-f"},
		"service_status":    {"name": "-H evil"},
		"restart_service":   {"name": "nginx;reboot"},
		"firewall_block":    {"address": "2852039166"},
	} {
		if _, got := callTool(t, s.cs, tool, args); got["status"] != "invalid_argument" {
			t.Errorf("%s %v: status %v; want invalid_argument", tool, args, got["status"])
		}
	}
	audit, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range []string{"system_info", "internet_exposure", "firewall_block", "container_logs"} {
		if !strings.Contains(string(audit), `"tool":"`+tool+`"`) {
			t.Errorf("audit log has no %s record", tool)
		}
	}
}

// TestFirewallBlockNeedsApprovalAndGuard shows the mutation's pipeline in
// guarded mode: a management source is refused outright, anything else
// waits for approval.
func TestFirewallBlockNeedsApprovalAndGuard(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=guarded", "WARDEN_MANAGEMENT_SOURCES=192.0.2.0/24")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "firewall_block", map[string]any{"address": "192.0.2.44"})
	if got["status"] != "denied" || !strings.Contains(text(res), "lock-out guard") {
		t.Errorf("blocking a management source: %v %s", got["status"], text(res))
	}
	_, got = callTool(t, s.cs, "firewall_block", map[string]any{"address": "203.0.113.7"})
	if got["status"] != "approval_required" || got["tier"] != float64(2) {
		t.Errorf("firewall_block in guarded mode: %v; want approval_required at tier 2", got)
	}
}

// dockerEngine starts a private Docker engine (no bridge, no iptables, so
// it changes nothing on the host) and returns its DOCKER_HOST, or skips
// with the reason unless WARDEN_REQUIRE_DOCKER=1.
func dockerEngine(t *testing.T) string {
	t.Helper()
	fail := t.Skipf
	if os.Getenv("WARDEN_REQUIRE_DOCKER") == "1" {
		fail = t.Fatalf
	}
	for _, p := range []string{"dockerd", "docker", "containerd", "runc"} {
		if _, err := exec.LookPath(p); err != nil {
			fail("%s not installed (apt-get install docker.io)", p)
			return ""
		}
	}
	if os.Geteuid() != 0 {
		fail("dockerd needs root")
		return ""
	}
	var b [4]byte
	rand.Read(b[:])
	dir := filepath.Join("/tmp", "wd-"+hex.EncodeToString(b[:]))
	os.MkdirAll(dir, 0o700)
	sock := "unix://" + dir + "/d.sock"
	cmd := exec.Command("dockerd", "--data-root", dir+"/data", "--exec-root", dir+"/exec", "-H", sock,
		"--pidfile", dir+"/d.pid", "--bridge=none", "--iptables=false", "--ip6tables=false")
	logf, _ := os.Create(dir + "/log")
	cmd.Stdout, cmd.Stderr = logf, logf
	if err := cmd.Start(); err != nil {
		fail("dockerd: %v", err)
		return ""
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		exec.Command("umount", "-R", dir+"/data").Run()
		os.RemoveAll(dir)
	})
	for i := 0; ; i++ {
		if exec.Command("docker", "-H", sock, "version").Run() == nil {
			break
		}
		if i > 600 {
			log, _ := os.ReadFile(dir + "/log")
			fail("dockerd did not come up: %s", log)
			return ""
		}
		time.Sleep(100 * time.Millisecond)
	}
	// Build an image from the local busybox binary: no registry needed.
	bb, err := exec.LookPath("busybox")
	if err != nil {
		fail("busybox not installed (apt-get install busybox-static)")
		return ""
	}
	img, err := busyboxImage(bb)
	if err != nil {
		t.Fatal(err)
	}
	imp := exec.Command("docker", "-H", sock, "import", "-", "warden-test/busybox:local")
	imp.Stdin = bytes.NewReader(img)
	if out, err := imp.CombinedOutput(); err != nil {
		t.Fatalf("docker import: %v %s", err, out)
	}
	return sock
}

// busyboxImage is a root file system tarball with a static busybox.
func busyboxImage(path string) ([]byte, error) {
	bin, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	tw.WriteHeader(&tar.Header{Name: "bin/", Typeflag: tar.TypeDir, Mode: 0o755})
	tw.WriteHeader(&tar.Header{Name: "bin/busybox", Mode: 0o755, Size: int64(len(bin))})
	tw.Write(bin)
	for _, a := range []string{"sh", "echo", "sleep"} {
		tw.WriteHeader(&tar.Header{Name: "bin/" + a, Typeflag: tar.TypeSymlink, Linkname: "busybox"})
	}
	return buf.Bytes(), tw.Close()
}

// TestContainerTools lists, reads logs of and restarts a real container on
// a real Docker engine through the binary.
func TestContainerTools(t *testing.T) {
	sock := dockerEngine(t)
	name := "warden-e2e-" + fmt.Sprint(time.Now().UnixNano()%1e9)
	run := exec.Command("docker", "-H", sock, "run", "-d", "--network", "none", "--name", name, "warden-test/busybox:local",
		"/bin/sh", "-c", "echo hello-from-container; echo oops >&2; exec sleep 100000")
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("docker run: %v %s", err, out)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=open", "DOCKER_HOST="+sock)
	s := startStdio(t, env, state, nil)
	_, got := callTool(t, s.cs, "list_containers", map[string]any{})
	if got["runtime"] != "docker" {
		t.Fatalf("list_containers: %v", got)
	}
	var seen map[string]any
	for _, c := range got["containers"].([]any) {
		if c.(map[string]any)["name"] == name {
			seen = c.(map[string]any)
		}
	}
	if seen == nil || seen["state"] != "running" || seen["image"] != "warden-test/busybox:local" {
		t.Fatalf("container %s not listed as running: %v", name, got)
	}
	_, logs := callTool(t, s.cs, "container_logs", map[string]any{"name": name, "tail": 10})
	if !strings.Contains(fmt.Sprint(logs["stdout"]), "hello-from-container") || !strings.Contains(fmt.Sprint(logs["stderr"]), "oops") {
		t.Fatalf("container_logs: %v", logs)
	}
	_, got = callTool(t, s.cs, "container_logs", map[string]any{"name": "no-such-container"})
	if got["status"] != "error" {
		t.Fatalf("logs of a missing container: %v", got)
	}
	_, got = callApproved(t, s.cs, "restart_container", map[string]any{"name": name})
	if got["status"] != "ok" || got["state"] != "running" || got["manager"] != "docker" {
		t.Fatalf("restart_container: %v", got)
	}
	out, _ := exec.Command("docker", "-H", sock, "inspect", "--format", "{{.RestartCount}} {{.State.StartedAt}}", name).CombinedOutput()
	_, logs = callTool(t, s.cs, "container_logs", map[string]any{"name": name})
	if strings.Count(fmt.Sprint(logs["stdout"]), "hello-from-container") != 2 {
		t.Fatalf("after restart the log shows %q (inspect %s); want two starts", logs["stdout"], out)
	}
}
