package edge

import (
	"context"
	"crypto/tls"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// ServeOptions configures Serve.
type ServeOptions struct {
	// Grace is how long calls in flight may finish after ctx ends.
	Grace time.Duration
	// Drain waits until no call is in flight or its context ends; Abort
	// cancels the calls still running. Both nil = no call tracking.
	Drain func(context.Context) error
	Abort func()
	// Sources wraps the listener (allowlist, lockout, connection cap).
	Sources *Sources
	// TLS, when set, serves HTTPS.
	TLS    *tls.Config
	Logger *slog.Logger
}

// afterDrain bounds how long finished calls get to write their responses
// once every call has returned, before remaining streams are cut.
const afterDrain = 3 * time.Second

// Serve serves h on ln until ctx ends. Then it stops accepting, lets calls
// in flight finish for up to Grace, aborts those still running (they are
// still audited), gives the finished ones a moment to deliver their
// answers, and closes every connection. Long-lived event streams do not
// hold shutdown up.
func Serve(ctx context.Context, ln net.Listener, h http.Handler, o ServeOptions) error {
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	if o.Sources != nil {
		ln = o.Sources.Listener(ln)
	}
	if o.TLS != nil {
		ln = tls.NewListener(ln, o.TLS)
	}
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		MaxHeaderBytes:    64 << 10,
		ConnContext:       connContext,
		ErrorLog:          slog.NewLogLogger(o.Logger.Handler(), slog.LevelDebug),
	}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	// Stop accepting and close idle connections; active ones finish.
	shut, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	done := make(chan error, 1)
	go func() { done <- srv.Shutdown(shut) }()
	if o.Drain != nil {
		gctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.Grace)
		err := o.Drain(gctx)
		cancel()
		if err != nil {
			o.Logger.Warn("shutdown grace period over: cancelling the calls still running", "grace", o.Grace)
			if o.Abort != nil {
				o.Abort()
			}
			actx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
			_ = o.Drain(actx)
			cancel()
		}
	}
	wait := afterDrain
	if o.Drain == nil {
		wait = o.Grace
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil && !errors.Is(err, context.Canceled) {
			return err
		}
	case <-t.C:
		stop()
	}
	srv.Close()
	return nil
}
