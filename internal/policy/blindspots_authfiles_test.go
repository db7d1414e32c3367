package policy

import "testing"

// TestBlindSpotRegistryAuthFiles: podman search (and manifest inspect)
// reads the auth file --authfile names, or the directory podman's hidden
// --config names as docker's, and runs the docker-credential-* program
// its credHelpers or credsStore name. One a tier 1 call can write, in any
// spelling of the option or the place, is tier 3; the operator's stays a
// read.
func TestBlindSpotRegistryAuthFiles(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"podman search --authfile /tmp/a x",
		"podman search --authfile=/tmp/a x",
		"podman --authfile /tmp/a search x",
		"podman image search --authfile /tmp/a x",
		"podman manifest inspect --authfile /tmp/a quay.io/x",
		"podman --config /tmp/d search x",
		"podman --config=/tmp/d search x",
		"podman --config /tmp search x",
		"podman --config /dev/shm search x",
		"podman search --authfile $F x",
		"podman search --authfile /tmp/*/a x",
		"cd /tmp && podman search --authfile a x",
		"sudo podman search --authfile=/var/tmp/a x",
	))
	runExactHosts(t, p, []exactCase{
		{"search", "podman search x", TierRead},
		{"operator's auth file", "podman search --authfile /etc/containers/auth.json x", TierRead},
		{"operator's config", "podman --config /srv/d search x", TierRead},
		{"ps", "podman ps", TierRead},
	})
}
