// Package hoststest makes, for tests, the host of the container shape: a
// process that is PID 1 of fresh PID, UTS and mount namespaces, which
// warden's "local" enters with host_namespace: pid1.
package hoststest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Target starts PID 1 of new PID, UTS, IPC and mount namespaces named hostname,
// with each source bind-mounted over its destination inside them only, and
// returns its process id as this machine sees it. It skips the test
// without root, unshare or nsenter; the process is killed with the test.
func Target(t testing.TB, hostname string, binds map[string]string) int {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("entering namespaces needs root")
	}
	for _, p := range []string{"unshare", "nsenter"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not found", p)
		}
	}
	ready := filepath.Join(t.TempDir(), "ready")
	script := "hostname " + hostname
	for src, dst := range binds {
		script += fmt.Sprintf(" && mount --bind %s %s", src, dst)
	}
	script += fmt.Sprintf(" && touch %s && exec sleep 600", ready)
	cmd := exec.Command("unshare", "--pid", "--fork", "--mount", "--uts", "--ipc", "--mount-proc", "--", "sh", "-c", script)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the target namespaces did not come up")
		}
		if _, err := os.Stat(ready); err != nil {
			continue
		}
		// unshare --fork: the target is unshare's only child.
		kids, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", cmd.Process.Pid, cmd.Process.Pid))
		if f := strings.Fields(string(kids)); len(f) > 0 {
			if pid, err := strconv.Atoi(f[0]); err == nil {
				return pid
			}
		}
	}
}
