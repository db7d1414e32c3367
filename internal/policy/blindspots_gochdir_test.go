package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotGoChdirRunsTheRepositorysGit: go's -C (before the
// subcommand, or as its first flag, in any spelling Go's flag package
// takes) makes go work in that directory, where go list, build and
// install run git status for the VCS stamp, and git runs the fsmonitor
// the repository's .git/config names (go 1.26 ran one under /tmp on go
// -C DIR list). A directory a tier 1 write may have filled, or one known
// only at run time, makes any go command tier 3, as cd DIR && go list
// is; a word computed at run time where -C may stand can be -C=/tmp/x.
func TestBlindSpotGoChdirRunsTheRepositorysGit(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	forms := []string{"go -C %s list", "go -C=%s list -json", "go --C %s build", "go --C=%s version", "go -C %s env GOMOD",
		"go list -C %s", "go list -C=%s -deps", "go build --C=%s -o /dev/null", "go install -C %s", "go vet -C %s",
		"go mod graph -C %s", "go work sync -C %s", "go doc -C %s fmt", "sudo go -C %s list", "timeout 9 go list -C %s",
		"env GOFLAGS=-mod=mod go -C %s list", "/usr/local/go/bin/go -C %s list", "command go build -C %s"}
	for _, d := range []string{"/tmp/x", "/var/tmp/m", "/dev/shm/q", "/run/lock/r", "/tmp/x/../../srv", "$d", "$(mktemp -d)"} {
		for _, f := range forms {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "go -C /tmp -C x list", "cd / && go -C tmp/x list", "cd /var && go list -C ../tmp/x",
		"go list \"$x\"", "go list $x", "go \"$o\" list", "go build $flags", "go mod graph \"$x\"")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's module", "go -C /srv/app list", TierRead},
		{"operator's module after the verb", "go list -C /srv/app -json", TierRead},
		{"plain list", "go list ./...", TierRead},
		{"-C past the first flag is a pattern", "go list ./... -C /tmp/x", TierRead},
		{"a relative computed package", "go list \"./$x\"", TierRead},
		{"a named computed package", "go list \"example.com/$x\"", TierRead},
		{"version", "go version", TierRead},
		{"env", "go env GOPATH", TierRead},
	})
}
