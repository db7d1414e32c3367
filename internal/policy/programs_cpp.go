package policy

import (
	"path"
	"strings"
)

// The C preprocessor reads, printing to standard output, unless it is told
// to write a file: the output itself (-o, --output, a second operand), a
// dependency file (-MD and -MMD write NAME.d beside the output or in the
// working directory, --write-dependencies and --write-user-dependencies
// are their long names, -MF names it), a diagnostics file (GCC 13's
// -fdiagnostics-format=sarif-file and json-file, GCC 15's
// -fdiagnostics-add-output and -set-output) or a module dependency file
// (-fdeps-file). -Wp,OPT,… and -Xpreprocessor OPT hand options to the
// preprocessor proper, where "-MD FILE" and "-o FILE" write FILE: those
// are read as the preprocessor reads them.

// cppValued are the driver options of cpp that take the next word as
// their value when none is attached, so that the word is not an operand
// (cpp -MT x -M f.c, cpp -include x.h f.c).
var cppValued = set(`-o --output -I -D -U -x -A -MF -MT -MQ -include -imacros -isystem -idirafter
	-iquote -iprefix -iwithprefix -iwithprefixbefore -isysroot -imultilib -dumpbase
	-dumpdir -dumpbase-ext -Xpreprocessor -Xassembler -Xlinker --param -aux-info`)

// cppPassedWrites are the preprocessor proper's options whose value is a
// file it writes.
var cppPassedWrites = set(`-o -MD -MMD -MF`)

// cppWrites raises r for each file c, the C preprocessor, writes besides
// its standard output.
func cppWrites(c *call, r *raiser) {
	var passed []arg
	deps, depFile, output := false, false, ""
	var ops []arg
	for i := 0; i < len(c.args); i++ {
		a := c.args[i]
		v := a.val
		switch {
		case !a.known || v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
		case strings.HasPrefix(v, "-Wp,"):
			for _, w := range strings.Split(v[len("-Wp,"):], ",") {
				passed = append(passed, arg{val: w, known: true, glob: a.glob})
			}
		case v == "-MD" || v == "-MMD" || v == "--write-dependencies" || v == "--write-user-dependencies":
			deps = true
		case v == "-fdiagnostics-format=sarif-file" || v == "-fdiagnostics-format=json-file" ||
			strings.HasPrefix(v, "-fdiagnostics-add-output=") || strings.HasPrefix(v, "-fdiagnostics-set-output="):
			r.raise(TierMutate, "cpp "+truncate(v, 64)+": writes a diagnostics file")
		case strings.HasPrefix(v, "-fdeps-file="):
			r.raise(c.writeArg(arg{val: v[len("-fdeps-file="):], known: a.known, glob: a.glob}, "cpp -fdeps-file"))
		case cppValued[v] && i+1 < len(c.args):
			i++
			switch v {
			case "-Xpreprocessor":
				passed = append(passed, c.args[i])
			case "-MF":
				depFile = true
			case "-o", "--output":
				output = c.args[i].val
			}
		case strings.HasPrefix(v, "-MF"):
			depFile = true
		case strings.HasPrefix(v, "--output="):
			output = v[len("--output="):]
		case strings.HasPrefix(v, "-o") && !strings.HasPrefix(v, "--"):
			output = v[2:]
		}
	}
	for i := 0; i < len(passed); i++ {
		p := passed[i]
		switch {
		case cppPassedWrites[p.val] && i+1 < len(passed):
			i++
			r.raise(c.writeArg(passed[i], "cpp "+p.val))
		case strings.HasPrefix(p.val, "-o") && len(p.val) > 2:
			r.raise(c.writeArg(arg{val: p.val[2:], known: p.known, glob: p.glob}, "cpp -o"))
		case strings.HasPrefix(p.val, "-M") && p.val != "-M" && p.val != "-MM" && p.val != "-MP" && p.val != "-MG":
			// -MT and -MQ only name a target, but the proper's other -M
			// options take a file of their own.
			if p.val != "-MT" && p.val != "-MQ" {
				r.raise(TierMutate, "cpp -Wp,"+truncate(p.val, 32)+": writes a dependency file")
			}
		}
	}
	if deps && !depFile {
		// NAME.d beside -o's file, or the first operand's base name in the
		// working directory.
		name := ""
		switch {
		case output != "" && output != "-":
			name = strings.TrimSuffix(output, path.Ext(output)) + ".d"
		case len(ops) > 0:
			b := path.Base(ops[0].val)
			name = strings.TrimSuffix(b, path.Ext(b)) + ".d"
		}
		if name != "" {
			r.raise(c.writeArg(arg{val: name, known: true}, "cpp -MD"))
		} else {
			r.raise(TierMutate, "cpp -MD: writes a dependency file")
		}
	}
	if len(ops) >= 2 {
		// cpp IN OUT: the second operand is written.
		r.raise(c.writeArg(ops[1], "cpp output"))
	}
}
