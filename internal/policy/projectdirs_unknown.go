package policy

import (
	"path"
	"strings"
)

// A program the classifier does not know is tier 2: what it does is
// unknown, and many such programs take code from the directory they run
// in — nix's flake.nix and shell.nix, pipenv's, hatch's and pixi's
// scripts, vitest's, playwright's and postcss' JavaScript configuration,
// mkdocs' hooks, jekyll's _plugins, conan's conanfile.py, platformio's
// extra_scripts, fastlane's Fastfile, jj's repository configuration,
// direnv's .envrc, the toolchain a version manager's shim picks. The
// lists of project programs (projectdirs.go) cannot name them all, so an
// unknown program run where the working directory is a temporary one, or
// one known only at run time, is tier 3 as git there is: open mode would
// otherwise run, unapproved, what a tier 1 write put in that directory,
// and on a plain SSH host nothing else holds it.

// unknownInProject raises the tier t of the unknown program c to tier 3
// when its working directory, or the project or configuration an option
// names, may be one the agent wrote.
func (c *call) unknownInProject(t Tier, why string) (Tier, string) {
	if t >= TierDestructive || c.ctx.inArgs {
		return t, why
	}
	if where := c.placeOptAgent(); where != "" {
		c.e.opaque = true
		return TierDestructive, why + ", which may run code from " + where
	}
	if where := c.sharedLibAgent(); where != "" {
		c.e.opaque = true
		return TierDestructive, why + ", given a shared library it may load: " + where
	}
	if where := c.runOperandAgent(); where != "" {
		c.e.opaque = true
		return TierDestructive, why + ", told to run or install what a benign call may have written: " + where
	}
	if c.e.paths == nil {
		return t, why
	}
	if where := c.e.agentCwdOf(true); where != "" {
		// What the script wrote there by relative name may be the file it
		// reads (printf … > flake.nix && nix develop): any such file.
		c.scanWritten(relativeFile)
		c.e.opaque = true
		return TierDestructive, why + ", which may run code from the directory it runs in, and " + where
	}
	return t, why
}

// sharedLibAgent says why a shared library an unknown program is given
// (an operand, or the value in an argument after "=" or ":", as ffmpeg's
// -af ladspa=file=/tmp/x.so and sox's effects spell it) may be one a
// benign call wrote, or returns "". A library is code by its name.
func (c *call) sharedLibAgent() string {
	for _, a := range c.args {
		if !a.known {
			continue
		}
		for _, piece := range valuePieces(a.val) {
			if !sharedLibName(piece) {
				continue
			}
			if why := codePathAgent(arg{val: piece, known: true}); why != "" {
				return why
			}
			if !strings.HasPrefix(piece, "/") && !strings.HasPrefix(piece, "~") && c.e.paths != nil {
				if where := c.e.agentCwdOf(true); where != "" {
					return piece + " is relative, and " + where
				}
			}
		}
	}
	return ""
}

// valuePieces splits an argument at the separators that put a file in
// one: --opt=FILE, effect=file=FILE, a:FILE, a list's FILE,FILE.
func valuePieces(v string) []string {
	return strings.FieldsFunc(v, func(r rune) bool { return r == '=' || r == ':' || r == ',' })
}

// sharedLibName reports whether p names a shared library: x.so, x.so.1,
// x.dylib.
func sharedLibName(p string) bool {
	b := path.Base(p)
	if strings.HasSuffix(b, ".dylib") {
		return true
	}
	i := strings.Index(b, ".so")
	if i <= 0 {
		return false
	}
	rest := b[i+3:]
	return rest == "" || rest[0] == '.' && strings.Trim(rest, ".0123456789") == ""
}

// relativeFile reports whether f, a name the script wrote to, is relative
// to the working directory.
func relativeFile(f string) bool { return !strings.HasPrefix(f, "/") }

// placeWords are the words of option names that name a program's project,
// working directory, repository or configuration (--config, --rcfile,
// --project-dir, --chdir, --root, --plugin, --repository): an unknown program given one takes code from
// it as the programs the classifier knows do (codesources.go).
var placeWords = set(`config conf cfg rc rcfile configfile dir directory cwd chdir project root rootdir manifest settings
	workdir working plugin plugins require load init hook hooks repository repo repodir`)

