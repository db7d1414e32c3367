package policy

import (
	"strings"
)

// makeProgram: make runs the recipes of its makefile (TierMutate); --eval
// text, a makefile from standard input and a replaced SHELL are code the
// classifier cannot read.
func makeProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": runs the build's recipes"}
	for _, v := range c.optVals(c.args, "--eval", "-E") {
		c.e.opaque = true
		c.e.scanText(v.val)
		for _, s := range makeShellCalls(v.val) {
			c.shell(s, c.name+" $(shell)", nil, false)
		}
		r.raise(TierDestructive, c.name+" --eval: evaluates makefile text")
	}
	for _, f := range c.optVals(c.args, "-f", "--file", "--makefile") {
		if !f.known || f.val == "-" || f.val == "/dev/stdin" || strings.HasPrefix(f.val, "/dev/fd/") || strings.HasPrefix(f.val, "/proc/") {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" -f "+f.val+": reads a makefile the classifier cannot see")
		}
	}
	for _, a := range c.args {
		n, op, val, ok := makeAssign(a.val)
		if !ok || strings.HasPrefix(a.val, "-") { // --jobs=$n is an option
			continue
		}
		if !a.known || n == "SHELL" || n == ".SHELLFLAGS" || n == "MAKESHELL" || n == "MAKEFLAGS" || n == "MAKEFILES" {
			c.e.opaque = true
			r.raise(TierDestructive, c.name+" "+truncate(a.val, 64)+": replaces the shell recipes run in")
		}
		calls := makeShellCalls(val)
		if op == "!=" {
			calls = append(calls, val) // NAME != command runs it now
		}
		for _, cmd := range calls {
			c.shell(cmd, c.name+" variable's shell command", nil, false)
			r.raise(TierDestructive, c.name+" "+truncate(n, 64)+op+": runs a shell command")
		}
	}
	return r.t, r.why
}

// makeAssign splits a command-line variable definition of make: NAME=v,
// NAME:=v, NAME::=v, NAME:::=v, NAME?=v, NAME+=v, and NAME!=command.
func makeAssign(s string) (name, op, val string, ok bool) {
	i := strings.IndexByte(s, '=')
	if i <= 0 {
		return "", "", "", false
	}
	name, op, val = s[:i], "=", s[i+1:]
	for _, p := range []string{":::", "::", ":", "?", "+", "!"} {
		if strings.HasSuffix(name, p) {
			name, op = name[:len(name)-len(p)], p+"="
			break
		}
	}
	return strings.TrimSpace(name), op, val, name != ""
}

// makeShellCalls returns the commands of $(shell …) and ${shell …} in make text.
func makeShellCalls(s string) []string {
	var out []string
	for _, open := range []string{"$(shell ", "${shell "} {
		rest := s
		for {
			i := strings.Index(rest, open)
			if i < 0 || len(out) >= maxAlts {
				break
			}
			rest = rest[i+len(open):]
			closer := byte(')')
			if open[1] == '{' {
				closer = '}'
			}
			depth, j := 1, 0
			for ; j < len(rest) && depth > 0; j++ {
				switch rest[j] {
				case open[1]:
					depth++
				case closer:
					depth--
				}
			}
			out = append(out, strings.TrimSuffix(rest[:j], string(closer)))
			rest = rest[j:]
		}
	}
	return out
}

// cmakeCode are cache variables whose value cmake runs or loads as code.
var cmakeCode = []string{"LAUNCHER", "CMAKE_PROJECT_INCLUDE", "CMAKE_PROJECT_TOP_LEVEL_INCLUDES",
	"CMAKE_TOOLCHAIN_FILE", "CMAKE_USER_MAKE_RULES_OVERRIDE", "_COMPILER", "CMAKE_MAKE_PROGRAM",
	"_LINKER", "CMAKE_AR", "CMAKE_RANLIB", "CMAKE_STRIP", "CMAKE_OBJCOPY", "CMAKE_OBJDUMP",
	"CMAKE_CROSSCOMPILING_EMULATOR", "_CLANG_TIDY", "_CPPCHECK", "_CPPLINT", "_INCLUDE_WHAT_YOU_USE",
	"CMAKE_MODULE_PATH", "CMAKE_PREFIX_PATH", "_DIR", "CMAKE_POLICY_DEFAULT"}

