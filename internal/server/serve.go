package server

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/warden-mcp/warden/internal/config"
)

// ServeOptions are what running a server needs besides its assembly.
type ServeOptions struct {
	Options
	// Load re-reads the configuration exactly as startup did, for reloads
	// (SIGHUP and the admin socket).
	Load func() (*config.Config, error)
	// Stdin and Stdout carry MCP over stdio.
	Stdin  io.Reader
	Stdout io.Writer
	// Stderr receives what an operator starting warden reads: the URL
	// served, the token file and a connect command, the metrics address.
	Stderr io.Writer
	// Serving, if set, is called once warden serves: over stdio before
	// it reads the first message, over HTTP once it listens.
	Serving func()
}

// Serve assembles warden from o and serves it — over stdio, or over
// streamable HTTP when the config names an address — with the metrics
// listener, reloads on SIGHUP and the idle exit, until ctx ends, the
// client goes or warden is idle. Calls still running then get the
// shutdown grace and are cancelled; either way their records are written
// before the audit log closes. cmd/warden parses flags and environment and
// calls Serve: this package is the one assembly root.
func Serve(ctx context.Context, o ServeOptions) error {
	cfg := o.Config
	logger := o.Logger
	o.Transport = "stdio"
	if cfg.HTTP.Addr != "" {
		o.Transport = "http"
	}
	w, err := New(o.Options)
	if err != nil {
		return err
	}
	defer w.Close()

	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var activityDone chan struct{}
	if d := cfg.IdleExit.D(); d > 0 {
		// The watchdog's view: when warden was last used, and that it
		// stopped. Its final write waits for the drain below.
		actx, acancel := context.WithCancel(context.WithoutCancel(ctx))
		activityDone = make(chan struct{})
		go func() {
			defer close(activityDone)
			keepActivityFile(actx, cfg.StateDir, w.Relay.Activity(), d, logger)
		}()
		defer func() {
			acancel()
			// A state dir that stopped answering (an NFS server gone)
			// holds the last write; warden exits all the same.
			select {
			case <-activityDone:
			case <-time.After(activityStopWait):
				logger.Warn("last_activity file: the final write did not finish; is a mount stuck?", "dir", cfg.StateDir, "waited", activityStopWait)
			}
		}()
		go func() {
			w.Relay.Activity().IdleExit(ctx, d)
			if ctx.Err() == nil {
				logger.Info("idle: shutting down", "idle_exit", d)
				cancel()
			}
		}()
	}
	ready := func() {}
	if o.Serving != nil {
		ready = o.Serving
	}
	s := &serving{cfg: cfg, w: w, logger: logger, stderr: o.Stderr, load: o.Load, path: o.ConfigPath, ready: ready}
	if cfg.Metrics.Addr != "" {
		if err := s.serveMetrics(ctx); err != nil {
			return err
		}
	}
	go s.reloadOnHangup(ctx)
	logger.Info("warden starting", "version", o.Version, "mode", cfg.Mode, "transport", o.Transport, "state_dir", cfg.StateDir)
	if o.Transport == "stdio" {
		ready()
		err = w.MCP.Run(ctx, stdioTransport{in: o.Stdin, out: o.Stdout, lane: newCallLane(ctx, w.MCP, w.Relay)})
	} else {
		err = s.serveHTTP(ctx)
	}
	// Calls still running (stdio, or HTTP past its grace) get the grace
	// period, then are cancelled; either way their records are written
	// before w.Close flushes the audit log.
	dctx, dcancel := context.WithTimeout(context.Background(), cfg.HTTP.ShutdownGrace.D())
	if w.Relay.Activity().Drain(dctx) != nil {
		w.Relay.Abort()
		actx, acancel := context.WithTimeout(context.Background(), 10*time.Second)
		_ = w.Relay.Activity().Drain(actx)
		acancel()
	}
	dcancel()
	if err != nil && !errors.Is(err, context.Canceled) && !errors.Is(err, io.EOF) {
		return err
	}
	logger.Info("warden stopped")
	return nil
}
