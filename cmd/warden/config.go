package main

import (
	"flag"
	"fmt"
	"io"

	"github.com/warden-mcp/warden/internal/config"
)

// loadConfig reads the config file (flag, then WARDEN_CONFIG, then the
// embedded default), applies WARDEN_* variables, then lets apply set flag
// values, and validates the result: file < environment < flags.
func loadConfig(path string, getenv env, apply func(*config.Config)) (*config.Config, error) {
	c, err := config.Load(configPath(path, getenv))
	if err != nil {
		return nil, err
	}
	c.Env(getenv)
	if apply != nil {
		apply(c)
	}
	if err := c.Finish(getenv("HOME"), getenv("XDG_STATE_HOME")); err != nil {
		return nil, err
	}
	return c, nil
}

// configPath is the config file in effect: the flag, else WARDEN_CONFIG.
func configPath(flagValue string, getenv env) string {
	if flagValue != "" {
		return flagValue
	}
	return getenv("WARDEN_CONFIG")
}

func cmdConfig(args []string, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 || args[0] != "check" {
		fmt.Fprintln(stderr, "usage: warden config check [FILE]")
		return 2
	}
	fs := flag.NewFlagSet("config check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	if err := fs.Parse(args[1:]); err != nil {
		return 2
	}
	c, err := loadConfig(fs.Arg(0), getenv, nil)
	if err != nil {
		fmt.Fprintf(stderr, "warden: invalid configuration:\n%v\n", err)
		return 1
	}
	out, err := c.Masked()
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "# effective configuration (secrets masked)\n%s", out)
	return 0
}
