package policy

import "testing"

// TestBlindSpotTerraformBackendReads: terraform output, state list,
// providers and workspace list start no provider but configure the
// project's backend, which runs programs (the kubernetes backend's exec
// block, an s3 backend profile's credential_process). Pointed by -chdir at
// a directory a tier 1 call can fill, in any spelling of the directory
// and behind any wrapper, they run what the agent wrote.
func TestBlindSpotTerraformBackendReads(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"terraform -chdir=/tmp/x output",
		"terraform -chdir=/tmp/x output -json",
		"tofu -chdir=/tmp/x output",
		"terraform -chdir=/tmp/x state list",
		"terraform -chdir=/tmp/x providers",
		"terraform -chdir=/tmp/x workspace list",
		"terraform -chdir=/var/tmp/x output",
		"terraform -chdir=/dev/shm/x state list",
		"terraform -chdir=/tmp/* output",
		"terraform -chdir=../../tmp/x output",
		"terraform '-chdir=/tmp/x' output",
		"terraform -chdir=/tmp/x -- output",
		"cd /tmp && terraform -chdir=x output",
		"env -C /srv terraform -chdir=../tmp/x output",
		"sudo terraform -chdir=/tmp/x output",
		"timeout 5 terraform -chdir=/tmp/x output",
		"command terraform -chdir=/tmp/x providers",
		"/usr/bin/tofu -chdir=/tmp/x workspace list",
		"terraform -chdir=$D output",
	))
	runExactHosts(t, p, []exactCase{
		{"output", "terraform output", TierRead},
		{"state list", "terraform state list", TierRead},
		{"operator's project", "terraform -chdir=/srv/infra output", TierRead},
		{"operator's state list", "tofu -chdir=/srv/infra state list", TierRead},
		{"workspace show", "terraform -chdir=/tmp/x workspace show", TierRead},
		{"version", "terraform -chdir=/tmp/x version", TierRead},
	})
}
