package confine

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// testLeftovers starts, at each level below tier 2, programs that leave
// the process group the runner kills (setsid, a double fork, setpgid) and
// outlive their call: none is left running once the call's program has
// been reaped and released. Approved, such a program lives on, so the
// programs do escape and the kill is the sweep's; and no sweep reaches
// it, nor a process of the host's.
func (f fixture) testLeftovers(t *testing.T) {
	if f.c.abi < 6 {
		t.Skip("leftovers are swept with Landlock's signal scope (ABI 6)")
	}
	quiet := " </dev/null >/dev/null 2>&1"
	escapes := map[string]string{
		"setsid":      "setsid sleep %s" + quiet + " &",
		"double fork": `python3 -c 'import os,sys; os.fork() and os._exit(0); os.setsid(); os.fork() and os._exit(0); os.execvp("sleep", ["sleep", sys.argv[1]])' %s` + quiet,
		"setpgid":     `perl -e 'setpgrp(0, 0); exec "sleep", $ARGV[0]' %s` + quiet + " &",
		"subshell":    "(setsid sh -c 'sleep %s; :'" + quiet + " &)",
	}
	// A mark of this run's own: the entered shape's PID namespace gives
	// every run the same pids.
	run := time.Now().UnixNano() % 1e6
	// Each call ends once its escaped sleep runs (5 s at most; it fails
	// if the sleep never did), so that none being left afterwards is the
	// sweep's doing, not a process yet to start.
	started := func(mark string) string {
		found := "pgrep -f '^sleep " + mark + "' >/dev/null"
		return "\nfor i in $(seq 100); do " + found + " && break; sleep 0.05; done\n" + found
	}
	// What the sweeps must spare: a process of the host's (the test's
	// own child) and one an approved program left running.
	host := exec.Command("sleep", fmt.Sprintf("4298.%d", run))
	if err := host.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { host.Process.Kill(); host.Wait() }()
	approved := fmt.Sprintf("4299.%d", run)
	defer killSleeps(approved)
	f.run(t, Full, fmt.Sprintf(escapes["setsid"], approved)+started(approved))
	n := 0
	for _, level := range []Level{Read, Temp, Inspect} {
		for name, script := range escapes {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				n++
				mark := fmt.Sprintf("%d.%d", 4200+n, run)
				defer killSleeps(mark)
				if code, out := f.run(t, level, fmt.Sprintf(script, mark)+started(mark)); code != 0 {
					t.Fatalf("exit %d: %s", code, out)
				}
				deadline := time.Now().Add(30 * time.Second) // generous: a busy machine
				for len(sleeps(mark)) > 0 && time.Now().Before(deadline) {
					time.Sleep(20 * time.Millisecond)
				}
				if left := sleeps(mark); len(left) > 0 {
					t.Errorf("%s at %s outlived its call: pids %v", name, level, left)
				}
			})
		}
	}
	t.Run("beside a session", func(t *testing.T) {
		// A session at the same level, open throughout: what a command
		// left is swept all the same.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		session := exec.CommandContext(ctx, "/bin/sh", "-c", "sleep 30")
		release, err := f.c.Start(With(ctx, Admission{Level: Read, Tool: SessionTool}), session.Start)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { cancel(); session.Wait(); release() }()
		mark := fmt.Sprintf("4297.%d", run)
		defer killSleeps(mark)
		f.run(t, Read, fmt.Sprintf(escapes["setsid"], mark)+started(mark))
		deadline := time.Now().Add(30 * time.Second) // generous: a busy machine
		for len(sleeps(mark)) > 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if left := sleeps(mark); len(left) > 0 {
			t.Errorf("a read session kept alive what a read left: pids %v", left)
		}
	})
	if len(sleeps(approved)) == 0 {
		t.Error("an approved program's setsid child did not outlive its call (or a sweep killed it), so the cases above prove nothing")
	}
	if len(sleeps(fmt.Sprintf("4298.%d", run))) == 0 {
		t.Error("a sweep killed a process of the host's")
	}
}

// sleeps returns the pids of the processes given mark as an argument:
// "sleep mark", and what is still on its way there (a double fork's
// python before it runs sleep), so that a wait for none to be left does
// not end while one has yet to start sleep.
func sleeps(mark string) []int {
	var pids []int
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(d + "/cmdline")
		if err != nil || !strings.Contains("\x00"+string(b), "\x00"+mark+"\x00") {
			continue
		}
		if st, err := os.ReadFile(d + "/stat"); err == nil && strings.Contains(string(st), ") Z ") {
			continue // dead, its parent not yet told
		}
		if pid, err := strconv.Atoi(filepath.Base(d)); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids
}

// killSleeps kills them through their /proc directories, which name
// them in /proc's PID namespace: in the entered shape the test's own
// namespace numbers them otherwise.
func killSleeps(mark string) {
	for _, pid := range sleeps(mark) {
		fd, err := unix.Open("/proc/"+strconv.Itoa(pid), unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if err != nil {
			continue
		}
		unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
		unix.Close(fd)
	}
}
