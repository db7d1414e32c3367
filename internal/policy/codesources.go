package policy

import (
	"path"
	"slices"
	"strings"
)

// Build tools and task runners take the code they run (recipes, tasks,
// build scripts, tests) from files their options or operands name, not
// only from the working directory: make -f /tmp/M, make -C /tmp/d, just
// --justfile, gradle -p, pytest /tmp/t, docker compose -f. A tier 1 call
// can write such a file under a temporary directory, and the build, tier 2
// by its name, then runs what the agent wrote: open mode admits it
// unapproved, and on a plain SSH host nothing else holds it. So a code
// source under a temporary directory, through a descriptor, read from
// standard input, relative to a temporary working directory, or computed
// at run time makes the call tier 3, as sh /tmp/x.sh is. An operator's
// project (/srv/app, ~/src/x) keeps the build's tier. Once tier 3, the
// call is opaque, so what the script itself wrote to such a file meets
// the deny list (classify.go).

// codeSource says where a program takes its code from.
type codeSource struct {
	files    []string        // options naming a file of code, or a directory code is loaded from
	dirs     []string        // options naming the directory it works in, each relative to the one before
	style    optStyle        // how its options are spelled
	verbs    map[string]bool // the subcommands these apply to; nil is all
	operands bool            // its operands name code too (tests, a source tree)
	first    bool            // its options come before the subcommand, whose own options name no code (go -C)
	anyVerb  bool            // which of its options take a value is not known: the first operand that is a verb is the verb
	props    []string        // JVM system properties (-Dname=value) naming code: a JDK, an extension path, plugins
	modules  bool            // the files its options and operands name are Python modules (pkg.mod:app)
}

// optStyle is how a program's options are read.
type optStyle int

const (
	getoptStyle optStyle = iota // getopt_long: clusters, attached values, abbreviations
	wordStyle                   // single-dash words that never cluster (ant -buildfile)
	goStyle                     // Go's flag package: -name or --name, value after = or next
	noptStyle                   // npm's nopt: long names abbreviated
)

var (
	makeSource  = codeSource{files: []string{"-f", "--file", "--makefile", "-I", "--include-dir"}, dirs: []string{"-C", "--directory"}}
	taskSource  = codeSource{files: []string{"-t", "--taskfile"}, dirs: []string{"-d", "--dir"}}
	gradleSrc   = codeSource{files: []string{"-b", "--build-file", "-c", "--settings-file", "-g", "--gradle-user-home", "--include-build"}, dirs: []string{"-p", "--project-dir"}, props: gradleProps}
	composeSrc  = codeSource{files: []string{"-f", "--file", "--env-file"}, dirs: []string{"--project-directory"}}
	pytestSrc   = codeSource{files: []string{"-c", "--config-file", "--rootdir", "--confcutdir"}, operands: true}
	mvnSource   = codeSource{files: []string{"-f", "--file", "-t", "--toolchains", "-s", "--settings", "-gs", "--global-settings"}, style: wordStyle, props: mvnProps}
	bazelSource = codeSource{files: []string{"--bazelrc"}, style: goStyle}
	invokeSrc   = codeSource{files: []string{"-c", "--collection"}, dirs: []string{"-r", "--search-root"}, modules: true} // -c x loads x.py
	chefSource  = codeSource{files: []string{"-c", "--config", "-j", "--json-attributes"}}
	yarnSource  = codeSource{files: []string{"--use-yarnrc"}, dirs: []string{"--cwd"}}

	// A maven settings file (-s, -gs) names the local repository whose
	// plugins maven runs, as -Dmaven.repo.local does.
	// The JVM build tools' system properties that name code: maven's
	// core extensions, its local repository (the plugins it runs) and the
	// directory whose .mvn holds extensions.xml and jvm.config; the JDK
	// gradle's daemon runs; sbt's global base (its plugins), boot
	// directory (the launcher it runs) and Ivy home (the jars it loads).
	mvnProps    = []string{"maven.ext.class.path", "maven.repo.local", "maven.multiModuleProjectDirectory", "maven.home", "java.home"}
	gradleProps = []string{"org.gradle.java.home", "gradle.user.home", "java.home"}
	sbtProps    = []string{"sbt.global.base", "sbt.boot.directory", "sbt.ivy.home", "ivy.home", "sbt.global.plugins", "java.home"}
)

