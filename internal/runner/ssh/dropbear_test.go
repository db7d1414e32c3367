package ssh

import (
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// TestDropbearConcurrentRuns: more commands at once than a connection
// carries sessions, on one dropbear host, all run with their own output.
// Dropbear before 2024.86 closes a session opened while another's command
// exits (mkj/dropbear#321), which failed about a third of these calls
// with EOF until the pool gave such a server one session per connection.
func TestDropbearConcurrentRuns(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: testUser})
	pool, _, target := sshpooltest.Server(t, srv, "router")
	r := New(pool, target, Options{})
	const n = 20
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Commands of different lengths, so that some end while
			// others start.
			res, err := r.Run(t.Context(), runner.Request{Argv: []string{"sh", "-c", fmt.Sprintf("sleep 0.%d; echo call %d", i%4, i)}})
			switch {
			case err != nil:
				errs[i] = err
			case string(res.Stdout) != fmt.Sprintf("call %d\n", i) || res.ExitCode != 0:
				errs[i] = fmt.Errorf("stdout %q exit %d stderr %q", res.Stdout, res.ExitCode, res.Stderr)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	if t.Failed() {
		t.Log(srv.Log())
	}
}

// TestDropbearTimeoutsKill: commands timing out together on one dropbear
// host all report the timeout and are gone, and the host keeps working.
// Each kill goes through a control session as well as the signal
// request, and on such a server the control session must not be opened on
// the connection of the command it kills (see sshpool.OneSessionPerConn),
// or the connection can abort with the command's outcome unknown.
func TestDropbearTimeoutsKill(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: testUser})
	pool, _, target := sshpooltest.Server(t, srv, "router")
	r := New(pool, target, Options{KillGrace: 300 * time.Millisecond})
	const n = 4
	// A duration of its own marks each test's sleeps.
	marker := fmt.Sprintf("sleep 1000.%d", time.Now().UnixNano()%1000000)
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := r.Run(t.Context(), runner.Request{Argv: strings.Fields(marker), Timeout: time.Second})
			switch {
			case err != nil:
				errs[i] = err
			case !res.TimedOut || res.ExitCode != 128+15:
				errs[i] = fmt.Errorf("result = %+v, want timed out with SIGTERM's 143", res)
			}
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("call %d: %v", i, err)
		}
	}
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		out, err := exec.Command("pgrep", "-f", marker).Output()
		if err != nil {
			break // pgrep exits 1: no such process
		}
		if time.Now().After(end) {
			t.Fatalf("remote processes still running after the timeouts: pids %s", out)
		}
	}
	res, err := r.Run(t.Context(), runner.Request{Argv: []string{"echo", "after"}})
	if err != nil || string(res.Stdout) != "after\n" {
		t.Errorf("after the timeouts: %+v, %v", res, err)
	}
	if t.Failed() {
		t.Log(srv.Log())
	}
}
