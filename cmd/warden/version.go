package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
)

// Set at build time with
// -ldflags "-X main.version=v1.2.0 -X main.commit=… -X main.date=…";
// unset, they come from the build info the Go toolchain stamps into every
// binary built in a git checkout (go build) or from a module (go install).
var (
	version = ""
	commit  = ""
	date    = ""
)

// buildInfo is what `warden version` and server_info report.
type buildInfo struct {
	Version  string
	Commit   string
	Date     string
	Modified bool
	Go       string
}

func readBuildInfo() buildInfo {
	b := buildInfo{Version: version, Commit: commit, Date: date, Go: runtime.Version()}
	info, ok := debug.ReadBuildInfo()
	if ok {
		if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
			b.Version = info.Main.Version
		}
		for _, s := range info.Settings {
			switch s.Key {
			case "vcs.revision":
				if b.Commit == "" {
					b.Commit = s.Value
				}
			case "vcs.time":
				if b.Date == "" {
					b.Date = s.Value
				}
			case "vcs.modified":
				b.Modified = s.Value == "true" && commit == ""
			}
		}
	}
	if b.Version == "" {
		b.Version = "dev"
	}
	return b
}

// versionString is the one-line version servers report: the version, and
// for a development build the commit it was built from.
func versionString() string {
	b := readBuildInfo()
	if b.Version != "dev" || b.Commit == "" {
		return b.Version
	}
	v := "dev-" + short(b.Commit)
	if b.Modified {
		v += "-modified"
	}
	return v
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

func cmdVersion(args []string, stdout, stderr io.Writer) int {
	_, rest, code, ok := lookup("version").parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "version", fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	b := readBuildInfo()
	fmt.Fprintf(stdout, "warden %s\n", b.Version)
	switch {
	case b.Commit == "":
		fmt.Fprintln(stdout, "commit:   unknown (built outside a git checkout; stamp it with -ldflags \"-X main.commit=…\")")
	case b.Modified:
		fmt.Fprintf(stdout, "commit:   %s (with uncommitted changes)\n", b.Commit)
	default:
		fmt.Fprintf(stdout, "commit:   %s\n", b.Commit)
	}
	if b.Date != "" {
		fmt.Fprintf(stdout, "date:     %s\n", b.Date)
	}
	fmt.Fprintf(stdout, "go:       %s\n", b.Go)
	return 0
}