// codeSources are the programs that take code from files their options
// or operands name.
var codeSources = map[string]codeSource{
	"make": makeSource, "gmake": makeSource,
	"bmake":     {files: []string{"-f", "-I", "-m"}, dirs: []string{"-C"}},
	"ninja":     {files: []string{"-f"}, dirs: []string{"-C"}},
	"cmake":     {dirs: []string{"-S", "-B", "--build", "--install"}, style: wordStyle, operands: true},
	"meson":     {files: []string{"--native-file", "--cross-file"}, dirs: []string{"-C"}, operands: true},
	"just":      {files: []string{"-f", "--justfile", "-E", "--dotenv-path"}, dirs: []string{"-d", "--working-directory"}},
	"rake":      {files: []string{"-f", "--rakefile", "-R", "--rakelibdir", "--rakelib", "-I", "--libdir"}, dirs: []string{"-C", "--directory"}},
	"task":      taskSource,
	"go-task":   taskSource,
	"scons":     {files: []string{"-f", "--file", "--makefile", "--sconstruct", "-I", "--include-dir", "--site-dir"}, dirs: []string{"-C", "--directory", "-Y", "--repository", "--srcdir"}},
	"ant":       {files: []string{"-f", "-file", "-buildfile", "-find", "-s", "-lib"}, style: wordStyle},
	"mvn":       mvnSource,
	"mvnw":      mvnSource,
	"gradle":    gradleSrc,
	"gradlew":   gradleSrc,
	"composer":  {dirs: []string{"-d", "--working-dir"}},
	"bundle":    {files: []string{"--gemfile"}},
	"tox":       {files: []string{"-c", "--conf", "--root"}},
	"nox":       {files: []string{"-f", "--noxfile"}},
	"pytest":    pytestSrc,
	"py.test":   pytestSrc,
	"cargo":     {files: []string{"--manifest-path"}, dirs: []string{"-C"}},
	"go":        {dirs: []string{"-C"}, style: goStyle, verbs: set(`run test generate`), operands: true, first: true},
	"terraform": {dirs: []string{"-chdir"}, style: goStyle}, "tofu": {dirs: []string{"-chdir"}, style: goStyle},
	"docker":         {files: composeSrc.files, dirs: composeSrc.dirs, verbs: set(`compose`)},
	"podman":         {files: composeSrc.files, dirs: composeSrc.dirs, verbs: set(`compose`)},
	"nerdctl":        {files: composeSrc.files, dirs: composeSrc.dirs, verbs: set(`compose`)},
	"docker-compose": composeSrc, "podman-compose": composeSrc,
	"bazel": bazelSource, "bazelisk": bazelSource,
	// Task runners and project tools whose project file is code.
	"poetry":     {dirs: []string{"-C", "--directory", "-P", "--project"}},
	"uv":         {files: []string{"--config-file"}, dirs: []string{"--directory", "--project"}},
	"pdm":        {dirs: []string{"-p", "--project"}},
	"poe":        {files: []string{"--root"}, dirs: []string{"-C", "--directory"}},
	"direnv":     {verbs: set(`exec`), operands: true}, // direnv exec DIR loads DIR's .envrc
	"invoke":     invokeSrc,
	"inv":        invokeSrc,
	"fab":        invokeSrc,
	"doit":       {files: []string{"-f", "--file"}, dirs: []string{"-d", "--dir"}},
	"grunt":      {files: []string{"--gruntfile"}, dirs: []string{"--base"}},
	"gulp":       {files: []string{"--gulpfile", "-f"}, dirs: []string{"--cwd"}},
	"mage":       {dirs: []string{"-d", "-w"}, style: wordStyle},
	"xmake":      {files: []string{"-F", "--file"}, dirs: []string{"-P", "--project"}},
	"premake5":   {files: []string{"--file", "--scripts"}},
	"packer":     {operands: true},
	"tilt":       {files: []string{"-f", "--file"}},
	"helmfile":   {files: []string{"-f", "--file"}},
	"skaffold":   {files: []string{"-f", "--filename"}},
	"goreleaser": {files: []string{"-f", "--config"}},
	"honcho":     {files: []string{"-f", "--procfile"}, dirs: []string{"-d", "--app-root"}},
	"foreman":    {files: []string{"-f", "--procfile"}, dirs: []string{"-d", "--root"}},
	"overmind":   {files: []string{"-f", "--procfile"}, dirs: []string{"-d", "--root"}},
	"forego":     {files: []string{"-f"}},
	"hivemind":   {operands: true},
	"terragrunt": {files: []string{"--terragrunt-config", "--config"}, dirs: []string{"--terragrunt-working-dir", "--working-dir"}},
	"nix-shell":  {operands: true},
	// nix develop runs a flake's shellHook, nix run and shell its
	// programs, nix flake and eval its Nix code (import from derivation
	// builds): the flake or file is named by an operand or -f.
	"nix":       {files: []string{"-f", "--file", "-I", "--include"}, verbs: set(`develop shell run build eval flake print-dev-env repl bundle`), operands: true, anyVerb: true},
	"nix-build": {operands: true},
	"qmake":     {operands: true},
	"zig":       {files: []string{"--build-file"}, dirs: []string{"--build-root"}, verbs: set(`build`)},
	"sbt": {files: []string{"--sbt-dir", "-sbt-dir", "--sbt-boot", "-sbt-boot", "--ivy", "-ivy", "--sbt-jar", "-sbt-jar",
		"--java-home", "-java-home"}, style: wordStyle, props: sbtProps},
	"dune":   {dirs: []string{"--root"}},
	"stack":  {files: []string{"--stack-yaml"}},
	"cabal":  {files: []string{"--project-file"}, dirs: []string{"--project-dir"}},
	"devbox": {files: []string{"-c", "--config"}},
	"mise":   {dirs: []string{"-C", "--cd"}},
	// Configuration managers and process managers whose manifest,
	// state tree or configuration is code (exec resources, cmd.run,
	// Ruby, a program check, a sourced shell file), a repository whose
	// hgrc loads Python extensions and hooks on any command, and a
	// desktop entry gio launch runs.
	"puppet":      {files: []string{"--modulepath", "--hiera_config"}, verbs: set(`apply`), operands: true},
	"salt-call":   {files: []string{"--file-root", "--pillar-root", "-c", "--config-dir"}},
	"chef-client": chefSource,
	"chef-solo":   chefSource,
	"pm2":         {verbs: set(`start restart reload`), operands: true},
	"monit":       {files: []string{"-c"}},
	"dracut":      {files: []string{"-c", "--conf", "--confdir"}},
	"hg":          {files: []string{"--config-file"}, dirs: []string{"-R", "--repository", "--cwd"}},
	"gio":         {verbs: set(`launch`), operands: true},
	// Python application servers and tools that import the project's
	// modules (uvicorn main:app, celery -A proj) or run its files
	// (streamlit run app.py, sphinx-build's conf.py).
	"uvicorn":      {operands: true, modules: true, dirs: []string{"--app-dir"}},
	"hypercorn":    {operands: true, modules: true, files: []string{"-c", "--config"}},
	"daphne":       {operands: true, modules: true},
	"gunicorn":     {operands: true, modules: true, files: []string{"-c", "--config"}, dirs: []string{"--chdir"}},
	"celery":       {files: []string{"-A", "--app", "--config"}, dirs: []string{"--workdir"}, modules: true},
	"flask":        {files: []string{"-A", "--app"}, modules: true},
	"fastapi":      {operands: true, verbs: set(`run dev`)},
	"streamlit":    {operands: true, verbs: set(`run`)},
	"sphinx-build": {operands: true, files: []string{"-c"}},
	"jekyll":       {files: []string{"--plugins"}, dirs: []string{"-s", "--source"}},
	"pulumi":       {dirs: []string{"-C", "--cwd"}},
	// JavaScript and Python tooling whose configuration file is code
	// (eslint.config.js, jest.config.js, a pre-commit hook's entry).
	"eslint":   {files: []string{"-c", "--config", "--resolve-plugins-relative-to", "--rulesdir"}, operands: true},
	"prettier": {files: []string{"--config", "--plugin"}, operands: true},
	// Linters whose configuration is code or loads it (pylint's
	// init-hook and load-plugins, mypy's and rubocop's plugins,
	// stylelint's and vitest's JavaScript), found from the files they
	// check as well as named: prettier, eslint, pylint and rubocop look
	// for it beside each file.
	"pylint":        {files: []string{"--rcfile", "--init-hook", "--load-plugins"}, operands: true},
	"rubocop":       {files: []string{"-c", "--config", "-r", "--require"}, operands: true},
	"stylelint":     {files: []string{"-c", "--config", "--config-basedir", "--custom-syntax"}, operands: true},
	"mypy":          {files: []string{"--config-file"}},
	"vitest":        {files: []string{"-c", "--config"}, dirs: []string{"-r", "--root", "--dir"}},
	"playwright":    {files: []string{"-c", "--config"}},
	"mkdocs":        {files: []string{"-f", "--config-file"}},
	"jest":          {files: []string{"-c", "--config"}, dirs: []string{"--rootDir"}},
	"webpack":       {files: []string{"-c", "--config"}},
	"rollup":        {files: []string{"-c", "--config"}},
	"vite":          {files: []string{"-c", "--config"}},
	"babel":         {files: []string{"--config-file"}},
	"mocha":         {files: []string{"--config", "-r", "--require"}},
	"pre-commit":    {files: []string{"-c", "--config"}},
	"golangci-lint": {files: []string{"-c", "--config"}},
	"less":          {files: []string{"-k", "--lesskey-file", "--lesskey-src"}}, // its #env section can set LESSOPEN
	"npm":           {files: []string{"--userconfig", "--globalconfig"}, dirs: []string{"--prefix", "-C"}, style: noptStyle},
	"yarn":          yarnSource, "yarnpkg": yarnSource,
	// A manifest or chart can run a pod that is root on its node.
	"kubectl": {files: []string{"-f", "--filename", "-k", "--kustomize"}, verbs: set(`apply create replace`)},
	"helm":    {files: []string{"-f", "--values"}, operands: true, verbs: set(`install upgrade`)},
}

