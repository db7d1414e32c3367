package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/warden-mcp/warden/internal/display"
	"github.com/warden-mcp/warden/internal/session"
)

// cmdSession lets an operator review recorded sessions.
func cmdSession(args []string, stdout, stderr io.Writer, getenv env) int {
	return runGroup("session", args, stdout, stderr, func(sub string, args []string) int {
		return sessionCmd(sub, args, stdout, stderr, getenv)
	})
}

func sessionFlags(fs *flag.FlagSet) *string {
	return fs.String("config", "", "config `file` (for state_dir)")
}

func sessionCmd(sub string, args []string, stdout, stderr io.Writer, getenv env) int {
	s := lookup("session " + sub)
	fs := flag.NewFlagSet("warden "+s.name, flag.ContinueOnError)
	cfgPath := sessionFlags(fs)
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if sub == "list" && len(rest) > 0 {
		usageError(stderr, s.name, fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	if sub == "show" && len(rest) != 1 {
		usageError(stderr, s.name, "give one session ID")
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden session: %v\n", err)
		return 1
	}
	dir := filepath.Join(cfg.StateDir, "recordings")
	if sub == "list" {
		recs, err := session.ListRecordings(dir)
		if err != nil {
			fmt.Fprintf(stderr, "warden session list: %v\n", err)
			return 1
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSTARTED\tBYTES\tSIZE\tCOMMAND")
		for _, r := range recs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%dx%d\t%s\n", r.ID, r.Started.Format("2006-01-02 15:04:05"), r.Bytes, r.Width, r.Height, display.Line(r.Command))
		}
		tw.Flush()
		return 0
	}
	path, err := session.RecordingPath(dir, rest[0])
	if err != nil {
		fmt.Fprintf(stderr, "warden session show: %v\n", err)
		return 1
	}
	text, err := session.ReplayText(path)
	if err != nil {
		fmt.Fprintf(stderr, "warden session show: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "# %s (replay it with: asciinema play %s)\n", rest[0], path)
	fmt.Fprint(stdout, text)
	return 0
}
