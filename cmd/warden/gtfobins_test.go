package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestGTFOBinsClassesEndToEnd drives the real binary in open mode, where
// a tier 2 call runs unasked, with the classes the GTFOBins and
// argument-injection sweeps found: each was tier 2 or less, so open mode
// ran it. The programs are shims that log to the marker when run (and
// runscript runs its file with sh, as minicom's runscript runs its
// script); each call must come back denied or held for approval, and
// nothing may reach the marker or the files the command would write.
func TestGTFOBinsClassesEndToEnd(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	for name, body := range map[string]string{
		"runscript": "#!/bin/sh\nexec /bin/sh \"$1\"\n",
		"javac":     "#!/bin/sh\necho ran \"$0\" \"$@\" >> " + marker + "\n",
		"psql":      "#!/bin/sh\necho ran \"$0\" \"$@\" >> " + marker + "\n",
		"probe":     "#!/bin/sh\necho ran \"$0\" \"$@\" >> " + marker + "\n",
	} {
		if err := os.WriteFile(filepath.Join(shims, name), []byte(body), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var home string
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "HOME="); ok {
			home = v
		}
	}
	s := startStdio(t, env, state, nil)
	dir := t.TempDir()
	patch := filepath.Join(dir, "p.patch")
	if err := os.WriteFile(patch, []byte("diff --git a/m b/m\nnew file mode 100644\n--- /dev/null\n+++ b/m\n@@ -0,0 +1 @@\n+x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// warden's state named in pieces that each may yield a slash.
	var pieces strings.Builder
	for _, c := range strings.Split(strings.TrimPrefix(filepath.Join(state, "audit.jsonl"), "/"), "/") {
		pieces.WriteString("${HOME:0:1}" + c)
	}
	rc := filepath.Join(home, ".warden-e2e-rc")
	tests := []struct {
		name, command, status string
		writes                string // a file the command would create
	}{
		{"written then run", "printf 'reboot\\n' > " + dir + "/s; runscript " + dir + "/s", "denied", ""},
		{"written with echo -e then run", "echo -e 'x\\n/sbin/reboot' > " + dir + "/t; runscript " + dir + "/t", "denied", ""},
		{"start-up file in a home", "echo 'execute = reboot' > ~/.warden-e2e-rc", "denied", rc},
		{"start-up file through tee", "echo 'execute = poweroff' | tee ~/.warden-e2e-rc", "denied", rc},
		{"patch outside the work tree", "git apply --unsafe-paths --directory=" + dir + "/out " + patch, "approval_required", ""},
		{"JVM option of a JDK tool", "javac -J-XX:OnError=reboot x.java", "denied", ""},
		{"JVM agent of a JDK tool", "javac -J-javaagent:" + dir + "/a.jar x.java", "approval_required", ""},
		{"psql output to a command", "psql -o'|reboot' -c 'select 1'", "denied", ""},
		{"command line computed in part", "probe -o \"ProxyCommand reboot $(tty)\" h", "approval_required", ""},
		{"ssh-style command setting", "probe -o ProxyCommand=reboot h", "approval_required", ""},
		{"launcher option", "probe --gpu-launcher=reboot", "approval_required", ""},
		{"state in pieces", "cat " + pieces.String() + "; touch " + marker, "approval_required", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			refusedCleanly(t, s.cs, tc.command, tc.status, marker, tc.writes)
		})
	}
}

// refusedCleanly runs command through run_command and fails t unless the
// call comes back with status (denied, approval_required), nothing
// reached marker, and writes ("" for none), a file the command would
// create, does not exist.
func refusedCleanly(t *testing.T, cs *mcp.ClientSession, command, status, marker, writes string) {
	t.Helper()
	res, got := callTool(t, cs, "run_command", map[string]any{"command": command})
	if !res.IsError || got["status"] != status {
		t.Errorf("status %v, want %s: %s", got["status"], status, text(res))
	}
	if b, err := os.ReadFile(marker); err == nil {
		os.Remove(marker)
		t.Fatalf("something ran: %s", b)
	}
	if writes != "" {
		if _, err := os.Lstat(writes); err == nil {
			os.Remove(writes)
			t.Fatalf("%s was written", writes)
		}
	}
}
