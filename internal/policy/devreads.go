package policy

import (
	"path"
	"strings"
)

// Files whose reading acts. Most device and kernel files read as files do,
// but for some an open or a read is an act on something else: a terminal
// or serial line hands the keys typed there (or a device's data) to
// whichever reader asks first, so cat /dev/pts/1 takes another login's
// keystrokes, sudo passwords included, and cat /dev/tty1 a console's;
// opening a serial line also raises and, on close, drops its modem lines,
// which resets many boards and hangs up modems. /dev/port reads I/O ports,
// which acknowledges and changes the hardware behind them and can hang the
// host; /proc/kmsg and the tracing trace_pipe files take what they show
// out of the buffer their owner (the system logger, a tracer) reads; a
// tape moves, and rewinds when a rewinding device is closed; a PCI
// device's whole configuration space, read as root, crashes some devices
// (lspci -xxx reads it, and is TierMutate for that). On this
// machine the kernel confinement holds tier 0 away from other terminals;
// on an SSH host only the classifier does, so a word naming one of these
// (relative after a cd into /dev, /proc or /sys too), given to a program
// that opens its operands or as a redirection, is TierMutate. Programs that act on a name without opening it (noOpen:
// ls, stat, echo …; statsOnly: udevadm info, lsof …) are left alone.

// readActs returns why opening the clean absolute path p to read acts on
// something else, or "".
func readActs(p string) string {
	switch {
	case ttyPath(p):
		return "reads a terminal or serial line: takes the keys or data its owner reads (and opening a serial line toggles its modem lines)"
	case p == "/dev/port" || p == "/dev/char/1:4":
		return "reads I/O ports, which acts on the hardware behind them"
	case p == "/proc/kmsg":
		return "takes the kernel's messages from the system logger that reads them"
	case (strings.HasPrefix(p, "/sys/kernel/tracing/") || strings.HasPrefix(p, "/sys/kernel/debug/tracing/")) &&
		(strings.HasSuffix(p, "/trace_pipe") || strings.HasSuffix(p, "/trace_pipe_raw")):
		return "takes the trace events it shows from the tracing buffer"
	case tapePath(p):
		return "moves the tape (and rewinds it when closed)"
	case capturePath(p):
		return "captures what a keyboard, mouse, microphone, camera or another login's screen gives (keys typed, passwords included)"
	case p == "/dev/mem" || p == "/dev/kmem" || p == "/proc/kcore" || p == "/dev/char/1:1" || p == "/dev/char/1:2":
		return "reads the machine's memory: every process's, warden's token included"
	case pciConfigPath(p):
		return "reads a PCI device's whole configuration space, as lspci -xxx does, which crashes some devices"
	}
	return procActs(p)
}

// pciConfigPath reports whether p is a PCI device's configuration space as
// the kernel exposes it: sysfs's config attribute (under /sys/bus/pci, the
// /sys/devices/pci… tree, or a class device's device link), which root
// reads whole, and procfs's /proc/bus/pci/BUS/DEV.FN. lspci reads the same
// files, and its manual warns that reading all of it crashes some devices.
func pciConfigPath(p string) bool {
	if rest, ok := strings.CutPrefix(p, "/proc/bus/pci/"); ok {
		return strings.Count(rest, "/") == 1
	}
	return strings.HasPrefix(p, "/sys/") && strings.HasSuffix(p, "/config") &&
		(strings.HasPrefix(p, "/sys/bus/pci/devices/") || strings.HasPrefix(p, "/sys/devices/pci") ||
			strings.HasSuffix(p, "/device/config"))
}

// capturePath reports whether p is an input device (evdev, the legacy
// mice, raw HID, major 13), a sound card's capture device (pcmC0D0c), a
// camera or video capture device, a virtual console's screen contents
// (vcs, vcsa, vcsu) or a framebuffer.
func capturePath(p string) bool {
	if strings.HasPrefix(p, "/dev/input/") || strings.HasPrefix(p, "/dev/v4l/") || strings.HasPrefix(p, "/dev/usb/hiddev") ||
		strings.HasPrefix(p, "/dev/char/13:") || strings.HasPrefix(p, "/dev/snd/pcm") && strings.HasSuffix(p, "c") {
		return true
	}
	if path.Dir(p) != "/dev" {
		return false
	}
	b := path.Base(p)
	for _, pre := range []string{"hidraw", "video", "vbi", "vcs", "fb", "dsp", "audio", "uhid"} {
		if strings.HasPrefix(b, pre) {
			return true
		}
	}
	return false
}

