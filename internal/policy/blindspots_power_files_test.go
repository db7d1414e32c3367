package policy

import "testing"

// TestBlindSpotSleepStates: writing /sys/power/state suspends or
// hibernates the machine, which then answers nobody until woken: denied
// like systemctl suspend and /proc/sysrq-trigger, in every spelling of
// the write (redirections, tee, dd, cp, install, socat, a cd before a
// relative name, patterns, variables, loops, shells, interpreter
// payloads), and so are the programs that only sleep the machine
// (systemd-sleep, uswsusp's s2ram/s2disk, the hibernate script, zzz).
// Reading the file and writing the other power settings are not denied.
func TestBlindSpotSleepStates(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo mem > /sys/power/state", "echo -n disk > /sys/power/state", "printf freeze > /sys/power/state",
		"echo mem >> /sys/power/state", "echo mem 1>/sys/power/state", "echo mem | tee /sys/power/state",
		"tee /sys/power/state <<< mem", "echo mem | tee -a /sys/power/state", "echo mem | dd of=/sys/power/state",
		"cp /tmp/x /sys/power/state", "install /tmp/x /sys/power/state", "cd /sys/power && echo mem > state",
		"cd /sys/power; echo mem > ./state", "cd /sys; echo mem > power/state", "echo mem > /sys/power/../power/state",
		"echo mem > /sys//power/state", "echo mem > /sys/./power/state", "echo mem > /sys/p?wer/state",
		"echo mem > /sys/power/st*", "echo mem > /sys/power/stat[e]", "sh -c 'echo mem > /sys/power/state'",
		"sudo sh -c 'echo mem > /sys/power/state'", "echo mem | sudo tee /sys/power/state",
		"f=/sys/power/state; echo mem > $f", `for f in /sys/power/state; do echo mem > "$f"; done`,
		"busybox tee /sys/power/state <<< mem", "socat - OPEN:/sys/power/state <<< mem",
		`python3 -c 'open("/sys/power/state","w").write("mem")'`, `perl -e 'open F, ">/sys/power/state"'`,
		`awk 'BEGIN{print "mem" > "/sys/power/state"}'`, "systemd-sleep suspend", "/usr/lib/systemd/systemd-sleep hibernate",
		"/lib/systemd/systemd-sleep hybrid-sleep", "s2ram", "s2disk", "s2both", "hibernate", "hibernate-ram", "zzz", "ZZZ",
		"sudo zzz", "busybox sh -c 'echo mem > /sys/power/state'",
	))
	runExactHosts(t, p, []exactCase{
		{"read state", "cat /sys/power/state", TierRead},
		{"read mem_sleep", "cat /sys/power/mem_sleep", TierRead},
		{"grep power", "grep . /sys/power/state /sys/power/disk", TierRead},
		{"a file named state", "echo x > state", TierMutate},
		{"zzz as a word", "echo zzz", TierRead},
	})
}
