package policy

import (
	"strings"
	"testing"
)

// TestUnknownProgramArguments checks that an unknown program whose
// arguments hold a denied or tier-3 command is tier 3, for a person to
// judge, and not denied; and that one whose arguments hold nothing worse
// stays an unknown program at tier 2.
func TestUnknownProgramArguments(t *testing.T) {
	p := testPolicy(t)
	for _, c := range []string{
		"ctxrun -t x rm -rf /", "chrootctl -c x -- rm -rf /", "boxctl enter box -- reboot",
		"imgrun exec img rm -rf /", "jailrun -Mo -- /bin/rm -rf /", "boxjail0 -- /sbin/reboot",
		"host-spawn reboot", "devshell run poweroff", "foo sudo reboot", "foo -- env X=1 halt",
		"foo mkfs.ext4 /dev/sda", "foo dd if=/dev/zero of=/dev/sda", "foo python3 -c 1", "foo sh -c 'rm -rf /srv'",
		"foo rm -rf build", "foo a b c d e f g h i j k l m n o p q r s t u v w x y z reboot",
		"/opt/x/bin/foo run /usr/sbin/shutdown -h now", "./deploy.sh staging reboot",
		"foo " + strings.Repeat("ls ", maxArgCommands+1),
		// The same cap holds for options whose values are programs.
		"foo " + strings.Repeat("--exec=ls ", maxArgCommands+1),
		// Every argument is tried, not only the first that names a
		// program: an option's value can be any word (ctxrun -t ls CMD).
		"ctxrun -t ls rm -rf /", "foo echo reboot",
		// A whole command line in one argument, or in an option's value.
		"foo 'reboot now'", `foo "systemctl reboot"`, "foo 'rm -rf /srv'", "foo --cmd='rm -rf /srv'",
		"foo -c 'sh -c \"reboot\"'", "foo run 'cd / && rm -rf *'", "foo $'reboot\\n'",
		"foo 'X=1 halt -f'", "foo '(poweroff)'", "foo 'true; mkfs.ext4 /dev/sda'",
		"./hook.sh --exec=\"python3 -c 'import os'\"", "foo 'echo $(reboot)'",
	} {
		v := p.Evaluate(cmd(c))
		if v.Tier != TierDestructive || v.Denied || !strings.Contains(v.Reason, "unknown program") {
			t.Errorf("%q: %+v; want tier 3, not denied, naming the unknown program", c, v)
		}
	}
	for _, c := range []string{
		"./deploy.sh staging", "mytool --grep error /var/log/syslog", "mytool ls /etc", "mytool a b c",
		"foo --name=reboot", "foo -- true", "foo $x reboot2", "foo echo hi",
		// Command lines that do no harm, prose, and text that does not
		// parse stay an unknown program.
		"foo 'ls -la /etc'", "foo --cmd='df -h'", "notify 'backup finished at 03:00'",
		"foo 'it'\"'\"'s (broken'", "foo 'a b' 'c d' --x='e f'",
	} {
		if v := p.Evaluate(cmd(c)); v.Tier != TierMutate || v.Denied || !strings.HasPrefix(v.Reason, "unknown program") {
			t.Errorf("%q: %+v; want an unknown program at tier 2", c, v)
		}
	}
}

// TestUnknownProgramGivenADevice: an unknown program given a block device,
// raw memory or a kernel trigger file, as an operand or as an option's
// value in any spelling, may write it (turbostat --out, hwinfo --log): tier
// 3, on every host. Character devices a program may print to stay tier 2.
func TestUnknownProgramGivenADevice(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"turbostat --out /dev/sda",
		"hwinfo --log=/dev/sda",
		"powertop --html=/dev/nvme0n1",
		"qrencode -o/dev/sda x",
		"tidy -o /dev/mmcblk0 x.html",
		"frobnicate /dev/sdb1",
		"frobnicate --target /dev/disk/by-id/ata-x",
		"frobnicate /dev/mapper/vg-root",
		"frobnicate /dev/vg0/data",
		"frobnicate /dev/sd?",
		"frobnicate --pattern-file=/proc/sys/kernel/core_pattern",
		"frobnicate /dev/mem",
		"frobnicate --helper /proc/sys/kernel/modprobe",
		"./tool.sh /dev//sda",
	))
	runExactHosts(t, p, []exactCase{
		{"null", "frobnicate /dev/null", TierMutate},
		{"tty", "frobnicate /dev/tty", TierMutate},
		{"stderr", "frobnicate --log=/dev/stderr", TierMutate},
		{"a file", "frobnicate -o /tmp/out.html", TierMutate},
		{"proc info", "frobnicate /proc/cpuinfo", TierMutate},
	})
}
