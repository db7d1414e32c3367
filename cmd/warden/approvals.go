package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/console"
)

// cmdApprovals lists and answers the calls waiting for an operator in the
// running wardens of this state dir, through their console sockets.
// Without a subcommand it lists them.
func cmdApprovals(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 {
		args = []string{"list"}
	}
	return runGroup("approvals", args, stdout, stderr, func(sub string, args []string) int {
		return approvalsCmd(sub, args, stdout, stderr, getenv)
	})
}

// approvalsFlags declares the flags of every approvals subcommand; reason
// is nil for list and show.
func approvalsFlags(fs *flag.FlagSet, answer bool) (cfg *string, asJSON *bool, reason *string) {
	cfg = fs.String("config", "", "config `file` (for state_dir)")
	asJSON = fs.Bool("json", false, "print JSON")
	if answer {
		reason = fs.String("reason", "", "why, for the agent and the audit log")
	}
	return cfg, asJSON, reason
}

func approvalsCmd(sub string, args []string, stdout, stderr io.Writer, getenv env) int {
	s := lookup("approvals " + sub)
	fs := flag.NewFlagSet("warden "+s.name, flag.ContinueOnError)
	answer := sub == "approve" || sub == "deny"
	cfgPath, asJSON, reason := approvalsFlags(fs, answer)
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if sub == "list" && len(rest) > 0 {
		usageError(stderr, s.name, fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	if sub != "list" && len(rest) != 1 {
		usageError(stderr, s.name, "give one approval ID")
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, nil)
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	c := console.NewClient(cfg.StateDir)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	fail := func(err error) int {
		fmt.Fprintf(stderr, "warden approvals %s: %v\n", sub, err)
		return 1
	}
	switch sub {
	case "list":
		ps, err := c.List(ctx)
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(stdout, ps)
		}
		if len(ps) == 0 {
			fmt.Fprintln(stdout, "no calls are waiting for approval")
			return 0
		}
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ID\tWAITING\tTIER\tTOOL\tHOST\tIDENTITY\tREASON")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", p.ID, time.Since(p.Created).Round(time.Second), p.Tier, p.Tool, p.Host, p.Identity, oneLine(p.Reason, 60))
		}
		tw.Flush()
		return 0
	case "show":
		p, err := c.Show(ctx, rest[0])
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(stdout, p)
		}
		showPending(stdout, p)
		return 0
	default:
		p, res, err := c.Answer(ctx, rest[0], sub == "approve", *reason)
		if err != nil {
			return fail(err)
		}
		if *asJSON {
			return printJSON(stdout, res)
		}
		fmt.Fprintf(stdout, "%s %s: %s on %s (tier %d), as %s\n", res.Verdict, res.ID, p.Tool, p.Host, p.Tier, res.Approver)
		return 0
	}
}

// showPending prints one pending approval for a human to judge.
func showPending(w io.Writer, p approvals.Pending) {
	fmt.Fprintf(w, "id:        %s\n", p.ID)
	fmt.Fprintf(w, "tool:      %s\n", p.Tool)
	fmt.Fprintf(w, "host:      %s\n", p.Host)
	fmt.Fprintf(w, "tier:      %d\n", p.Tier)
	fmt.Fprintf(w, "why:       %s\n", oneLine(p.Reason, 0))
	fmt.Fprintf(w, "identity:  %s\n", p.Identity)
	if p.Client != "" {
		fmt.Fprintf(w, "client:    %s\n", p.Client)
	}
	fmt.Fprintf(w, "waiting:   since %s, expires %s\n", p.Created.Local().Format(time.DateTime), p.Expires.Local().Format(time.DateTime))
	fmt.Fprintf(w, "digest:    %s\n", p.Digest)
	fmt.Fprintln(w, "arguments (redacted as the audit log keeps them):")
	var v any
	if json.Unmarshal(p.Args, &v) == nil {
		b, _ := json.MarshalIndent(v, "  ", "  ")
		fmt.Fprintf(w, "  %s\n", neutralise(string(b)))
	} else {
		fmt.Fprintf(w, "  %s\n", neutralise(string(p.Args)))
	}
}

// oneLine shows s on one line of at most max runes (0: no bound), with
// control characters made visible so nothing in it can drive the terminal.
func oneLine(s string, max int) string {
	s = neutralise(strings.ReplaceAll(s, "\n", " "))
	if r := []rune(s); max > 0 && len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// neutralise makes control characters other than newline visible: what
// the agent wrote must not move the operator's cursor or rewrite what they
// read.
func neutralise(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			fmt.Fprintf(&b, "\\x%02x", r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func printJSON(w io.Writer, v any) int {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return 1
	}
	return 0
}
