package snapshot

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/relay"
	engine "github.com/warden-mcp/warden/internal/snapshot"
)

// TestReacher reports the local datasets, reuses a report for a minute,
// and leaves datasets on SSH hosts unprobed.
func TestReacher(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "s1", "etc"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 11, 24, 4, 0, 0, 0, time.UTC)
	rc := NewReacher()
	if got := rc.Report(context.Background()); got != nil {
		t.Fatalf("report before Register = %+v", got)
	}
	d := Deps{
		Sources: []Source{
			{SourceConfig: engine.SourceConfig{Name: "local", Kind: engine.KindDir, Path: dir}},
			{SourceConfig: engine.SourceConfig{Name: "gone", Kind: engine.KindDir, Path: filepath.Join(dir, "missing")}},
		},
		Reach: rc,
		Now:   func() time.Time { return now },
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "test", Version: "0"}, nil)
	if err := Register(relay.New(srv, relay.Options{}), d); err != nil {
		t.Fatal(err)
	}
	got := rc.Report(context.Background())
	if len(got) != 2 || got[0].Dataset != "gone" || len(got[0].Tools) == 0 || got[1].Dataset != "local" || len(got[1].Tools) != 0 {
		t.Fatalf("report = %+v", got)
	}
	// Within a minute the same report is returned, even if the disk changed.
	if err := os.MkdirAll(filepath.Join(dir, "missing", "s1"), 0o755); err != nil {
		t.Fatal(err)
	}
	if again := rc.Report(context.Background()); len(again[0].Tools) == 0 {
		t.Error("report was not reused within the minute")
	}
	now = now.Add(2 * time.Minute)
	if later := rc.Report(context.Background()); len(later[0].Tools) != 0 {
		t.Errorf("after a minute the report was not refreshed: %+v", later[0])
	}
}
