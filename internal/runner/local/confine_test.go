package local

import (
	"context"
	"testing"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/runnertest"
)

// atLevel runs every command of the conformance suite at one level, as a
// call admitted at that level would.
type atLevel struct {
	*Runner
	level confine.Level
}

func (r atLevel) Run(ctx context.Context, req runner.Request) (runner.Result, error) {
	return r.Runner.Run(confine.With(ctx, confine.Admission{Level: r.level}), req)
}

// TestConformanceConfined runs the runner suite through the confiner at
// each level: bounds, kills and output hold the same way confined.
func TestConformanceConfined(t *testing.T) {
	c, err := confine.New(confine.Options{Protect: []string{t.TempDir()}}, confine.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Status().Active {
		t.Skipf("confinement unavailable: %s", c.Status().Mechanism)
	}
	opts := testOptions()
	opts.Confine = c
	for _, level := range []confine.Level{confine.Read, confine.Full} {
		t.Run(string(level), func(t *testing.T) {
			runnertest.Run(t, func(*testing.T) runner.Runner { return atLevel{New(opts), level} }, runnertest.Options{
				KillGrace:     opts.KillGrace,
				ProgressEvery: opts.ProgressEvery,
			})
		})
	}
}
