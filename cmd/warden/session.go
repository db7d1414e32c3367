package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/warden-mcp/warden/internal/session"
)

// cmdSession lets an operator review recorded sessions.
func cmdSession(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 || (args[0] != "list" && args[0] != "show") {
		fmt.Fprintln(stderr, "usage: warden session list | warden session show ID")
		return 2
	}
	fs := flag.NewFlagSet("session "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file")
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden session: %v\n", err)
		return 1
	}
	dir := filepath.Join(cfg.StateDir, "recordings")
	if args[0] == "list" {
		recs, err := session.ListRecordings(dir)
		if err != nil {
			fmt.Fprintf(stderr, "warden session list: %v\n", err)
			return 1
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tSTARTED\tBYTES\tSIZE\tCOMMAND")
		for _, r := range recs {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%dx%d\t%s\n", r.ID, r.Started.Format("2006-01-02 15:04:05"), r.Bytes, r.Width, r.Height, r.Command)
		}
		tw.Flush()
		return 0
	}
	if fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: warden session show ID")
		return 2
	}
	path, err := session.RecordingPath(dir, fs.Arg(0))
	if err != nil {
		fmt.Fprintf(stderr, "warden session show: %v\n", err)
		return 1
	}
	text, err := session.ReplayText(path)
	if err != nil {
		fmt.Fprintf(stderr, "warden session show: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "# %s (replay it with: asciinema play %s)\n", fs.Arg(0), path)
	fmt.Fprint(stdout, text)
	return 0
}
