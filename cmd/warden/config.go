package main

import (
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/warden-mcp/warden/internal/config"
)

// loadConfig reads the config file (flag, then WARDEN_CONFIG, then the
// embedded default), applies WARDEN_* variables, then lets apply set flag
// values, and validates the result: file < environment < flags. Every
// problem is reported at once, with its file, line and key.
func loadConfig(path string, getenv env, apply func(*config.Config)) (*config.Config, error) {
	return config.Read(configPath(path, getenv), getenv, apply)
}

// configPath is the config file in effect: the flag, else WARDEN_CONFIG.
func configPath(flagValue string, getenv env) string {
	if flagValue != "" {
		return flagValue
	}
	return getenv("WARDEN_CONFIG")
}

func cmdConfig(args []string, stdout, stderr io.Writer, getenv env) int {
	return runGroup("config", args, stdout, stderr, func(_ string, args []string) int {
		return configCheck(args, stdout, stderr, getenv)
	})
}

func configCheckFlags(fs *flag.FlagSet) *string {
	return fs.String("config", "", "config `file` (or give it as FILE; default: WARDEN_CONFIG, else the embedded default)")
}

// configCheck validates a configuration as serve does: the file's shape and
// values, then preflight, then the server assembled in a scratch state
// dir. It prints every problem, or the effective configuration.
func configCheck(args []string, stdout, stderr io.Writer, getenv env) int {
	s := lookup("config check")
	fs := flag.NewFlagSet("warden config check", flag.ContinueOnError)
	cfgFlag := configCheckFlags(fs)
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 1 || (len(rest) == 1 && *cfgFlag != "") {
		usageError(stderr, s.name, "give one config file, as FILE or --config")
		return 2
	}
	path := *cfgFlag
	if len(rest) == 1 {
		path = rest[0]
	}
	cfg, err := loadChecked(path, getenv, nil)
	if err == nil {
		if err = assemble(cfg, configPath(path, getenv), getenv); err != nil {
			err = config.Problems{{File: cfg.File(), Msg: err.Error()}}
		}
	}
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	out, err := cfg.Masked()
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "# effective configuration (secrets masked)\n%s", out)
	return 0
}

// reportConfig prints configuration problems, all of them, one per line.
func reportConfig(stderr io.Writer, err error) {
	var probs config.Problems
	if errors.As(err, &probs) && len(probs) > 1 {
		fmt.Fprintf(stderr, "warden: invalid configuration (%d problems):\n%v\n", len(probs), err)
		return
	}
	fmt.Fprintf(stderr, "warden: invalid configuration:\n%v\n", err)
}

// addTools appends --tools paths to the configured ones, so that a problem
// with one names the flag.
func addTools(c *config.Config, paths []string) {
	for _, p := range paths {
		c.SetBy(fmt.Sprintf("tools[%d]", len(c.Tools)), "--tools")
		c.Tools = append(c.Tools, p)
	}
}
