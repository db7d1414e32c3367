package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// floodLine is one 100-character line; lines keep line-buffering servers
// honest (a stream without newlines would be one line of 1 GiB).
const floodLine = "0123456789abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqr"

func (e *env) floodCommand() string {
	return fmt.Sprintf("yes %s | head -c %d", floodLine, e.cfg.floodMB<<20)
}

// procStatus reads a field of /proc/PID/status in KiB.
func procStatus(pid int, field string) (int64, bool) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			var kb int64
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb, true
		}
	}
	return 0, false
}

// watchdog samples a server's RSS and kills its process group past cap, so
// a server that buffers everything cannot take the machine down with it.
type watchdog struct {
	stop   chan struct{}
	done   chan struct{}
	mu     sync.Mutex
	peak   int64 // highest VmHWM seen, KiB
	killed bool
}

func watch(pid int, cap int64) *watchdog {
	w := &watchdog{stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		tick := time.NewTicker(20 * time.Millisecond)
		defer tick.Stop()
		for {
			if hwm, ok := procStatus(pid, "VmHWM"); ok {
				w.mu.Lock()
				w.peak = max(w.peak, hwm)
				w.mu.Unlock()
			}
			if rss, ok := procStatus(pid, "VmRSS"); ok && rss > cap {
				syscall.Kill(-pid, syscall.SIGKILL)
				syscall.Kill(pid, syscall.SIGKILL)
				w.mu.Lock()
				w.killed = true
				w.mu.Unlock()
				return
			}
			select {
			case <-w.stop:
				return
			case <-tick.C:
			}
		}
	}()
	return w
}

func (w *watchdog) end() (peak int64, killed bool) {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.peak, w.killed
}

// flood is section 4: a command printing 1 GiB through each server.
func (e *env) flood(ctx context.Context) *table {
	size := e.cfg.floodMB << 20
	t := &table{
		title: fmt.Sprintf("A command printing %s: `yes <100 chars> | head -c %d`", sizeName(size), size),
		cols:  []string{"server", "time", "time ÷ floor", "peak RSS (VmHWM)", "RSS before", "returned to the agent", "outcome"},
	}
	t.notes = append(t.notes, fmt.Sprintf("Each server is started fresh and makes one `echo hi` call first; RSS before is its VmHWM then, peak RSS its VmHWM after the call (sampled every 20 ms; a server past %s is killed by the harness). Returned is the text the tool result carried.", mib(e.cfg.rssCap)))

	// The floor is the better of two runs: it goes first, when the
	// machine may still be busy with the previous section.
	logf("flood: floor")
	var floor time.Duration
	for range 2 {
		d, err := e.floodFloor(ctx, size)
		if err != nil {
			t.skip("floor", err.Error())
			floor = 0
			break
		}
		if floor == 0 || d < floor {
			floor = d
		}
	}
	if floor > 0 {
		t.row("floor: Go reads the pipe and discards it (best of 2)", ms(floor), "1.00×", "—", "—", "—", "—")
	}

	row := func(name string, start func() (*server, error)) {
		logf("flood: %s", name)
		s, err := start()
		if err != nil {
			t.skip(name, err.Error())
			return
		}
		defer s.stop()
		if _, err := s.run(ctx, echoCommand, "hi"); err != nil && !errors.Is(err, errMissingOutput) {
			t.skip(name, "warm-up call: "+err.Error())
			return
		}
		before, _ := procStatus(s.pid(), "VmHWM")
		w := watch(s.pid(), e.cfg.rssCap)
		cctx, cancel := context.WithTimeout(ctx, floodTimeout)
		t0 := time.Now()
		res, err := s.cs.CallTool(cctx, s.call(e.floodCommand()))
		took := time.Since(t0)
		cancel()
		// How far the command got, if it is still running.
		written, stillRunning := headWritten(s.pid())
		hwm, hwmOK := procStatus(s.pid(), "VmHWM")
		peak, killed := w.end()
		if hwmOK {
			peak = max(peak, hwm)
		}
		peakCell := mib(peak)
		outcome := ""
		returned := "—"
		switch {
		case killed:
			outcome = fmt.Sprintf("killed by the harness: RSS passed %s", mib(e.cfg.rssCap))
		case errors.Is(err, context.DeadlineExceeded):
			outcome = fmt.Sprintf("no result within %s", floodTimeout)
			if stillRunning {
				outcome += fmt.Sprintf(": the command had written %s of %s (%.1f MiB/s)", byteSize(int(written)), sizeName(size), float64(written)/(1<<20)/took.Seconds())
			}
		case err != nil:
			outcome = "protocol error: " + oneLine(err.Error())
		case !s.alive():
			outcome = "server died"
		default:
			returned = byteSize(len(allText(res)))
			outcome = describeResult(res)
		}
		if !s.alive() && !killed {
			outcome += "; the server process is gone"
		}
		tr := ratio(took, floor)
		if floor == 0 {
			tr = "—"
		}
		t.row(name, ms(took), tr, peakCell, mib(before), returned, outcome)
	}

	row("warden `run_command`, stdio", func() (*server, error) { return e.startWardenStdio(ctx, "") })
	if e.peers.err == nil {
		row("mcp-server-commands 0.5.0", func() (*server, error) { return e.startCommands(ctx) })
		row("desktop-commander 0.2.52", func() (*server, error) { return e.startDesktopCommander(ctx) })
	} else {
		t.skip("mcp-server-commands 0.5.0", "npm install failed: "+e.peers.err.Error())
		t.skip("desktop-commander 0.2.52", "npm install failed: "+e.peers.err.Error())
	}
	r := e.remoteHost()
	if r.err != nil {
		t.skip("warden `run_command` host=…, stdio", "sshd: "+r.err.Error())
		t.skip("ssh-mcp 2.11.0", "sshd: "+r.err.Error())
		return t
	}
	row("warden `run_command` host=…, stdio", func() (*server, error) { return e.startWardenRemote(ctx, r) })
	row("ssh-mcp 2.11.0", func() (*server, error) { return e.startSSHMCP(ctx, r) })
	return t
}

