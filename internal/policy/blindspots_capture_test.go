package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotCaptureAndMemoryReads: reading an input device captures
// every key typed on the host (passwords included), a capture device
// records the microphone or camera, a virtual console's vcs file or a
// framebuffer shows another login's screen; /dev/mem, /dev/kmem and
// /proc/kcore are the machine's memory, and another process's environ,
// mem or descriptors (fd/N, map_files) may be warden's own: its token in
// its environment, its audit log open on a descriptor. Each read is at
// least tier 2 in every spelling that opens it, as a terminal's is.
func TestBlindSpotCaptureAndMemoryReads(t *testing.T) {
	p := testPolicy(t)
	files := []string{
		"/dev/input/event0", "/dev/input/event12", "/dev/input/mice", "/dev/input/mouse0", "/dev/input/js0",
		"/dev/input/by-id/usb-Logitech_USB_Keyboard-event-kbd", "/dev/input/by-path/platform-i8042-serio-0-event-kbd",
		"/dev/hidraw0", "/dev/usb/hiddev0", "/dev/char/13:64", "/dev/snd/pcmC0D0c", "/dev/snd/pcmC1D2c",
		"/dev/video0", "/dev/v4l/by-id/usb-cam-video-index0", "/dev/vbi0", "/dev/dsp", "/dev/audio",
		"/dev/vcs", "/dev/vcs1", "/dev/vcsa2", "/dev/vcsu1", "/dev/fb0",
		"/dev/mem", "/dev/kmem", "/proc/kcore", "/dev/char/1:1",
		"/proc/1/environ", "/proc/1234/mem", "/proc/$PPID/environ", "/proc/${PPID}/environ", "/proc/*/environ",
		"/proc/[0-9]*/environ", "/proc/1/task/1/environ", "/proc/$PPID/task/*/mem", "/proc/$PPID/fd/3",
		"/proc/1/fd/0", "/proc/*/fd/*", "/proc/1/map_files/7f0000-7f1000",
		"//dev/./input/../input/event0", "/dev//hidraw0", "/proc/../proc/1/environ", "/proc//1/environ",
	}
	forms := []string{
		"cat %s", "head -c 64 %s", "tail -f %s", "od -c %s", "xxd %s", "hexdump -C %s", "strings %s",
		"grep -a x %s", "dd if=%s of=/dev/null count=1", "cat < %s", "read -r l < %s",
		"exec 3<%s", "sudo cat %s", "sh -c 'cat %s'", "timeout 5 cat %s", "x=%s; cat \"$x\"",
		"tr '\\0' '\\n' < %s", "base64 %s", "cp %s /tmp/x", "ssh h cat %s",
	}
	var cmds []string
	for _, f := range files {
		for _, form := range forms {
			if strings.HasPrefix(form, "x=") && strings.Contains(f, "$") {
				continue // a value known only in part is not tried at "$x"
			}
			cmds = append(cmds, strings.ReplaceAll(form, "%s", f))
		}
	}
	cmds = append(cmds, "cat /dev/inp*/event0", "cat /dev/input/ev*", "cat /dev/hidraw?", "cat /dev/vcs[0-9]",
		"cd /dev/input && cat event0", "cd /dev && cat input/mice", "cd /proc/1 && cat environ",
		"cd /proc && cat 1/environ", "cat /dev/vid*")
	runBlindHosts(t, p, sameCases(TierMutate, false, cmds...))

	runExact(t, p, []exactCase{
		{"own environ", "cat /proc/self/environ", TierRead},
		{"own environ $$", "cat /proc/$$/environ", TierRead},
		{"own fd", "cat /proc/self/fd/0", TierRead},
		{"status", "cat /proc/1/status", TierRead},
		{"cmdline", "cat /proc/1/cmdline", TierRead},
		{"maps", "cat /proc/1/maps", TierRead},
		{"list fds", "ls -l /proc/1/fd", TierRead},
		{"readlink fd", "readlink /proc/1/fd/3", TierRead},
		{"sysctl", "cat /proc/sys/kernel/hostname", TierRead},
		{"net dev", "cat /proc/net/dev", TierRead},
		{"ls input", "ls -l /dev/input", TierRead},
		{"stat input", "stat /dev/input/event0", TierRead},
		{"udevadm", "udevadm info /dev/input/event0", TierRead},
		{"lsof video", "lsof /dev/video0", TierRead},
		{"meminfo", "cat /proc/meminfo", TierRead},
	})
}
