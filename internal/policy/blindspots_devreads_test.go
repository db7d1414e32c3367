package policy

import (
	"fmt"
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

// TestBlindSpotDeviceReadsFromUnknownDirs: a relative name of a terminal,
// another process's environment or a capture device, read from a
// directory the classifier cannot name (a computed cd, a cd that climbs
// from an unknown start, a host whose starting directory is unknown), is
// read as it is for warden's own paths: the name's components are placed
// where they stand in such a file. One component alone from an unknown
// directory (cd "$d" && cat 1) stays a read, as cat file does.
func TestBlindSpotDeviceReadsFromUnknownDirs(t *testing.T) {
	p := protectedPolicy(t)
	cases := sameCases(TierMutate, false,
		`cd "$D"; cat pts/1`, `cd "$D" && head -c1 pts/12`, `read -r D; cd "$D"; cat pts/1`, `cd $(cat f); cat pts/3`,
		`cd "$D"; cat 1/environ`, `cd "$D"; cat 4242/environ`, `cd "$D"; cat 1/task/1/environ`, `cd "$D"; cat 77/mem`,
		`cd "$D"; cat input/event0`, `cd "$D"; cat input/by-id/usb-kbd-event-kbd`, `cd "$D"; cat snd/pcmC0D0c`,
		`cd "$D"; cat tracing/trace_pipe`, `cd "$D"; cat kernel/tracing/trace_pipe`, `cd "$D"; cat serial/by-id/x`,
		`cd "$D"; cat pts/[0-9]`, `cd "$D"; cat pts/*`, `cd "$D"; cat [0-9]*/environ`, `cd ~someone; cat pts/1`,
		`cd ../../dev/pts; cat 1`, `cd ..; cd ..; cd dev; cat pts/3`, `cd ../../proc; cat 1/environ`,
		`cat ../../dev/pts/1`, `cat ../../../proc/1/environ`, `cat ../ttyS0`, `cd pts; cat 1`, `cat pts/1`,
		`cd "$D"; dd if=pts/1 of=/dev/null count=1`, `cd "$D"; grep -a x pts/1`, `cd "$D"; cat ./pts/1`,
	)
	runBlindHosts(t, p, cases)

	var exact []exactCase
	for _, c := range []string{
		`cd "$D"; cat 1`, `cd "$D" && cat README docs/x.md`, `cat a/b/c`,
		`cd "$D"; cat self/environ`, `cd "$D"; ls pts/1`, `cd "$D"; stat pts/1`, `git -C sub status`,
	} {
		exact = append(exact, exactCase{c, c, TierRead})
	}
	runExact(t, p, exact)
}

// TestDeviceReadsAcrossPieces: a large script is walked in pieces, and a
// cd in one piece makes a relative name in another a device.
func TestDeviceReadsAcrossPieces(t *testing.T) {
	p := protectedPolicy(t)
	filler := strings.Repeat("cd /srv/a; ls -la /var/log\n", 12000)
	for _, s := range []string{
		"cd /dev/pts\n" + filler + "cat 1\n",
		"cd \"$D\"\n" + filler + "cat pts/1\n",
		"cd /proc\n" + filler + "cat 1/environ\n",
	} {
		if len(s) < 2*pieceMin {
			t.Fatalf("script of %d bytes is not walked in pieces", len(s))
		}
		for _, h := range []string{"", "nas"} {
			if v := p.Evaluate(Input{Interpreter: "bash", Script: s, Host: h}); v.Tier < TierMutate {
				t.Errorf("host %q: %.40q…: %v", h, s, v)
			}
		}
	}
}

// TestCdTargetsStayFew: a script that cds to the same places over and over
// keeps each absolute target once, so every relative word after them is
// checked against a few directories rather than against every cd so far;
// and a relative device read after them is still found. Past maxCds
// targets the working directory is unknown and relative names are
// unresolved.
func TestCdTargetsStayFew(t *testing.T) {
	p := testPolicy(t)
	var b strings.Builder
	for range 2000 {
		b.WriteString("cd /srv/app && ls x\ncd /var/log; cat y\ncd .; cd ./; cd a/..\n")
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
	b.Reset()
	for i := range maxCds + 1 {
		fmt.Fprintf(&b, "cd /srv/d%d; cat f\n", i)
	}
	if v := p.Evaluate(Input{Interpreter: "bash", Script: b.String()}); v.Tier < unresolvedTier || !strings.Contains(v.Reason, "too many cd targets") {
		t.Fatalf("relative reads after %d cd targets: %v", maxCds+1, v)
	}
}

// TestDeviceReadsPastTheWordCap: past maxRelWords relative names the
// names are no longer all kept, and a terminal read after a cd into
// /dev/pts is not lost: the input's relative paths are unresolved.
func TestDeviceReadsPastTheWordCap(t *testing.T) {
	p := protectedPolicy(t)
	var b strings.Builder
	for i := range maxRelWords + 10 {
		fmt.Fprintf(&b, "cat f%d\n", i)
	}
	b.WriteString("cd /dev/pts; cat 1\n")
	for _, h := range []string{"", "nas"} {
		if v := p.Evaluate(Input{Interpreter: "bash", Script: b.String(), Host: h}); v.Tier < TierMutate {
			t.Errorf("host %q: a terminal read after %d relative names: %v", h, maxRelWords+10, v)
		}
	}
}
