package policy

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// TestBlindSpotProjectRunners: task runners, hook managers, watchers,
// process managers and build tools that run the commands a project file
// names (lefthook's hooks, mise's tasks, terraform's local-exec, a
// Procfile, pyproject's scripts, setup.py under pip install .) ran a file
// written this session unread, tier 2 and unasked in open mode. Each reads
// its project's files now, as make and npm do; the same tools with files
// that run nothing the deny list refuses are not denied.
func TestBlindSpotProjectRunners(t *testing.T) {
	d, p := lastingDir(t, "project-runners-")
	cases := []struct{ cmd, file, bad, good string }{
		{"lefthook run pre-commit", "lefthook.yml", "pre-commit:\n  commands:\n    x:\n      run: reboot\n", "pre-commit:\n  commands:\n    x:\n      run: go vet ./...\n"},
		{"mise run x", "mise.toml", "[tasks.x]\nrun = \"poweroff\"\n", "[tasks.x]\nrun = \"go test ./...\"\n"},
		{"rtx run x", ".mise.toml", "[tasks.x]\nrun = \"halt\"\n", "[tasks.x]\nrun = \"ls\"\n"},
		{"direnv allow .", ".envrc", "export X=1\nreboot\n", "export X=1\n"},
		{"terraform apply -auto-approve", "main.tf", "resource \"null_resource\" \"x\" {\n  provisioner \"local-exec\" { command = \"reboot\" }\n}\n", "resource \"null_resource\" \"x\" {}\n"},
		{"tofu apply", "extra.tf", "provisioner \"local-exec\" { command = \"shutdown -h now\" }\n", "variable \"x\" {}\n"},
		{"earthly +x", "Earthfile", "x:\n  LOCALLY\n  RUN reboot\n", "x:\n  FROM alpine\n  RUN echo hi\n"},
		{"pipenv run x", "Pipfile", "[scripts]\nx = \"reboot\"\n", "[scripts]\nx = \"pytest\"\n"},
		{"helmfile sync", "helmfile.yaml", "hooks:\n- events: [\"prepare\"]\n  command: poweroff\n", "releases: []\n"},
		{"skaffold build", "skaffold.yaml", "build:\n  hooks:\n    before:\n    - command: [\"halt\"]\n", "build: {}\n"},
		{"goreleaser release --snapshot", ".goreleaser.yaml", "before:\n  hooks:\n  - reboot\n", "builds: []\n"},
		{"air", ".air.toml", "[build]\ncmd = \"reboot\"\n", "[build]\ncmd = \"go build -o ./tmp/main .\"\n"},
		{"nodemon", "nodemon.json", `{"exec":"poweroff"}`, `{"exec":"node app.js"}`},
		{"pm2 start", "ecosystem.config.js", "module.exports={apps:[{script:'halt'}]}\n", "module.exports={apps:[{script:'app.js'}]}\n"},
		{"foreman start", "Procfile", "web: reboot\n", "web: bin/server\n"},
		{"honcho start", "Procfile", "worker: systemctl poweroff\n", "worker: bin/worker\n"},
		{"melos run x", "melos.yaml", "scripts:\n  x: reboot\n", "scripts:\n  x: dart test\n"},
		{"xmake", "xmake.lua", "target('x')\non_build(function() os.exec('reboot') end)\n", "target('x')\nset_kind('binary')\n"},
		{"msbuild", "app.csproj", "<Project><Target Name=\"B\" BeforeTargets=\"Build\"><Exec Command=\"reboot\"/></Target></Project>\n", "<Project></Project>\n"},
		{"pdm run x", "pyproject.toml", "[tool.pdm.scripts]\nx = \"reboot\"\n", "[tool.pdm.scripts]\nx = \"pytest\"\n"},
		{"hatch run y", "hatch.toml", "[envs.default.scripts]\ny = \"poweroff\"\n", "[envs.default.scripts]\ny = \"pytest\"\n"},
		{"pip install .", "setup.py", "import os\nos.system('reboot')\n", "from setuptools import setup\nsetup(name='x')\n"},
		{"brew bundle", "Brewfile", "system 'halt'\n", "brew 'jq'\n"},
		{"nix develop -c true", "flake.nix", "{ outputs = _: { shellHook = \"reboot\"; }; }\n", "{ outputs = _: { }; }\n"},
		{"snakemake", "Snakefile", "rule x:\n    shell: 'reboot'\n", "rule x:\n    shell: 'echo hi'\n"},
		{"dvc repro", "dvc.yaml", "stages:\n  x:\n    cmd: poweroff\n", "stages:\n  x:\n    cmd: python train.py\n"},
		{"gitlab-runner exec shell x", ".gitlab-ci.yml", "x:\n  script: reboot\n", "x:\n  script: make test\n"},
		{"turbo run x", "package.json", `{"scripts":{"x":"reboot"}}`, `{"scripts":{"x":"tsc"}}`},
		{"nx run x", "project.json", `{"targets":{"x":{"command":"halt"}}}`, `{"targets":{}}`},
	}
	for i, tc := range cases {
		for _, bad := range []bool{true, false} {
			dir := filepath.Join(d, "bad", strconv.Itoa(i))
			text := tc.bad
			if !bad {
				dir, text = filepath.Join(d, "good", strconv.Itoa(i)), tc.good
			}
			f := filepath.Join(dir, tc.file)
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := "cd " + dir + " && " + tc.cmd
			if bad {
				wantDenied(t, p, "", []string{cmd})
			} else {
				wantNotDenied(t, p, []string{cmd})
			}
		}
	}
}