// cmakeProgram: -P runs a script, -C and --toolchain load code, some -D
// variables name programs, and -E is a toolbox whose tools remove files
// or run commands.
func cmakeProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, "cmake: configures and runs a build"}
	args := c.args
	for i, a := range args {
		if a.known && a.val == "-E" {
			return c.cmakeTool(args[i+1:])
		}
	}
	for _, f := range c.optVals(args, "-P", "-C", "--toolchain", "--preset") {
		if !f.known || !strings.HasSuffix(f.val, "Presets.json") {
			c.e.opaque = true
			r.raise(TierDestructive, "cmake: runs CMake code from "+truncate(f.val, 64))
		}
	}
	// Files cmake writes besides the build tree.
	for _, f := range c.optVals(args, "--graphviz", "--profiling-output", "--trace-redirect", "--system-information") {
		r.raise(c.writeArg(f, "cmake output"))
	}
	for _, d := range c.optVals(args, "-D") {
		name, _, _ := strings.Cut(d.val, "=")
		name, _, _ = strings.Cut(name, ":")
		for _, s := range cmakeCode {
			if !d.known || strings.Contains(strings.ToUpper(name), s) {
				c.e.opaque = true
				r.raise(TierDestructive, "cmake -D "+truncate(name, 64)+": names a program or code cmake runs")
				break
			}
		}
	}
	return r.t, r.why
}

// cmakeTool classifies cmake -E TOOL ARGS.
func (c *call) cmakeTool(rest []arg) (Tier, string) {
	if len(rest) == 0 {
		return TierRead, "cmake -E: lists tools"
	}
	tool := rest[0].val
	if !rest[0].known {
		c.e.opaque = true
		return TierDestructive, "cmake -E: tool computed at run time"
	}
	args := rest[1:]
	switch tool {
	case "env":
		i := 0
		for i < len(args) && (strings.HasPrefix(args[i].val, "-") || strings.Contains(args[i].val, "=")) {
			// NAME=VALUE and --modify NAME=OP:VALUE set the command's
			// environment, as env's words do (LD_PRELOAD=/tmp/x.so).
			if n, v, ok := strings.Cut(strings.TrimPrefix(args[i].val, "--modify="), "="); ok && !strings.HasPrefix(n, "-") {
				if args[i].known {
					c.e.envVarCtx(n, v, c.ctx, "cmake -E env")
				} else {
					c.e.unknownVar(n, c.ctx, "cmake -E env")
				}
			}
			i++
		}
		if i < len(args) {
			c.run(args[i:])
		}
		return TierRead, "cmake -E env"
	case "chdir":
		// The command runs in DIR, as after cd DIR.
		if len(args) > 0 && c.e.pathsFor() != nil {
			c.e.cdTo(args[0])
		}
		if len(args) > 1 {
			c.run(args[1:])
		}
		return TierRead, "cmake -E chdir"
	case "time":
		c.run(args)
		return TierRead, "cmake -E time"
	case "rm", "remove", "remove_directory", "rmdir":
		vals := argVals(args)
		if tool == "remove_directory" {
			vals = append([]string{"-r"}, vals...)
		}
		if why := rmDeny(vals); why != "" {
			c.e.deny("cmake -E " + why)
		}
		if tool == "remove_directory" || hasFlag(vals, 'r', "") || hasFlag(vals, 'R', "") || hasFlag(vals, 'f', "") {
			return TierDestructive, "cmake -E " + tool + ": removes files"
		}
		return TierMutate, "cmake -E " + tool + ": removes files"
	case "echo", "echo_append", "cat", "capabilities", "compare_files", "environment", "md5sum", "sha1sum",
		"sha224sum", "sha256sum", "sha384sum", "sha512sum", "true", "false", "sleep":
		return TierRead, "cmake -E " + tool
	}
	r := raiser{TierMutate, "cmake -E " + tool + ": writes files"}
	if eq, ok := cmakeEquivalents[tool]; ok {
		// Classified as the command it does the work of, deny list
		// included: cmake -E rename /etc x is mv /etc x.
		c.run(append(argsOf(eq...), args...))
	}
	if len(args) > 0 {
		r.raise(c.writeArg(args[len(args)-1], "cmake -E "+tool))
	}
	return r.t, r.why
}

