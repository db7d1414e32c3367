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

type tokenOpts struct{ config, scope string }

func tokenFlags(fs *flag.FlagSet) *tokenOpts {
	o := &tokenOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (for state_dir)")
	fs.StringVar(&o.scope, "scope", edge.ScopeRead, "`scopes`, comma-separated: "+strings.Join(edge.Scopes, ", ")+" (token new)")
	return o
}

// cmdToken manages the named bearer tokens of the state dir. Only their
// SHA-256 is stored; a new token's secret is printed once. A running
// server is told to reload through its admin socket.
func cmdToken(args []string, stdout, stderr io.Writer, getenv env) int {
	return runGroup("token", args, stdout, stderr, func(sub string, args []string) int {
		return tokenCmd(sub, args, stdout, stderr, getenv)
	})
}

func tokenCmd(sub string, args []string, stdout, stderr io.Writer, getenv env) int {
	s := lookup("token " + sub)
	fs := flag.NewFlagSet("warden "+s.name, flag.ContinueOnError)
	o := tokenFlags(fs)
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if want := map[string]int{"new": 1, "list": 0, "revoke": 1}[sub]; len(rest) != want {
		usageError(stderr, s.name, map[int]string{0: "takes no arguments", 1: "give one token NAME"}[want])
		return 2
	}
	scopes, err := edge.ParseScopes(o.scope)
	if err != nil {
		usageError(stderr, s.name, "--scope: "+err.Error())
		return 2
	}
	cfg, err := loadConfig(o.config, getenv, nil)
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	switch {
	case sub == "new":
		secret, err := edge.NewToken(cfg.StateDir, rest[0], scopes, time.Now())
		if err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, secret)
		fmt.Fprintf(stderr, "warden: token %q (%s) created; it is shown only this once\n", rest[0], strings.Join(scopes, " "))
		notifyReload(cfg.StateDir, stderr)
		return 0
	case sub == "list":
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
	case sub == "revoke":
		if err := edge.RevokeToken(cfg.StateDir, rest[0]); err != nil {
			fmt.Fprintf(stderr, "warden: %v\n", err)
			return 1
		}
		fmt.Fprintf(stderr, "warden: token %q revoked\n", rest[0])
		notifyReload(cfg.StateDir, stderr)
		return 0
	}
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
