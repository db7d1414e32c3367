// Command warden is an MCP server that gives AI agents policy-gated,
// bounded and audited hands on real hosts.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime/debug"
	"syscall"

	"github.com/warden-mcp/warden/internal/runner/landlock"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

const usage = `warden — policy-gated, audited hands for AI agents on real hosts

Usage:
  warden serve [--config FILE] [--http ADDR] [--allow-non-loopback] [--idle-exit DURATION]
  warden config check [FILE]
  warden validate FILE…
  warden tools [--config FILE] [--tools FILE|DIR]…
  warden exe [--config FILE] [--tools FILE|DIR]… TOOL [NAME=VALUE…]
  warden audit verify [FILE…]
  warden audit tail [-n N] [--tool NAME] [--decision D]
  warden session list | warden session show ID
  warden token new NAME [--scope SCOPE] | warden token list | warden token revoke NAME
  warden lockout list | warden lockout delete ADDR | warden lockout flush
  warden version

serve speaks MCP over stdio unless --http is given. Environment:
  WARDEN_CONFIG, WARDEN_MODE, WARDEN_TOKEN, WARDEN_STATE_DIR, WARDEN_HTTP
`

func main() {
	if len(os.Args) > 1 && (os.Args[1] == "serve" || os.Args[1] == "exe") {
		scrubEnvironment()
	}
	// Every call decodes and encodes a few hundred kilobytes of JSON over a
	// live heap of a few megabytes: at the default GOGC the collector runs
	// every few calls and takes a quarter of the CPU. Fewer, larger cycles
	// cost a few megabytes, and a soft limit makes the collector work
	// harder before memory grows past it. GOGC and GOMEMLIMIT, when set, win.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(48 << 20)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

// env is how subcommands read the environment: only cmd/ touches it.
type env func(string) string

func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "serve":
		return cmdServe(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "config":
		return cmdConfig(args[1:], stdout, stderr, getenv)
	case "audit":
		return cmdAudit(args[1:], stdout, stderr, getenv)
	case "session":
		return cmdSession(args[1:], stdout, stderr, getenv)
	case "token":
		return cmdToken(args[1:], stdout, stderr, getenv)
	case "lockout":
		return cmdLockout(args[1:], stdout, stderr, getenv)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "tools":
		return cmdTools(args[1:], stdout, stderr, getenv)
	case "exe":
		return cmdExe(ctx, args[1:], stdout, stderr, getenv)
	case landlock.HelperArg:
		return landlock.Helper(args[1:], stderr)
	case "version", "--version", "-v":
		fmt.Fprintf(stdout, "warden %s\n", version)
		return 0
	case "help", "--help", "-h":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "warden: unknown command %q\n\n%s", args[0], usage)
		return 2
	}
}
