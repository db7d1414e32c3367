package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotCargoScriptOperand: cargo given a path or a .rs file where
// a subcommand goes builds and runs it as a script (cargo /tmp/x/s.rs,
// cargo +nightly -Zscript s.rs), so one under a temporary directory, or
// relative to a temporary working directory, runs what a tier 1 write
// put there: tier 3 as cargo run --manifest-path /tmp/x/s.rs is. A
// subcommand, and the operator's script, keep cargo's tier.
func TestBlindSpotCargoScriptOperand(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q", "/tmp/x/../y", "/private/tmp/x"} {
		for _, f := range []string{"cargo %s/s.rs", "cargo %s/s", "cargo +nightly -Zscript %s/s.rs", "cargo -Zscript %s/s.rs a b",
			"cargo -Z script %s/s.rs", "cargo --config net.offline=true %s/s.rs", "cargo -q %s/s.rs", "sudo cargo %s/s.rs",
			"timeout 60 cargo %s/s.rs", "cargo -C /srv %s/s.rs"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cargo ../../../../tmp/x/s.rs", "cd /tmp/x && cargo s.rs", "cd /tmp && cargo -Zscript ./s.rs")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"build", "cargo build", TierMutate},
		{"operator's script", "cargo /srv/app/s.rs", TierMutate},
		{"test filter", "cargo test parse.rs", TierMutate},
		{"run", "cargo run --release", TierMutate},
		{"color value", "cargo --color always build", TierMutate},
	})
}
