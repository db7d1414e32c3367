package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// echoCommand is the workload of every latency row.
const echoCommand = "echo hi"

// measure runs op warm times unmeasured, then n times, and summarises. A
// call that returns without the command's output is timed and counted, not
// fatal: that is a result about the server, reported beside its times.
func measure(ctx context.Context, n, warm int, op func() error) (dist, error) {
	missing := 0
	for range warm {
		if err := op(); err != nil && !errors.Is(err, errMissingOutput) {
			return dist{}, err
		}
	}
	samples := make([]time.Duration, 0, n)
	for range n {
		if err := ctx.Err(); err != nil {
			return dist{}, err
		}
		start := time.Now()
		err := op()
		if errors.Is(err, errMissingOutput) {
			missing++
		} else if err != nil {
			return dist{}, err
		}
		samples = append(samples, time.Since(start))
	}
	if missing == n {
		return dist{}, fmt.Errorf("no call returned the command's output")
	}
	d := summarize(samples)
	d.missing = missing
	return d, nil
}

// missingNote says how many calls lost their output, if any did.
func missingNote(d dist) string {
	if d.missing == 0 {
		return ""
	}
	return fmt.Sprintf("%d of %d calls returned without the output", d.missing, d.n)
}

// join joins the non-empty notes.
func join(notes ...string) string {
	var out []string
	for _, n := range notes {
		if n != "" {
			out = append(out, n)
		}
	}
	return strings.Join(out, "; ")
}

// forkExec is the physical floor of run_command("echo hi"): Go forking
// /bin/sh -c 'echo hi' and reading its output.
func forkExec() error {
	out, err := exec.Command("/bin/sh", "-c", echoCommand).Output()
	if err == nil && string(out) != "hi\n" {
		err = fmt.Errorf("fork/exec printed %q", out)
	}
	return err
}

// floor measures the fork/exec floor once for the ratios of the run.
func (e *env) floor(ctx context.Context) dist {
	logf("fork/exec floor")
	d, err := measure(ctx, e.cfg.samples, 20, forkExec)
	if err != nil {
		fatal(fmt.Errorf("the fork/exec floor itself failed: %w", err))
	}
	return d
}

// callOp is one sequential tool call of echo hi.
func callOp(ctx context.Context, s *server) func() error {
	return func() error {
		cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
		defer cancel()
		_, err := s.run(cctx, echoCommand, "hi")
		return err
	}
}

// latency is section 1: sequential echo hi through each local server.
func (e *env) latency(ctx context.Context, floor dist) *table {
	t := &table{
		title: "Sequential tool-call latency: `echo hi`, local",
		cols:  []string{"server", "tool, transport", "start + handshake", "p50", "p90", "p99", "p50 ÷ floor", "note"},
	}
	t.row("fork/exec floor", "Go `exec.Command(\"/bin/sh\", \"-c\", \"echo hi\")`", "—", ms(floor.p50), ms(floor.p90), ms(floor.p99), "1.00×", "")
	t.notes = append(t.notes, fmt.Sprintf("Each row: %d warm-up calls, then %d sequential calls from one client (the official Go SDK's), each checked for `hi` in the output.", 20, e.cfg.samples))

	row := func(name, how, note string, start func() (*server, error)) {
		logf("latency: %s %s", name, how)
		s, err := start()
		if err != nil {
			t.skip(name+" ("+how+")", err.Error())
			return
		}
		defer s.stop()
		d, err := measure(ctx, e.cfg.samples, 20, callOp(ctx, s))
		if err != nil {
			t.skip(name+" ("+how+")", err.Error())
			return
		}
		t.row(name, how, ms(s.connect), ms(d.p50), ms(d.p90), ms(d.p99), ratio(d.p50, floor.p50), join(note, missingNote(d)))
	}

	row("warden", "`run_command`, stdio", "", func() (*server, error) { return e.startWardenStdio(ctx, "") })
	var w *wardenHTTP
	httpStart := func(version string) func() (*server, error) {
		return func() (*server, error) {
			if w == nil {
				var err error
				if w, err = e.startWardenHTTP(ctx); err != nil {
					return nil, err
				}
			}
			return w.connect(ctx, version)
		}
	}
	row("warden", "`run_command`, streamable HTTP, 2026-07-28 (stateless)", "start column: handshake only, server already running", httpStart(""))
	row("warden", "`run_command`, streamable HTTP, 2025-11-25 (session)", "start column: handshake only", httpStart("2025-11-25"))
	if e.peers.err != nil {
		for _, p := range []string{"mcp-server-commands", "@wonderwhy-er/desktop-commander"} {
			t.skip(p, "npm install failed: "+e.peers.err.Error())
		}
		return t
	}
	row("mcp-server-commands 0.5.0", "`run_command`, stdio", "Node `child_process.exec`", func() (*server, error) { return e.startCommands(ctx) })
	row("desktop-commander 0.2.52", "`start_process`, stdio", "saves usage stats to its config file on every call", func() (*server, error) { return e.startDesktopCommander(ctx) })
	return t
}

