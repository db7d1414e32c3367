package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/display"
)

func cmdAudit(args []string, stdout, stderr io.Writer, getenv env) int {
	return runGroup("audit", args, stdout, stderr, func(sub string, args []string) int {
		if sub == "verify" {
			return auditVerify(args, stdout, stderr, getenv)
		}
		return auditTail(args, stdout, stderr, getenv)
	})
}

// auditDecisions are the decisions audit records carry.
var auditDecisions = []string{"allow", "approval_required", "approved", "denied", "invalid", "lockout", "unlock", "recovered", "lost", "pruned"}

type auditVerifyOpts struct{ config, keyFile, head, anchor string }

func auditVerifyFlags(fs *flag.FlagSet) *auditVerifyOpts {
	o := &auditVerifyOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (for audit.path and audit.key_file)")
	fs.StringVar(&o.keyFile, "key-file", "", "HMAC key `file` of a keyed chain (default: audit.key_file)")
	fs.StringVar(&o.head, "head", "", "head `file` to check the log's end against (default: audit.path + .head when no FILE is named)")
	fs.StringVar(&o.anchor, "anchor", "", "`SEQ:HASH` of a record kept elsewhere (an exported record): it must be in the log, with nothing after it missing")
	return o
}

type auditTailOpts struct {
	config, tool string
	n, tier      int
	decision     *enumFlag
}

func auditTailFlags(fs *flag.FlagSet) *auditTailOpts {
	o := &auditTailOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (for audit.path)")
	fs.IntVar(&o.n, "n", 20, "number of records")
	fs.StringVar(&o.tool, "tool", "", "only records of this tool `name`")
	fs.IntVar(&o.tier, "tier", -1, "only records of this tier (0-3)")
	o.decision = newEnum(fs, "decision", "only records with this decision", auditDecisions...)
	return o
}

// auditFiles returns the files named, or the configured log's files in
// chain order, and the chain key.
func auditFiles(cfgPath string, named []string, keyFile string, getenv env) ([]string, []byte, error) {
	files, key, _, err := auditLog(cfgPath, named, keyFile, getenv)
	return files, key, err
}

// auditLog is auditFiles that also returns the head file of the
// configured log ("" when files are named).
func auditLog(cfgPath string, named []string, keyFile string, getenv env) ([]string, []byte, string, error) {
	cfg, err := loadConfig(cfgPath, getenv, nil)
	if err != nil {
		return nil, nil, "", err
	}
	if keyFile == "" {
		keyFile = cfg.Audit.KeyFile
	}
	var key []byte
	if keyFile != "" {
		if key, err = os.ReadFile(keyFile); err != nil {
			return nil, nil, "", fmt.Errorf("audit key: %w", err)
		}
	}
	if len(named) > 0 {
		return named, key, "", nil
	}
	files, err := audit.Files(cfg.Audit.Path)
	return files, key, audit.HeadPath(cfg.Audit.Path), err
}

func auditVerify(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden audit verify", flag.ContinueOnError)
	o := auditVerifyFlags(fs)
	rest, code, ok := parseArgs(lookup("audit verify"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	var anchor *audit.Anchor
	if o.anchor != "" {
		a, err := audit.ParseAnchor(o.anchor)
		if err != nil {
			usageError(stderr, "audit verify", "--"+err.Error())
			return 2
		}
		anchor = &a
	}
	files, key, head, err := auditLog(o.config, rest, o.keyFile, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit verify: %v\n", err)
		return 1
	}
	if o.head != "" {
		head = o.head
	}
	// The head is read before the log: it is written after each line, so
	// appends by running wardens while verifying cannot put it ahead.
	var headAnchor audit.Anchor
	var headErr error
	if head != "" {
		headAnchor, headErr = audit.ReadHead(head)
	}
	rep, err := audit.Verify(files, key)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit verify: %v\n", err)
		return 1
	}
	if p := rep.Problem; p != nil {
		fmt.Fprintf(stdout, "FAIL %s:%d: %s: %s (%d records verified before it)\n", p.File, p.Line, p.Kind, p.Detail, rep.Records)
		return 1
	}
	var notes []string
	if anchor != nil {
		p, note, err := audit.CheckAnchor(rep, *anchor)
		if err != nil {
			fmt.Fprintf(stderr, "warden audit verify: %v\n", err)
			return 1
		}
		if p != nil {
			fmt.Fprintf(stdout, "FAIL anchor %d: %s: %s (the chain verifies up to seq %d)\n", anchor.Seq, p.Kind, p.Detail, rep.LastSeq)
			return 1
		}
		if note != "" {
			notes = append(notes, note)
		}
	}
	if head != "" {
		a, err := headAnchor, headErr
		switch {
		case errors.Is(err, os.ErrNotExist) || (err != nil && rep.Records == 0):
			if rep.Records > 0 {
				notes = append(notes, fmt.Sprintf("no head file %s: records cut from the end cannot be found (an older warden wrote this log, or the head was deleted)", head))
			}
		case err != nil:
			fmt.Fprintf(stdout, "FAIL %s: %s: %v\n", head, audit.KindHeadWrong, err)
			return 1
		default:
			p, note := audit.CheckHead(rep, a)
			if p != nil {
				fmt.Fprintf(stdout, "FAIL %s: %s: %s (the chain verifies up to seq %d)\n", head, p.Kind, p.Detail, rep.LastSeq)
				return 1
			}
			if note != "" {
				notes = append(notes, "head file: "+note+": records were appended while verifying, or a writer died between an append and its head update")
			}
		}
	}
	fmt.Fprintf(stdout, "ok: %d records in %d file(s), chain intact", rep.Records, len(rep.Files))
	if rep.PrunedBefore > 0 {
		fmt.Fprintf(stdout, " from seq %d (earlier files pruned by retention)", rep.PrunedBefore)
	}
	fmt.Fprintln(stdout)
	for _, n := range notes {
		fmt.Fprintf(stdout, "note: %s\n", n)
	}
	return 0
}

func auditTail(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden audit tail", flag.ContinueOnError)
	o := auditTailFlags(fs)
	rest, code, ok := parseArgs(lookup("audit tail"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if o.n < 1 {
		usageError(stderr, "audit tail", "-n must be at least 1")
		return 2
	}
	if o.tier < -1 || o.tier > 3 {
		usageError(stderr, "audit tail", "--tier must be 0, 1, 2 or 3")
		return 2
	}
	files, _, err := auditFiles(o.config, rest, "", getenv)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit tail: %v\n", err)
		return 1
	}
	f := audit.Filter{Tool: o.tool, Decision: o.decision.value}
	if o.tier >= 0 {
		f.Tier = &o.tier
	}
	n := &o.n
	recs, err := audit.Tail(files, *n, f)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit tail: %v\n", err)
		return 1
	}
	// The records are printed for a terminal: what a call's arguments
	// carried (C1 controls, bidi overrides) is escaped, the JSON the same.
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range recs {
		b.Reset()
		if err := enc.Encode(r); err != nil {
			return 1
		}
		if _, err := stdout.Write(display.JSON(b.Bytes())); err != nil {
			return 1
		}
	}
	return 0
}
