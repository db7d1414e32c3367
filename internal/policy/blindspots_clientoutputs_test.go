package policy

import "testing"

// TestBlindSpotClientOutputFiles: podman --out sends what any command
// prints to a file, and podman's and crictl's profiling options write a
// profile, in every spelling their parsers take.
func TestBlindSpotClientOutputFiles(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"podman --out /tmp/x ps",
		"podman --out=/tmp/x ps",
		"podman --out=/srv/report images",
		"podman pod --out /tmp/x ps",
		"podman ps --out /tmp/x",
		"podman --cpu-profile /tmp/x ps",
		"podman --cpu-profile=/tmp/x info",
		"podman --memory-profile=/tmp/x version",
		"sudo podman --out /root/x ps",
		"crictl --profile-cpu /tmp/x ps",
		"crictl --profile-cpu=/tmp/x ps",
		"crictl -profile-cpu /tmp/x images",
		"crictl -profile-mem=/tmp/x pods",
		"crictl --profile-mem /tmp/x info",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"podman --out /etc/passwd ps",
		"crictl --profile-cpu=/etc/shadow ps",
	))
	runExactHosts(t, p, []exactCase{
		{"podman ps --format", "podman ps --format json", TierRead},
		{"podman -r ps", "podman -r ps -a", TierRead},
		{"crictl ps -o", "crictl ps -o json", TierRead},
		{"crictl -D stats", "crictl -D stats", TierRead},
	})
}
