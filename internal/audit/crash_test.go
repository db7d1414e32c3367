package audit

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

const crashEnv = "WARDEN_AUDIT_CRASH_CHILD"

// TestMain lets the test binary double as a writer that is killed mid-run.
func TestMain(m *testing.M) {
	if path := os.Getenv(crashEnv); path != "" {
		crashChild(path, SyncMode(os.Getenv(crashEnv+"_SYNC")))
		return
	}
	if path := os.Getenv(writerEnv); path != "" {
		writerChild(path)
		return
	}
	os.Exit(m.Run())
}

// crashChild appends from several goroutines until it is killed. It says
// ready once the log holds more records than the test requires, so the
// test's figure does not depend on how soon a busy machine runs it.
func crashChild(path string, mode SyncMode) {
	l, err := Open(Options{Path: path, Sync: mode, RotateBytes: 256 << 10, Node: "child"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	var once sync.Once
	var appended atomic.Int64
	for w := 0; w < 4; w++ {
		go func() {
			for i := 0; ; i++ {
				r := sample(i)
				r.Args = []byte(fmt.Sprintf(`{"command":%q}`, strings.Repeat("x", i%5000)))
				if _, err := l.Append(context.Background(), r); err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(3)
				}
				if appended.Add(1) >= 16 {
					once.Do(func() { fmt.Println("ready") })
				}
			}
		}()
	}
	select {}
}

func TestCrashLeavesVerifiableLog(t *testing.T) {
	if testing.Short() {
		t.Skip("re-execs the test binary")
	}
	for _, mode := range []SyncMode{SyncNone, SyncGroup} {
		t.Run(string(mode), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "audit.jsonl")
			for round := 0; round < 3; round++ {
				cmd := exec.Command(os.Args[0], "-test.run=^$")
				cmd.Env = append(os.Environ(), crashEnv+"="+path, crashEnv+"_SYNC="+string(mode))
				out, _ := cmd.StdoutPipe()
				cmd.Stderr = os.Stderr
				if err := cmd.Start(); err != nil {
					t.Fatal(err)
				}
				if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
					cmd.Process.Kill()
					t.Fatalf("child: %q %v", line, err)
				}
				time.Sleep(time.Duration(50+round*37) * time.Millisecond)
				cmd.Process.Signal(syscall.SIGKILL)
				err := cmd.Wait()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
					t.Fatalf("child did not die by SIGKILL: %v", err)
				}
				rep := verifyPath(t, path, nil)
				if p := rep.Problem; p != nil && p.Kind != KindTruncated {
					t.Fatalf("round %d: after SIGKILL: %v", round, p)
				}
				if p := rep.Problem; p != nil {
					files, _ := Files(path)
					if p.File != files[len(files)-1] {
						t.Fatalf("round %d: torn line not in the newest file: %v", round, p)
					}
				}
				if rep.Records < 10 {
					t.Fatalf("round %d: only %d records", round, rep.Records)
				}
				t.Logf("round %d: %d records in %d files, problem %v", round, rep.Records, len(rep.Files), rep.Problem)
			}
			// A restart recovers whatever the last kill left.
			l := openTest(t, Options{Path: path})
			appendN(t, l, 1)
			l.Close()
			rep := verifyPath(t, path, nil)
			if rep.Problem != nil {
				t.Fatalf("after restart: %v", rep.Problem)
			}
		})
	}
}

// TestDiskFull fills a real tmpfs: writes fail (some of them part-way),
// Healthy says so, and once space is back the log recovers and verifies.
func TestDiskFull(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to mount a tmpfs")
	}
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=64k,mode=0700"); err != nil {
		t.Skipf("cannot mount tmpfs: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	path := filepath.Join(dir, "audit.jsonl")
	l, err := Open(Options{Path: path, Node: "nas1"})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ok := 0
	var werr error
	for i := 0; i < 10000 && werr == nil; i++ {
		r := sample(i)
		r.Args = []byte(fmt.Sprintf(`{"command":%q}`, strings.Repeat("y", 700)))
		if _, werr = l.Append(context.Background(), r); werr == nil {
			ok++
		}
	}
	if !errors.Is(werr, syscall.ENOSPC) {
		t.Fatalf("want ENOSPC, got %v after %d records", werr, ok)
	}
	if h, reason := l.Healthy(); h || !strings.Contains(reason, "no space") {
		t.Fatalf("Healthy on a full disk: %v %q", h, reason)
	}
	if _, err := l.Append(context.Background(), sample(0)); err == nil {
		t.Fatal("Append on a full disk succeeded")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", syscall.MS_REMOUNT, "size=1m,mode=0700"); err != nil {
		t.Fatalf("remount: %v", err)
	}
	if _, err := l.Append(context.Background(), sample(1)); err != nil {
		t.Fatalf("Append after space came back: %v", err)
	}
	if h, _ := l.Healthy(); !h {
		t.Fatal("Healthy still false after a successful write")
	}
	l.Close()
	rep := verifyPath(t, path, nil)
	if rep.Problem != nil {
		t.Fatalf("after disk full: %v", rep.Problem)
	}
	// The two records that could not be written are attested, chained,
	// just before the first one written again: a chain that verifies does
	// not hide that calls went unaudited.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var lost struct {
		Tool, Decision, Reason string
		Extra                  map[string]any
	}
	if len(lines) < 2 || json.Unmarshal([]byte(lines[len(lines)-2]), &lost) != nil ||
		lost.Tool != "warden.audit" || lost.Decision != "lost" || lost.Extra["lost_records"] != float64(2) || !strings.Contains(lost.Reason, "no space") {
		t.Errorf("no record of the 2 lost records before the first written again: %+v", lost)
	}
	t.Logf("%d records before ENOSPC; %d verified; recovered %v", ok, rep.Records, rep.Recovered)
}
