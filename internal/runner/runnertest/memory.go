package runnertest

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"sync"
	"time"
)

// Growth is how much memory the test process took while a function ran.
type Growth struct {
	// PeakRSS is the highest resident set size seen above the one before.
	PeakRSS int64
	// Method says how PeakRSS was measured: "VmHWM" (the kernel's own
	// peak, reset first) or "sampled" (VmRSS read every few milliseconds).
	Method string
	// Allocated is how many bytes the Go heap allocated meanwhile, freed
	// or not.
	Allocated uint64
}

// MeasureGrowth runs fn and reports how far the process's memory rose.
func MeasureGrowth(fn func()) Growth {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	base := statusKB("VmRSS:")
	g := Growth{Method: "VmHWM"}
	// Writing 5 to clear_refs resets VmHWM to the current RSS (Linux 4.0+).
	if os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) == nil && base >= 0 {
		fn()
		g.PeakRSS = (statusKB("VmHWM:") - base) << 10
	} else {
		g.Method = "sampled"
		g.PeakRSS = sampled(base, fn)
	}
	runtime.ReadMemStats(&after)
	g.Allocated = after.TotalAlloc - before.TotalAlloc
	return g
}

// sampled runs fn while reading VmRSS every 5ms, returning the peak above
// base in bytes.
func sampled(base int64, fn func()) int64 {
	var (
		peak int64
		wg   sync.WaitGroup
	)
	done := make(chan struct{})
	wg.Go(func() {
		t := time.NewTicker(5 * time.Millisecond)
		defer t.Stop()
		for {
			peak = max(peak, statusKB("VmRSS:")-base)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	fn()
	close(done)
	wg.Wait()
	return peak << 10
}

// statusKB reads one kB field of /proc/self/status, or -1.
func statusKB(field string) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return -1
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		if rest, ok := bytes.CutPrefix(sc.Bytes(), []byte(field)); ok {
			f := bytes.Fields(rest)
			if len(f) == 0 {
				return -1
			}
			n, err := strconv.ParseInt(string(f[0]), 10, 64)
			if err != nil {
				return -1
			}
			return n
		}
	}
	return -1
}
