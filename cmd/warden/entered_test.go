//go:build linux

package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/hosts/hoststest"
)

// TestContainerShapeReachesHost runs warden the way a NAS runs it: in a
// container of its own (its own mount and UTS namespaces, here "warden-box")
// that shares the PID namespace of the host, whose PID 1 is a process in
// namespaces the test made ("nas-target", with its own /etc/hostname). With
// host_namespace: pid1, run_command, run_script, read_file, a session and a
// host tool all see the target's hostname and files, not warden's.
func TestContainerShapeReachesHost(t *testing.T) {
	cs, pid1 := startContainerShape(t, "nas-target", "nas-target-file")

	_, got := callTool(t, cs, "run_command", map[string]any{"command": "hostname; cat /etc/hostname"})
	if out, _ := got["stdout"].(string); out != "nas-target\nnas-target-file\n" {
		t.Errorf("run_command saw %q, want the target's hostname and /etc/hostname (got: %v)", out, got)
	}
	_, got = callTool(t, cs, "run_script", map[string]any{"script": "uname -n\n", "interpreter": "sh"})
	if out, _ := got["stdout"].(string); out != "nas-target\n" {
		t.Errorf("run_script saw %q, want nas-target (got: %v)", out, got)
	}
	_, got = callTool(t, cs, "read_file", map[string]any{"path": "/etc/hostname"})
	if c, _ := got["content"].(string); c != "nas-target-file\n" {
		t.Errorf("read_file /etc/hostname = %q, want the target's (got: %v)", c, got)
	}
	_, got = callTool(t, cs, "system_info", nil)
	if h, _ := got["hostname"].(string); h != "nas-target" {
		t.Errorf("system_info hostname = %q, want nas-target (got: %v)", h, got)
	}

	_, info := callTool(t, cs, "server_info", nil)
	_, got = callTool(t, cs, "hosts_list", nil)
	l, _ := got["local"].(map[string]any)
	if c, _ := info["confinement"].(map[string]any); c["active"] == true {
		if !strings.Contains(fmt.Sprint(l["confinement"]), "pid1-namespaces") {
			t.Errorf("hosts_list does not say local is confined in PID 1's namespaces: %v", l)
		}
	} else if !strings.Contains(fmt.Sprint(l["confinement"]), "entered into PID 1") {
		t.Errorf("hosts_list does not say local is entered and held by the classifier only: %v", l)
	}

	res, got := callTool(t, cs, "session_start", map[string]any{"command": "hostname; cat /etc/hostname; sleep 30", "pty": false})
	id, _ := got["session_id"].(string)
	if id == "" {
		t.Fatalf("session_start: %s", text(res))
	}
	var seen strings.Builder
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(seen.String(), "nas-target-file"); {
		if time.Now().After(deadline) {
			break
		}
		_, got := callTool(t, cs, "session_read", map[string]any{"session_id": id, "wait_s": 1})
		out, _ := got["data"].(string)
		seen.WriteString(out)
	}
	if s := seen.String(); !strings.Contains(s, "nas-target\n") || !strings.Contains(s, "nas-target-file") || strings.Contains(s, "warden-box") {
		t.Errorf("session saw %q, want the target's hostname and /etc/hostname", s)
	}
	callTool(t, cs, "session_close", map[string]any{"session_id": id})

	// warden itself is in its own namespaces: the container is not the host.
	if b, err := exec.Command("nsenter", "--target", strconv.Itoa(pid1), "--uts", "hostname").Output(); err != nil || strings.TrimSpace(string(b)) != "nas-target" {
		t.Fatalf("target hostname %q, %v", b, err)
	}
}

