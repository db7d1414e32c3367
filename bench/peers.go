package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// peers is the npm install of the servers warden is compared with.
type peers struct {
	err         error  // why none of them can run
	dir         string // holds node_modules
	node        string // Node 22 binary from the node package
	nodeVersion string
}

func (p peers) module(path string) string { return filepath.Join(p.dir, "node_modules", path) }

// installPeers installs bench/package-lock.json into cache/npm with
// `npm ci --ignore-scripts` — no install script may download anything from
// outside the npm registry (@vscode/ripgrep fetches a binary from GitHub,
// puppeteer a browser) — and then runs the one script that is needed, the
// node package's, which installs the Node binary from the npm registry.
// A stamp of the lockfile skips all of it when nothing changed.
func installPeers(ctx context.Context, c config) peers {
	p := peers{dir: filepath.Join(c.cache, "npm")}
	p.node = p.module("node/bin/node")
	pkg, err1 := os.ReadFile(filepath.Join(c.root, "bench", "package.json"))
	lock, err2 := os.ReadFile(filepath.Join(c.root, "bench", "package-lock.json"))
	if err1 != nil || err2 != nil {
		p.err = fmt.Errorf("bench/package.json or package-lock.json missing")
		return p
	}
	sum := sha256.Sum256(append(pkg, lock...))
	stamp := hex.EncodeToString(sum[:])
	stampFile := filepath.Join(p.dir, ".stamp")
	if b, _ := os.ReadFile(stampFile); string(b) != stamp || !executable(p.node) {
		if err := ensureNPM(ctx); err != nil {
			p.err = err
			return p
		}
		os.RemoveAll(p.dir)
		if err := os.MkdirAll(p.dir, 0o755); err != nil {
			p.err = err
			return p
		}
		os.WriteFile(filepath.Join(p.dir, "package.json"), pkg, 0o644)
		os.WriteFile(filepath.Join(p.dir, "package-lock.json"), lock, 0o644)
		for _, args := range [][]string{
			{"ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error"},
			{"rebuild", "node", "--no-audit", "--no-fund", "--loglevel=error"},
		} {
			cmd := exec.CommandContext(ctx, "npm", args...)
			cmd.Dir = p.dir
			cmd.Env = append(os.Environ(), "PUPPETEER_SKIP_DOWNLOAD=1", "PUPPETEER_SKIP_CHROMIUM_DOWNLOAD=1")
			if out, err := cmd.CombinedOutput(); err != nil {
				p.err = fmt.Errorf("npm %s: %v: %s", strings.Join(args[:2], " "), err, lastLines(out, 5))
				return p
			}
		}
		if !executable(p.node) {
			p.err = fmt.Errorf("npm ci did not produce %s", p.node)
			return p
		}
		os.WriteFile(stampFile, []byte(stamp), 0o644)
	}
	out, err := exec.CommandContext(ctx, p.node, "--version").Output()
	p.nodeVersion = strings.TrimSpace(string(out))
	if err != nil || !strings.HasPrefix(p.nodeVersion, "v22.") {
		p.err = fmt.Errorf("%s is not Node 22: %q %v", p.node, p.nodeVersion, err)
	}
	return p
}

// ensureNPM installs Debian's npm when there is none, as scripts/conformance
// does; it only bootstraps `npm ci`, which brings its own Node 22.
func ensureNPM(ctx context.Context) error {
	if _, err := exec.LookPath("npm"); err == nil {
		return nil
	}
	if os.Geteuid() != 0 {
		return fmt.Errorf("npm is not installed (apt-get install npm)")
	}
	logf("installing npm from Debian")
	for _, args := range [][]string{
		{"apt-get", "update", "-qq"},
		{"apt-get", "install", "-y", "-qq", "--no-install-recommends", "nodejs", "npm"},
	} {
		cmd := exec.CommandContext(ctx, args[0], args[1:]...)
		cmd.Env = append(os.Environ(), "DEBIAN_FRONTEND=noninteractive")
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("%s: %v: %s", strings.Join(args, " "), err, lastLines(out, 5))
		}
	}
	return nil
}

func executable(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode()&0o111 != 0
}

func lastLines(b []byte, n int) string {
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " / ")
}

// buildWarden builds the binary under test into the cache.
func buildWarden(ctx context.Context, c config) (string, error) {
	bin := filepath.Join(c.cache, "warden")
	cmd := exec.CommandContext(ctx, "go", "build", "-o", bin, "./cmd/warden")
	cmd.Dir = c.root
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return "", fmt.Errorf("go build ./cmd/warden: %v\n%s", err, out.String())
	}
	return bin, nil
}
