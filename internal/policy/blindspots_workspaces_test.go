package policy

import (
	"fmt"
	"path/filepath"
	"testing"
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
	evilFile := map[string]string{"npm": "npm/packages/a/package.json", "yarn": "yarn/libs/a/package.json",
		"pnpm": "pnpm/apps/a/package.json", "lerna": "lerna/modules/a/package.json"}
	var cases []projectCase
	for _, tc := range []struct{ root, cmd string }{
		{"npm", "npm run x --workspaces"}, {"npm", "npm run -ws x"}, {"npm", "npm run x -w a"}, {"npm", "npm run --workspace=a x"},
		{"npm", "cd packages/b && npm run x --workspaces"}, {"npm", "npm test --workspaces --if-present"}, {"npm", "bun run --filter '*' x"},
		{"yarn", "yarn workspaces foreach run x"}, {"yarn", "yarn workspace a run x"},
		{"pnpm", "pnpm -r run x"}, {"pnpm", "pnpm --recursive x"}, {"pnpm", "pnpm --filter a x"}, {"pnpm", "cd apps/a/src && pnpm -F a x"},
		{"lerna", "lerna run x"}, {"lerna", "lerna exec -- true"}, {"npm", "turbo run x"}, {"npm", "nx run-many -t x"},
	} {
		cases = append(cases, projectCase{"cd " + tc.root + " && " + tc.cmd, evilFile[tc.root]})
	}
	wantProjectDenied(t, p, dir, cases)
	wantNotDeniedIn(t, p, dir, false, []string{"cd npm && npm run x", "cd npm/packages/b && npm run x", "cd pnpm && pnpm run x"})
	wantNotDeniedIn(t, p, dir, true, []string{"cd npm && npm run x --workspaces"})
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
