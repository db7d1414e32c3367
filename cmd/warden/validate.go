package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/warden-mcp/warden/internal/declare"
)

// validateFlags declares validate's flags (none yet).
func validateFlags(fs *flag.FlagSet) {}

// cmdValidate checks declarative tool files: strict keys, known runners
// and options, CEL that compiles, templates that parse and render with
// sample and hostile values. Warnings (raw parameters) go to stderr.
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
	for _, name := range args {
		set, err := declare.LoadPaths([]string{name})
		if err != nil {
			fmt.Fprintf(stderr, "%v\n", err)
			code = 1
			continue
		}
		for _, w := range set.Warnings {
			fmt.Fprintf(stderr, "warning: %s\n", w)
		}
		tools, prompts, bad := 0, 0, false
		for _, f := range set.Files {
			if f.Prompts != nil {
				prompts++
			}
			for _, t := range f.Tools {
				tools++
				if err := t.Validate(); err != nil {
					fmt.Fprintf(stderr, "%s:%d: tool %s: %v\n", t.File, t.Line, t.Name, err)
					bad = true
				}
			}
		}
		if bad {
			code = 1
			continue
		}
		fmt.Fprintf(stdout, "%s: ok (%d tools, %d prompts)\n", name, tools, prompts)
	}
	return code
}
