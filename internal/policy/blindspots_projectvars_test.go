package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotProjectVariables: tools take the project whose code they
// run from variables as from options (JUST_JUSTFILE is just -f,
// UV_PROJECT uv --project, COMPOSE_FILE compose -f, PYTEST_ADDOPTS
// pytest's --rootdir), so a temporary, climbing or run-time value there
// makes the build run what a tier 1 write left, as the option would.
func TestBlindSpotProjectVariables(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	sets := []string{"JUST_JUSTFILE=%s/justfile just --list", "JUST_WORKING_DIRECTORY=%s just build", "UV_PROJECT=%s uv tree",
		"UV_WORKING_DIRECTORY=%s uv run x", "TERRAGRUNT_WORKING_DIR=%s terragrunt plan", "TG_WORKING_DIR=%s terragrunt plan",
		"COMPOSE_FILE=%s/compose.yml docker compose up -d", "COMPOSE_FILE=compose.yml:%s/o.yml docker compose up -d",
		"COMPOSE_PROJECT_DIRECTORY=%s docker compose up -d", "PYTEST_ADDOPTS=--rootdir=%s pytest", "PYTEST_ADDOPTS='-c %s/p.ini' pytest",
		"SKAFFOLD_FILENAME=%s/s.yaml skaffold run", "env JUST_WORKING_DIRECTORY=%s just build", "export COMPOSE_FILE=%s/c.yml; docker compose up",
		"sudo COMPOSE_PROJECT_DIRECTORY=%s docker compose up", "MY_TOOL_CWD=%s mytool", "APP_PROJECT_DIR=%s/a build-it"}
	for _, d := range []string{"/tmp/x", "/var/tmp/p", "/dev/shm/q", "/tmp", "../../../tmp/x", "/private/tmp/x", "/tmp/x/../y"} {
		for _, s := range sets {
			cmds = append(cmds, strings.ReplaceAll(s, "%s", d))
		}
	}
	for _, v := range []string{"$d", "\"$(mktemp -d)\""} {
		cmds = append(cmds, "JUST_WORKING_DIRECTORY="+v+" just build", "COMPOSE_FILE="+v+" docker compose up -d", "UV_PROJECT="+v+" uv run x",
			"read COMPOSE_FILE; docker compose up")
	}
	cmds = append(cmds, "cd /tmp/x && COMPOSE_FILE=c.yml docker compose up -d", "cd /tmp/x && JUST_JUSTFILE=j just")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's compose file", "COMPOSE_FILE=/srv/app/compose.yml docker compose up -d", TierMutate},
		{"operator's justfile dir", "JUST_WORKING_DIRECTORY=/srv/app just build", TierMutate},
		{"pytest verbosity", "PYTEST_ADDOPTS=-v pytest", TierMutate},
		{"a script's own cwd", "ORIG_CWD=$(pwd); cd /srv; ls", TierRead},
		{"a script's project root", "PROJECT_ROOT=$(git rev-parse --show-toplevel) make", TierMutate},
		{"relative build dir", "BUILD_WORKING_DIR=out make", TierMutate},
	})
}
