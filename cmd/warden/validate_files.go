package main

import (
	"fmt"
	"io"

	"github.com/warden-mcp/warden/internal/declare"
)

// validateFiles validates each tool file; with fix it first writes the
// file's misplaced keys moved to a new file beside it (never over the
// original or any existing file), prints the new path and validates that
// instead. Errors and warnings go to stderr; the exit code is 1 if any
// file fails.
func validateFiles(names []string, fix bool, stdout, stderr io.Writer) int {
	code := 0
	for _, name := range names {
		if fix {
			path, moves, err := declare.FixFile(name)
			if err != nil {
				fmt.Fprintf(stderr, "%v\n", err)
				code = 1
				continue
			}
			for _, m := range moves {
				fmt.Fprintf(stderr, "%s: %s\n", name, m)
			}
			if path == "" {
				fmt.Fprintf(stdout, "%s: nothing to move\n", name)
			} else {
				fmt.Fprintf(stdout, "%s: wrote %s\n", name, path)
				name = path
			}
		}
		if !validateOne(name, stdout, stderr) {
			code = 1
		}
	}
	return code
}

func validateOne(name string, stdout, stderr io.Writer) bool {
	set, err := declare.LoadPaths([]string{name})
	if err != nil {
		fmt.Fprintf(stderr, "%v\n", err)
		return false
	}
	for _, w := range set.Warnings {
		fmt.Fprintf(stderr, "warning: %s\n", w)
	}
	tools, prompts, ok := 0, 0, true
	for _, f := range set.Files {
		if f.Prompts != nil {
			prompts++
		}
		for _, t := range f.Tools {
			tools++
			if err := t.Validate(); err != nil {
				fmt.Fprintf(stderr, "%s:%d: tool %s: %v\n", t.File, t.Line, t.Name, err)
				ok = false
				continue
			}
			for _, h := range t.Hints() {
				fmt.Fprintf(stderr, "hint: %s:%d: tool %s: %s\n", t.File, t.Line, t.Name, h)
			}
		}
	}
	if ok {
		fmt.Fprintf(stdout, "%s: ok (%d tools, %d prompts)\n", name, tools, prompts)
	}
	return ok
}
