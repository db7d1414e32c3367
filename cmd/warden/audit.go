package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/warden-mcp/warden/internal/audit"
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
var auditDecisions = []string{"allow", "approval_required", "approved", "denied", "invalid", "lockout", "unlock", "recovered", "pruned"}

type auditVerifyOpts struct{ config, keyFile string }

func auditVerifyFlags(fs *flag.FlagSet) *auditVerifyOpts {
	o := &auditVerifyOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (for audit.path and audit.key_file)")
	fs.StringVar(&o.keyFile, "key-file", "", "HMAC key `file` of a keyed chain (default: audit.key_file)")
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
	cfg, err := loadConfig(cfgPath, getenv, nil)
	if err != nil {
		return nil, nil, err
	}
	if keyFile == "" {
		keyFile = cfg.Audit.KeyFile
	}
	var key []byte
	if keyFile != "" {
		if key, err = os.ReadFile(keyFile); err != nil {
			return nil, nil, fmt.Errorf("audit key: %w", err)
		}
	}
	if len(named) > 0 {
		return named, key, nil
	}
	files, err := audit.Files(cfg.Audit.Path)
	return files, key, err
}

func auditVerify(args []string, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden audit verify", flag.ContinueOnError)
	o := auditVerifyFlags(fs)
	rest, code, ok := parseArgs(lookup("audit verify"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	files, key, err := auditFiles(o.config, rest, o.keyFile, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit verify: %v\n", err)
		return 1
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
	fmt.Fprintf(stdout, "ok: %d records in %d file(s), chain intact\n", rep.Records, len(rep.Files))
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
	enc := json.NewEncoder(stdout)
	for _, r := range recs {
		if err := enc.Encode(r); err != nil {
			return 1
		}
	}
	return 0
}
