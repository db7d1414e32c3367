package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestBlindSpotLocalDeps: an install builds the project's local
// dependencies, whose code was not read: npm install ran a file: or
// link: dependency's install script and, at a monorepo's root, its
// packages'; pip install ran the setup.py of a directory it was given,
// with -e or in a requirements file; poetry and uv built a path
// dependency; bundler evaluated a path gem's gemspec. Each now meets the
// deny list; a call that installs nothing, old files and another host
// are not denied, and past maxLinkedTrees dependencies a call takes
// approval.
func TestBlindSpotLocalDeps(t *testing.T) {
	dir, _ := lastingDir(t, "localdeps-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"mono/package.json": `{"workspaces": ["packages/*"]}`, "mono/packages/a/package.json": `{"scripts": {"postinstall": "reboot"}}`,
		"app/package.json":  `{"dependencies": {"lib": "file:../lib"}, "scripts": {"test": "true"}}`,
		"app2/package.json": `{"devDependencies": {"lib": "link:../lib"}}`, "app3/package.json": `{"dependencies": {"mid": "../mid"}}`,
		"mid/package.json": `{"dependencies": {"lib": "file:../lib"}}`, "lib/package.json": `{"scripts": {"install": "reboot"}}`,
		"py/requirements.txt": "-e ../pylib\nrequests==2.0\n", "py/nested.txt": "-r sub/more.txt\n", "py/sub/more.txt": "../../pylib # local\n",
		"pylib/setup.py":     "import os\nos.system('reboot')\n",
		"po/pyproject.toml":  "[tool.poetry.dependencies]\nlib = {path = \"../pylib\", develop = true}\n",
		"uvp/pyproject.toml": "[project]\nname = \"x\"\n\n[tool.uv.sources]\nlib = { path = \"../pylib\" }\n",
		"rb/Gemfile":         "gem 'lib', path: '../rblib'\n", "rb2/Gemfile": "gem \"lib\", :path => \"../rblib\"\n", "rblib/lib.gemspec": "system('reboot')\n",
		"own/Gemfile": "gemspec\n", "own/own.gemspec": "system('reboot')\n",
	} {
		writeUnder(t, dir, name, text)
	}
	wantProjectDenied(t, p, dir, []projectCase{
		{"cd mono && npm install", "mono/packages/a/package.json"}, {"cd mono && npm ci", "mono/packages/a/package.json"},
		{"cd mono && yarn", "mono/packages/a/package.json"}, {"cd mono && pnpm install", "mono/packages/a/package.json"},
		{"cd app && npm install", "lib/package.json"}, {"cd app && npm i express", "lib/package.json"}, {"cd app2 && pnpm install", "lib/package.json"},
		{"cd app3 && yarn install", "lib/package.json"},
		{"cd py && pip install -r requirements.txt", "pylib/setup.py"}, {"cd py && pip3 install -r nested.txt", "pylib/setup.py"},
		{"cd py && pip install -e ../pylib", "pylib/setup.py"}, {"cd py && pip install ../pylib", "pylib/setup.py"},
		{"cd po && poetry install", "pylib/setup.py"}, {"cd uvp && uv sync", "pylib/setup.py"},
		{"cd rb && bundle install", "rblib/lib.gemspec"}, {"cd rb2 && bundle exec rake", "rblib/lib.gemspec"}, {"cd own && bundle install", "own/own.gemspec"},
	})
	wantNotDeniedIn(t, p, dir, false, []string{"cd app && npm test", "cd py && pip install requests", "cd po && poetry show"})
	wantNotDeniedIn(t, p, dir, true, []string{"cd app && npm install", "cd py && pip install -r requirements.txt", "cd rb && bundle install"})
	for _, n := range []int{maxLinkedTrees, maxLinkedTrees + 1} {
		var deps []string
		for i := range n {
			deps = append(deps, fmt.Sprintf(`"d%d": "file:../d%d"`, i, i))
			writeUnder(t, dir, fmt.Sprintf("many/d%d/package.json", i), `{}`)
		}
		writeUnder(t, dir, fmt.Sprintf("many/m%d/package.json", n), `{"dependencies": {`+strings.Join(deps, ", ")+`}}`)
		v := p.Evaluate(Input{Command: fmt.Sprintf("cd %s/many/m%d && npm install", dir, n)})
		if n > maxLinkedTrees {
			wantPastLimit(t, fmt.Sprintf("%d local dependencies", n), v, maxLinkedTrees)
		} else {
			wantWithin(t, fmt.Sprintf("%d local dependencies", n), v)
		}
	}
	// A requirements file names another, maxRequirementFiles deep: the
	// last one read is within the limit, one more takes approval.
	for _, n := range []int{maxRequirementFiles, maxRequirementFiles + 1} {
		root := filepath.Join(dir, fmt.Sprint("reqs", n))
		for i := range n - 1 {
			writeUnder(t, root, fmt.Sprintf("r%d.txt", i), fmt.Sprintf("-r r%d.txt\n", i+1))
		}
		writeUnder(t, root, fmt.Sprintf("r%d.txt", n-1), "-e ../pylib\n")
		v := p.Evaluate(Input{Command: "cd " + root + " && pip install -r r0.txt"})
		if n > maxRequirementFiles {
			wantPastLimit(t, fmt.Sprintf("%d requirements files", n), v, maxRequirementFiles)
		} else if !v.Denied {
			t.Errorf("the last requirements file within the limit was not read: %s", formatVerdict(v))
		}
	}
}