// moduleFiles are the files of the Python modules vals name, as an
// application server imports them: pkg.mod:app is pkg/mod.py or
// pkg/mod/__init__.py; a name ending in .py is that file.
func moduleFiles(vals []arg) []arg {
	var out []arg
	for _, v := range vals {
		m, _, _ := strings.Cut(v.val, ":")
		if !v.known || strings.HasSuffix(m, ".py") || strings.Contains(m, "/") {
			out = append(out, v)
			continue
		}
		p := strings.ReplaceAll(m, ".", "/")
		out = append(out, arg{val: p + ".py", known: true}, arg{val: p + "/__init__.py", known: true})
	}
	return out
}

// codeSourceArgs returns the arguments of c in which src's options are
// read, and those whose operands name code: for a program with
// subcommands, around its verb. ok is false when c's verb is not one of
// src's (docker exec).
func (c *call) codeSourceArgs(src codeSource) (args, opArgs []arg, ok bool) {
	if src.verbs == nil {
		return c.args, c.args, true
	}
	if !slices.ContainsFunc(c.args, func(a arg) bool { return src.verbs[a.val] }) {
		return nil, nil, false // a cheap test first: docker exec is common, docker compose less so
	}
	ops := subOperands(c.name, c.vals())
	for src.anyVerb && len(ops) > 1 && !src.verbs[ops[0]] {
		ops = ops[1:] // nix --option k v develop: the value is not the verb
	}
	if len(ops) == 0 || !src.verbs[ops[0]] {
		return nil, nil, false
	}
	after := afterWord(c.args, ops[0])
	if src.first {
		return c.args[:len(c.args)-len(after)], after, true
	}
	return after, after, true // docker compose -f: its options follow the verb
}