// ninjaProgram: ninja runs its build (TierMutate); its -t query tools read.
func ninjaProgram(c *call) (Tier, string) {
	for _, t := range c.optVals(c.args, "-t") {
		switch t.val {
		case "query", "targets", "commands", "graph", "deps", "compdb", "rules", "inputs", "missingdeps", "list", "multi-inputs", "urtle":
			return TierRead, "ninja -t " + t.val
		}
	}
	return TierMutate, "ninja: runs the build's commands"
}

// debuggerProgram: debuggers run programs and commands (TierDestructive);
// shell commands in their -ex options are classified too.
func debuggerProgram(c *call) (Tier, string) {
	for _, v := range c.optVals(c.args, "-ex", "--ex", "-eval-command", "--eval-command", "-iex", "--init-eval-command", "-o", "--one-line", "-O", "--one-line-before-file") {
		if !v.known {
			continue
		}
		c.e.scanText(v.val)
		s := strings.TrimSpace(v.val)
		for _, p := range []string{"shell ", "!", "pipe ", "|", "platform shell "} {
			if strings.HasPrefix(s, p) {
				c.shell(strings.TrimPrefix(s, p), c.name+" shell command", nil, false)
				break
			}
		}
	}
	c.e.opaque = true
	return TierDestructive, c.name + ": runs and changes programs"
}

// goFlagWrites are go build and test flags whose value is a file the go
// command writes.
var goFlagWrites = set(`o coverprofile cpuprofile memprofile blockprofile mutexprofile trace outputdir`)

// goFlagPrograms are go flags whose value is a program the go command runs:
// -toolexec around every tool, -exec for the built binary, -vettool.
var goFlagPrograms = set(`toolexec exec vettool`)

// goBuildFlags classifies the flags of a go command that builds (build,
// test, run, vet, list, install, get): flags that run another program are
// TierDestructive and classify that program; flags that write files are
// checked like redirections. Flags are read as Go's flag package reads
// them: one or two dashes, the value after "=" or in the next word, and
// anywhere before "--" or -args (go test passes later flags on too).
func (c *call) goBuildFlags(verb string, flags []string) (Tier, string) {
	var r raiser
	r.raise(TierRead, "go "+verb)
	for k := 0; k < len(flags); k++ {
		f := flags[k]
		if f == "--" || f == "-args" || f == "--args" {
			break
		}
		if !strings.HasPrefix(f, "-") {
			continue
		}
		name, val, attached := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(f, "-"), "-"), "=")
		takes := goFlagPrograms[name] || goFlagWrites[name] || name == "overlay" || name == "modfile"
		if takes && !attached && k+1 < len(flags) {
			k++
			val = flags[k]
		}
		switch {
		case goFlagPrograms[name]:
			c.shell(val, "go -"+name+" program", nil, false) // go splits it into a program and its arguments
			r.raise(TierDestructive, "go "+verb+" -"+name+": runs another program as the build")
		case name == "overlay":
			r.raise(TierDestructive, "go "+verb+" -overlay: replaces the files the build reads")
		case goFlagWrites[name]:
			r.raise(c.writeArg(arg{val: val, known: true}, "go "+verb+" -"+name))
		case verb == "list" && (name == "export" || name == "compiled"):
			r.raise(TierMutate, "go list -"+name+": builds the packages")
		case verb == "list" && (name == "mod" || name == "modfile"):
			r.raise(TierMutate, "go list -"+name+": may rewrite go.mod")
		}
	}
	return r.t, r.why
}