// nodeEnviron is a clean environment for a Node server with its own HOME.
func (e *env) nodeEnviron(home string, extra ...string) []string {
	env := []string{
		"PATH=" + filepath.Dir(e.peers.node) + ":/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + home,
		"SHELL=/bin/sh",
		"NODE_ENV=production",
	}
	return append(env, extra...)
}

// startCommands starts mcp-server-commands: one tool, run_command
// {command, workdir, stdin}, run through Node's child_process.exec.
func (e *env) startCommands(ctx context.Context) (*server, error) {
	home := e.dir("commands-home")
	s, err := e.startStdio(ctx, "mcp-server-commands",
		[]string{e.peers.node, e.peers.module("mcp-server-commands/build/index.js")}, e.nodeEnviron(home), home)
	if err != nil {
		return nil, err
	}
	s.call = func(command string) *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": command}}
	}
	s.stdout = allText
	return s, nil
}

// startDesktopCommander starts desktop-commander with a scratch HOME whose
// config turns telemetry off and uses /bin/sh, as warden does; its
// feature-flag fetch goes to a loopback server of ours, and a stub in its
// private browser cache stops its background Chrome download. Its shell
// tool is start_process {command, timeout_ms}, which returns when the
// process exits (or looks like it waits for input).
func (e *env) startDesktopCommander(ctx context.Context) (*server, error) {
	home := e.dir("dc-home")
	cfgDir := filepath.Join(home, ".claude-server-commander")
	chrome := filepath.Join(cfgDir, "puppeteer-cache", "chrome", "linux-bench-stub", "chrome-linux64", "chrome")
	if err := os.MkdirAll(filepath.Dir(chrome), 0o755); err != nil {
		return nil, err
	}
	if err := os.WriteFile(chrome, []byte("#!/bin/sh\nexit 1\n"), 0o755); err != nil {
		return nil, err
	}
	cfg := `{"telemetryEnabled":false,"defaultShell":"/bin/sh","allowedDirectories":[],"blockedCommands":[],` +
		`"pendingWelcomeOnboarding":false,"welcomeOnboardingEligible":false,"fileReadLineLimit":1000,"fileWriteLineLimit":50}`
	if err := os.WriteFile(filepath.Join(cfgDir, "config.json"), []byte(cfg), 0o600); err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.flags == nil {
		e.flags = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"flags":{}}`))
		}))
		e.closers = append(e.closers, e.flags.Close)
	}
	flags := e.flags.URL
	e.mu.Unlock()
	environ := e.nodeEnviron(home, "DC_FLAG_URL="+flags+"/flags.json", "DESKTOP_COMMANDER_DISABLE_TELEMETRY=1")
	s, err := e.startStdio(ctx, "desktop-commander",
		[]string{e.peers.node, e.peers.module("@wonderwhy-er/desktop-commander/dist/index.js"), "--no-onboarding"}, environ, home)
	if err != nil {
		return nil, err
	}
	s.call = func(command string) *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "start_process", Arguments: map[string]any{"command": command, "timeout_ms": 300000}}
	}
	s.stdout = allText
	return s, nil
}