// procActs says why reading p, a file of another process under /proc,
// reads that process's secrets: its environment (warden's own holds
// WARDEN_TOKEN), its memory, or a file through one of its descriptors
// (warden's audit log among them), or returns "". The process is any but
// the reader's own (self, thread-self, $$): a number, $PPID (warden, or
// the runner that started the shell), a pattern.
func procActs(p string) string {
	rest, ok := strings.CutPrefix(p, "/proc/")
	if !ok {
		return ""
	}
	parts := strings.Split(rest, "/")
	pid := parts[0]
	switch {
	case pid == "self" || pid == "thread-self" || pid == "$$" || pid == "${$}" || pid == "$BASHPID" || pid == "${BASHPID}":
		return ""
	case strings.Trim(pid, "0123456789") != "" && !strings.ContainsAny(pid, "$`*?["):
		return "" // /proc/sys, /proc/net …: no process
	}
	parts = parts[1:]
	if len(parts) >= 3 && parts[0] == "task" {
		parts = parts[2:]
	}
	switch {
	case len(parts) == 1 && (parts[0] == "environ" || parts[0] == "mem"):
		return "reads another process's " + parts[0] + ", which may be warden's own (its token)"
	case len(parts) == 2 && (parts[0] == "fd" || parts[0] == "map_files"):
		return "opens a file through another process's descriptor, which may be warden's own (its audit log)"
	}
	return ""
}

// ttyPath reports whether p is a terminal other than the reader's own
// (/dev/tty): virtual consoles, the console, serial and USB serial lines,
// other pseudo-terminals, and their /dev/char links (majors 4 and 5:1,
// 136–143 for pseudo-terminals, 166 ttyACM, 188 ttyUSB, 204 low-density
// serial).
func ttyPath(p string) bool {
	switch {
	case p == "/dev/tty" || p == "/dev/pts" || p == "/dev/pts/ptmx":
		return false
	case p == "/dev/console" || strings.HasPrefix(p, "/dev/pts/") || strings.HasPrefix(p, "/dev/serial/") ||
		strings.HasPrefix(p, "/dev/vc/") || strings.HasPrefix(p, "/dev/tts/"):
		return true
	case path.Dir(p) == "/dev":
		b := path.Base(p)
		for _, pre := range []string{"tty", "hvc", "rfcomm", "ircomm", "cua", "cu."} {
			if strings.HasPrefix(b, pre) {
				return true
			}
		}
		return false
	}
	n, ok := strings.CutPrefix(p, "/dev/char/")
	if !ok {
		return false
	}
	major, minor, _ := strings.Cut(n, ":")
	switch major {
	case "4", "136", "137", "138", "139", "140", "141", "142", "143", "166", "188", "204":
		return true
	case "5":
		return minor == "1"
	}
	return false
}

// tapePath reports whether p is a SCSI tape (st, nst and their mode
// variants, /dev/tape/…) or its /dev/char link (major 9).
func tapePath(p string) bool {
	if strings.HasPrefix(p, "/dev/tape/") || strings.HasPrefix(p, "/dev/char/9:") {
		return true
	}
	if path.Dir(p) != "/dev" {
		return false
	}
	b := path.Base(p)
	for _, pre := range []string{"nst", "st"} {
		if rest, ok := strings.CutPrefix(b, pre); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
			return true
		}
	}
	return false
}

