package policy

import "testing"

// TestBlindSpotHomebrewEnv: brew keeps every HOMEBREW_* variable and reads
// them on every command, brew list included: the git and curl it runs,
// its editor and browser, the bootsnap cache of compiled Ruby it loads.
// Only the HOMEBREW_NO_* switches stay reads.
func TestBlindSpotHomebrewEnv(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"HOMEBREW_GIT_PATH=/tmp/x brew list",
		"HOMEBREW_CURL_PATH=/tmp/x brew info x",
		"HOMEBREW_CACHE=/tmp/c brew list",
		"HOMEBREW_RUBY_PATH=/tmp/x brew --version",
		"export HOMEBREW_CURL_PATH=/tmp/x; brew info x",
		"env HOMEBREW_BOOTSNAP=1 HOMEBREW_CACHE=/tmp/c brew list",
		"sudo -u linuxbrew HOMEBREW_GIT_PATH=/tmp/x brew list",
	))
	runExactHosts(t, p, []exactCase{
		{"list", "brew list", TierRead},
		{"no auto update", "HOMEBREW_NO_AUTO_UPDATE=1 brew list", TierRead},
		{"no analytics", "HOMEBREW_NO_ANALYTICS=1 brew info x", TierRead},
	})
}
