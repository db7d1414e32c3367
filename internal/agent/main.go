package agent

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"syscall"

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

// pollable returns the pipe or socket f as a file the Go runtime polls,
// so that the goroutine waiting for the next frame parks instead of
// holding a thread in a blocking read(2). A thread parked in a system
// call keeps the runtime's monitor waking every 20 µs to take its
// processor back, preempting the command the agent is running; and a
// blocking read cannot be interrupted by closing the file. Anything else
// (a terminal, a file) is returned as it was.
func pollable(f *os.File) *os.File {
	fi, err := f.Stat()
	if err != nil || fi.Mode()&(os.ModeNamedPipe|os.ModeSocket) == 0 {
		return f
	}
	// O_NONBLOCK is a flag of the open file description, which sshd's
	// end of the pipe does not share; os.NewFile of a non-blocking
	// descriptor registers it with the runtime's poller.
	fd := f.Fd()
	if err := syscall.SetNonblock(int(fd), true); err != nil {
		return f
	}
	return os.NewFile(fd, f.Name())
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
	if f, ok := stdin.(*os.File); ok {
		stdin = pollable(f)
	}
	if f, ok := stdout.(*os.File); ok {
		stdout = pollable(f)
	}
	if err := Serve(ctx, stdio{stdin, stdout}, ServeOptions{Confiner: conf, Version: version}); err != nil {
		fmt.Fprintf(stderr, "warden agent: %v\n", err)
		return 1
	}
	return 0
}
