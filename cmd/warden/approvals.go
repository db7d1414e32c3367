package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/console"
	"github.com/warden-mcp/warden/internal/display"
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
			fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\t%s\n", oneLine(p.ID, 0), time.Since(p.Created).Round(time.Second), p.Tier, oneLine(p.Tool, 0), oneLine(p.Host, 0), oneLine(p.Identity, 0), oneLine(p.Reason, 60))
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

// showPending prints one pending approval for a human to judge. Every field
// the agent or its client could choose — the arguments, the reason that
// quotes them, the client's name, the host — goes through display, so
// nothing in it can drive the operator's terminal or reorder what they read.
func showPending(w io.Writer, p approvals.Pending) {
	fmt.Fprintf(w, "id:        %s\n", display.Line(p.ID))
	fmt.Fprintf(w, "tool:      %s\n", display.Line(p.Tool))
	fmt.Fprintf(w, "host:      %s\n", display.Line(p.Host))
	fmt.Fprintf(w, "tier:      %d\n", p.Tier)
	fmt.Fprintf(w, "why:       %s\n", oneLine(p.Reason, 0))
	fmt.Fprintf(w, "identity:  %s\n", display.Line(p.Identity))
	if p.Client != "" {
		fmt.Fprintf(w, "client:    %s\n", display.Line(p.Client))
	}
	fmt.Fprintf(w, "waiting:   since %s, expires %s\n", p.Created.Local().Format(time.DateTime), p.Expires.Local().Format(time.DateTime))
	fmt.Fprintf(w, "digest:    %s\n", display.Line(p.Digest))
	fmt.Fprintln(w, "arguments (redacted as the audit log keeps them):")
	var v any
	if json.Unmarshal(p.Args, &v) == nil {
		b, _ := json.MarshalIndent(v, "  ", "  ")
		fmt.Fprintf(w, "  %s\n", display.Text(string(b)))
	} else {
		fmt.Fprintf(w, "  %s\n", display.Line(string(p.Args)))
	}
}

// oneLine shows s on one line of at most max runes (0: no bound), with
// everything that could drive the terminal or hide text made visible.
func oneLine(s string, max int) string {
	s = display.Line(s)
	if r := []rune(s); max > 0 && len(r) > max {
		return string(r[:max-1]) + "…"
	}
	return s
}

// printJSON prints v as indented JSON with every character that could act
// on a terminal escaped (display.JSON): the same JSON, safe to read.
func printJSON(w io.Writer, v any) int {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return 1
	}
	if _, err := w.Write(display.JSON(b.Bytes())); err != nil {
		return 1
	}
	return 0
}
