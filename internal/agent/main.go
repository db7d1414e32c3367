package agent

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/warden-mcp/warden/internal/confine"
)

// Arg is the subcommand that runs a warden binary as an agent.
const Arg = "agent"

// stdio joins the agent's standard input and output into its stream.
type stdio struct {
	io.Reader
	io.Writer
}

// Close closes standard input, which ends Serve's read.
func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		return c.Close()
	}
	return nil
}

// Main is `warden agent`: serve the protocol on stdin and stdout until
// the channel closes, confining programs as the kernel allows. The
// directory of the agent's own binary is protected from every program it
// starts, as warden's state is locally. Nothing but frames is written to
// stdout; what goes wrong is said on stderr.
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, version string) int {
	if len(args) > 0 {
		fmt.Fprintf(stderr, "warden agent: takes no arguments (it is started by warden over SSH, not by hand)\n")
		return 2
	}
	var protect []string
	if exe, err := os.Executable(); err == nil {
		protect = append(protect, filepath.Dir(exe))
	}
	conf, err := confine.New(confine.Options{Protect: protect}, confine.Auto)
	if err != nil {
		fmt.Fprintf(stderr, "warden agent: %v\n", err)
		return 1
	}
	if err := Serve(ctx, stdio{stdin, stdout}, ServeOptions{Confiner: conf, Version: version}); err != nil {
		fmt.Fprintf(stderr, "warden agent: %v\n", err)
		return 1
	}
	return 0
}
