package policy

import "testing"

// A gemrc sets gemhome and gempath, whose specifications/*.gemspec files
// are Ruby that gem list evaluates, as GEM_HOME and GEM_PATH do: a gemrc
// named by GEMRC or gem --config-file (any place in the command, as
// Gem::ConfigFile scans all its words) under a temporary directory, or
// known only at run time, makes gem tier 3; GEM_VENDOR adds such a
// directory and GEM_SPEC_CACHE holds the Marshal data gem loads for
// remote specs. The system's gemrc and plain queries stay reads.
func TestBlindGemrc(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"GEMRC=/tmp/x gem list",
		"env GEMRC=/tmp/x gem env",
		"export GEMRC=/tmp/x; gem list",
		"gem list --config-file /tmp/x",
		"gem list --config-file=/tmp/x",
		"gem --config-file /tmp/x list",
		"gem --config-file=/var/tmp/g list rails",
		"gem info rake --config-file /dev/shm/g",
		"gem list --config-file \"$(mktemp)\"",
		"gem list --config-file \"$CFG\"",
		"GEM_VENDOR=/tmp/x gem list",
		"GEM_SPEC_CACHE=/tmp/x gem outdated",
		"sudo gem list --config-file /tmp/x",
	))
	runExactHosts(t, p, []exactCase{
		{"gem list", "gem list", TierRead},
		{"gem env", "gem env", TierRead},
		{"system gemrc", "gem list --config-file /etc/gemrc", TierRead},
	})
}
