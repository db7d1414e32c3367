package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotBazelOverridesFromAgentDirs: bazel's command options put a
// directory in place of a repository or module (--override_repository,
// --override_module) or read modules from a file registry
// (--registry=file://), and their Starlark's repository rules run
// programs, on a query too; so such a directory under a temporary one,
// known only at run time, or reached by a climb to one, is tier 3 as a
// --bazelrc there is. The operator's directories and a registry reached
// over the network keep bazel's tier.
func TestBlindSpotBazelOverridesFromAgentDirs(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/r", "/dev/shm/q", "/tmp/x/../y", "$d", "../../../../tmp/x"} {
		for _, f := range []string{"bazel query --override_repository=x=%s //...", "bazel build --override_repository x=%s //...",
			"bazel build --override_module=m=%s //...", "bazel test --override_module m=%s //:t", "bazelisk query --override_repository=r=%s deps(//x)",
			"bazel --bazelrc=/srv/rc build --override_module=m=%s //...", "sudo bazel build --override_repository=x=%s //..."} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	for _, d := range []string{"/tmp/reg", "/var/tmp/r", "/dev/shm/q"} {
		cmds = append(cmds, "bazel build --registry=file://"+d+" //...", "bazel mod graph --registry file://"+d)
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"build", "bazel build //...", TierMutate},
		{"operator's override", "bazel build --override_repository=x=/srv/x //...", TierMutate},
		{"network registry", "bazel build --registry=https://bcr.bazel.build //...", TierMutate},
		{"operator's file registry", "bazel build --registry=file:///srv/reg //...", TierMutate},
	})
}
