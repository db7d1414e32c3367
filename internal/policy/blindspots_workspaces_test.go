package policy

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestBlindSpotWorkspaces: a monorepo's tools run the scripts of its
// packages, which were not read: npm run x --workspaces, npm run x -w
// NAME, pnpm -r, yarn workspaces foreach, lerna, turbo and nx ran a
// package's new "x": "reboot" at tier 2. The packages the root's
// package.json, pnpm-workspace.yaml or lerna.json names now meet the deny
// list on such calls; a call in one package, old files and another host
// are not denied, and past maxWorkspaces packages a call takes approval.
func TestBlindSpotWorkspaces(t *testing.T) {
	dir, _ := lastingDir(t, "workspaces-")
	p, err := New(Rules{Path: "/usr/bin:/bin", Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	const evil, plain = `{"name": "a", "scripts": {"x": "reboot"}}`, `{"name": "b", "scripts": {"x": "echo ok"}}`
	for name, text := range map[string]string{
		"npm/package.json":            `{"private": true, "workspaces": ["packages/*"], "scripts": {"x": "echo root"}}`,
		"npm/packages/a/package.json": evil, "npm/packages/b/package.json": plain,
		"yarn/package.json": `{"workspaces": {"packages": ["libs/**"]}}`, "yarn/libs/a/package.json": evil,
		"pnpm/package.json": `{"name": "root"}`, "pnpm/pnpm-workspace.yaml": "packages:\n  - 'apps/*'\n  - \"!apps/skip\"\ncatalog:\n  - x\n",
		"pnpm/apps/a/package.json": evil,
		"lerna/lerna.json":         `{"packages": ["modules/*"]}`, "lerna/package.json": `{"name": "root"}`, "lerna/modules/a/package.json": evil,
	} {
		writeUnder(t, dir, name, text)
	}
	evilAt := func(root string) string {
		return filepath.Join(dir, root, map[string]string{"npm": "packages", "yarn": "libs", "pnpm": "apps", "lerna": "modules"}[root], "a/package.json")
	}
	for _, tc := range []struct{ root, cmd string }{
		{"npm", "npm run x --workspaces"}, {"npm", "npm run -ws x"}, {"npm", "npm run x -w a"}, {"npm", "npm run --workspace=a x"},
		{"npm", "cd packages/b && npm run x --workspaces"}, {"npm", "npm test --workspaces --if-present"}, {"npm", "bun run --filter '*' x"},
		{"yarn", "yarn workspaces foreach run x"}, {"yarn", "yarn workspace a run x"},
		{"pnpm", "pnpm -r run x"}, {"pnpm", "pnpm --recursive x"}, {"pnpm", "pnpm --filter a x"}, {"pnpm", "cd apps/a/src && pnpm -F a x"},
		{"lerna", "lerna run x"}, {"lerna", "lerna exec -- true"}, {"npm", "turbo run x"}, {"npm", "nx run-many -t x"},
	} {
		c := "cd " + filepath.Join(dir, tc.root) + " && " + tc.cmd
		if v := p.Evaluate(Input{Command: c}); !v.Denied || !strings.Contains(v.Reason, evilAt(tc.root)) {
			t.Errorf("Evaluate(%q) = %s, want denied for what %s runs", tc.cmd, formatVerdict(v), evilAt(tc.root))
		}
		if v := p.Evaluate(Input{Command: c, Host: "nas"}); v.Denied {
			t.Errorf("another host's %q was denied for this host's files: %s", tc.cmd, formatVerdict(v))
		}
	}
	for _, c := range []string{"cd npm && npm run x", "cd npm/packages/b && npm run x", "cd pnpm && pnpm run x"} {
		if v := p.Evaluate(Input{Command: "cd " + dir + "/" + strings.TrimPrefix(c, "cd ")}); v.Denied {
			t.Errorf("Evaluate(%q) = %s: it runs no other package's scripts", c, formatVerdict(v))
		}
	}
	old := *p
	old.since = time.Now().Add(time.Hour)
	if v := old.Evaluate(Input{Command: "cd " + dir + "/npm && npm run x --workspaces"}); v.Denied {
		t.Errorf("old packages' scripts: %s, want not denied", formatVerdict(v))
	}
	for _, n := range []int{maxWorkspaces, maxWorkspaces + 1} {
		root := filepath.Join(dir, fmt.Sprint("many", n))
		writeUnder(t, root, "package.json", `{"workspaces": ["p/*"]}`)
		for i := range n {
			writeUnder(t, root, fmt.Sprintf("p/%03d/package.json", i), plain)
		}
		v := p.Evaluate(Input{Command: "cd " + root + " && npm run x -ws"})
		if n > maxWorkspaces {
			wantPastLimit(t, fmt.Sprintf("%d packages", n), v, maxWorkspaces)
		} else {
			wantWithin(t, fmt.Sprintf("%d packages", n), v)
		}
	}
}
