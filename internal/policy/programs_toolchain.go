package policy

import "strings"

// Compilers, assemblers, linkers and binary tools. Compiling writes
// (TierMutate), and the file -o names (also -MF's dependency file, ld's
// -Map, objcopy's and cpp's second operand, objcopy --dump-section's
// file) goes through writeTarget, so "gcc -o /dev/sda" is denied like a
// redirection. Options that load or run code of the caller's choosing
// are TierDestructive: GCC and Clang plugins (-fplugin, -fpass-plugin,
// -Xclang -load), -wrapper, a -B prefix or -specs file naming the
// compiler's own programs, a linker given by path (-fuse-ld=/x,
// --ld-path), the linker plugins of ld, nm, objcopy and strip, rustc's
// -C linker and codegen backends, and options read from an @file or a
// Clang --config file. The binary readers (nm, objdump, readelf, size)
// and cpp to standard output are reads. Versioned names (gcc-13, clang-17) are the same programs.

// toolchainPrograms are the programs toolchainProgram classifies.
var toolchainPrograms = set(`gcc cc g++ c++ clang clang++ cpp gfortran as ld ld.bfd ld.gold ld.lld lld
	objcopy strip nm objdump readelf size rustc`)

// toolchainReaders only read the files they are given.
var toolchainReaders = set(`nm objdump readelf size cpp`)

// binutilsGetopt are the binary tools that read their long options with
// getopt_long, which takes any unambiguous abbreviation: nm --plu=/tmp/x.so
// loads the plugin as --plugin does (the compilers' drivers and ld take
// whole names only).
var binutilsGetopt = set(`nm objdump readelf size objcopy strip`)

// toolchainLoads are option prefixes that make a compiler or linker load
// or run a program or shared object of the caller's choosing. Clang's
// --config FILE (and --config-system-dir, --config-user-dir, where it
// looks for one) reads options, -fplugin and -B among them, from a file.
var toolchainLoads = []string{"-fplugin", "-fpass-plugin", "-wrapper", "-specs", "--specs",
	"--ld-path", "-load", "--plugin", "-plugin", "-Wl,--plugin", "-Wl,-plugin", "-Zcodegen-backend",
	"-Clinker=", "-Cllvm-args=-load", "--config"}

// toolchainProgram classifies the programs toolchainPrograms names.
func toolchainProgram(c *call) (Tier, string) {
	r := raiser{TierMutate, c.name + ": changes the system"}
	if toolchainReaders[c.name] {
		r = raiser{TierRead, c.name + ": reads binaries"}
	}
	compiler := !toolchainReaders[c.name] && !strings.HasPrefix(c.name, "ld") && c.name != "lld" &&
		c.name != "objcopy" && c.name != "strip" && c.name != "as"
	if binutilsGetopt[c.name] && len(c.optVals(c.args, "--plugin")) > 0 {
		c.e.opaque = true
		return TierDestructive, c.name + " --plugin: loads a shared object of the caller's choosing"
	}
	// cpp is the compiler driver too (gcc -E): it runs cc1 from where -B
	// or its long name --prefix (which the driver takes abbreviated)
	// points, and writes -MF's file however the name is attached.
	driver := compiler || c.name == "cpp"
	for i, a := range c.args {
		v := a.val
		if driver && (strings.HasPrefix(v, "-B") || prefixOpt(v)) {
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(v, 64) + ": runs the compiler's programs from a directory of the caller's choosing"
		}
		if driver && len(v) > len("-MF") && strings.HasPrefix(v, "-MF") {
			r.raise(c.writeArg(arg{val: v[len("-MF"):], known: a.known, glob: a.glob}, c.name+" -MF"))
		}
		if strings.HasPrefix(v, "-Map=") {
			r.raise(c.writeArg(arg{val: v[len("-Map="):], known: a.known, glob: a.glob}, c.name+" -Map"))
		}
		if !a.known && strings.HasPrefix(v, "-") {
			c.e.opaque = true
			return TierDestructive, c.name + ": options computed at run time"
		}
		if strings.HasPrefix(v, "@") {
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(v, 64) + ": reads options from a file"
		}
		if l := toolchainLoad(v, c.args[i+1:]); l != "" {
			c.e.opaque = true
			return TierDestructive, c.name + " " + truncate(l, 64) + ": loads or runs a program of the caller's choosing"
		}
	}
	if !toolchainReaders[c.name] || c.name == "cpp" {
		// nm -o and size -o are flags.
		for _, f := range exactOptVals(c.args, "-o", "--output", "-MF", "-Map", "--out-dir") {
			r.raise(c.writeArg(f, c.name+" output"))
		}
	}
	if c.name == "objcopy" {
		for _, d := range exactOptVals(c.args, "--dump-section") {
			_, f, _ := strings.Cut(d.val, "=")
			r.raise(c.writeArg(arg{val: f, known: d.known, glob: d.glob}, "objcopy --dump-section"))
		}
	}
	switch c.name {
	case "cpp":
		cppWrites(c, &r)
	case "objcopy":
		// objcopy IN OUT: the second operand is written.
		if ops := optionOperands(c.args, toolchainValueShort[c.name], ""); len(ops) >= 2 {
			r.raise(c.writeArg(ops[1], c.name+" output"))
		}
	}
	return r.t, r.why
}

// prefixOpt reports whether v is the compiler driver's --prefix (-B),
// whole or abbreviated to --pref or longer.
func prefixOpt(v string) bool {
	name, _, _ := strings.Cut(v, "=")
	return len(name) >= len("--pref") && strings.HasPrefix("--prefix", name)
}

// toolchainValueShort are the short options of objcopy that take the next
// word.
var toolchainValueShort = map[string]string{"objcopy": "IObBjRKNLGWF"}

// toolchainLoad returns the option in v (with rest, the words after it)
// that loads or runs code, or "".
func toolchainLoad(v string, rest []arg) string {
	for _, p := range toolchainLoads {
		if strings.HasPrefix(v, p) {
			return p
		}
	}
	switch {
	case strings.HasPrefix(v, "-fuse-ld=") && strings.Contains(v, "/"):
		return v
	case (v == "-C" || v == "--codegen" || v == "-Z") && len(rest) > 0 &&
		(strings.HasPrefix(rest[0].val, "linker=") || strings.HasPrefix(rest[0].val, "codegen-backend") || strings.Contains(rest[0].val, "-load")):
		return v + " " + rest[0].val
	case strings.HasPrefix(v, "-Wl,") && strings.Contains(v, ",-plugin") || strings.HasPrefix(v, "-Wl,") && strings.Contains(v, ",--plugin"):
		return v
	}
	return ""
}
