package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os/user"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/server"
)

// shutdownGrace is how long calls in flight may finish after a stop signal.
const shutdownGrace = 30 * time.Second

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

func cmdServe(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv env) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("config", "", "config file (default: WARDEN_CONFIG, else the embedded default)")
	httpAddr := fs.String("http", "", "serve streamable HTTP at ADDR/mcp instead of stdio, e.g. 127.0.0.1:8787")
	nonLoopback := fs.Bool("allow-non-loopback", false, "allow --http to bind a non-loopback address")
	idleExit := fs.Duration("idle-exit", 0, "exit after this long without a call (0 = never)")
	var tools multiFlag
	fs.Var(&tools, "tools", "declarative tool file or directory (repeatable)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "warden serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg, err := loadConfig(*cfgPath, getenv, func(c *config.Config) {
		if *httpAddr != "" {
			c.HTTP.Addr = *httpAddr
		}
		if *nonLoopback {
			c.HTTP.AllowNonLoopback = true
		}
		if *idleExit > 0 {
			c.IdleExit = config.Duration(*idleExit)
		}
		c.Tools = append(c.Tools, tools...)
	})
	if err != nil {
		fmt.Fprintf(stderr, "warden: invalid configuration:\n%v\n", err)
		return 1
	}
	logger := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))
	transport := "stdio"
	if cfg.HTTP.Addr != "" {
		transport = "http"
	}
	w, err := server.New(server.Options{
		Config:        cfg,
		Version:       version,
		Transport:     transport,
		Getenv:        getenv,
		ConfigPath:    configPath(*cfgPath, getenv),
		LocalIdentity: localIdentity(),
		Logger:        logger,
	})
	if err != nil {
		fmt.Fprintf(stderr, "warden: %v\n", err)
		return 1
	}
	defer w.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if d := cfg.IdleExit.D(); d > 0 {
		go func() {
			w.Relay.Activity().IdleExit(ctx, d)
			if ctx.Err() == nil {
				logger.Info("idle: shutting down", "idle_exit", d)
				cancel()
			}
		}()
	}
	logger.Info("warden starting", "version", version, "mode", cfg.Mode, "transport", transport, "state_dir", cfg.StateDir)
	if transport == "stdio" {
		err = w.MCP.Run(ctx, &mcp.IOTransport{Reader: io.NopCloser(stdin), Writer: nopWriteCloser{stdout}})
	} else {
		err = serveHTTP(ctx, cfg, w, stderr, logger)
	}
	dctx, dcancel := context.WithTimeout(context.Background(), shutdownGrace)
	_ = w.Relay.Activity().Drain(dctx)
	dcancel()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		logger.Error("serve", "err", err)
		return 1
	}
	return 0
}

func serveHTTP(ctx context.Context, cfg *config.Config, w *server.Warden, stderr io.Writer, logger *slog.Logger) error {
	token, tokenFile, err := httpToken(cfg)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", cfg.HTTP.Addr)
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	host, _, _ := net.SplitHostPort(cfg.HTTP.Addr)
	if !config.IsLoopbackHost(host) {
		logger.Warn("listening on a non-loopback address: anyone who can reach it and holds the token controls this host", "addr", ln.Addr().String())
	}
	url := fmt.Sprintf("http://%s/mcp", ln.Addr())
	fmt.Fprintf(stderr, "warden: serving MCP at %s\n", url)
	if tokenFile != "" {
		fmt.Fprintf(stderr, "warden: bearer token in %s\n", tokenFile)
		fmt.Fprintf(stderr, "warden: connect with: claude mcp add --transport http warden %s --header \"Authorization: Bearer $(cat %s)\"\n", url, tokenFile)
	}
	h := edge.Handler(w.MCP, edge.Options{
		Token:              token,
		AllowedHosts:       cfg.HTTP.AllowedHosts,
		AllowedOrigins:     cfg.HTTP.AllowedOrigins,
		MaxBodyBytes:       cfg.HTTP.MaxBodyBytes,
		TrustedProxyHeader: cfg.HTTP.TrustedProxyHeader,
		Logger:             logger,
	})
	return edge.Serve(ctx, ln, h, shutdownGrace)
}

// httpToken returns the bearer token: configured (WARDEN_TOKEN or
// http.token), read from http.token_file, or generated in the state dir.
func httpToken(cfg *config.Config) (token, file string, err error) {
	if cfg.HTTP.Token != "" {
		return cfg.HTTP.Token, "", nil
	}
	if cfg.HTTP.TokenFile != "" {
		t, err := config.ReadTokenFile(cfg.HTTP.TokenFile)
		if err != nil {
			return "", "", err
		}
		if len(t) < config.MinTokenLen {
			return "", "", fmt.Errorf("http.token_file: token must be at least %d characters", config.MinTokenLen)
		}
		return t, cfg.HTTP.TokenFile, nil
	}
	t, _, err := edge.LoadOrCreateToken(cfg.StateDir)
	if err != nil {
		return "", "", err
	}
	return t, filepath.Join(cfg.StateDir, edge.TokenFile), nil
}

func localIdentity() string {
	if u, err := user.Current(); err == nil {
		return "local:" + u.Username
	}
	return "local"
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
