package host

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
)

func TestParseBusyBoxStatus(t *testing.T) {
	tests := []struct {
		name, out string
		want      ServiceState
	}{
		{"running", "script=/etc/init.d/S50crond\ninittab=\npids=12 5\n",
			ServiceState{Exists: true, Active: "active", Sub: "running", MainPID: "5"}},
		{"script only", "script=/etc/init.d/S60ntpd\ninittab=\npids=\n",
			ServiceState{Exists: true, Active: Unknown}},
		{"inittab only", "script=\ninittab=1\npids=\n",
			ServiceState{Exists: true, Active: Unknown}},
		{"nothing", "script=\ninittab=\npids=\n",
			ServiceState{Exists: false, Active: Unknown}},
		{"no output", "", ServiceState{Exists: false, Active: Unknown}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := parseBusyBoxStatus("svc", tt.out)
			if got.Manager != "busybox" || got.Exists != tt.want.Exists || got.Active != tt.want.Active ||
				got.Sub != tt.want.Sub || got.MainPID != tt.want.MainPID || !strings.HasPrefix(got.Reason, "BusyBox init has no service manager") {
				t.Errorf("parseBusyBoxStatus = %+v; want %+v with a reason", got, tt.want)
			}
		})
	}
}

// applets are the BusyBox programs the test root links to /bin/busybox:
// what initArgv, busyboxStatusArgv, performance and the root's own rcS use.
var applets = []string{"sh", "cat", "readlink", "grep", "pidof", "sleep", "crond", "true", "test", "[", "ps"}

// busyboxRoot builds a small BusyBox system in a temporary directory, laid
// out the way Buildroot does it: /sbin/init is a symlink to busybox,
// /etc/inittab runs /etc/init.d/rcS, which starts every /etc/init.d/S??*.
// S50crond starts crond; S60ntpd exists but starts nothing.
func busyboxRoot(t *testing.T) string {
	t.Helper()
	bb, err := exec.LookPath("busybox")
	if err != nil {
		t.Skip("busybox not installed (busybox-static)")
	}
	root := t.TempDir()
	for _, d := range []string{"bin", "sbin", "etc/init.d", "proc", "dev", "tmp", "var/spool/cron/crontabs"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(bb)
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(root, "bin/busybox"), b, 0o755))
	for _, a := range applets {
		must(os.Symlink("busybox", filepath.Join(root, "bin", a)))
	}
	must(os.Symlink("../bin/busybox", filepath.Join(root, "sbin/init")))
	must(os.WriteFile(filepath.Join(root, "etc/inittab"), []byte("::sysinit:/etc/init.d/rcS\n::respawn:/bin/sleep 3600\n"), 0o644))
	must(os.WriteFile(filepath.Join(root, "etc/init.d/rcS"), []byte("#!/bin/sh\nfor s in /etc/init.d/S??*; do \"$s\" start; done\n"), 0o755))
	must(os.WriteFile(filepath.Join(root, "etc/init.d/S50crond"), []byte("#!/bin/sh\ncase \"$1\" in start) crond ;; esac\n"), 0o755))
	must(os.WriteFile(filepath.Join(root, "etc/init.d/S60ntpd"), []byte("#!/bin/sh\ntrue\n"), 0o755))
	return root
}

// nsRootRunner runs every command in the mount and PID namespaces and the
// root directory of process pid, the way warden's nsenter runner reaches
// the host from a container.
type nsRootRunner struct {
	pid   int
	inner runner.Runner
}

func (n nsRootRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	req.Argv = append([]string{"nsenter", "--target", strconv.Itoa(n.pid), "--mount", "--pid", "--root", "--wd", "--"}, req.Argv...)
	return n.inner.Run(ctx, req)
}

// chrootRunner runs every command chrooted into dir, with no /proc.
type chrootRunner struct {
	dir   string
	inner runner.Runner
}

func (c chrootRunner) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	req.Argv = append([]string{"chroot", c.dir}, req.Argv...)
	return c.inner.Run(ctx, req)
}

func serviceStatus(t *testing.T, d *Deps, name string) ServiceState {
	t.Helper()
	p, err := d.planServiceStatus(context.Background(), nil, &ServiceArgs{Name: name})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	out := p.Run(context.Background())
	st, ok := out.Result.(ServiceState)
	if !ok {
		t.Fatalf("%s: result %T (%s %s)", name, out.Result, out.Status, out.Reason)
	}
	return st
}