// codeSourceAgent says why a file or directory c takes its code from may
// be one the agent wrote, or returns "".
func (c *call) codeSourceAgent(src codeSource) string {
	args, opArgs, ok := c.codeSourceArgs(src)
	if !ok {
		return ""
	}
	if why := c.computedCodeOpt(src, args); why != "" {
		return why
	}
	dirs := c.codeOptVals(src, args, src.dirs)
	for i, d := range dirs {
		if why := codePathAgent(d); why != "" {
			if d.known && strings.HasPrefix(d.val, "/") {
				c.scanWrittenUnder(d.val)
			}
			return "its directory " + why
		}
		if i > 0 && !strings.HasPrefix(d.val, "/") && !strings.HasPrefix(d.val, "~") {
			if why := c.relCodeAgent(dirs[:i], d.val); why != "" {
				return "its directory " + truncate(d.val, 64) + " " + why
			}
		}
	}
	if len(dirs) > 0 && c.e.paths != nil {
		if why := c.projectDirsAgent(dirs); why != "" {
			return "its " + strings.TrimPrefix(why, "its ")
		}
	}
	files := c.codeOptVals(src, args, src.files)
	files = append(files, propVals(args, src.props)...)
	if src.operands {
		files = append(files, c.codeOperands(src, opArgs)...)
	}
	if c.name == "nix" {
		files = flakePaths(files)
	}
	if src.modules {
		files = moduleFiles(files)
	}
	if c.name == "cargo" {
		files = append(files, cargoScript(opArgs)...)
	}
	if c.name == "bazel" || c.name == "bazelisk" {
		files = append(files, bazelOverrides(c.args)...)
	}
	for _, f := range files {
		if why := codePathAgent(f); why != "" {
			return "its code file " + why
		}
		if strings.HasPrefix(f.val, "/") || strings.HasPrefix(f.val, "~") {
			continue
		}
		if why := c.relCodeAgent(dirs, f.val); why != "" {
			return "its code file " + truncate(f.val, 64) + " " + why
		}
	}
	if src.verbs != nil && len(dirs) == 0 && len(files) == 0 && c.e.paths != nil {
		// Named by nothing, the project is the working directory's
		// (docker compose's compose.yaml and .env).
		return c.e.agentCwdOf(true)
	}
	return ""
}

