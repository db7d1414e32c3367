package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"
)

// machine names what the absolute numbers were measured on.
type machine struct {
	cpus      int
	cpu       string
	kernel    string
	memGiB    float64
	loadStart string
	loadEnd   string
	node      string
	elapsed   time.Duration
}

func describeMachine() machine {
	m := machine{cpus: runtime.NumCPU(), cpu: "unknown CPU", kernel: "unknown kernel", loadStart: loadAvg()}
	if b, err := os.ReadFile("/proc/cpuinfo"); err == nil {
		for _, line := range strings.Split(string(b), "\n") {
			if v, ok := strings.CutPrefix(line, "model name"); ok {
				m.cpu = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(v), ":"))
				break
			}
		}
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil {
		m.kernel = "Linux " + strings.TrimSpace(string(b))
	}
	if b, err := os.ReadFile("/proc/meminfo"); err == nil {
		var kb int64
		fmt.Sscanf(strings.TrimPrefix(strings.SplitN(string(b), "\n", 2)[0], "MemTotal:"), "%d", &kb)
		m.memGiB = float64(kb) / (1 << 20)
	}
	return m
}

// loadAvg is the 1-, 5- and 15-minute load average.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

// table is one section of the report.
type table struct {
	title string
	cols  []string
	rows  [][]string
	notes []string
}

func (t *table) row(cells ...string) { t.rows = append(t.rows, cells) }

// skip adds a row that could not run, with its reason in the last column.
func (t *table) skip(name, why string) {
	cells := make([]string, len(t.cols))
	cells[0] = name
	for i := 1; i < len(cells)-1; i++ {
		cells[i] = "—"
	}
	cells[len(cells)-1] = "could not run: " + oneLine(why)
	t.rows = append(t.rows, cells)
}

type report struct {
	machine machine
	tables  []*table
}

func (r *report) add(t ...*table) { r.tables = append(r.tables, t...) }

func (r *report) print(w io.Writer, command string) {
	m := r.machine
	fmt.Fprintf(w, "\n`%s`\n\n", command)
	fmt.Fprintf(w, "Machine: %d × %s, %.0f GiB, %s; %s; Node %s. Load average %s at the start, %s at the end; the run took %s.\n",
		m.cpus, m.cpu, m.memGiB, m.kernel, goVersion(), orUnknown(m.node), m.loadStart, m.loadEnd, m.elapsed)
	for _, t := range r.tables {
		fmt.Fprintf(w, "\n### %s\n\n", t.title)
		fmt.Fprintf(w, "| %s |\n", strings.Join(t.cols, " | "))
		fmt.Fprintf(w, "|%s\n", strings.Repeat("---|", len(t.cols)))
		for _, row := range t.rows {
			fmt.Fprintf(w, "| %s |\n", strings.Join(row, " | "))
		}
		if len(t.notes) > 0 {
			fmt.Fprintln(w)
			for _, n := range t.notes {
				fmt.Fprintln(w, n)
			}
		}
	}
}

func orUnknown(s string) string {
	if s == "" {
		return "not installed"
	}
	return s
}

func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	s = strings.ReplaceAll(s, "|", "/")
	if len(s) > 300 {
		s = s[:300] + "…"
	}
	return s
}

// dist summarises latency samples.
type dist struct {
	n             int
	p50, p90, p99 time.Duration
	// missing counts calls that returned without the command's output.
	missing int
}

func summarize(samples []time.Duration) dist {
	if len(samples) == 0 {
		return dist{}
	}
	s := slices.Clone(samples)
	slices.Sort(s)
	at := func(q float64) time.Duration { return s[int(q*float64(len(s)-1)+0.5)] }
	return dist{n: len(s), p50: at(0.50), p90: at(0.90), p99: at(0.99)}
}

// ms formats a duration in milliseconds with three significant digits.
func ms(d time.Duration) string {
	v := float64(d) / float64(time.Millisecond)
	switch {
	case v >= 100:
		return fmt.Sprintf("%.0f ms", v)
	case v >= 10:
		return fmt.Sprintf("%.1f ms", v)
	case v >= 1:
		return fmt.Sprintf("%.2f ms", v)
	default:
		return fmt.Sprintf("%.0f µs", v*1000)
	}
}

func ratio(a, b time.Duration) string {
	if b <= 0 {
		return "—"
	}
	return fmt.Sprintf("%.2f×", float64(a)/float64(b))
}

func mib(kib int64) string {
	return fmt.Sprintf("%.1f MiB", float64(kib)/1024)
}

// count formats an integer with thousands separators.
func count(n float64) string {
	s := fmt.Sprintf("%.0f", n)
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