// TestBusyBoxInit boots real BusyBox init as PID 1 of new PID and mount
// namespaces chrooted into a BusyBox root, and asks service_status about
// it through nsenter, so detection reads PID 1's executable.
func TestBusyBoxInit(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for PID and mount namespaces")
	}
	for _, p := range []string{"unshare", "nsenter"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s not installed (util-linux)", p)
		}
	}
	root := busyboxRoot(t)
	cmd := exec.Command("unshare", "--pid", "--fork", "--mount", "--root="+root, "--mount-proc", "/sbin/init")
	if err := cmd.Start(); err != nil {
		t.Skipf("unshare: %v", err)
	}
	// init is unshare's forked child: PID 1 inside, initPID outside.
	// Killing it ends the namespace and everything rcS started.
	var initPID int
	t.Cleanup(func() {
		if initPID > 0 {
			if p, err := os.FindProcess(initPID); err == nil {
				_ = p.Kill()
			}
		}
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	children := filepath.Join("/proc", strconv.Itoa(cmd.Process.Pid), "task", strconv.Itoa(cmd.Process.Pid), "children")
	for deadline := time.Now().Add(10 * time.Second); initPID == 0; time.Sleep(20 * time.Millisecond) {
		if b, err := os.ReadFile(children); err == nil {
			if f := strings.Fields(string(b)); len(f) > 0 {
				initPID, _ = strconv.Atoi(f[0])
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("unshare did not start init")
		}
	}
	d := depsWith(nsRootRunner{pid: initPID, inner: local.New(local.Options{})})
	d.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	d.Timeout, d.MaxBytes = 10*time.Second, 1<<20
	t0, _ := d.Hosts(context.Background(), "")
	// rcS has run once crond is up.
	for deadline := time.Now().Add(10 * time.Second); !d.exec(context.Background(), t0, []string{"pidof", "crond"}).ok(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("BusyBox init (pid %d) did not start crond", initPID)
		}
	}

	if got := strings.TrimSpace(d.exec(context.Background(), t0, initArgv).stdout); got != "busybox" {
		t.Fatalf("init system = %q; want busybox", got)
	}
	if st := serviceStatus(t, d, "crond"); st.Manager != "busybox" || !st.Exists || st.Active != "active" || st.MainPID == "" ||
		!strings.Contains(st.Reason, "/etc/init.d/S50crond") {
		t.Errorf("crond = %+v; want busybox, exists, active with a pid, found by its S50crond script", st)
	}
	if st := serviceStatus(t, d, "ntpd"); st.Manager != "busybox" || !st.Exists || st.Active != Unknown {
		t.Errorf("ntpd = %+v; want busybox, exists (S60ntpd), active unknown", st)
	}
	if st := serviceStatus(t, d, "sleep"); !st.Exists || st.Active != "active" || !strings.Contains(st.Reason, "inittab") {
		t.Errorf("sleep = %+v; want active and found in /etc/inittab", st)
	}
	if st := serviceStatus(t, d, "sshd"); st.Manager != "busybox" || st.Exists || st.Active != Unknown {
		t.Errorf("sshd = %+v; want busybox, not found, active unknown", st)
	}
	// BusyBox's ps refuses the procps listing; performance falls back to
	// the one it accepts and orders the processes by RSS.
	d.Sleep = func(context.Context, time.Duration) error { return nil }
	pp, err := d.planPerformance(context.Background(), nil, &PerfArgs{})
	if err != nil {
		t.Fatal(err)
	}
	out := pp.Run(context.Background())
	perf, _ := out.Result.(Performance)
	var names []string
	for _, p := range perf.Top {
		names = append(names, p.Command)
		if p.CPUPct != nil || p.RSSKiB <= 0 {
			t.Errorf("BusyBox process %+v: want no CPU share and an RSS", p)
		}
	}
	if perf.TopBy != "rss" || !slices.Contains(names, "crond") || !slices.Contains(names, "init") {
		t.Errorf("performance on BusyBox: top by %q, processes %q; want by rss with init and crond (%s %q)", perf.TopBy, names, out.Status, out.Reason)
	}
	p, err := d.planRestartService(context.Background(), nil, &ServiceArgs{Name: "crond"})
	if err != nil {
		t.Fatal(err)
	}
	if out := p.Run(context.Background()); out.Status != relay.StatusError || !strings.Contains(out.Reason, "BusyBox") {
		t.Errorf("restart_service on BusyBox init = %s %q; want a refusal naming BusyBox", out.Status, out.Reason)
	}
}

// TestBusyBoxInitFallback reads the same root without /proc, as a user
// who may not read /proc/1/exe would: /sbin/init resolving to busybox
// decides, and a /sbin/init that is not busybox does not.
func TestBusyBoxInitFallback(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root for chroot")
	}
	if _, err := exec.LookPath("chroot"); err != nil {
		t.Skip("chroot not installed")
	}
	root := busyboxRoot(t)
	d := depsWith(chrootRunner{dir: root, inner: local.New(local.Options{})})
	d.Env = []string{"PATH=/usr/sbin:/usr/bin:/sbin:/bin"}
	d.Timeout, d.MaxBytes = 10*time.Second, 1<<20
	tg, _ := d.Hosts(context.Background(), "")
	if got := strings.TrimSpace(d.exec(context.Background(), tg, initArgv).stdout); got != "busybox" {
		t.Fatalf("init system with /sbin/init -> busybox = %q; want busybox", got)
	}
	if st := serviceStatus(t, d, "ntpd"); st.Manager != "busybox" || !st.Exists || st.Active != Unknown {
		t.Errorf("ntpd = %+v; want busybox, exists, unknown", st)
	}
	init := filepath.Join(root, "sbin/init")
	if err := os.Remove(init); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(init, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(d.exec(context.Background(), tg, initArgv).stdout); got != Unknown {
		t.Errorf("init system with a non-busybox /sbin/init = %q; want unknown", got)
	}
}
