package main

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"text/tabwriter"
	"time"

	"github.com/warden-mcp/warden/internal/edge"
)

// cmdLockout reads and edits the running server's lockout table through
// its admin socket in the state dir.
func cmdLockout(args []string, stdout, stderr io.Writer, getenv env) int {
	return runGroup("lockout", args, stdout, stderr, func(sub string, args []string) int {
		return lockoutCmd(sub, args, stdout, stderr, getenv)
	})
}

func lockoutCmd(sub string, args []string, stdout, stderr io.Writer, getenv env) int {
	s := lookup("lockout " + sub)
	_, rest, code, ok := s.parse(args, stdout, stderr)
	if !ok {
		return code
	}
	if want := map[string]int{"list": 0, "delete": 1, "flush": 0}[sub]; len(rest) != want {
		usageError(stderr, s.name, map[int]string{0: "takes no arguments", 1: "give one ADDR"}[want])
		return 2
	}
	args = append([]string{sub}, rest...)
	cfg, err := loadConfig("", getenv, nil)
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	c := edge.NewAdminClient(edge.AdminSocketPath(cfg.StateDir))
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	switch {
	case len(args) == 1 && args[0] == "list":
		var locks []edge.Lock
		if err := c.Do(ctx, "GET", "/lockouts", &locks); err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ADDR\tFAILURES\tSINCE\tUNTIL")
		for _, l := range locks {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", l.Addr, l.Failures, l.Since.Format(time.RFC3339), l.Until.Format(time.RFC3339))
		}
		tw.Flush()
		return 0
	case len(args) == 2 && args[0] == "delete":
		var out struct{ Deleted bool }
		if err := c.Do(ctx, "DELETE", "/lockouts/"+url.PathEscape(args[1]), &out); err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		if !out.Deleted {
			fmt.Fprintf(stderr, "warden: %s was not locked out\n", args[1])
			return 1
		}
		fmt.Fprintf(stdout, "unlocked %s\n", args[1])
		return 0
	case len(args) == 1 && args[0] == "flush":
		var out struct{ Flushed int }
		if err := c.Do(ctx, "DELETE", "/lockouts", &out); err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		fmt.Fprintf(stdout, "unlocked %d sources\n", out.Flushed)
		return 0
	}
	return 2
}
