package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotToolchainRegistrations: a version manager keeps the
// toolchain a call records and its shims run it later, in every
// directory: rustup toolchain link NAME DIR, rustup default and override
// set DIR, asdf set/local/global TOOL path:DIR, mise use TOOL@path:DIR,
// pyenv or rbenv global ../../tmp/x (CVE-2022-35861), jenv add DIR. A
// directory a tier 1 write can fill, a climb out of the one the version
// is read from, or one known only at run time, is tier 3.
func TestBlindSpotToolchainRegistrations(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/t", "/dev/shm/q", "$d", "\"$(mktemp -d)\"", "/private/tmp/x", "/tmp/x/../y"} {
		for _, f := range []string{"rustup toolchain link evil %s", "rustup toolchain link stage1 %s/build", "rustup default %s",
			"rustup override set %s", "asdf set nodejs path:%s", "asdf global nodejs path:%s", "asdf local python path:%s",
			"asdf set -u ruby path:%s", "mise use node@path:%s", "mise use -g node@path:%s", "mise use --global python@path:%s",
			"rtx use node@path:%s", "jenv add %s", "jenv add %s/jdk", "sudo rustup toolchain link x %s"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	for _, v := range []string{"../../../tmp/x", "../../tmp/x", "../x"} {
		for _, f := range []string{"pyenv global %s", "pyenv local %s", "rbenv global %s", "nodenv local %s", "goenv global %s",
			"jenv global %s", "plenv local %s"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", v))
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"rustup link a build kept", "rustup toolchain link stage1 /srv/rust/build/stage1", TierMutate},
		{"rustup default channel", "rustup default stable", TierMutate},
		{"mise version", "mise use node@20", TierMutate},
		{"pyenv version", "pyenv global 3.12.1", TierMutate},
		{"rbenv version", "rbenv global 3.3.0", TierMutate},
	})
}