// relCodeAgent says why the relative path f, below the last absolute one
// of dirs or else the working directory, may lead where a tier 1 call
// wrote, or returns "". From a start nothing names (an SSH login's home,
// warden's own directory) only a climb whose rest is temporary (cmake
// ../../../tmp/x) is taken as one: cmake .. there is the operator's tree.
func (c *call) relCodeAgent(dirs []arg, f string) string {
	base := ""
	for _, d := range dirs {
		switch {
		case strings.HasPrefix(d.val, "/"):
			base = d.val
		case base != "":
			base += "/" + d.val
		}
	}
	if base != "" {
		if why := agentPath(base + "/" + f); why != "" {
			return "is relative to " + truncate(base, 64) + " and " + why
		}
		return ""
	}
	if c.e.paths == nil {
		return "" // where relative ones lead is not followed
	}
	if cwds, unknown := c.e.cwds(); !unknown && len(cwds) == 0 && climbs(f) {
		return climbAgent(f)
	}
	if why := c.projectDirsAgent(append(dirs[:len(dirs):len(dirs)], arg{val: f, known: true})); why != "" {
		return "is relative to a directory where " + strings.TrimPrefix(why, "its ")
	}
	return ""
}

// codePathAgent says why the file or directory a names may be the agent's,
// without following relative paths: known only at run time, a glob that
// can match a temporary directory, standard input, a descriptor, or a path
// through a temporary directory.
func codePathAgent(a arg) string {
	v := a.val
	switch {
	case !a.known:
		return truncate(v, 64) + " is known only at run time"
	case a.glob && isPattern(v) && !globUnderSafeDir(v):
		return truncate(v, 64) + " is a pattern that can match a temporary directory"
	case v == "-" || v == "/dev/stdin" || v == "/dev/tty":
		return truncate(v, 64) + " is read from standard input"
	case strings.HasPrefix(v, "/"):
		if why := agentPath(v); why != "" {
			return truncate(v, 64) + " " + why
		}
	case strings.HasPrefix(v, "~"):
		// A home is somewhere below the root: what a climb out of it
		// reaches is taken as if it were the root itself.
		if _, rest, _ := strings.Cut(v, "/"); climbs(rest) {
			if why := climbAgent(rest); why != "" {
				return truncate(v, 64) + " " + why
			}
		}
	}
	return ""
}

// climbs reports whether the relative path p leads above its start.
func climbs(p string) bool {
	cl := path.Clean(p)
	return cl == ".." || strings.HasPrefix(cl, "../")
}

