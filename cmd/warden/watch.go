package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os/signal"
	"syscall"

	"github.com/warden-mcp/warden/internal/console"
	"github.com/warden-mcp/warden/internal/session"
)

func watchFlags(fs *flag.FlagSet) (cfg *string, raw, takeover *bool) {
	cfg = fs.String("config", "", "config `file` (for state_dir)")
	raw = fs.Bool("raw", false, "pass the terminal's escape sequences through (colours, cursor moves) instead of plain text")
	takeover = fs.Bool("takeover", false, "also type into the session: each line read from stdin goes to its input, audited, until end of input (Ctrl-D); needs console.takeover")
	return cfg, raw, takeover
}

// cmdWatch follows a live session's output, read-only unless --takeover,
// through the console socket of the warden running it.
func cmdWatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	s := lookup("watch")
	fs := flag.NewFlagSet("warden watch", flag.ContinueOnError)
	cfgPath, raw, takeover := watchFlags(fs)
	rest, code, ok := parseArgs(s, fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) != 1 {
		usageError(stderr, s.name, "give one session ID")
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, nil)
	if err != nil {
		reportConfig(stderr, err)
		return 1
	}
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGPIPE)
	defer stop()
	out := stdout
	var plain *plainWriter
	if !*raw {
		plain = &plainWriter{w: stdout}
		out = plain
	}
	if *takeover {
		err = console.NewClient(cfg.StateDir).Takeover(ctx, rest[0], stdin, out)
	} else {
		err = console.NewClient(cfg.StateDir).Watch(ctx, rest[0], out)
	}
	if plain != nil {
		plain.flush()
	}
	if err != nil {
		fmt.Fprintf(stderr, "warden watch: %v\n", err)
		return 1
	}
	return 0
}

// plainWriter strips terminal control sequences, so that what a session
// prints cannot drive the operator's terminal.
type plainWriter struct {
	w   io.Writer
	s   session.Stripper
	buf []byte
}

func (p *plainWriter) Write(b []byte) (int, error) {
	p.buf = p.s.Append(p.buf[:0], b)
	if _, err := p.w.Write(p.buf); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (p *plainWriter) flush() {
	p.buf = p.s.Flush(p.buf[:0])
	_, _ = p.w.Write(p.buf)
}
