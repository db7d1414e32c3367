package policy

import "testing"

// TestBlindSpotHelmRegistryConfig: helm's --registry-config names the
// registry credentials whose credHelpers and credsStore name the
// docker-credential-* program helm runs to reach an oci:// chart, as
// HELM_REGISTRY_CONFIG does. One a tier 1 call can write, in either
// spelling, relative after cd or computed, is tier 3; the operator's
// stays a read.
func TestBlindSpotHelmRegistryConfig(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"helm show values oci://r.io/c --registry-config /tmp/r",
		"helm show chart oci://r.io/c --registry-config=/tmp/r",
		"helm template x oci://r.io/c --registry-config /tmp/r",
		"helm --registry-config /var/tmp/r show readme oci://r.io/c",
		"helm show values oci://r.io/c --registry-config $R",
		"cd /tmp && helm show values oci://r.io/c --registry-config r.json",
		"sudo helm show all oci://r.io/c --registry-config=/dev/shm/r",
	))
	runExactHosts(t, p, []exactCase{
		{"show values", "helm show values oci://r.io/c", TierRead},
		{"operator's registry config", "helm show values oci://r.io/c --registry-config /root/.config/helm/registry/config.json", TierRead},
	})
}