// startContainerShape starts warden the way a NAS runs it, connects the
// SDK's client and returns it with the host's PID outside: the "host" is
// PID 1 of new namespaces with the UTS name uts and an /etc/hostname of
// its own holding etcHostname; the "container" shares that PID namespace
// (PID 1 is the host) with a mount and UTS namespace of its own
// ("warden-box"), /proc remounted to show it, and host_namespace: pid1.
func startContainerShape(t *testing.T, uts, etcHostname string, extraEnv ...string) (*mcp.ClientSession, int) {
	t.Helper()
	hostnameFile := filepath.Join(t.TempDir(), "hostname")
	if err := os.WriteFile(hostnameFile, []byte(etcHostname+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	pid1 := hoststest.Target(t, uts, map[string]string{hostnameFile: "/etc/hostname"})
	env, _ := wardenEnv(t, append([]string{"WARDEN_HOST_NAMESPACE=pid1"}, extraEnv...)...)
	cmd := exec.Command("nsenter", "--target", strconv.Itoa(pid1), "--pid", "--",
		"unshare", "--mount", "--uts", "--fork", "--",
		"sh", "-c", `hostname warden-box && mount -t proc proc /proc && exec "$0" serve`, wardenBin)
	cmd.Env = env
	cs, _ := connectCmd(t, cmd, nil)
	return cs, pid1
}

// TestContainerShapeConfined shows the kernel holds the entered host too:
// in the container shape, a repository's hook started by a git read, and a
// write the operator's allow rule admits typed into a session started
// without approval, land nowhere on the host, while a write approved (open
// mode) does.
func TestContainerShapeConfined(t *testing.T) {
	repo, untouched := hostileRepo(t)
	dir := outsideTemp(t)
	cfg := writeFile(t, "policy:\n  allow: ['^touch .*']\n")
	cs, _ := startContainerShape(t, "nas-held", "nas-held", "WARDEN_MODE=guarded", "WARDEN_CONFIG="+cfg, "SHELL=/bin/sh")
	_, info := callTool(t, cs, "server_info", nil)
	requireConfinement(t, info)
	c, _ := info["confinement"].(map[string]any)
	if mech := fmt.Sprint(c["mechanism"]); !strings.Contains(mech, "pid1-namespaces") {
		t.Errorf("server_info does not say programs are confined in PID 1's namespaces: %v", c)
	}
	if gaps := fmt.Sprint(c["gaps"]); strings.Contains(gaps, "classifier only") {
		t.Errorf("server_info still says the entered host is held by the classifier only: %v", gaps)
	}

	ran := false
	for _, cmd := range []string{"git status", "git diff", "git -p log -1"} {
		res, got := callTool(t, cs, "run_command", map[string]any{"command": cmd, "cwd": repo})
		if got["status"] == "ok" && strings.Contains(text(res), "HOOK-RAN") {
			ran = true
		}
	}
	if !ran {
		t.Error("no repository hook ran on the entered host: the test shows nothing about the kernel")
	}
	untouched(t)

	sh := startSession(t, cs, map[string]any{"pty": false})
	if got := sh.send("touch " + dir + "/session; echo done-session\n"); got["status"] != "ok" {
		t.Fatalf("the allow rule did not admit the typed write: %v", got)
	}
	sh.readUntil("done-session")
	// A terminal session works there too, and is held the same way.
	tty := startSession(t, cs, map[string]any{"pty": true})
	if got := tty.send("touch " + dir + "/tty; test -t 0 && echo tty-$((6*7))\n"); got["status"] != "ok" {
		t.Fatalf("the allow rule did not admit the typed write: %v", got)
	}
	tty.readUntil("tty-42")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a session started without approval wrote %d files on the entered host", len(entries))
	}

	// Approved, a write lands: the refusals above are the confinement's,
	// and the directory is the host's too.
	open, _ := startContainerShape(t, "nas-open", "nas-open", "WARDEN_MODE=open")
	if _, got := callTool(t, open, "run_command", map[string]any{"command": "touch " + dir + "/approved"}); got["status"] != "ok" {
		t.Fatalf("approved write: %v", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "approved")); err != nil {
		t.Errorf("an approved write on the entered host did not land: %v", err)
	}
}
