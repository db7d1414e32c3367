package main

import (
	"flag"
	"io"
)

// validateFlags declares validate's flags.
func validateFlags(fs *flag.FlagSet) {
	fs.Bool("fix", false, "write each FILE with the keys MCPShell ignores moved where they belong to a new FILE.fixed.yaml (never over an existing file), print its path and validate it")
}

// cmdValidate checks declarative tool files: strict keys, known runners
// and options, CEL that compiles, templates that parse and render with
// sample and hostile values, commands that parse as shell. Warnings (raw
// parameters) and MCPShell migration hints go to stderr.
func cmdValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("warden validate", flag.ContinueOnError)
	validateFlags(fs)
	args, code, ok := parseArgs(lookup("validate"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(args) == 0 {
		usageError(stderr, "validate", "give at least one FILE")
		return 2
	}
	fix := fs.Lookup("fix").Value.(flag.Getter).Get().(bool)
	return validateFiles(args, fix, stdout, stderr)
}
