package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/user"
	"sync/atomic"
	"time"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/server"
)

type serveOpts struct {
	config, http string
	nonLoopback  bool
	idleExit     time.Duration
	startTimeout time.Duration
	tools        multiFlag
}

func serveFlags(fs *flag.FlagSet) *serveOpts {
	o := &serveOpts{}
	fs.StringVar(&o.config, "config", "", "config `file` (default: WARDEN_CONFIG, else the embedded default)")
	fs.StringVar(&o.http, "http", "", "serve streamable HTTP at `addr` (path /mcp) instead of stdio, e.g. 127.0.0.1:8787")
	fs.BoolVar(&o.nonLoopback, "allow-non-loopback", false, "allow --http to bind a non-loopback address")
	fs.DurationVar(&o.idleExit, "idle-exit", 0, "exit after this long without a call (0 = never)")
	fs.DurationVar(&o.startTimeout, "start-timeout", time.Minute, "exit 1, naming the files that do not answer, when not serving this long after starting")
	fs.Var(&o.tools, "tools", "declarative tool `file` or directory (repeatable)")
	return o
}

func cmdServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("warden serve", flag.ContinueOnError)
	o := serveFlags(fs)
	rest, code, ok := parseArgs(lookup("serve"), fs, args, stdout, stderr)
	if !ok {
		return code
	}
	if len(rest) > 0 {
		usageError(stderr, "serve", fmt.Sprintf("unexpected argument %q", rest[0]))
		return 2
	}
	cfgPath, httpAddr, nonLoopback, idleExit, tools := &o.config, &o.http, &o.nonLoopback, &o.idleExit, o.tools
	apply := func(c *config.Config) {
		if *httpAddr != "" {
			c.HTTP.Addr = *httpAddr
			c.SetBy("http.addr", "--http")
		}
		if *nonLoopback {
			c.HTTP.AllowNonLoopback = true
		}
		if *idleExit > 0 {
			c.IdleExit = config.Duration(*idleExit)
		}
		addTools(c, tools)
	}
	if o.startTimeout <= 0 {
		usageError(stderr, "serve", "--start-timeout must be positive")
		return 2
	}
	loaded := new(atomic.Pointer[config.Config])
	files := func() []server.StartFile { return server.StartFiles(loaded.Load(), configPath(*cfgPath, getenv)) }
	return awaitStart(ctx, o.startTimeout, files, stderr, func(serving func()) int {
		cfg, err := loadConfig(*cfgPath, getenv, apply)
		loaded.Store(cfg)
		if cfg, err = checked(cfg, err); err != nil {
			reportConfig(stderr, err)
			return 1
		}
		return serveConfig(ctx, cfg, o, getenv, apply, stdin, stdout, stderr, serving)
	})
}

// serveConfig serves cfg, calling serving once it does.
func serveConfig(ctx context.Context, cfg *config.Config, o *serveOpts, getenv env, apply func(*config.Config), stdin io.Reader, stdout, stderr io.Writer, serving func()) int {
	cfgPath := &o.config
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	err := server.Serve(ctx, server.ServeOptions{
		Options: server.Options{
			Config:        cfg,
			Version:       versionString(),
			Getenv:        getenv,
			ConfigPath:    configPath(*cfgPath, getenv),
			LocalIdentity: localIdentity(),
			Logger:        logger,
		},
		Load:    func() (*config.Config, error) { return loadConfig(*cfgPath, getenv, apply) },
		Stdin:   stdin,
		Stdout:  stdout,
		Stderr:  stderr,
		Serving: serving,
	})
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	return 0
}

func localIdentity() string {
	if u, err := user.Current(); err == nil {
		return "local:" + u.Username
	}
	return "local"
}
