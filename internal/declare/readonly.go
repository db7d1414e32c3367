package declare

import (
	"context"
	"slices"
	"strings"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
)

// writeGrants are the runner options that let a sandbox write the host.
var writeGrants = []string{"allow_write_folders", "allow_write_files", "mounts"}

// grantsWrites reports whether c's runner may be given write grants.
func grantsWrites(c Choice) bool {
	for _, k := range writeGrants {
		if _, ok := c.Runner.Options[k]; ok {
			return true
		}
		if _, ok := c.Runner.listTmpls[k]; ok {
			return true
		}
	}
	return false
}

// readOnlyGrants makes o's write grants read-only: written folders and
// files are only read, and docker mounts are all read-only. A sandbox
// runner runs outside warden's kernel confinement, so for a call admitted
// below tier 2 it is what must hold the admission: what the command
// starts unseen (a repository's hook) would otherwise write through the
// grant in readonly mode.
func readOnlyGrants(o map[string]any) {
	for w, r := range map[string]string{"allow_write_folders": "allow_read_folders", "allow_write_files": "allow_read_files"} {
		if ws := l(o, w); len(ws) > 0 {
			o[r] = slices.Concat(l(o, r), ws)
		}
		delete(o, w)
	}
	if ms := l(o, "mounts"); len(ms) > 0 {
		ro := make([]string, len(ms))
		for i, m := range ms {
			ro[i] = strings.TrimSuffix(m, ":rw")
			if !strings.HasSuffix(ro[i], ":ro") {
				ro[i] += ":ro"
			}
		}
		o["mounts"] = ro
	}
}

// admittedRunner returns the runner for a call admitted as ctx says:
// below tier 2 a runner that grants writes is built again read-only.
func (p *Prepared) admittedRunner(ctx context.Context) (runner.Runner, error) {
	if a, _ := confine.From(ctx); a.Level == confine.Full || p.readOnly == nil {
		return p.Runner, nil
	}
	return p.readOnly()
}
