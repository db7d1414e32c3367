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
	"strings"
	"syscall"

	"github.com/warden-mcp/warden/internal/runner/landlock"
)

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
		fmt.Fprint(stderr, usage())
		return 2
	}
	switch args[0] {
	case "serve":
		return cmdServe(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "doctor":
		return cmdDoctor(ctx, args[1:], stdout, stderr, getenv)
	case "config":
		return cmdConfig(args[1:], stdout, stderr, getenv)
	case "audit":
		return cmdAudit(args[1:], stdout, stderr, getenv)
	case "session":
		return cmdSession(args[1:], stdout, stderr, getenv)
	case "token":
		return cmdToken(args[1:], stdout, stderr, getenv)
	case "approvals":
		return cmdApprovals(args[1:], stdout, stderr, getenv)
	case "watch":
		return cmdWatch(ctx, args[1:], stdin, stdout, stderr, getenv)
	case "lockout":
		return cmdLockout(args[1:], stdout, stderr, getenv)
	case "validate":
		return cmdValidate(args[1:], stdout, stderr)
	case "tools":
		return cmdTools(args[1:], stdout, stderr, getenv)
	case "exe":
		return cmdExe(ctx, args[1:], stdout, stderr, getenv)
	case "completion":
		return cmdCompletion(args[1:], stdout, stderr)
	case "agent":
		return cmdAgent(ctx, args[1:], stdin, stdout, stderr)
	case landlock.HelperArg:
		return landlock.Helper(args[1:], stderr)
	case "version", "--version", "-v":
		return cmdVersion(args[1:], stdout, stderr)
	case "help", "--help", "-h":
		if len(args) > 1 {
			// warden help audit tail = warden audit tail --help
			return run(ctx, append(args[1:], "--help"), stdin, stdout, stderr, getenv)
		}
		fmt.Fprint(stdout, usage())
		return 0
	default:
		if strings.HasPrefix(args[0], "-") {
			fmt.Fprintf(stderr, "warden: unknown flag %s; a command comes first (see 'warden --help')\n", args[0])
		} else {
			fmt.Fprintf(stderr, "warden: unknown command %q (see 'warden --help')\n", args[0])
		}
		return 2
	}
}
