package snapshot

import (
	"context"
	"sync"
	"time"

	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// reachTTL is how long a reach report is reused: server_info may be
// called often, and each report runs a few commands per dataset.
const reachTTL = time.Minute

// Reacher reports, for server_info, what each dataset on this machine can
// serve with the permissions warden has there. Register fills it; before
// that, or with no datasets, it reports nothing. Datasets on SSH hosts are
// not probed: server_info does not dial hosts nobody asked about.
type Reacher struct {
	mu     sync.Mutex
	c      *catalog
	now    func() time.Time
	at     time.Time
	cached []engine.Reach
}

// NewReacher returns an empty Reacher to pass in Deps.
func NewReacher() *Reacher { return &Reacher{} }

func (r *Reacher) set(c *catalog, now func() time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.c, r.now, r.cached = c, now, nil
}

// Report probes every local dataset, or returns the report of the last
// minute.
func (r *Reacher) Report(ctx context.Context) []engine.Reach {
	if r == nil {
		return nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.c == nil {
		return nil
	}
	if r.cached != nil && r.now().Sub(r.at) < reachTTL {
		return r.cached
	}
	out := []engine.Reach{}
	for _, n := range r.c.names {
		ds := r.c.byName[n]
		if ds.host != "local" {
			continue
		}
		rep, err := ds.engine.Reach(ctx, n)
		if err != nil {
			rep = engine.Reach{Dataset: n, Kind: ds.kind, Probes: []engine.Probe{{Check: "reach", Error: err.Error()}}}
		}
		out = append(out, rep)
	}
	r.cached, r.at = out, r.now()
	return out
}