// climbAgent says why the climbing relative path p may reach a place a
// tier 1 call wrote from a start nothing names, taking the start as the
// root (the deepest a climb can reach): ../../tmp/x is /tmp/x.
func climbAgent(p string) string {
	rest := path.Clean(p)
	for rest == ".." || strings.HasPrefix(rest, "../") {
		rest = strings.TrimPrefix(strings.TrimPrefix(rest, ".."), "/")
	}
	if why := agentPath("/" + rest); why != "" {
		return "climbs to /" + truncate(rest, 64) + ", which " + why
	}
	return ""
}

// codeOptVals returns the values of the options names in args, read in
// the program's style.
func (c *call) codeOptVals(src codeSource, args []arg, names []string) []arg {
	if len(names) == 0 {
		return nil
	}
	switch src.style {
	case wordStyle:
		return exactOptVals(args, names...)
	case goStyle:
		return goOptVals(args, names)
	case noptStyle:
		return noptOptVals(args, names) // a computed one is computedCodeOpt's
	}
	return c.optVals(args, names...)
}

// noptOptVals reads options as npm's nopt does: long names abbreviated,
// and a one-letter shorthand (-C for --prefix) also as --C, --C=DIR and
// last in a cluster of shorthands (-gC DIR).
func noptOptVals(args []arg, names []string) []arg {
	out := abbrevOptVals(args, names)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if !a.known || !strings.HasPrefix(a.val, "-") || a.val == "--" {
			continue
		}
		name, val, eq := strings.Cut(a.val, "=")
		for _, n := range names {
			if len(n) != 2 {
				continue
			}
			switch {
			case name == "-"+n:
				if eq {
					out = append(out, arg{val: val, known: true, glob: a.glob})
				} else if i+1 < len(args) {
					i++
					out = append(out, args[i])
				}
			case !eq && len(name) > 2 && name[1] != '-' && strings.HasSuffix(name, n[1:]) && i+1 < len(args):
				i++
				out = append(out, args[i])
			default:
				continue
			}
			break
		}
	}
	return out
}

// goOptVals reads options as Go's flag package does: one or two dashes,
// the value after "=" or in the next word, up to the first operand.
func goOptVals(args []arg, names []string) []arg {
	var out []arg
	for i := 0; i < len(args); i++ {
		v := args[i].val
		if v == "--" || !strings.HasPrefix(v, "-") {
			break
		}
		name, val, eq := strings.Cut(strings.TrimPrefix(v, "-"), "=")
		name = "-" + strings.TrimPrefix(name, "-")
		for _, n := range names {
			if "-"+strings.TrimLeft(n, "-") != name {
				continue
			}
			switch {
			case eq:
				out = append(out, arg{val: val, known: args[i].known, glob: args[i].glob})
			case i+1 < len(args):
				i++
				out = append(out, args[i])
			}
			break
		}
	}
	return out
}

// codeOperands returns the operands among args (a subcommand's words,
// for a program with verbs): a test path, a source tree. A word after an
// option without "=" may be that option's value; it is taken as an
// operand too unless it is computed, which an option's value often is
// (go test -run "$T"), or the value of one of src's own options.
func (c *call) codeOperands(src codeSource, args []arg) []arg {
	var out []arg
	for i, a := range args {
		if a.known && a.val == "--" {
			break
		}
		if strings.HasPrefix(strings.TrimPrefix(a.val, `"`), "-") {
			continue // an option; a computed one is computedCodeOpt's
		}
		if i > 0 && args[i-1].known && strings.HasPrefix(args[i-1].val, "-") && !strings.Contains(args[i-1].val, "=") {
			if !a.known || slicesHas(src.files, args[i-1].val) || slicesHas(src.dirs, args[i-1].val) {
				continue
			}
		}
		if v, ok := strings.CutSuffix(a.val, "..."); ok && a.known {
			// A Go package pattern: the directory it starts from.
			a.val = path.Clean(strings.TrimSuffix(v, "/") + "/.")
		}
		out = append(out, a)
	}
	return out
}

// computedCodeOpt says why a word of args computed at run time may become
// an option naming c's code (make $x with x='-f /tmp/M'), or returns "".
// A word whose literal start already fixes a harmless option, as
// -j$(nproc) and --jobs=$n do, cannot.
func (c *call) computedCodeOpt(src codeSource, args []arg) string {
	for _, a := range args {
		if a.known && a.val == "--" {
			break
		}
		if a.known || !c.mayBeOption(a) || c.harmlessLead(src, a.val) {
			continue
		}
		c.e.opaque = true
		return truncate(a.val, 64) + " is computed at run time and can become an option naming its code"
	}
	return ""
}

