package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotDeviceReads: reading another terminal or a serial line
// takes the keys or data its owner reads (cat /dev/pts/1 collects another
// login's typed passwords; opening a serial line toggles its modem lines),
// reading /dev/port acts on the hardware, /proc/kmsg and trace_pipe take
// what they show from their owner's buffer, and a tape moves. On an SSH
// host nothing but the classifier holds a tier 0 read away from them, so
// each is at least tier 2 in every spelling that opens it.
func TestBlindSpotDeviceReads(t *testing.T) {
	p := testPolicy(t)
	files := []string{
		"/dev/pts/1", "/dev/pts/12", "/dev/tty1", "/dev/tty0", "/dev/tty63", "/dev/console", "/dev/ttyS0",
		"/dev/ttyUSB0", "/dev/ttyACM0", "/dev/ttyAMA0", "/dev/ttymxc1", "/dev/hvc0", "/dev/rfcomm0",
		"/dev/serial/by-id/usb-FTDI_FT232R-if00-port0", "/dev/serial/by-path/pci-0000:00:14.0-usb-0:1:1.0-port0",
		"/dev/char/4:1", "/dev/char/4:64", "/dev/char/136:0", "/dev/char/188:0", "/dev/char/166:0", "/dev/char/5:1",
		"/dev/port", "/dev/char/1:4", "/proc/kmsg", "/sys/kernel/tracing/trace_pipe",
		"/sys/kernel/debug/tracing/trace_pipe", "/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw",
		"/dev/st0", "/dev/nst0", "/dev/st0a", "/dev/nst1l", "/dev/tape/by-id/scsi-1", "/dev/char/9:128",
		"//dev/./pts/../pts/1", "/dev//ttyS0", "/proc/../proc/kmsg",
	}
	forms := []string{
		"cat %s", "head -c 64 %s", "tail -f %s", "od -c %s", "xxd %s", "hexdump -C %s", "strings %s",
		"grep -a x %s", "wc -c %s", "dd if=%s of=/dev/null count=1", "cat < %s", "read -r l < %s",
		"exec 3<%s", "while read -r l; do echo \"$l\"; done < %s", "sudo cat %s", "sh -c 'cat %s'",
		"timeout 5 cat %s", "x=%s; cat \"$x\"", "cat $(echo %s)", "tee /dev/null < %s",
		"less %s", "cp %s /dev/null",
	}
	var cases []blindCase
	for _, f := range files {
		for _, form := range forms {
			c := strings.ReplaceAll(form, "%s", f)
			cases = append(cases, blindCase{c, c, TierMutate, false})
		}
	}
	// Patterns and partly known names that can be one of them.
	cases = append(cases, sameCases(TierMutate, false,
		"cat /dev/pts/*", "cat /dev/pts/[0-9]", "cat /dev/tty[1-6]", "cat /dev/ttyUSB*", "cat /dev/tty?",
		"head -c1 /dev/ttyS$N", "cat /dev/pts/$P", "cat /dev/serial/by-id/*", "cat /sys/kernel/tracing/*pipe",
		"cat /sys/kernel/tracing/per_cpu/cpu*/trace_pipe_raw", "cat /dev/{tty1,null}", "cat /dev/n?t0",
		// Relative names after a cd.
		"cd /dev/pts && cat 1", "cd /dev; head -c1 ttyS0", "cd /dev && cat < ttyUSB0", "cd /proc; cat kmsg",
		"cd /sys/kernel/tracing && cat trace_pipe", "cd /dev; cd pts; cat 3", "cd /dev && cat tty*",
	)...)
	runBlind(t, p, cases)

	// What stays a read: the caller's own terminal, names looked at and
	// not opened, other device files, and the tracing files that do not
	// consume.
	var exact []exactCase
	for _, c := range []string{
		"cat /dev/tty", "echo hi > /dev/tty", "cat /dev/null", "ls -l /dev/ttyUSB*", "ls /dev/pts",
		"stat /dev/ttyS0", "echo /dev/ttyS0", "udevadm info -a -n /dev/ttyUSB0", "lsof /dev/ttyS0",
		"fuser /dev/ttyACM0", "file /dev/ttyS0", "dmesg | grep tty", "tty", "who", "find /dev -name 'tty*'",
		"ls -la /dev/", "head -c 16 /dev/urandom", "cat /sys/kernel/tracing/trace", "journalctl -k",
		"cat /sys/class/tty/ttyS0/type", "cat /proc/tty/drivers", "readlink -f /dev/serial/by-id/x",
		"ls /dev/tape/by-id", "stty -a", "cat /dev/stdin", "cat /dev/stderr",
		"cd /dev && ls -l tty*", "cd /proc && cat cpuinfo", "cd /tmp && cat ttyS0.log", "cd /dev/pts && ls",
	} {
		exact = append(exact, exactCase{c, c, TierRead})
	}
	runExact(t, p, exact)
}

// TestCdTargetsStayFew: a script that cds to the same places over and over
// keeps each absolute target once, so every relative word after them is
// checked against a few directories rather than against every cd so far;
// and a relative device read after them is still found.
func TestCdTargetsStayFew(t *testing.T) {
	p := testPolicy(t)
	var b strings.Builder
	for range 2000 {
		b.WriteString("cd /srv/app && ls x\ncd /var/log; cat y\n")
	}
	e := newEval(p)
	e.input(&Input{Interpreter: "bash", Script: b.String()})
	if e.paths == nil || len(e.paths.cds) != 2 {
		t.Fatalf("cd targets kept: %d, want 2", len(e.paths.cds))
	}
	b.WriteString("cd /dev/pts && cat 1\n")
	if v := p.Evaluate(Input{Interpreter: "bash", Script: b.String()}); v.Tier < TierMutate {
		t.Fatalf("relative read of a terminal after many cds: %v", v)
	}
}
