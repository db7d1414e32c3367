package server

import (
	"context"
	"fmt"
	"os"

	"github.com/warden-mcp/warden/internal/approvals"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/console"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
)

// approvalMechanisms maps tiers 2 and 3 to their mechanisms, defaults
// applied.
func approvalMechanisms(cfg *config.Config) map[policy.Tier][]relay.Mechanism {
	m := map[policy.Tier][]relay.Mechanism{}
	for tier, t := range map[int]policy.Tier{2: policy.TierMutate, 3: policy.TierDestructive} {
		for _, name := range cfg.TierMechanisms(tier) {
			m[t] = append(m[t], relay.Mechanism(name))
		}
	}
	return m
}

// operatorConsole is the queue of calls waiting for an operator and the
// socket operators answer on.
type operatorConsole struct {
	queue *approvals.Queue
	stop  context.CancelFunc
	done  chan struct{}
}

// startConsole gives the relay its queue of calls waiting for an operator
// and serves the console socket, when the config uses the console; it
// returns nil otherwise.
func startConsole(r *relay.Relay, cfg *config.Config, o Options, reg *session.Registry) (*operatorConsole, error) {
	if !cfg.UsesConsole() {
		return nil, nil
	}
	q := approvals.New(approvals.Options{
		Wait:       cfg.Approval.Wait.D(),
		MaxPending: cfg.Approval.MaxPending,
		Now:        o.Now,
	})
	path := console.SocketPath(cfg.StateDir, os.Getpid())
	ln, err := console.Listen(path)
	if err != nil {
		return nil, fmt.Errorf("console: %w", err)
	}
	r.SetConsole(q)
	ctx, stop := context.WithCancel(context.Background())
	c := &operatorConsole{queue: q, stop: stop, done: make(chan struct{})}
	srv := &console.Server{Queue: q, Sessions: reg, Logger: o.Logger}
	go func() {
		defer close(c.done)
		if err := srv.Serve(ctx, ln); err != nil {
			o.Logger.Error("console socket failed", "path", path, "err", err)
		}
	}()
	o.Logger.Info("console socket serving", "path", path)
	return c, nil
}

// close stops the socket and removes it.
func (c *operatorConsole) close() {
	if c == nil {
		return
	}
	c.stop()
	<-c.done
}