// harmlessLead reports whether the literal start of a computed word fixes
// an option that names no code: a long one up to its "=", or a cluster
// reaching a short option that takes the rest as its value.
func (c *call) harmlessLead(src codeSource, w string) bool {
	w = strings.TrimPrefix(w, `"`)
	if i := strings.IndexAny(w, "$`\"'\\{[*?~"); i >= 0 {
		w = w[:i]
	}
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	names := append(src.files[:len(src.files):len(src.files)], src.dirs...)
	if strings.HasPrefix(w, "--") && strings.Contains(w, "=") {
		name, _, _ := strings.Cut(w, "=")
		for _, n := range names {
			if n == name || len(name) > 3 && strings.HasPrefix(n, name) || src.style == noptStyle && "-"+n == name {
				return false // nopt takes --C=DIR as -C=DIR
			}
		}
		return true
	}
	if strings.HasPrefix(w, "--") || src.style != getoptStyle {
		// A word the expansion may still continue into a code option's
		// name, or one holding such an option with its value attached.
		for _, n := range names {
			if strings.HasPrefix(n, w) || strings.HasPrefix(w, n) {
				return false
			}
		}
		return true
	}
	values := c.valueLetters()
	for j := 1; j < len(w); j++ {
		for _, n := range names {
			if len(n) == 2 && n[1] == w[j] {
				return false
			}
		}
		if strings.IndexByte(values, w[j]) >= 0 {
			return true
		}
	}
	return false
}

// scanWrittenUnder meets the deny list with the literal text the script
// wrote to files below dir (printf … > /tmp/d/Makefile; make -C /tmp/d),
// as classify.go does for a file named on the command line.
func (c *call) scanWrittenUnder(dir string) {
	prefix := strings.TrimSuffix(path.Clean(dir), "/") + "/"
	c.scanWritten(func(f string) bool { return strings.HasPrefix(f, prefix) })
}

// scanWritten meets the deny list with the literal text the script wrote
// to the files match accepts.
func (c *call) scanWritten(match func(string) bool) {
	var names []string
	for s := c.ctx.sc; s != nil; s = s.outer {
		for f := range s.files {
			if match(f) {
				names = append(names, f)
			}
		}
	}
	slices.Sort(names) // the first denial found names the same file each time
	for _, f := range names {
		for _, t := range c.ctx.sc.fileTexts(f) {
			c.e.scanText(t)
		}
	}
}

// projectFiles are the names of the files whose code a project program
// runs from its working directory.
var projectFiles = set(`Makefile makefile GNUmakefile BSDmakefile build.ninja justfile Justfile .justfile
	Taskfile.yml Taskfile.yaml Rakefile rakefile SConstruct SConscript build.xml pom.xml build.gradle
	build.gradle.kts settings.gradle CMakeLists.txt meson.build package.json .npmrc .yarnrc.yml tox.ini
	noxfile.py conftest.py setup.py pyproject.toml tasks.py fabfile.py dodo.py Gruntfile.js gulpfile.js
	Tiltfile Vagrantfile compose.yaml compose.yml docker-compose.yml docker-compose.yaml ansible.cfg
	.pre-commit-config.yaml eslint.config.js jest.config.js webpack.config.js vite.config.js flake.nix shell.nix
	default.nix devbox.json Cargo.toml build.rs rust-toolchain rust-toolchain.toml .tool-versions global.json .envrc
	Gemfile Brewfile Guardfile Capfile Podfile Fastfile Berksfile Dangerfile composer.json Makefile.PL Build.PL
	cpanfile mix.exs build.sbt`)

// projectFile reports whether f, a relative name the script wrote to, is
// a project's code: one of projectFiles, or under .git or .hg (config,
// hooks). Absolute names are matched where they are named.
func projectFile(f string) bool {
	if strings.HasPrefix(f, "/") {
		return false
	}
	return projectFiles[path.Base(f)] || strings.HasSuffix(f, ".gemspec") || strings.HasPrefix(f, ".git/") || strings.HasPrefix(f, ".hg/") ||
		strings.Contains(f, "/.git/") || strings.Contains(f, "/.hg/")
}

