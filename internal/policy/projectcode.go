package policy

import (
	"encoding/json"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// A project program run on this machine (make, npm test, cargo build, git
// status) runs the code its project's files hold: a Makefile's recipes,
// package.json's scripts, a repository's hooks and the programs its
// .git/config names. An earlier call admitted in open mode may have
// written them by means the classifier cannot follow (a download, an
// archive unpacked, a clone), so the project files in each directory the
// program may run in, changed since warden started, meet the deny list
// when it runs, each read for what runs from it (projectFile), as a
// script an earlier call wrote is. Only a denial follows: the call keeps
// the tier its name gives.

// projectDirOptions name the directory a project program works in
// (make -C, git -C, npm --prefix, yarn --cwd), or its repository
// (--git-dir: its config and hooks are there, not under .git).
var projectDirOptions = set(`-C --directory --cwd --dir --prefix --work-tree --git-dir -R --repository`)

// projectCodeFiles are the files, in its project directory, whose code
// each project program runs. git and the programs that run it read the
// repository's config and hooks instead (projectPrograms).
var projectCodeFiles = map[string][]string{
	"make": {"Makefile", "makefile", "GNUmakefile"}, "gmake": {"Makefile", "makefile", "GNUmakefile"},
	"bmake": {"Makefile", "makefile", "BSDmakefile"}, "ninja": {"build.ninja"}, "just": {"justfile", "Justfile", ".justfile"},
	"task": {"Taskfile.yml", "Taskfile.yaml"}, "go-task": {"Taskfile.yml", "Taskfile.yaml"}, "rake": {"Rakefile", "rakefile"},
	"scons": {"SConstruct", "SConscript"}, "ant": {"build.xml"}, "mvn": {"pom.xml"}, "mvnw": {"pom.xml"},
	"gradle": gradleFiles, "gradlew": gradleFiles,
	"cmake": {"CMakeLists.txt"}, "meson": {"meson.build"}, "tox": {"tox.ini"}, "nox": {"noxfile.py"},
	"pytest": pytestFiles, "py.test": pytestFiles,
	"npm": {"package.json", ".npmrc"}, "npx": {"package.json", ".npmrc"}, "pnpm": {"package.json", ".npmrc"},
	"yarn": {"package.json", ".yarnrc.yml", ".yarnrc"}, "yarnpkg": {"package.json", ".yarnrc.yml", ".yarnrc"},
	"hg": {".hg/hgrc"}, "chg": {".hg/hgrc"},
	"cargo": {"build.rs", "Cargo.toml", ".cargo/config.toml", "Makefile.toml"}, "invoke": {"tasks.py"}, "inv": {"tasks.py"}, "fab": {"fabfile.py"},
	"doit": {"dodo.py"}, "grunt": {"Gruntfile.js"}, "gulp": {"gulpfile.js"}, "tilt": {"Tiltfile"}, "vagrant": {"Vagrantfile"},
	"bundle": {"Gemfile", "*.gemspec"}, "composer": {"composer.json"}, "mix": {"mix.exs"}, "sbt": {"build.sbt"}, "zig": {"build.zig"},
	"docker-compose": {"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}, "nix-build": {"default.nix"},
	"podman-compose": {"compose.yaml", "compose.yml", "docker-compose.yml", "docker-compose.yaml"}, "nix-shell": {"shell.nix", "default.nix"},
	"devbox": {"devbox.json"}, "pre-commit": {".pre-commit-config.yaml"}, "ansible": {"ansible.cfg"},
	"ansible-playbook": {"ansible.cfg"}, "ansible-inventory": {"ansible.cfg"},
	// Task runners, hook managers, watchers, process managers and build
	// tools that run the commands a file of the project names: their
	// tasks, hooks and provisioners (terraform's local-exec, earthly's
	// LOCALLY, helmfile's and goreleaser's hooks, a Procfile's lines).
	"lefthook": {"lefthook.yml", "lefthook.yaml", ".lefthook.yml", ".lefthook.yaml", "lefthook-local.yml"},
	"mise":     miseFiles, "rtx": miseFiles, "direnv": {".envrc", ".env"},
	"terraform": {"*.tf", "*.tf.json"}, "tofu": {"*.tf", "*.tofu", "*.tf.json"}, "terragrunt": {"terragrunt.hcl", "*.tf"},
	"earthly": {"Earthfile"}, "pipenv": {"Pipfile"}, "helmfile": {"helmfile.yaml", "helmfile.yaml.gotmpl", "helmfile.d/*.yaml"},
	"skaffold": {"skaffold.yaml"}, "goreleaser": {".goreleaser.yaml", ".goreleaser.yml", "goreleaser.yaml", "goreleaser.yml"},
	"air": {".air.toml"}, "nodemon": {"nodemon.json", "package.json"},
	"pm2":     {"ecosystem.config.js", "ecosystem.config.cjs", "ecosystem.json"},
	"foreman": {"Procfile"}, "honcho": {"Procfile"}, "overmind": {"Procfile"}, "hivemind": {"Procfile"}, "forego": {"Procfile"},
	"melos": {"melos.yaml", "pubspec.yaml"}, "xmake": {"xmake.lua"}, "waf": {"wscript"},
	"msbuild": msbuildFiles, "dotnet": msbuildFiles,
	"pdm": {"pyproject.toml"}, "hatch": {"pyproject.toml", "hatch.toml"}, "poe": {"pyproject.toml"}, "poetry": {"pyproject.toml"},
	"uv": {"pyproject.toml"}, "rye": {"pyproject.toml"}, "pip": pipFiles, "pip3": pipFiles,
	"brew": {"Brewfile"}, "nix": {"flake.nix", "default.nix", "shell.nix"}, "snakemake": {"Snakefile", "workflow/Snakefile"},
	"dvc": {"dvc.yaml"}, "gitlab-runner": {".gitlab-ci.yml"},
	"bun": {"package.json", "bunfig.toml"}, "deno": {"deno.json", "deno.jsonc", "package.json"},
	"turbo": {"package.json", "turbo.json"}, "nx": {"package.json", "nx.json", "project.json"},
	"lerna": {"package.json", "lerna.json"}, "rush": {"rush.json", "package.json"}, "corepack": {"package.json"},
	// Infrastructure tools whose templates and programs run commands on
	// this host: packer's shell-local provisioners, pulumi's program, cdk's
	// app command, serverless' plugins, molecule's and kitchen's scenarios.
	"packer": {"*.pkr.hcl", "*.pkr.json"}, "go": {"go.mod", "go.work"}, "pulumi": {"Pulumi.yaml", "__main__.py", "index.ts", "index.js", "main.go"},
	"cdk": {"cdk.json"}, "serverless": serverlessFiles, "sls": serverlessFiles,
	"molecule": {"molecule/*/molecule.yml", "molecule/*/converge.yml", "molecule/*/prepare.yml"},
	"kitchen":  {".kitchen.yml", "kitchen.yml", ".kitchen.local.yml"},
	// Documentation and site builders whose configuration is code or loads
	// the project's (conf.py, mkdocs hooks, Jekyll's plugins), and Python
	// application servers with the files they load by default.
	"sphinx-build": {"conf.py"}, "mkdocs": {"mkdocs.yml", "mkdocs.yaml", "hooks/*.py", "docs/hooks/*.py"},
	"jekyll": {"_plugins/*.rb", "_config.yml", "Gemfile"}, "gunicorn": {"gunicorn.conf.py"},
	"uvicorn": {"asgi.py"}, "hypercorn": {"asgi.py"}, "daphne": {"asgi.py"}, "celery": {"celeryconfig.py"},
	"flask": {"app.py", "wsgi.py", ".flaskenv"}, "fastapi": {"main.py", "app.py", "app/main.py"}, "streamlit": {".streamlit/config.toml"},
	// Linters, test runners and bundlers whose configuration names
	// plugins, setup files or hooks they import (mypy's plugins, pylint's
	// load-plugins, coverage's plugins, jest's setupFiles) or is itself a
	// module.
	"mypy": {"mypy.ini", ".mypy.ini", "pyproject.toml", "setup.cfg"}, "pylint": {".pylintrc", "pylintrc", "pyproject.toml", "setup.cfg"},
	"coverage": {".coveragerc", "pyproject.toml", "setup.cfg", "tox.ini"},
	"jest":     {"jest.config.js", "jest.config.ts", "jest.config.mjs", "jest.config.cjs", "jest.config.json", "package.json"},
	"vitest":   {"vitest.config.ts", "vitest.config.js", "vitest.config.mjs", "vite.config.ts", "vite.config.js"},
	"vite":     {"vite.config.ts", "vite.config.js", "vite.config.mjs"}, "webpack": {"webpack.config.js", "webpack.config.ts", "webpack.config.cjs"},
	"rollup": {"rollup.config.js", "rollup.config.mjs", "rollup.config.ts"}, "babel": {"babel.config.js", "babel.config.json", ".babelrc", ".babelrc.js"},
	"mocha":     {".mocharc.js", ".mocharc.cjs", ".mocharc.yml", ".mocharc.yaml", ".mocharc.json", "package.json"},
	"eslint":    {"eslint.config.js", "eslint.config.mjs", "eslint.config.cjs", ".eslintrc.js", ".eslintrc.cjs", ".eslintrc.json", ".eslintrc", ".eslintrc.yml", "package.json"},
	"prettier":  {".prettierrc", ".prettierrc.js", ".prettierrc.cjs", ".prettierrc.json", "prettier.config.js", "package.json"},
	"stylelint": {"stylelint.config.js", ".stylelintrc", ".stylelintrc.js", ".stylelintrc.json"}, "playwright": {"playwright.config.ts", "playwright.config.js"},
	// More task runners, deployers and build tools whose project file
	// names commands or is code: lint-staged's commands, cargo-make's
	// tasks, pixi's tasks, devspace's hooks, rebar3's hooks, Leiningen's
	// injections, Capistrano's and fastlane's Ruby, mill's Scala, redo's
	// .do scripts, tup's rules, pants' BUILD files, a devcontainer's
	// initializeCommand (run on this host), act's workflows, deployer's
	// and Robo's PHP, kustomize's exec plugins.
	"lint-staged": {".lintstagedrc", ".lintstagedrc.json", ".lintstagedrc.yaml", ".lintstagedrc.yml", ".lintstagedrc.js", ".lintstagedrc.cjs",
		".lintstagedrc.mjs", "lint-staged.config.js", "lint-staged.config.mjs", "package.json"},
	"makers": {"Makefile.toml"}, "pixi": {"pixi.toml", "pyproject.toml"}, "devspace": {"devspace.yaml", "devspace.yml"},
	"rebar3": {"rebar.config"}, "lein": {"project.clj"}, "thor": {"Thorfile", "*.thor"}, "cap": {"Capfile", "config/deploy.rb", "config/deploy/*.rb"},
	"fastlane": {"fastlane/Fastfile", "Fastfile"}, "mill": {"build.sc", "build.mill"}, "redo": {"*.do"}, "tup": {"Tupfile", "Tuprules.tup"},
	"pants": {"pants.toml", "BUILD", "BUILD.pants"}, "devcontainer": {".devcontainer/devcontainer.json", ".devcontainer.json"},
	"act": {".github/workflows/*.yml", ".github/workflows/*.yaml", ".actrc"}, "dep": {"deploy.php", "deploy.yaml"}, "robo": {"RoboFile.php"},
	"kustomize": {"kustomization.yaml", "kustomization.yml", "Kustomization"},
}

// moduleConfigs are the programs whose project files name modules they
// import: their words are looked for as modules (namedfiles.go).
var moduleConfigs = set(`pytest py.test mypy pylint coverage tox nox invoke inv fab jest vitest vite webpack rollup babel mocha
	eslint prettier stylelint playwright celery gunicorn uvicorn sphinx-build mkdocs`)

// moduleProjectFiles are project files of a language that imports
// modules by name whose names do not say so: Ruby's and Python's.
var moduleProjectFiles = set(`Rakefile rakefile Gemfile Vagrantfile Guardfile Capfile Podfile Fastfile Thorfile SConstruct SConscript Snakefile Tiltfile wscript`)

var (
	pytestFiles     = []string{"conftest.py", "pyproject.toml", "pytest.ini", ".pytest.ini", "tox.ini", "setup.cfg"}
	gradleFiles     = []string{"build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts"}
	miseFiles       = []string{"mise.toml", ".mise.toml", "mise.local.toml", ".mise.local.toml", ".mise/config.toml", ".config/mise.toml", "mise/config.toml"}
	msbuildFiles    = []string{"*.csproj", "*.fsproj", "*.vbproj", "*.proj", "*.sln", "Directory.Build.props", "Directory.Build.targets"}
	pipFiles        = []string{"setup.py", "pyproject.toml", "setup.cfg"}
	serverlessFiles = []string{"serverless.yml", "serverless.yaml", "serverless.ts", "serverless.js"}
)

// maxProjectGlob is how many files a pattern in projectCodeFiles is read
// as in one directory.
const maxProjectGlob = 16

// placeValues returns the values the call gives the variable name, one of
// projectPlaceVars: those kept however given (env, sudo, run_command's
// env) and those the script assigns.
func (c *call) placeValues(name string) []string {
	var out []string
	for _, kv := range c.e.projectEnv {
		if kv[0] == name {
			out = append(out, kv[1])
		}
	}
	if c.ctx.sc != nil {
		out = append(out, c.ctx.sc.values(name)...)
	}
	return out
}

// projectName is the program whose project files c runs: docker compose
// runs docker-compose's.
func (c *call) projectName() string {
	switch c.name {
	case "docker", "podman", "nerdctl":
		if _, _, ok := c.codeSourceArgs(codeSources[c.name]); ok {
			return "docker-compose"
		}
	}
	return c.name
}

// projectCode meets the deny list with the project files of the
// directories c may run in.
func (c *call) projectCode() {
	e := c.e
	proj := c.projectName()
	files, ok := projectCodeFiles[proj]
	git := projectPrograms[c.name] == ".git/config" || strings.HasPrefix(c.name, "git-")
	if ok || git {
		// A call that fills the directory first runs what the classifier
		// cannot read (unread.go): another host's project files are not
		// read, nor a file missing now.
		f := ".git/hooks"
		if ok {
			f = files[0]
		}
		e.unreadNote(c.name, f, false, c.ctx)
	}
	if !ok && !git || !e.local || e.p.files == nil || e.paths == nil || e.denied {
		return
	}
	// The files and directories its options name in place of the
	// defaults (make -f prod.mk, docker compose --project-directory).
	var optFiles, optDirs []arg
	if src, ok := codeSources[c.name]; ok {
		if args, opArgs, ok := c.codeSourceArgs(src); ok {
			optFiles, optDirs = c.codeOptVals(src, args, src.files), c.codeOptVals(src, args, src.dirs)
			if src.operands {
				optFiles = append(optFiles, c.codeOperands(src, opArgs)...)
			}
			if src.modules {
				optFiles = moduleFiles(optFiles)
			}
		}
	}
	// And the variables that do as those options do (envprojects.go).
	for i, vars := range projectVarPlaces[proj] {
		for _, n := range vars {
			for _, v := range c.placeValues(n) {
				for _, w := range strings.FieldsFunc(v, func(r rune) bool { return r == ':' || r == ',' }) {
					if i == 0 {
						optFiles = append(optFiles, arg{val: w, known: true})
					} else {
						optDirs = append(optDirs, arg{val: w, known: true})
					}
				}
			}
		}
	}
	if e.projectDirs == nil {
		e.projectDirs = map[string]bool{}
	}
	cwds, _ := e.cwds()
	dirs := slices.Clone(cwds)
	// The directories options name (make -C, git --git-dir) and, for git,
	// GIT_DIR and GIT_WORK_TREE as the script assigns them.
	var named [][2]string // option, value
	for i, a := range c.args {
		name, v, eq := strings.Cut(a.val, "=")
		if !a.known || !projectDirOptions[name] {
			continue
		}
		if !eq {
			if i+1 >= len(c.args) || !c.args[i+1].known {
				continue
			}
			v = c.args[i+1].val
		}
		named = append(named, [2]string{name, v})
	}
	for _, d := range optDirs {
		if d.known {
			named = append(named, [2]string{"-C", d.val})
		}
	}
	if git {
		for _, n := range [...][2]string{{"GIT_DIR", "--git-dir"}, {"GIT_WORK_TREE", "--work-tree"}} {
			for _, v := range c.placeValues(n[0]) {
				named = append(named, [2]string{n[1], v})
			}
		}
	}
	var gitDirs []string
	tops := slices.Clone(cwds) // the work trees a hook may run in
	for _, n := range named {
		for _, d := range cwds {
			if n[0] == "--git-dir" {
				gitDirs = append(gitDirs, localPath(d, n[1]))
			} else {
				dirs = append(dirs, localPath(d, n[1]))
				tops = append(tops, localPath(d, n[1]))
			}
		}
	}
	// A file an option or operand names is read from each directory the
	// program may run in: make -C d -f f reads d/f, compose -f the
	// working directory's. One that is a directory (pytest tests, cmake
	// ..) is a project directory, and so is the directory of a file of a
	// default name (cargo --manifest-path x/Cargo.toml) or of a test file
	// pytest is given (tests/test_x.py::case: its conftest.py).
	var optPaths, moreDirs []string
	for _, f := range optFiles {
		if !f.known || f.val == "" || strings.HasPrefix(f.val, "~") {
			continue
		}
		v, pytest := f.val, proj == "pytest" || proj == "py.test"
		if pytest {
			v, _, _ = strings.Cut(v, "::")
		}
		for _, d := range dirs {
			p := localPath(d, v)
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				moreDirs = append(moreDirs, p)
				continue
			}
			optPaths = append(optPaths, p)
			if pytest || slices.Contains(files, path.Base(p)) {
				moreDirs = append(moreDirs, path.Dir(p))
			}
		}
	}
	dirs = append(dirs, moreDirs...)
	up, ok := c.projectRoots(proj, dirs)
	if !ok {
		return
	}
	dirs = append(dirs, up...)
	if proj == "cargo" {
		// Whatever cargo builds runs the build.rs of the crates it links
		// (path dependencies, workspace members, its workspace) and
		// compiles with their procedural macros (linkedtrees.go).
		linked := e.linkedTrees(cargoTree, dirs, nil)[len(dirs):]
		for _, l := range linked {
			if text, ok := e.readLocal(path.Join(l, "Cargo.toml")); ok && procMacro.MatchString(text) && !c.treeSources(cargoTree, l, true) {
				return
			}
		}
		dirs = append(dirs, linked...)
	}
	if c.workspaceCall() && !c.workspaceScripts(dirs) {
		return
	}
	if !c.localDepCode(dirs) {
		return
	}
	if proj == "hg" || proj == "chg" {
		for i, d := range dirs {
			dirs[i] = e.hgRoot(d)
		}
	}
	if tree, ok := sourceRuns(c); ok && !c.sourceCode(tree, dirs, optPaths) {
		return
	}
	subs := 0 // subprojects added to dirs
	for i := 0; i < len(dirs); i++ {
		d := dirs[i]
		if key := c.name + "\x00" + d; !e.projectDirs[key] {
			e.projectDirs[key] = true
		} else {
			continue
		}
		if !isDir(d) {
			continue
		}
		read, ok := c.projectFilesIn(d, files)
		if !ok {
			return
		}
		// The subprojects they name are built too (subprojects.go).
		for _, p := range read {
			for _, sub := range e.subprojects(p) {
				if !slices.Contains(dirs, sub) {
					if subs++; subs > maxLinkedTrees {
						e.pastLimit(maxLinkedTrees, "subprojects its build files name")
						break
					}
					dirs = append(dirs, sub)
				}
			}
		}
		if proj == "cargo" {
			// Cargo.toml's build = "x.rs" names the build script in place
			// of build.rs, whatever the manifest's age.
			if text, ok := e.readLocal(path.Join(d, "Cargo.toml")); ok {
				for _, b := range upTo(e, cargoBuildScripts(text), maxProjectGlob, "build scripts in "+truncate(d, 64)+"/Cargo.toml") {
					if !c.projectFile(localPath(d, b), false) {
						return
					}
				}
			}
		}
		if git {
			gds, top := e.repoDirs(d)
			gitDirs = append(gitDirs, gds...)
			if top != "" && !slices.Contains(tops, top) {
				tops = append(tops, top)
			}
		}
	}
	recipes := proj == "make" || proj == "gmake" || proj == "bmake" || proj == "just"
	for _, p := range optPaths {
		if key := c.name + "\x00" + p; e.projectDirs[key] {
			continue
		} else {
			e.projectDirs[key] = true
		}
		if !c.projectFileAs(p, false, recipes) {
			return
		}
	}
	for _, g := range gitDirs {
		if e.projectDirs[g] {
			continue
		}
		e.projectDirs[g] = true
		// The config is read whatever its age, for the hooks directory it
		// names; what its settings run meets the deny list when it is new.
		settings, ok := c.gitConfigRuns(path.Join(g, "config"))
		if !ok {
			return
		}
		for _, hooks := range hookDirs(e, g, tops, settings) {
			ents, _ := os.ReadDir(hooks)
			for _, h := range ents {
				if !strings.HasSuffix(h.Name(), ".sample") && !c.projectFile(path.Join(hooks, h.Name()), true) {
					return
				}
			}
		}
	}
	// Every git command reads the user's and the system's configuration
	// too, wherever it runs.
	if git && !e.projectDirs["\x00git-global"] {
		e.projectDirs["\x00git-global"] = true
		templates := []string{"/usr/share/git-core/templates"}
		for _, cfg := range c.gitGlobalConfigs() {
			settings, ok := c.gitConfigRuns(cfg)
			if !ok {
				return
			}
			for _, kv := range settings {
				if strings.EqualFold(kv[0], "init.templatedir") {
					templates = append(templates, kv[1])
				}
			}
		}
		// A new repository gets the hooks of its template directory (the
		// default, --template, GIT_TEMPLATE_DIR or init.templateDir), and
		// clone runs its post-checkout before it returns.
		if ops := subOperands("git", c.vals()); len(ops) > 0 && (ops[0] == "clone" || ops[0] == "init") {
			for _, v := range c.optVals(c.args, "--template") {
				templates = append(templates, v.val)
			}
			for _, v := range c.optVals(c.args, "-c") {
				if k, val, ok := strings.Cut(v.val, "="); ok && strings.EqualFold(k, "init.templatedir") {
					templates = append(templates, val)
				}
			}
			templates = append(templates, c.placeValues("GIT_TEMPLATE_DIR")...)
			c.templateHooks(templates)
		}
	}
}

// projectFilesIn meets the deny list with the files of the directory d
// that files name (a pattern read as at most maxProjectGlob files), and
// returns them; ok is false when the call is denied.
func (c *call) projectFilesIn(d string, files []string) (read []string, ok bool) {
	for _, f := range files {
		ps := []string{path.Join(d, f)}
		if strings.ContainsAny(f, "*?[") {
			ps, _ = filepath.Glob(ps[0])
		}
		for _, p := range upTo(c.e, ps, maxProjectGlob, "files match "+truncate(path.Join(d, f), 64)) {
			if !c.projectFile(p, false) {
				return nil, false
			}
			read = append(read, p)
		}
	}
	return read, true
}

// cargoBuildScripts are the build scripts a Cargo.toml's build keys name.
func cargoBuildScripts(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		k, v, ok := strings.Cut(line, "=")
		if !ok || strings.TrimSpace(k) != "build" {
			continue
		}
		if v = strings.Trim(strings.TrimSpace(v), `"'`); v != "" && !strings.ContainsAny(v, "\"'") && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

// hgRoot is the Mercurial repository dir is in, the first directory up
// from it with a .hg, as hg looks for it; or dir when there is none.
func (e *eval) hgRoot(dir string) string {
	root, _ := e.findUp(dir, "a repository", func(d string) bool { return isDir(path.Join(d, ".hg")) })
	return root
}

// localPath is p read relative to dir when it is not absolute.
func localPath(dir, p string) string {
	if strings.HasPrefix(p, "/") {
		return path.Clean(p)
	}
	return path.Join(dir, p)
}

// projectFile meets the deny list with what the project file p runs,
// once per evaluation, and reports whether the call is still not denied.
// A hook is a script; other files are read by their name: a package's
// scripts and a Makefile's or justfile's recipes (and make's $(shell …))
// as shell commands, anything else as raw text, comment lines left out.
func (c *call) projectFile(p string, hook bool) bool {
	base := path.Base(p)
	return c.projectFileAs(p, hook, slices.Contains(projectCodeFiles["make"], base) || base == "BSDmakefile" || slices.Contains(projectCodeFiles["just"], base))
}

// projectFileAs is projectFile of p, read as a make or just file's
// recipes when recipes is set.
func (c *call) projectFileAs(p string, hook, recipes bool) bool {
	budget := maxProgramGlobs
	if recipes && !c.projectIncludes(p, 0, &budget) {
		return false
	}
	return c.projectText(p, hook, recipes)
}

// projectText meets the deny list with what the project file p runs:
// a hook as the script it is, recipes as shell commands, a package's
// scripts as shell commands, anything else as raw text.
func (c *call) projectText(p string, hook, recipes bool) bool {
	e := c.e
	if e.wroteName(p) || hook && (e.wroteName(path.Dir(p)) || e.wroteName(".git")) {
		// cp evil Makefile; make, cp -r hooks/. .git/hooks; git commit
		// (written.go).
		e.noteScriptRun(p)
	}
	e.noteRanName(path.Base(p))
	e.unreadNote(c.name, p, false, c.ctx)
	if hook {
		e.noteRanName(path.Base(path.Dir(p)))
		e.noteRanName(".git")
	}
	texts := c.writtenTexts(p)
	if lf, text, ok := e.recentScript(p); ok && !lf.classified {
		lf.classified = true
		texts = append(texts, text)
	}
	for _, text := range texts {
		if !c.projectTextOf(p, text, hook, recipes) {
			return false
		}
	}
	return true
}

// writtenTexts returns what the call's script writes to the file p
// before the program reads it (printf 'all:…' > /srv/x/Makefile; make -C
// /srv/x), named as p or relative to a working directory.
func (c *call) writtenTexts(p string) []string {
	texts := c.ctx.sc.fileTexts(p)
	if cwds, _ := c.e.cwds(); len(texts) == 0 {
		for _, d := range cwds {
			if rel, ok := strings.CutPrefix(p, d+"/"); ok {
				texts = append(texts, c.ctx.sc.fileTexts(rel)...)
			}
		}
	}
	return texts
}

// projectTextOf is projectText of text, what the file p holds.
func (c *call) projectTextOf(p, text string, hook, recipes bool) bool {
	e := c.e
	if hook {
		why, _, _ := e.textDenial(text, interpreterOf(text), p, c.ctx, false)
		return c.projectDeny(p, why)
	}
	sub := e.fork()
	defer sub.release()
	ctx := projectCtx(c.ctx)
	var cmds []string
	run := func(cmd string) {
		sub.script(cmd, ctx, "project file "+truncate(p, 64))
		cmds = append(cmds, cmd)
	}
	switch base := path.Base(p); {
	case base == "package.json" || base == "composer.json":
		for _, cmd := range packageScripts(text) {
			run(cmd)
		}
	case recipes:
		for _, cmd := range recipeLines(text) {
			run(cmd)
		}
	case sshConfigFile(p):
		for _, cmd := range sshConfigCommands(text) {
			run(cmd)
		}
		if !c.startupCode(sshIncludes(p, text), false) {
			return false
		}
	case unitFile(p):
		for _, cmd := range unitExecLines(text) {
			run(cmd)
		}
	case strings.HasSuffix(base, ".go"):
		for _, cmd := range goGenerateLines(text) {
			run(cmd)
		}
		sub.scanText(uncommented(text))
		sub.opaque = true // another language's code
		cmds = append(cmds, uncommented(text))
	default:
		if cmds, ok := hookCommands(p, text); ok {
			for _, cmd := range cmds {
				run(cmd)
			}
			break
		}
		sub.scanText(uncommented(text))
		sub.opaque = true // another language's code
		cmds = []string{uncommented(text)}
		if moduleFile(p) || moduleProjectFiles[base] || moduleConfigs[c.name] {
			// What it imports is looked for too, beside it first
			// (tasks.py imports helper.py, gulpfile.js requires ./lib).
			sub.modules = true
			sub.codeValues = append(sub.codeValues, path.Dir(p))
		}
	}
	if !sub.denied {
		e.keepUnseen(sub, strings.Join(cmds, "\n"), sub.opaque)
	}
	return c.projectDeny(p, sub.denyWhy)
}

// projectCtx is the context a project file's commands are classified in:
// a nested shell of the call's, with nothing of the call's script.
func projectCtx(ctx cctx) cctx {
	ctx.nest++
	ctx.pos, ctx.hasPos, ctx.sc = nil, false, nil
	return ctx
}

// projectDeny denies the call for why, what its project file p runs, and
// reports whether the call is still not denied.
func (c *call) projectDeny(p, why string) bool {
	if why == "" {
		return true
	}
	what := "its project's code"
	if c.e.configFile(p) {
		what = "what its user's or the system's configuration names"
	}
	c.e.deny(c.name + " runs " + what + ", and " + truncate(p, 64) + ": " + why)
	return false
}

// packageScripts returns the commands of a package.json's (or
// composer.json's) "scripts", in the order of their names; text that is
// not such JSON is one command, for the shell's reading.
func packageScripts(text string) []string {
	var pkg struct {
		Scripts map[string]any `json:"scripts"`
	}
	if json.Unmarshal([]byte(text), &pkg) != nil {
		return []string{text}
	}
	var out []string
	for _, name := range slices.Sorted(maps.Keys(pkg.Scripts)) {
		switch v := pkg.Scripts[name].(type) {
		case string:
			out = append(out, v)
		case []any: // composer: a list of commands
			for _, s := range v {
				if s, ok := s.(string); ok {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// recipeLines returns the shell commands of a Makefile's or justfile's
// text: each recipe line (indented; continuation lines joined; make's
// @, - and + taken off), and what each $(shell …) runs wherever it is.
func recipeLines(text string) []string {
	text = strings.ReplaceAll(text, "\\\n", " ")
	var out []string
	for _, line := range strings.Split(text, "\n") {
		if line != "" && (line[0] == '\t' || line[0] == ' ') {
			if l := strings.TrimLeft(line, " \t@-+"); l != "" && l[0] != '#' {
				out = append(out, l)
			}
		}
		for rest := line; ; {
			i := strings.Index(rest, "$(shell ")
			if i < 0 {
				break
			}
			rest = rest[i+len("$(shell "):]
			depth, end := 1, len(rest)
			for j := 0; j < len(rest) && depth > 0; j++ {
				switch rest[j] {
				case '(':
					depth++
				case ')':
					if depth--; depth == 0 {
						end = j
					}
				}
			}
			out = append(out, rest[:end])
		}
	}
	return out
}

// uncommented returns text without its comment lines (# and //), which
// name what a file does not run.
func uncommented(text string) string {
	if !strings.Contains(text, "#") && !strings.Contains(text, "//") {
		return text
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(text, "\n") {
		if l := strings.TrimSpace(line); !strings.HasPrefix(l, "#") && !strings.HasPrefix(l, "//") {
			b.WriteString(line)
		}
	}
	return b.String()
}
