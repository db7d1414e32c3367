package policy

import (
	"os"
	"path"
	"slices"
)

// Many project programs look for their files up from the working
// directory, as git looks for its repository: cargo build in a crate's
// src/ runs the crate's build.rs, npm run in a package's subdirectory runs
// the package's scripts, just and rake find the justfile or Rakefile above.
// projectUp names, for each, the files whose first directory up it reads
// its project from; projectEvery the files it reads in every directory up
// (cargo's .cargo/config.toml, mise's configurations, pytest's
// conftest.py, MSBuild's Directory.Build files).
var (
	projectUp = map[string][]string{
		"cargo": {"Cargo.toml"}, "just": {"justfile", "Justfile", ".justfile"},
		"task": {"Taskfile.yml", "Taskfile.yaml"}, "go-task": {"Taskfile.yml", "Taskfile.yaml"}, "rake": {"Rakefile", "rakefile"},
		"npm": {"package.json"}, "npx": {"package.json"}, "pnpm": {"package.json"}, "yarn": {"package.json"},
		"yarnpkg": {"package.json"}, "bun": {"package.json", "bunfig.toml"}, "corepack": {"package.json"},
		"deno": {"deno.json", "deno.jsonc", "package.json"}, "turbo": {"turbo.json"}, "nx": {"nx.json"},
		"lerna": {"lerna.json"}, "rush": {"rush.json"}, "melos": {"melos.yaml"}, "bundle": {"Gemfile"},
		"zig": {"build.zig"}, "vagrant": {"Vagrantfile"}, "gradle": {"settings.gradle", "settings.gradle.kts"},
		"gradlew": {"settings.gradle", "settings.gradle.kts"}, "docker-compose": projectCodeFiles["docker-compose"],
		"podman-compose": projectCodeFiles["podman-compose"], "invoke": {"tasks.py"}, "inv": {"tasks.py"},
		"fab": {"fabfile.py"}, "grunt": {"Gruntfile.js"}, "gulp": {"gulpfile.js"}, "pipenv": {"Pipfile"},
		"tox": {"tox.ini"}, "composer": {"composer.json"}, "devbox": {"devbox.json"}, "direnv": {".envrc"},
		"pre-commit": {".pre-commit-config.yaml"}, "lefthook": projectCodeFiles["lefthook"],
		"pdm": {"pyproject.toml"}, "hatch": {"pyproject.toml"}, "poe": {"pyproject.toml"}, "poetry": {"pyproject.toml"},
		"uv": {"pyproject.toml"}, "rye": {"pyproject.toml"}, "pulumi": {"Pulumi.yaml"}, "go": {"go.mod"},
		"pytest": {"pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg"}, "py.test": {"pyproject.toml", "pytest.ini", "tox.ini", "setup.cfg"},
	}
	projectEvery = map[string][]string{
		"cargo": {".cargo/config.toml", ".cargo/config"}, "mise": miseFiles, "rtx": miseFiles,
		"pytest": {"conftest.py"}, "py.test": {"conftest.py"},
		"msbuild": {"Directory.Build.props", "Directory.Build.targets"}, "dotnet": {"Directory.Build.props", "Directory.Build.targets"},
	}
)

// projectRoots returns the directories up from dirs, the directories c
// may run in, that c's program reads its project from as well; and meets
// the deny list with the files it reads in every directory up. It reports
// whether the call is still not denied.
func (c *call) projectRoots(proj string, dirs []string) ([]string, bool) {
	e := c.e
	var out []string
	marks, up := projectUp[proj]
	every := projectEvery[proj]
	for _, d := range dirs {
		if up {
			root, found := e.findUp(d, marks[0], func(d string) bool { return anyFileIn(d, marks) })
			if found && !slices.Contains(dirs, root) && !slices.Contains(out, root) {
				out = append(out, root)
			}
		}
		if len(every) == 0 {
			continue
		}
		ok := true
		e.findUp(d, every[0], func(d string) bool {
			for _, f := range every {
				p := path.Join(d, f)
				if key := proj + "\x00up\x00" + p; e.projectDirs[key] || !fileExists(p) {
					continue
				} else {
					e.projectDirs[key] = true
				}
				if ok = c.projectFile(p, false); !ok {
					return true
				}
			}
			return false
		})
		if !ok {
			return nil, false
		}
	}
	return out, true
}

// anyFileIn reports whether the directory d holds one of names.
func anyFileIn(d string, names []string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return fileExists(path.Join(d, n)) })
}

// fileExists reports whether p is a regular file.
func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular()
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
