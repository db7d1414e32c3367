package main

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// cpuTimes is a process's CPU time: its own, and that of its reaped
// children.
type cpuTimes struct{ self, children time.Duration }

// procCPU reads utime+stime and cutime+cstime from /proc/PID/stat.
func procCPU(pid int) (cpuTimes, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return cpuTimes{}, err
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	f := strings.Fields(s[i+1:])
	if len(f) < 15 {
		return cpuTimes{}, fmt.Errorf("short /proc/%d/stat", pid)
	}
	// Fields after the command name start at state (3rd field of stat);
	// utime, stime, cutime, cstime are the 14th to 17th, in clock ticks
	// of 1/100 s on Linux.
	tick := func(k int) time.Duration {
		v, _ := strconv.ParseInt(f[k-3], 10, 64)
		return time.Duration(v) * 10 * time.Millisecond
	}
	return cpuTimes{self: tick(14) + tick(15), children: tick(16) + tick(17)}, nil
}

// childrenCPU is the user+system time of this process's reaped children.
func childrenCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// selfCPU is this process's user+system time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// parallel runs op from n workers until d has passed and returns the calls
// per second, the latency of each call, and the first error.
func parallel(ctx context.Context, n int, d time.Duration, op func(worker int) error) (float64, dist, int, error) {
	var (
		mu      sync.Mutex
		samples []time.Duration
		errs    int
		first   error
		wg      sync.WaitGroup
	)
	start := time.Now()
	deadline := start.Add(d)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var local []time.Duration
			for time.Now().Before(deadline) && ctx.Err() == nil {
				t0 := time.Now()
				err := op(i)
				if err != nil {
					mu.Lock()
					errs++
					if first == nil {
						first = err
					}
					mu.Unlock()
					continue
				}
				local = append(local, time.Since(t0))
			}
			mu.Lock()
			samples = append(samples, local...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	return float64(len(samples)) / elapsed.Seconds(), summarize(samples), errs, first
}

// throughput is section 2: warden over HTTP with 1, 8 and 64 concurrent
// clients, each its own MCP session and HTTP connection, against the same
// number of goroutines forking /bin/sh directly.
func (e *env) throughput(ctx context.Context) *table {
	t := &table{
		title: "HTTP throughput: `echo hi` from concurrent clients",
		cols:  []string{"clients", "fork/exec floor, calls/s", "floor CPU per call: parent + `sh`", "warden HTTP, calls/s", "warden ÷ floor", "warden p50", "warden p99", "warden CPU per call: warden + its `sh` + client", "note"},
	}
	t.notes = append(t.notes, fmt.Sprintf("Each row runs for %s. A client is one MCP session (the official Go SDK, protocol 2026-07-28, stateless) with its own HTTP connection pool; all share one warden. The floor is the same number of goroutines each running `/bin/sh -c 'echo hi'` in a loop. CPU per call is user+system time over the row divided by the calls: warden's own, its reaped children's, and this harness's (the client).", e.cfg.dur))
	logf("throughput: starting warden --http")
	w, err := e.startWardenHTTP(ctx)
	if err != nil {
		for _, n := range []int{1, 8, 64} {
			t.skip(fmt.Sprint(n), err.Error())
		}
		return t
	}
	for _, n := range []int{1, 8, 64} {
		logf("throughput: %d clients", n)
		fSelf, fChildren := selfCPU(), childrenCPU()
		floorRate, fd, _, ferr := parallel(ctx, n, e.cfg.dur, func(int) error { return forkExec() })
		floorCPU := "—"
		if fd.n > 0 {
			per := func(d time.Duration) string { return ms(time.Duration(float64(d) / float64(fd.n))) }
			floorCPU = per(selfCPU()-fSelf) + " + " + per(childrenCPU()-fChildren)
		}
		if ferr != nil {
			t.skip(fmt.Sprint(n), "fork/exec floor: "+ferr.Error())
			continue
		}
		clients := make([]*server, n)
		var cerr error
		for i := range clients {
			if clients[i], cerr = w.connect(ctx, ""); cerr != nil {
				break
			}
		}
		if cerr != nil {
			t.skip(fmt.Sprint(n), "connecting clients: "+cerr.Error())
			for _, c := range clients {
				if c != nil {
					c.stop()
				}
			}
			continue
		}
		wBefore, _ := procCPU(w.cmd.Process.Pid)
		selfBefore := selfCPU()
		rate, d, errs, werr := parallel(ctx, n, e.cfg.dur, func(i int) error { return callOp(ctx, clients[i])() })
		wAfter, _ := procCPU(w.cmd.Process.Pid)
		self := selfCPU() - selfBefore
		calls := float64(d.n)
		cpu := "—"
		if calls > 0 {
			per := func(d time.Duration) string { return ms(time.Duration(float64(d) / calls)) }
			cpu = per(wAfter.self-wBefore.self) + " + " + per(wAfter.children-wBefore.children) + " + " + per(self)
		}
		for _, c := range clients {
			c.stop()
		}
		note := ""
		if errs > 0 {
			note = fmt.Sprintf("%d calls failed, first: %s", errs, oneLine(werr.Error()))
		}
		t.row(fmt.Sprint(n), count(floorRate), floorCPU, count(rate), fmt.Sprintf("%.2f", rate/floorRate), ms(d.p50), ms(d.p99), cpu, note)
	}
	return t
}
