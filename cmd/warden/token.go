package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warden-mcp/warden/internal/edge"
)

const tokenUsage = `usage:
  warden token new NAME [--scope warden:read|warden:operate|warden:admin]
  warden token list
  warden token revoke NAME
`

// cmdToken manages the named bearer tokens of the state dir. Only their
// SHA-256 is stored; a new token's secret is printed once. A running
// server is told to reload through its admin socket.
func cmdToken(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, tokenUsage)
		return 2
	}
	fs := flag.NewFlagSet("token "+args[0], flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (for state_dir)")
	scope := fs.String("scope", edge.ScopeRead, "scopes, comma-separated: "+strings.Join(edge.Scopes, ", "))
	// Accept flags before or after NAME.
	rest, err := parseInterleaved(fs, args[1:])
	if err != nil {
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden: invalid configuration:\n%v\n", err)
		return 1
	}
	switch {
	case args[0] == "new" && len(rest) == 1:
		scopes, err := edge.ParseScopes(*scope)
		if err != nil {
			fmt.Fprintf(stderr, "warden token new: %v\n", err)
			return 2
		}
		secret, err := edge.NewToken(cfg.StateDir, rest[0], scopes, time.Now())
		if err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, secret)
		fmt.Fprintf(stderr, "warden: token %q (%s) created; it is shown only this once\n", rest[0], strings.Join(scopes, " "))
		notifyReload(cfg.StateDir, stderr)
		return 0
	case args[0] == "list" && len(rest) == 0:
		tokens, err := edge.LoadTokens(cfg.StateDir)
		if err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tSCOPES\tCREATED")
		for _, t := range tokens {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", t.Name, strings.Join(t.Scopes, ","), t.Created.Format(time.RFC3339))
		}
		tw.Flush()
		return 0
	case args[0] == "revoke" && len(rest) == 1:
		if err := edge.RevokeToken(cfg.StateDir, rest[0]); err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "warden: token %q revoked\n", rest[0])
		notifyReload(cfg.StateDir, stderr)
		return 0
	}
	fmt.Fprint(stderr, tokenUsage)
	return 2
}

// notifyReload asks a running server on this state dir to reload; with
// none running, the change applies at its next start.
func notifyReload(stateDir string, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := edge.NewAdminClient(edge.AdminSocketPath(stateDir)).Do(ctx, "POST", "/reload", nil); err != nil {
		fmt.Fprintf(stderr, "warden: no running server reloaded (%v); a server started later, or sent SIGHUP, picks the change up\n", err)
		return
	}
	fmt.Fprintln(stderr, "warden: the running server reloaded its tokens")
}

// parseInterleaved parses flags that may come before or after the
// positional arguments, which it returns.
func parseInterleaved(fs *flag.FlagSet, args []string) ([]string, error) {
	var rest []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		if fs.NArg() == 0 {
			return rest, nil
		}
		rest = append(rest, fs.Arg(0))
		args = fs.Args()[1:]
	}
}
