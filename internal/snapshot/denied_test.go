package snapshot

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestDeniedNamesHidden: with a path policy, a name it denies is refused
// when named and absent from every listing, search and walk, in the live
// data, in a dated copy of it and in the copies' directory inside the live
// data, whatever the spelling (./, //, a symlinked parent); its neighbours
// read as before. Without one, nothing is hidden.
func TestDeniedNamesHidden(t *testing.T) {
	const secretText, benign = "OWN-STATE-77", "NEIGHBOUR-ok"
	live := t.TempDir()
	copies := filepath.Join(live, "backups")
	for _, root := range []string{live, filepath.Join(copies, "daily-1")} {
		for p, text := range map[string]string{"state/token": secretText, "etc/app.conf": benign} {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(root, p)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, p), []byte(text+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.Symlink("state", filepath.Join(live, "ln")); err != nil {
		t.Fatal(err)
	}
	pp, err := policy.NewPathPolicy(policy.PathRules{ReplaceDefaults: true, Protect: []string{filepath.Join(live, "state")}})
	if err != nil {
		t.Fatal(err)
	}
	src := SourceConfig{Name: "d", Kind: KindDir, Path: copies, Pattern: "daily-*", Live: live}
	ctx := context.Background()
	calls := func(e *Engine) map[string]func() (any, error) {
		out := map[string]func() (any, error){}
		for _, snap := range []string{LiveSnapshot, "daily-1"} {
			for _, p := range []string{"state/token", "./state//token", "ln/token", "state/./token"} {
				out["read "+snap+" "+p] = func() (any, error) { return e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: snap, Path: p}) }
			}
			out["list "+snap] = func() (any, error) { return e.ListDir(ctx, ListDirArgs{Dataset: "d", Snapshot: snap}) }
			out["grep "+snap] = func() (any, error) {
				return e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: snap, Regex: "OWN|NEIGHBOUR"})
			}
			out["find "+snap] = func() (any, error) {
				return e.FindFiles(ctx, FindFilesArgs{Dataset: "d", Snapshot: snap, Pattern: "token"})
			}
		}
		out["read copy through live"] = func() (any, error) {
			return e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: LiveSnapshot, Path: "backups/daily-1/state/token"})
		}
		out["grep copies through live"] = func() (any, error) {
			return e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: LiveSnapshot, Path: "backups", Regex: "OWN"})
		}
		return out
	}
	guarded := newEngine(t, Config{Sources: []SourceConfig{src}, Paths: pp})
	for name, call := range calls(guarded) {
		t.Run(name, func(t *testing.T) {
			res, _ := call()
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), secretText) || strings.Contains(string(b), `"path":"state"`) || strings.Contains(string(b), "/token") {
				t.Errorf("%s: shows the denied name or its content: %s", name, b)
			}
		})
	}
	for _, snap := range []string{LiveSnapshot, "daily-1"} {
		r, err := guarded.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: snap, Path: "etc/app.conf"})
		if err != nil || !strings.Contains(r.Content, benign) {
			t.Errorf("neighbour in %s: %v %+v", snap, err, r)
		}
	}
	// No policy, nothing hidden: the cases above show something.
	open := newEngine(t, Config{Sources: []SourceConfig{src}})
	if r, err := open.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: LiveSnapshot, Path: "state/token"}); err != nil || !strings.Contains(r.Content, secretText) {
		t.Errorf("without a path policy: %v %+v", err, r)
	}
}