// cmakeEquivalents are the commands cmake -E tools do the work of.
var cmakeEquivalents = map[string][]string{
	"rename": {"mv"}, "copy": {"cp"}, "copy_if_different": {"cp"}, "copy_directory": {"cp", "-r"},
	"copy_directory_if_different": {"cp", "-r"}, "create_symlink": {"ln", "-s"}, "create_hardlink": {"ln"},
	"make_directory": {"mkdir", "-p"}, "touch": {"touch"}, "touch_nocreate": {"touch", "-c"},
}

// argsOf makes literal arguments.
func argsOf(vals ...string) []arg {
	out := make([]arg, len(vals))
	for i, v := range vals {
		out[i] = arg{val: v, known: true}
	}
	return out
}

// rakeProgram: rake runs the Rakefile's tasks like make (tier 2), and the
// Ruby its options carry (-e, -E, -p and --execute*) or load (-r,
// --require) before them: code the classifier does not read.
func rakeProgram(c *call) (Tier, string) {
	for _, a := range c.args {
		v := a.val
		if v == "--" {
			break
		}
		if !a.known {
			c.e.opaque = true
			return TierDestructive, "rake: an option computed at run time may be Ruby code"
		}
		if rakeCode(v) || strings.HasPrefix(v, "--exec") || strings.HasPrefix(v, "--req") {
			c.e.opaque = true
			return TierDestructive, "rake " + truncate(v, 32) + ": runs Ruby code the classifier does not read"
		}
	}
	return TierMutate, "rake: runs the Rakefile's tasks"
}

// rakeCode reports whether a cluster of rake's short options holds one
// that runs or loads Ruby (-e, -E, -p, -r) before one that takes the rest
// as its value (-f FILE, -I DIR, -R DIR, -j N, -T, -D, -W PATTERN).
func rakeCode(v string) bool {
	if len(v) < 2 || v[0] != '-' || v[1] == '-' {
		return false
	}
	for _, f := range v[1:] {
		switch {
		case strings.ContainsRune("eEpr", f):
			return true
		case strings.ContainsRune("fIRjTDW", f):
			return false
		}
	}
	return false
}

// cargoConfigRisky reports whether a cargo configuration key can choose a
// program cargo runs (build.rustc-wrapper, target.x.runner, aliases,
// credential providers, environment for build scripts).
func cargoConfigRisky(k string) bool {
	for _, p := range []string{"build.rustc", "build.rustdoc", "build.rustflags", "target.", "host.", "env", "alias.", "credential", "registry.", "registries.",
		"net.git-fetch-with-cli", "unstable.", "source.", "patch."} {
		if strings.HasPrefix(k, p) {
			return true
		}
	}
	return false
}

// gradleProgram: gradle runs the build's scripts (TierMutate), and an init
// script given with -I or --init-script (any abbreviation) is code from
// outside the build, run before it: TierDestructive, as cmake -P is. So is
// a word computed at run time that can become an option: -Pv=$x splits
// into -Pv=a and -I/tmp/x when x holds "a -I/tmp/x".
func gradleProgram(c *call) (Tier, string) {
	if a, ok := c.computedOption(c.args); ok {
		c.e.opaque = true
		return TierDestructive, c.name + " " + truncate(a.val, 32) + ": an option computed at run time may be -I"
	}
	for _, a := range c.args {
		v := a.val
		if v == "--" {
			break
		}
		if strings.HasPrefix(v, "-I") || longFlag(v, "--init-script") && len(v) > len("--in") {
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(v, 32) + ": runs an init script from outside the build"
		}
	}
	return TierMutate, c.name + ": runs the build's scripts"
}