// floodFloor runs the flood command and reads its output into io.Discard.
func (e *env) floodFloor(ctx context.Context, size int64) (time.Duration, error) {
	start := time.Now()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", e.floodCommand())
	out, err := cmd.StdoutPipe()
	if err != nil {
		return 0, err
	}
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	n, _ := io.Copy(io.Discard, out)
	if err := cmd.Wait(); err != nil || n != size {
		return 0, fmt.Errorf("read %d bytes: %v", n, err)
	}
	return time.Since(start), nil
}

// floodTimeout bounds one flood call, so one slow server cannot take the
// run past its ten-minute budget.
const floodTimeout = 120 * time.Second

// headWritten finds the flood's head(1) among pid's descendants and
// returns how many bytes it has written.
func headWritten(pid int) (int64, bool) {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return 0, false
	}
	children := map[int][]int{}
	comm := map[int]string{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			continue
		}
		f := strings.Fields(s[end+1:])
		if len(f) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(f[1])
		children[ppid] = append(children[ppid], p)
		comm[p] = s[open+1 : end]
	}
	queue := []int{pid}
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if comm[p] == "head" {
			b, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", p))
			if err != nil {
				return 0, false
			}
			for _, line := range strings.Split(string(b), "\n") {
				if v, ok := strings.CutPrefix(line, "wchar: "); ok {
					n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
					return n, true
				}
			}
			return 0, false
		}
		queue = append(queue, children[p]...)
	}
	return 0, false
}

// describeResult says how a flood result ended, from its structured content
// where there is one.
func describeResult(res *mcp.CallToolResult) string {
	var parts []string
	if res.IsError {
		parts = append(parts, "isError")
	}
	if m, ok := res.StructuredContent.(map[string]any); ok {
		for _, k := range []string{"status", "exit_code", "truncated", "timed_out"} {
			if v, ok := m[k]; ok {
				parts = append(parts, fmt.Sprintf("%s=%v", k, v))
			}
		}
	}
	text := allText(res)
	if len(parts) == 0 || res.IsError {
		head := text
		if len(head) > 120 {
			head = head[:120] + "…"
		}
		if i := strings.Index(text, "maxBuffer"); i >= 0 {
			head = "…" + text[max(0, i-40):min(len(text), i+60)] + "…"
		}
		parts = append(parts, fmt.Sprintf("%q", oneLine(head)))
	}
	return strings.Join(parts, ", ")
}

func byteSize(n int) string {
	switch {
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	default:
		return fmt.Sprintf("%d B", n)
	}
}

func sizeName(n int64) string {
	if n >= 1<<30 && n%(1<<30) == 0 {
		return fmt.Sprintf("%d GiB", n>>30)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}
