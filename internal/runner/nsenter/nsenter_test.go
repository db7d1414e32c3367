package nsenter

import (
	"bufio"
	"context"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// nsProcess starts a process in new UTS and mount namespaces whose
// hostname is name, and returns its pid (the child unshare forked).
func nsProcess(t *testing.T, name string) int {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to create namespaces")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Skip("unshare not installed (util-linux)")
	}
	cmd := exec.Command("unshare", "--uts", "--mount", "--fork", "--kill-child", "--", "/bin/sh", "-c",
		`hostname "$0" && echo ready && exec sleep 100000`, name)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || strings.TrimSpace(line) != "ready" {
		t.Fatalf("namespace process did not start: %q %v", line, err)
	}
	children, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/task/" + strconv.Itoa(cmd.Process.Pid) + "/children")
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(children))
	if len(f) != 1 {
		t.Fatalf("unshare has children %q, want one", children)
	}
	pid, _ := strconv.Atoi(f[0])
	return pid
}

func newRunner(t *testing.T, pid int) *Runner {
	t.Helper()
	nsenter, err := exec.LookPath("nsenter")
	if err != nil {
		t.Skip("nsenter not installed (util-linux)")
	}
	r, err := New(Options{PID: pid, Nsenter: nsenter, Inner: local.New(local.Options{KillGrace: 500 * time.Millisecond})})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestSeesTargetHostname proves the command runs in the target's UTS
// namespace: it sees the hostname set there, not ours.
func TestSeesTargetHostname(t *testing.T) {
	pid := nsProcess(t, "warden-ns-probe")
	ours, _ := os.Hostname()
	if ours == "warden-ns-probe" {
		t.Fatal("test host already has the probe hostname")
	}
	r := newRunner(t, pid)
	res, err := r.Run(context.Background(), runner.Request{Argv: []string{"hostname"}, Env: []string{"PATH=/nonexistent"}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != "warden-ns-probe" || res.ExitCode != 0 {
		t.Fatalf("hostname in target = %q (exit %d, stderr %q); want warden-ns-probe", got, res.ExitCode, res.Stderr)
	}
	// The same runner pointed at ourselves sees our hostname.
	self := newRunner(t, os.Getpid())
	res, err = self.Run(context.Background(), runner.Request{Argv: []string{"hostname"}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != ours {
		t.Fatalf("hostname via our own namespaces = %q; want %q", got, ours)
	}
}

// TestExplicitPath proves the PATH the target sees is the runner's, not
// the request's: a request PATH that finds nothing still runs hostname.
func TestExplicitPath(t *testing.T) {
	r := newRunner(t, os.Getpid())
	res, err := r.Run(context.Background(), runner.Request{Argv: []string{"sh", "-c", "echo $PATH"}, Env: []string{"PATH=/nonexistent", "A=1"}, Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.TrimSpace(string(res.Stdout)); got != DefaultPath {
		t.Fatalf("PATH in target = %q; want %q", got, DefaultPath)
	}
}

func TestArgv(t *testing.T) {
	r, err := New(Options{Inner: local.New(local.Options{})})
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(r.Argv([]string{"-rf", "x"}, "/srv"), " ")
	want := "/usr/bin/nsenter --target 1 --mount --uts --ipc --net --wd=/srv -- -rf x"
	if got != want {
		t.Fatalf("Argv = %q; want %q", got, want)
	}
	for _, o := range []Options{{PID: -1, Inner: local.New(local.Options{})}, {Nsenter: "nsenter", Inner: local.New(local.Options{})}, {}} {
		if _, err := New(o); err == nil {
			t.Errorf("New(%+v) = nil error", o)
		}
	}
}

// TestConformance runs the runner suite through nsenter into a process
// with its own UTS and mount namespaces.
func TestConformance(t *testing.T) {
	pid := nsProcess(t, "warden-ns-suite")
	runnertest.Run(t, func(t *testing.T) runner.Runner { return newRunner(t, pid) }, runnertest.Options{
		KillGrace: 500 * time.Millisecond,
		Skip: map[string]string{
			"env-exact": "the runner replaces PATH with the target's PATH by design",
		},
	})
}
