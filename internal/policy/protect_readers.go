package policy

import (
	"path"
	"strings"
)

// The option parsing of the recursive readers whose options are spelled
// in more ways than a flag test sees: grep's long options in any
// abbreviation getopt_long takes, git's global options before the
// subcommand, and the compressors that recurse.

// grepLongOpts are GNU grep's long options, against which getopt_long
// resolves an abbreviation ("--recur", "--dir=recurse").
var grepLongOpts = strings.Fields(`--after-context --basic-regexp --before-context --binary --binary-files
	--byte-offset --color --colour --context --count --dereference-recursive --devices --directories
	--exclude --exclude-dir --exclude-from --extended-regexp --file --files-with-matches
	--files-without-match --fixed-strings --group-separator --help --ignore-case --include
	--initial-tab --invert-match --label --line-buffered --line-number --line-regexp --max-count
	--no-filename --no-group-separator --no-ignore-case --no-messages --null --null-data
	--only-matching --perl-regexp --quiet --recursive --regexp --silent --text --version
	--with-filename --word-regexp`)

// grepValueLongs are the long options of grep that take the next word as
// their value when none is attached.
var grepValueLongs = set(`--after-context --before-context --binary-files --context --devices --directories
	--exclude --exclude-dir --exclude-from --file --group-separator --include --label --max-count --regexp`)

// recurseValue reports whether v is a value of grep's -d/--directories
// that means recurse: the whole word or an abbreviation argmatch takes
// ("rec"; "r" and "re" are also "read"'s).
func recurseValue(v string) bool {
	return len(v) >= 3 && strings.HasPrefix("recurse", v)
}

// grepRecursive returns grep's file operands when it recurses: -r, -R in
// any cluster, --recursive, --dereference-recursive, -d recurse and
// --directories=recurse, every long option in any abbreviation and with
// its value attached or in the next word; rgrep always. The pattern is
// the first operand unless -e or -f gave it.
func grepRecursive(args []arg) ([]arg, bool) {
	rec := path.Base(args[0].val) == "rgrep"
	var ops []arg
	patternGiven, done := false, false
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		a := rest[i]
		v := a.val
		next := func() string {
			if i+1 < len(rest) {
				i++
				return rest[i].val
			}
			return ""
		}
		switch {
		case done || !a.known || v == "-" || !strings.HasPrefix(v, "-"):
			ops = append(ops, a)
		case v == "--":
			done = true
		case strings.HasPrefix(v, "--"):
			name, val, hasVal := strings.Cut(v, "=")
			full := longOpt(name, grepLongOpts)
			if !hasVal && grepValueLongs[full] {
				val = next()
			}
			switch full {
			case "--recursive", "--dereference-recursive":
				rec = true
			case "--directories":
				rec = rec || recurseValue(val)
			case "--regexp", "--file":
				patternGiven = true
			}
		default:
			for j := 1; j < len(v); j++ {
				c := v[j]
				if c == 'r' || c == 'R' {
					rec = true
				}
				if strings.IndexByte("efmABCdD", c) >= 0 {
					val := v[j+1:]
					if val == "" {
						val = next()
					}
					if c == 'd' && recurseValue(val) {
						rec = true
					}
					if c == 'e' || c == 'f' {
						patternGiven = true
					}
					break
				}
			}
		}
	}
	if !rec {
		return nil, false
	}
	if !patternGiven && len(ops) > 0 {
		ops = ops[1:]
	}
	return ops, true
}

// gitFileReads returns the paths git reads every file under outside its
// index: grep --no-index and grep --untracked (the working directory when
// no path is named; --untracked also the whole work tree given with
// --work-tree), diff --no-index, and diff between paths outside the
// repository, which git compares as --no-index does. A relative path is
// taken in the directory -C names.
func gitFileReads(args []arg) ([]arg, bool) {
	dir, tree, i, ok := gitGlobals(args)
	if !ok {
		return nil, false
	}
	sub, rest := args[i].val, args[i+1:]
	vals := argVals(rest)
	noIndex := hasFlag(vals, 0, "--no-index")
	var ops []arg
	switch sub {
	case "grep":
		untracked := hasFlag(vals, 0, "--untracked")
		if !noIndex && !untracked {
			return nil, false
		}
		ops = patternOperands(rest, "efABCm", "--max-depth --max-count --context --after-context --before-context --threads --open-files-in-pager")
		if len(ops) == 0 {
			ops = []arg{{val: ".", known: true}}
		}
		if untracked && tree != "" {
			ops = append(ops, arg{val: tree, known: true})
		}
	case "diff":
		for _, o := range nonEmpty(optionOperands(rest, "", "")) {
			if noIndex || !o.known || strings.HasPrefix(o.val, "/") || o.val == ".." || strings.HasPrefix(o.val, "../") {
				ops = append(ops, o)
			}
		}
		if len(ops) == 0 {
			return nil, false
		}
	default:
		return nil, false
	}
	return joinedTo(dir, ops), true
}

// compressorRecursive returns the operands of a compressor that recurses
// into directories (gzip, pigz, zstd and lz4 with -r, --recursive or an
// abbreviation of it): it reads every file under them, to standard output
// with -c (zcat -rf passes plain files through as they are) or into a
// compressed copy beside each.
func compressorRecursive(name string, args []arg) ([]arg, bool) {
	if !hasFlag(argVals(args), 'r', "--recursive") {
		return nil, false
	}
	ops := nonEmpty(optionOperands(args, archiveValueShort[name], ""))
	return ops, len(ops) > 0
}
