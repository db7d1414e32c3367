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
	if len(args) == 0 {
		fmt.Fprintln(stderr, "usage: warden audit verify [FILE…] | warden audit tail [-n N] [--tool T] [--tier N] [--decision D]")
		return 2
	}
	switch args[0] {
	case "verify":
		return auditVerify(args[1:], stdout, stderr, getenv)
	case "tail":
		return auditTail(args[1:], stdout, stderr, getenv)
	default:
		fmt.Fprintf(stderr, "warden audit: unknown subcommand %q\n", args[0])
		return 2
	}
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
	fs := flag.NewFlagSet("audit verify", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file")
	keyFile := fs.String("key-file", "", "HMAC key of a keyed chain (default: audit.key_file)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	files, key, err := auditFiles(*cfgPath, fs.Args(), *keyFile, getenv)
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
	fs := flag.NewFlagSet("audit tail", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file")
	n := fs.Int("n", 20, "number of records")
	tool := fs.String("tool", "", "only this tool")
	decision := fs.String("decision", "", "only this decision")
	tier := fs.Int("tier", -1, "only this tier")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	files, _, err := auditFiles(*cfgPath, fs.Args(), "", getenv)
	if err != nil {
		fmt.Fprintf(stderr, "warden audit tail: %v\n", err)
		return 1
	}
	f := audit.Filter{Tool: *tool, Decision: *decision}
	if *tier >= 0 {
		f.Tier = tier
	}
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
