package confine

import (
	"os"
	"strings"
	"testing"
)

// perfSpellings open a sampling event on every task a CPU runs, which
// copies each sampled task's registers and user stack into the ring
// buffer: warden's own among them, past its being non-dumpable and past
// Landlock's tracing rules, which ask nothing of such events. The kernel
// asks CAP_PERFMON or CAP_SYS_ADMIN, which warden's probes keep, or a
// kernel.perf_event_paranoid of 0 or less, which a host set up for
// profiling has, of any user. The cgroup spelling names a cgroup's
// directory in place of a task: every task in it.
var perfSpellings = map[string]string{
	"every task":      `fd = l.syscall(298, attr, -1, 0, -1, 0)`,
	"every task cpu1": `fd = l.syscall(298, attr, -1, 1 % os.cpu_count(), -1, 0)`,
	"cgroup":          cgroupEvent("4"),
	"cgroup cloexec":  cgroupEvent("4 | 8"),
}

// cgroupEvent is Python opening a CPU's event for the tasks of a cgroup
// (PERF_FLAG_PID_CGROUP in flags) at the root of the cgroup v2 hierarchy,
// wherever it is mounted.
func cgroupEvent(flags string) string {
	return `fd = -1
for g in ("/sys/fs/cgroup", "/sys/fs/cgroup/unified"):
    if fd < 0 and os.path.exists(g + "/cgroup.procs"):
        fd = l.syscall(298, attr, os.open(g, os.O_RDONLY), 0, -1, ` + flags + `)`
}

// perfProgram is Python opening the event call names: a software clock
// sampling user stacks. It prints "opened" or the error.
func perfProgram(call string) string {
	return `import ctypes, os, struct
l = ctypes.CDLL(None, use_errno=True)
# type, size, config, sample_period, sample_type (STACK_USER | REGS_USER | TID),
# read_format, flags (disabled, exclude_kernel, exclude_hv), then wakeup, bp_type, config1, config2,
# branch_sample_type, sample_regs_user, sample_stack_user
a = struct.pack("IIQQQQQIIQQQQI", 1, 128, 0, 10000, (1 << 13) | (1 << 12) | (1 << 1), 0, 1 | (1 << 5) | (1 << 6), 0, 0, 0, 0, 0, 0xff, 4096)
attr = ctypes.create_string_buffer(a, 128)
` + call + `
print("opened" if fd >= 0 else os.strerror(ctypes.get_errno()))
`
}

// testPerf: below tier 2 no program opens a sampling event on tasks other
// than its own, whatever the capabilities it kept (warden's probes keep
// CAP_SYS_ADMIN) or the host's perf_event_paranoid; its own tasks it may
// still count (perf stat). Approved root programs may (the control; they
// keep the capabilities that load modules too, see docs/security.md).
func (f fixture) testPerf(t *testing.T) {
	for _, level := range []Level{Read, Temp, Inspect, Full} {
		for name, call := range perfSpellings {
			t.Run(string(level)+"/"+name, func(t *testing.T) {
				code, out := f.run(t, level, "python3 -c '"+perfProgram(call)+"'")
				if code != 0 {
					t.Fatalf("exit %d: %s", code, out)
				}
				opened := strings.Contains(out, "opened")
				if level == Full && os.Geteuid() == 0 && name == "every task" && !opened {
					t.Errorf("control: an approved root program could not open a CPU's event: %s", out)
				}
				if level != Full && opened {
					t.Errorf("%s at %s opened a sampling event on others' tasks: %s", name, level, out)
				}
			})
		}
		t.Run(string(level)+"/own", func(t *testing.T) {
			if code, out := f.run(t, level, "python3 -c '"+perfProgram(`fd = l.syscall(298, attr, 0, -1, -1, 0)`)+"'"); code != 0 || !strings.Contains(out, "opened") {
				t.Errorf("a program could not sample itself at %s: exit %d: %s", level, code, out)
			}
		})
	}
}
