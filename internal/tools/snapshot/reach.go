package snapshot

import (
	"context"
	"fmt"
	"sync"
	"time"

	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// reachTTL is how long a reach report is reused: server_info may be
// called often, and each report runs a few commands per dataset.
const reachTTL = time.Minute

// remoteReachWait bounds how long a report waits for the datasets of SSH
// hosts, probed all at once: a host that has not answered by then is
// reported "unknown: <reason>" rather than holding server_info up (a dial
// is not cut short by the caller, so its answer may come much later).
const remoteReachWait = 5 * time.Second

// Reacher reports, for server_info, what each dataset can serve with the
// permissions warden has on its host. Register fills it; before that, or
// with no datasets, it reports nothing. Datasets on this machine are
// probed directly; datasets on SSH hosts over the host's connection, in
// parallel and bounded by remoteReachWait, so one slow or dead host costs
// a server_info call at most that long, once per reachTTL.
type Reacher struct {
	mu     sync.Mutex
	c      *catalog
	now    func() time.Time
	wait   time.Duration
	at     time.Time
	cached []engine.Reach
}

// NewReacher returns an empty Reacher to pass in Deps.
func NewReacher() *Reacher { return &Reacher{} }

func (r *Reacher) set(c *catalog, now func() time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.c, r.now, r.cached = c, now, nil
	if r.wait <= 0 {
		r.wait = remoteReachWait
	}
}

// Report probes every dataset, or returns the report of the last minute.
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
	out := make([]engine.Reach, len(r.c.names))
	var wg sync.WaitGroup
	for i, n := range r.c.names {
		if ds := r.c.byName[n]; ds.host != "local" {
			wg.Add(1)
			go func() {
				defer wg.Done()
				out[i] = remoteReach(ctx, ds, r.wait)
			}()
		}
	}
	for i, n := range r.c.names {
		if ds := r.c.byName[n]; ds.host == "local" {
			out[i] = reach(ctx, ds)
		}
	}
	wg.Wait()
	r.cached, r.at = out, r.now()
	return out
}

// reach probes one dataset with the engine of its host.
func reach(ctx context.Context, ds *dataset) engine.Reach {
	rep, err := ds.engine.Reach(ctx, ds.name)
	if err != nil {
		rep = engine.Reach{Dataset: ds.name, Kind: ds.kind, Status: engine.Unknown(err.Error()), Probes: []engine.Probe{}, Tools: []engine.ToolReach{}}
	}
	rep.Host = ds.host
	return rep
}

// remoteReach probes a dataset on an SSH host, first checking that the
// host answers at all, so that a host that cannot be reached is reported
// unknown rather than as a source whose tools are all unavailable. It
// returns by wait whatever the host does.
func remoteReach(ctx context.Context, ds *dataset, wait time.Duration) engine.Reach {
	ctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	unknown := func(reason string) engine.Reach {
		return engine.Reach{Dataset: ds.name, Kind: ds.kind, Host: ds.host, Status: engine.Unknown(reason), Probes: []engine.Probe{}, Tools: []engine.ToolReach{}}
	}
	late := func() engine.Reach {
		if ctx.Err() == context.DeadlineExceeded {
			return unknown(fmt.Sprintf("host %s did not answer within %s", ds.host, wait))
		}
		return unknown(fmt.Sprintf("probing host %s: %v", ds.host, ctx.Err()))
	}
	done := make(chan engine.Reach, 1) // the probe may outlive the wait
	go func() {
		if err := ds.engine.Contact(ctx, ds.name); err != nil {
			if ctx.Err() != nil {
				done <- late()
				return
			}
			done <- unknown(fmt.Sprintf("host %s could not be reached: %v", ds.host, err))
			return
		}
		rep := reach(ctx, ds)
		if ctx.Err() != nil {
			// Probes cut short by the wait say nothing about permissions.
			rep = late()
		}
		done <- rep
	}()
	select {
	case rep := <-done:
		return rep
	case <-ctx.Done():
		return late()
	}
}
