package hosts_test

import (
	"encoding/json"
	"io"
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/warden-mcp/warden/"

// TestToolsReachHostsOnlyThroughHosts reads the import graph with go list:
// walking from every tool group under internal/tools without entering
// internal/hosts, no other tool group and no concrete runner is reached.
// Tool groups are tools → hosts → runner; a group that builds its own way
// to a host, or leans on another group, fails here.
func TestToolsReachHostsOnlyThroughHosts(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	cmd := exec.Command("go", "list", "-deps", "-json=ImportPath,Imports", module+"internal/tools/...")
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	imports := map[string][]string{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p struct {
			ImportPath string
			Imports    []string
		}
		if err := dec.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		imports[p.ImportPath] = p.Imports
	}
	var groups []string
	for p := range imports {
		if strings.HasPrefix(p, module+"internal/tools/") {
			groups = append(groups, p)
		}
	}
	if len(groups) < 6 {
		t.Fatalf("found %d tool groups, want the six or more under internal/tools: %v", len(groups), groups)
	}
	for _, g := range groups {
		seen := map[string]string{} // package → the package that imports it
		todo := []string{g}
		for len(todo) > 0 {
			p := todo[0]
			todo = todo[1:]
			for _, q := range imports[p] {
				if _, ok := seen[q]; ok || !strings.HasPrefix(q, module) || q == module+"internal/hosts" {
					continue
				}
				seen[q] = p
				todo = append(todo, q)
			}
		}
		for q, by := range seen {
			rel := strings.TrimPrefix(q, module)
			switch {
			case strings.HasPrefix(rel, "internal/tools/"):
				t.Errorf("%s reaches tool group %s (imported by %s)", strings.TrimPrefix(g, module), rel, strings.TrimPrefix(by, module))
			case strings.HasPrefix(rel, "internal/runner/") && !strings.HasSuffix(rel, "test"):
				t.Errorf("%s reaches concrete runner %s (imported by %s) other than through internal/hosts", strings.TrimPrefix(g, module), rel, strings.TrimPrefix(by, module))
			case rel == "internal/session/sshstart":
				t.Errorf("%s reaches %s (imported by %s) other than through internal/hosts", strings.TrimPrefix(g, module), rel, strings.TrimPrefix(by, module))
			}
		}
	}
}
