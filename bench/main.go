// Command bench measures warden side by side with other MCP shell servers,
// in one run on one machine, and prints the results as Markdown tables:
//
//	go run ./bench
//
// It builds warden, installs the peers pinned in bench/package.json and
// bench/package-lock.json (Node 22 from the npm package node@22,
// mcp-server-commands, @wonderwhy-er/desktop-commander, ssh-mcp) into
// .cache/bench with `npm ci --ignore-scripts`, starts a loopback sshd for the
// remote rows, and drives every server with the same client, the official
// Go SDK's, each with its own tool names and arguments. It needs root (the
// sshd harness creates a login user) and takes a few minutes on 2 cores.
//
// Every row prints a result or the reason it could not run. Ratios are
// computed within the run against a floor measured in the same run (a raw
// fork/exec, a bare pooled SSH session); absolute times belong to the
// machine named in the header.
//
// It is not part of `go test ./...`: it installs npm packages and takes
// minutes. docs/performance.md holds the latest results.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// config holds the command line.
type config struct {
	root    string // repository root
	cache   string // install and scratch dir
	samples int    // sequential calls per latency row
	remote  int    // sequential calls per remote row
	fresh   int    // calls per fresh-ssh row (each is a full handshake)
	dur     time.Duration
	floodMB int64
	only    string
	rssCap  int64 // KiB; a server past this during the flood is killed
}

func main() {
	var c config
	flag.IntVar(&c.samples, "n", 300, "sequential calls per local latency row")
	flag.IntVar(&c.remote, "remote-n", 200, "sequential calls per pooled remote row")
	flag.IntVar(&c.fresh, "fresh-n", 40, "calls for the fresh-ssh row")
	flag.DurationVar(&c.dur, "throughput-time", 5*time.Second, "duration of each throughput row")
	flag.Int64Var(&c.floodMB, "flood-mib", 1024, "size of the large-output command, MiB")
	flag.Int64Var(&c.rssCap, "rss-cap-mib", 1536, "kill a server whose RSS passes this during the flood, MiB")
	flag.StringVar(&c.only, "only", "", "comma-separated sections to run: latency,throughput,remote,flood,core (default all)")
	cacheFlag := flag.String("cache", "", "install and scratch dir (default .cache/bench)")
	flag.Parse()
	c.rssCap <<= 10

	root, err := repoRoot()
	if err != nil {
		fatal(err)
	}
	c.root = root
	c.cache = *cacheFlag
	if c.cache == "" {
		c.cache = filepath.Join(root, ".cache", "bench")
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := run(ctx, c); err != nil {
		fatal(err)
	}
}

func fatal(err error) {
	fmt.Fprintln(os.Stderr, "bench:", err)
	os.Exit(1)
}

// repoRoot finds the module root from the working directory.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for d := dir; ; d = filepath.Dir(d) {
		if b, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil && strings.Contains(string(b), "module github.com/warden-mcp/warden\n") {
			return d, nil
		}
		if filepath.Dir(d) == d {
			return "", fmt.Errorf("run from inside the warden repository (no go.mod above %s)", dir)
		}
	}
}

func (c config) want(section string) bool {
	if c.only == "" {
		return true
	}
	for _, s := range strings.Split(c.only, ",") {
		if strings.TrimSpace(s) == section {
			return true
		}
	}
	return false
}

// logf reports progress on stderr; the tables go to stdout.
func logf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
}

func run(ctx context.Context, c config) error {
	start := time.Now()
	if err := os.MkdirAll(c.cache, 0o755); err != nil {
		return err
	}
	scratch, err := os.MkdirTemp(c.cache, "run-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)

	m := describeMachine()
	logf("building warden")
	warden, err := buildWarden(ctx, c)
	if err != nil {
		return err
	}
	logf("installing peers (npm ci, cached by lockfile)")
	peers := installPeers(ctx, c)
	if peers.err != nil {
		logf("peers unavailable: %v", peers.err)
	} else {
		m.node = peers.nodeVersion
	}

	e := &env{cfg: c, warden: warden, peers: peers, scratch: scratch}
	defer e.close()
	var out report
	out.machine = m

	floor := e.floor(ctx)
	if c.want("latency") {
		out.add(e.latency(ctx, floor))
	}
	if c.want("throughput") {
		out.add(e.throughput(ctx))
	}
	if c.want("remote") {
		out.add(e.remoteRows(ctx))
	}
	if c.want("flood") {
		out.add(e.flood(ctx))
	}
	if c.want("core") {
		out.add(e.core(ctx, floor))
	}
	out.machine.elapsed = time.Since(start).Round(time.Second)
	out.machine.loadEnd = loadAvg()
	out.print(os.Stdout, commandLine())
	return nil
}

// commandLine is how this run was invoked, for the report.
func commandLine() string {
	args := []string{"go", "run", "./bench"}
	return strings.Join(append(args, os.Args[1:]...), " ")
}

// goVersion names the toolchain that built the harness.
func goVersion() string { return runtime.Version() }