// flakePaths returns the local paths nix's flake references among files
// name (path:/tmp/x, git+file:///tmp/x?dir=y, /tmp/x#app), as paths.
func flakePaths(files []arg) []arg {
	for i, f := range files {
		v := f.val
		for _, scheme := range []string{"path:", "git+file:", "hg+file:", "tarball+file:", "file+file:", "file:"} {
			if rest, ok := strings.CutPrefix(v, scheme); ok {
				v = "/" + strings.TrimLeft(rest, "/")
				if !strings.HasPrefix(rest, "/") {
					v = rest // path:./x is relative
				}
				break
			}
		}
		if j := strings.IndexAny(v, "?#"); j > 0 {
			v = v[:j]
		}
		files[i].val = v
	}
	return files
}

// afterWord returns the words of args after the first literal w, or args.
func afterWord(args []arg, w string) []arg {
	for i, a := range args {
		if a.known && a.val == w {
			return args[i+1:]
		}
	}
	return args
}

// agentPath says why the absolute path p may be one a tier 1 call wrote,
// or returns "": it passes through a temporary directory (also past a
// link and "..", which lead where the link does) or a descriptor.
func agentPath(p string) string {
	if strings.HasPrefix(path.Clean(p), "/dev/fd/") {
		return "is a descriptor the input opened"
	}
	for i := 1; i < len(p); i++ {
		if p[i] == '/' && agentDir(p[:i]) {
			return "is under " + truncate(p[:i], 64)
		}
	}
	if agentDir(p) {
		return "is under a temporary directory or a descriptor"
	}
	return ""
}

// propVals returns the values of the JVM system properties names sets in
// args, as -Dname=value or -D name=value (maven takes both).
func propVals(args []arg, names []string) []arg {
	if len(names) == 0 {
		return nil
	}
	var out []arg
	for i, a := range args {
		v := a.val
		if !strings.HasPrefix(v, "-D") {
			continue
		}
		if v == "-D" && i+1 < len(args) {
			a = args[i+1]
			v = a.val
		} else {
			v = v[2:]
		}
		k, val, ok := strings.Cut(v, "=")
		if ok && slices.Contains(names, k) {
			out = append(out, arg{val: val, known: a.known, glob: a.glob})
		}
	}
	return out
}

// cargoScript returns cargo's first operand when it names a script cargo
// builds and runs (cargo /tmp/x/s.rs, cargo -Zscript ./s.rs): a path, or a
// file ending in .rs, where a subcommand is a bare name.
func cargoScript(args []arg) []arg {
	skip := false
	for _, a := range args {
		v := a.val
		if skip || !a.known || strings.HasPrefix(v, "+") {
			skip = false
			continue // an option's value, a toolchain; a computed word is computedCodeOpt's
		}
		if strings.HasPrefix(v, "-") {
			switch v {
			case "-Z", "--config", "-C", "--color", "--manifest-path":
				skip = true
			}
			continue
		}
		if strings.Contains(v, "/") || strings.HasSuffix(v, ".rs") {
			return []arg{a}
		}
		return nil
	}
	return nil
}

// bazelOverrides returns the directories a bazel command's options put in
// place of a repository or module (--override_repository=NAME=DIR,
// --override_module=NAME=DIR) or the registry it reads modules from
// (--registry=file:///DIR): their BUILD and .bzl files are Starlark whose
// repository rules run programs, on a query too. They follow the
// command, where bazelrc's startup options do not.
func bazelOverrides(args []arg) []arg {
	var out []arg
	for i, a := range args {
		name, val, eq := strings.Cut(a.val, "=")
		switch name {
		case "--override_repository", "--override_module", "--registry":
		default:
			continue
		}
		if !eq {
			if i+1 >= len(args) {
				continue
			}
			a = args[i+1]
			val = a.val
		}
		if name != "--registry" {
			_, val, _ = strings.Cut(val, "=")
		} else if v, ok := strings.CutPrefix(val, "file://"); ok {
			val = v
		} else if a.known {
			continue // a registry reached over the network
		}
		out = append(out, arg{val: val, known: a.known, glob: a.glob})
	}
	return out
}