// readActsSamples are names of each kind readActs knows, for matching a
// pattern (cat /dev/ttyUSB*, cat /dev/pts/[0-9]) against.
var readActsSamples = []string{"/dev/tty1", "/dev/ttyS0", "/dev/ttyUSB0", "/dev/ttyACM0", "/dev/ttyAMA0",
	"/dev/console", "/dev/pts/0", "/dev/pts/10", "/dev/hvc0", "/dev/serial/by-id/usb-x", "/dev/port",
	"/proc/kmsg", "/sys/kernel/tracing/trace_pipe", "/sys/kernel/debug/tracing/trace_pipe",
	"/sys/kernel/tracing/per_cpu/cpu0/trace_pipe_raw", "/dev/st0", "/dev/nst0", "/dev/tape/by-id/x",
	"/dev/input/event0", "/dev/input/by-id/usb-kbd-event-kbd", "/dev/input/mice", "/dev/hidraw0", "/dev/usb/hiddev0",
	"/dev/snd/pcmC0D0c", "/dev/video0", "/dev/vcs1", "/dev/vcsa1", "/dev/fb0", "/dev/mem", "/dev/kmem", "/proc/kcore",
	"/proc/1/environ", "/proc/1/mem", "/proc/1/fd/3", "/proc/1/task/1/environ"}

// pciConfigSamples are PCI configuration spaces for matching an absolute
// pattern against (cat /sys/bus/pci/devices/*/config). They are not among
// readActsSamples, whose components are matched against relative words
// from an unknown directory too: every project has a file named config.
var pciConfigSamples = []string{"/sys/bus/pci/devices/0000:00:00.0/config",
	"/sys/devices/pci0000:00/0000:00:00.0/config", "/proc/bus/pci/00/00.0"}

// deviceReadAbs is deviceRead for the absolute names in a word.
func (e *eval) deviceReadAbs(a arg, ctx cctx) {
	v := a.val
	glob := a.glob || !a.known
	if !strings.Contains(v, "/") || !strings.Contains(v, "/dev") && !strings.Contains(v, "/proc") && !strings.Contains(v, "kmsg") &&
		!strings.Contains(v, "trace_pipe") && !strings.Contains(v, "/config") && !(glob && globChar(v)) {
		return // cannot name one: no allocation on every word of every command
	}
	if !a.known {
		v = extGlob.ReplaceAllString(unquotedPattern(v), "*")
	}
	fields := strings.FieldsFunc(v, pathSep)
	if strings.Contains(v, "/dev/char/") || strings.Contains(v, "/config") {
		// /dev/char/4:1 and a PCI address (0000:00:1f.0) have the colon
		// that separates host:/path.
		fields = append(fields, strings.FieldsFunc(v, func(r rune) bool { return r != ':' && pathSep(r) })...)
	}
	for _, f := range fields {
		if i := strings.IndexByte(f, '/'); i > 0 && f[0] == '-' {
			f = f[i:] // -o/path
		}
		if f == "" || f[0] != '/' {
			continue
		}
		if why := readActs(path.Clean(f)); why != "" {
			e.note(TierMutate, ctx.covered, "%s %s", truncate(f, 96), why)
			return
		}
		if !glob || !globChar(f) {
			continue
		}
		for _, samples := range [][]string{readActsSamples, pciConfigSamples} {
			for _, s := range samples {
				if ok, _ := shellMatch(f, s); ok {
					e.note(TierMutate, ctx.covered, "%s may name %s, which %s", truncate(f, 96), s, readActs(s))
					return
				}
			}
		}
	}
}

// statsOnly are inspection programs that look a device up by its name
// (its number, holders, ACL) without opening it.
var statsOnly = set(`udevadm fuser lsof namei file getfacl journalctl`)

// deviceReads checks the operands of one command for files whose reading
// acts, unless the program acts on names without opening them.
func (e *eval) deviceReads(args []arg, ctx cctx) {
	if len(args) < 2 || args[0].known && (noOpen[path.Base(args[0].val)] || statsOnly[path.Base(args[0].val)]) {
		return
	}
	for _, a := range args[1:] {
		e.deviceRead(a, ctx)
	}
}

// unquotedPattern turns the source text of a word known only at run time
// into a pattern of the names it may take: each command substitution
// ($(…), `…`, $((…))) is any text, "*", and quotes are removed, so that
// /proc/$(pgrep warden)/environ and /proc/"$p"/environ read as
// /proc/*/environ and /proc/$p/environ rather than as the pieces between
// their blanks and quotes.
func unquotedPattern(v string) string {
	if !strings.ContainsAny(v, "`'\"(") {
		return v
	}
	return strings.NewReplacer(`"`, "", "'", "").Replace(replaceSubsts(v, "*"))
}