// placeOptAgent says why a place an unknown program's option names (by a
// name made of placeWords, or -C) may be one a tier 1 call wrote, or
// returns "": a temporary directory, a climb to one, or a value known
// only at run time.
func (c *call) placeOptAgent() string {
	for i, a := range c.args {
		v := a.val
		if len(v) < 2 || v[0] != '-' || v == "--" {
			continue
		}
		name, val, has := strings.Cut(v, "=")
		if !a.known && (!has || strings.ContainsAny(name, "$`\"'\\")) {
			continue // computed words are computedArgs'; --config="$d"/c names its option
		}
		if name != "-C" && !placeName(optionWord(name)) {
			continue
		}
		place := arg{val: val, known: a.known}
		switch {
		case has:
		case i+1 < len(c.args) && !strings.HasPrefix(c.args[i+1].val, "-"):
			place = c.args[i+1]
		default:
			continue
		}
		why := codePathAgent(place)
		if why == "" && place.known && climbs(place.val) {
			why = climbAgent(place.val)
		}
		if why != "" {
			return name + ": " + why
		}
	}
	return ""
}

// optionWord returns the name of a long option without its dashes: --NAME,
// or -NAME of four letters or more, as Go's flag package, Qt and X
// programs spell theirs (-config, -platformpluginpath); "" otherwise.
func optionWord(opt string) string {
	if n, ok := strings.CutPrefix(opt, "--"); ok {
		return n
	}
	if len(opt) > 4 && opt[1] != '-' {
		return opt[1:]
	}
	return ""
}

// placeName reports whether the long option name n (without dashes) is
// made of a word of placeWords, one ending in config or rcfile, or one
// holding plugin: config-file, rcfile, project_dir, kubeconfig,
// pluginpath.
func placeName(n string) bool {
	for len(n) > 0 {
		i := strings.IndexAny(n, "-_")
		w := n
		if i >= 0 {
			w, n = n[:i], n[i+1:]
		} else {
			n = ""
		}
		if w = strings.ToLower(w); placeWords[w] || strings.HasSuffix(w, "config") || strings.HasSuffix(w, "rcfile") || strings.Contains(w, "plugin") {
			return true // kubeconfig, sshconfig, npmrcfile, platformpluginpath
		}
	}
	return false
}

// runVerbs are the subcommands with which a program runs (or loads, or
// serves, or renders with its code cells, or installs, its build and
// install scripts run) the file or directory it is given: coverage run F,
// streamlit run F, uv run F, k6 run F, jupyter execute NB, quarto render
// DOC, runc run -b DIR, uv tool install DIR, code --install-extension F.
// uvx is uv tool run.
var (
	runVerbs    = set(`run exec execute start serve test eval load source launch render install`)
	runPrograms = set(`uvx`)
)

// runOperandAgent says why what an unknown program is told to run — an
// operand or an option's value after one of runVerbs among its first two
// operands — may be one a tier 1 call wrote, or returns "": under a
// temporary directory, or a climb to one. What follows another verb
// (shellcheck /tmp/x.sh, a --source or --output) may be data, and keeps
// the program's tier; relative names are the working directory's rule.
func (c *call) runOperandAgent() string {
	if runPrograms[c.name] {
		return runPathsAgent(c.args)
	}
	ops := 0
	for i, a := range c.args {
		v := a.val
		if !a.known || v == "" || v == "--" {
			continue // computed words are argCommand's
		}
		if v[0] == '-' {
			if n, _, _ := strings.Cut(v, "="); strings.HasPrefix(n, "--install") {
				return runPathsAgent(c.args[i:]) // code --install-extension F
			}
			continue
		}
		if ops++; ops > 2 {
			return ""
		}
		if runVerbs[v] {
			return runPathsAgent(c.args[i+1:])
		}
	}
	return ""
}

// runPathsAgent says why a path among args (a word, or an option's value
// after "=" or attached to a short option) may be one a tier 1 call
// wrote, or returns "".
func runPathsAgent(args []arg) string {
	for _, a := range args {
		if !a.known {
			continue
		}
		v := a.val
		if strings.HasPrefix(v, "-") {
			if _, val, ok := strings.Cut(v, "="); ok {
				v = val
			} else if i := strings.IndexByte(v, '/'); i > 1 && v[1] != '-' {
				v = v[i:] // -b/tmp/x
			} else {
				continue
			}
		}
		switch {
		case strings.HasPrefix(v, "/") || strings.HasPrefix(v, "~"):
			if why := codePathAgent(arg{val: v, known: true}); why != "" {
				return why
			}
		case climbs(v):
			if why := climbAgent(v); why != "" {
				return truncate(v, 64) + " " + why
			}
		}
	}
	return ""
}
