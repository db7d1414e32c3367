package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/config"
)

func assemble(t *testing.T, yml string) (*Warden, *config.Config) {
	t.Helper()
	c, err := config.Parse("test", []byte(yml))
	if err != nil {
		t.Fatal(err)
	}
	c.StateDir = t.TempDir()
	if err := c.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	w, err := New(Options{Config: c, Version: "test", Transport: "memory"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, c
}

func assembleB(b *testing.B, yml string) (*Warden, *config.Config) {
	b.Helper()
	c, err := config.Parse("bench", []byte(yml))
	if err != nil {
		b.Fatal(err)
	}
	c.StateDir = b.TempDir()
	if err := c.Finish("/root", ""); err != nil {
		b.Fatal(err)
	}
	w, err := New(Options{Config: c, Version: "bench", Transport: "memory"})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { w.Close() })
	return w, c
}

func connect(t *testing.T, w *Warden) *mcp.ClientSession {
	t.Helper()
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := w.MCP.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestEveryToolGoesThroughThePipeline walks every tool the server lists:
// each must be one the relay registered, and each call, even a refused
// one, must leave exactly one audit record naming it.
func TestEveryToolGoesThroughThePipeline(t *testing.T) {
	w, c := assemble(t, "mode: readonly\n")
	cs := connect(t, w)
	ctx := context.Background()
	listed, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	relayed := w.Relay.Tools()
	if len(listed.Tools) == 0 {
		t.Fatal("no tools")
	}
	for i, tool := range listed.Tools {
		if !slices.Contains(relayed, tool.Name) {
			t.Errorf("tool %s is served but was not registered through the relay", tool.Name)
			continue
		}
		start := time.Now()
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: map[string]any{}}); err != nil {
			t.Errorf("%s: protocol error %v", tool.Name, err)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Logf("%s took %s", tool.Name, d)
		}
		lines := auditLines(t, c.Audit.Path)
		if len(lines) != i+1 {
			t.Fatalf("after calling %s the audit log has %d records, want %d", tool.Name, len(lines), i+1)
		}
		var rec struct{ Tool string }
		if err := json.Unmarshal([]byte(lines[i]), &rec); err != nil || rec.Tool != tool.Name {
			t.Errorf("record %d is for %q, want %s", i, rec.Tool, tool.Name)
		}
	}
}

func auditLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

func TestSelfDeny(t *testing.T) {
	w, c := assemble(t, "mode: open\n")
	cs := connect(t, w)
	for _, cmd := range []string{
		"cat " + filepath.Join(c.StateDir, "token"),
		"echo x >> " + c.Audit.Path,
	} {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": cmd}})
		if err != nil {
			t.Fatal(err)
		}
		if !res.IsError {
			t.Errorf("%q was not refused", cmd)
		}
	}
}

// A session's default shell is the operator's SHELL only when warden reads
// typed lines in its language; zsh or fish would hold every line.
func TestLoginShell(t *testing.T) {
	if _, err := os.Stat("/bin/bash"); err != nil {
		t.Skip("no /bin/bash")
	}
	for shell, want := range map[string]string{
		"/bin/bash":      "/bin/bash",
		"/usr/bin/dash":  "/usr/bin/dash",
		"/bin/sh":        "/bin/sh",
		"/usr/bin/zsh":   "/bin/bash",
		"/usr/bin/fish":  "/bin/bash",
		"/bin/tcsh":      "/bin/bash",
		"/opt/bash/zsh":  "/bin/bash",
		"bash":           "/bin/bash",
		"":               "/bin/sh",
		"/usr/bin/bashy": "/bin/bash",
	} {
		if got := loginShell(func(k string) string {
			if k == "SHELL" {
				return shell
			}
			return ""
		}); got != want {
			t.Errorf("SHELL=%q: session shell %q, want %q", shell, got, want)
		}
	}
}
