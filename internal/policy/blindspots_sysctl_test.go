package policy

import "testing"

// TestBlindSpotKernelProgramsUnseen: a kernel parameter can name a program
// the kernel runs as root (core_pattern with a pipe, modprobe,
// poweroff_cmd, hotplug, a binfmt_misc interpreter), which sysctl spelled
// out was already tier 3. Not spelled out it was tier 2, which open mode
// admits: a key or a value computed at run time, a file of parameters
// loaded from a place a tier 1 write fills (a temporary directory, its
// input, a descriptor, a name known only at run time), systemd-sysctl
// given such a file, and update-binfmts registering an interpreter.
func TestBlindSpotKernelProgramsUnseen(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sysctl -p /tmp/x.conf`,
		`sysctl -p/tmp/x.conf`,
		`sysctl -qp /tmp/x.conf`,
		`sysctl -q -p /var/tmp/k`,
		`sysctl --load=/tmp/x.conf`,
		`sysctl --load /dev/shm/x`,
		`sysctl -f /tmp/x`,
		`sysctl -p /etc/sysctl.conf /tmp/x`,
		`sysctl -p "$f"`,
		`sysctl -p "$(mktemp)"`,
		`sysctl -p <(echo kernel.modprobe=/tmp/x)`,
		`echo 'kernel.core_pattern=|/tmp/x' | sysctl -p -`,
		`sysctl -p /dev/stdin <<< 'kernel.modprobe=/tmp/x'`,
		`sysctl -p /dev/fd/3 3< /tmp/x`,
		`sysctl -p /proc/self/fd/0 < /tmp/x`,
		`cd /tmp && sysctl -p x.conf`,
		`systemd-sysctl /tmp/x.conf`,
		`systemd-sysctl "$f"`,
		`/lib/systemd/systemd-sysctl /var/tmp/99.conf`,
		`sysctl -w "$k=$v"`,
		`sysctl "$kv"`,
		`sysctl -w "kernel.core_pattern=$v"`,
		`sysctl -w kernel.core_pattern="$v"`,
		`sysctl kernel.modprobe="$(cat /tmp/p)"`,
		`sysctl -w "kernel/poweroff_cmd=$p"`,
		`sysctl 'kernel.hotplug'="$h"`,
		`sysctl fs.binfmt_misc.register=':x:E::x::/tmp/i:'`,
		`update-binfmts --install x /tmp/i --extension x`,
		`update-binfmts --package p --install x /tmp/i --magic 1`,
		`update-binfmts --import`,
		`update-binfmts --import /tmp/fmt`,
	))
	runExactHosts(t, p, []exactCase{
		{"read all", `sysctl -a`, TierRead},
		{"read key", `sysctl net.ipv4.ip_forward`, TierRead},
		{"read pattern", `sysctl -r '^kernel' -a`, TierRead},
		{"write known", `sysctl -w net.ipv4.ip_forward=1`, TierMutate},
		{"write computed value", `sysctl -w "net.ipv4.ip_forward=$v"`, TierMutate},
		{"load system", `sysctl --system`, TierMutate},
		{"load default", `sysctl -p`, TierMutate},
		{"systemd-sysctl", `systemd-sysctl`, TierMutate},
		{"systemd-sysctl name", `systemd-sysctl 99-forward.conf`, TierMutate},
		{"binfmt display", `update-binfmts --display`, TierRead},
		{"binfmt find", `update-binfmts --find /bin/ls`, TierRead},
		{"binfmt disable", `update-binfmts --disable x`, TierMutate},
	})
}
