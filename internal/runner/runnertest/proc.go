package runnertest

import (
	"crypto/rand"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// LocalProcessGone reports whether no live process on this machine has
// marker in its command line. Zombies count as gone: they hold no
// resources but a pid.
func LocalProcessGone(marker string) bool { return len(Procs(marker)) == 0 }

// Marker returns a number no other process has on its command line, for
// `sleep MARKER` to be found in /proc.
func Marker(t testing.TB) string {
	t.Helper()
	n, err := rand.Int(rand.Reader, big.NewInt(1e9))
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("1000.%09d", n.Int64())
}

// Procs lists the live processes of this host whose command line contains s.
func Procs(s string) []int {
	var pids []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(strings.ReplaceAll(string(b), "\x00", " "), s) {
			continue
		}
		if st, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat")); err == nil {
			if f := strings.Fields(string(st[strings.LastIndexByte(string(st), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				continue
			}
		}
		pids = append(pids, pid)
	}
	return pids
}

// WaitProcs waits until the number of processes carrying s satisfies ok.
func WaitProcs(t testing.TB, s string, ok func(n int) bool, timeout time.Duration) []int {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		pids := Procs(s)
		if ok(len(pids)) {
			return pids
		}
		if time.Now().After(deadline) {
			t.Fatalf("processes with %q: %v", s, pids)
		}
		time.Sleep(20 * time.Millisecond)
	}
}
