package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// wardenBin is the real binary, built once for every end-to-end test.
var wardenBin string

// stateBase holds the tests' state dirs. It is outside the temporary
// directories, as a real state dir is: calls admitted as benign may write
// there, and nothing a call starts may reach inside a state dir.
var stateBase string

// serverDir is the working directory the servers under test run in, and
// so their commands: outside the temporary directories, where a checkout
// may be (the classifier reads programs run in one as possibly planted),
// and apart from the state directories, which a command there would name.
var serverDir string

// programDir returns a directory for the programs a test has warden run,
// outside the temporary directories: a program under one is whatever a
// benign call may have written there, which the classifier makes tier 3
// whatever its name. Every user may run what is in it.
func programDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("/var/lib", "warden-e2e-progs-")
	if err != nil {
		home, herr := os.UserHomeDir()
		if herr != nil {
			t.Fatal(err)
		}
		if dir, err = os.MkdirTemp(home, ".warden-e2e-progs-"); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "warden-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	wardenBin = filepath.Join(dir, "warden")
	if stateBase, err = os.MkdirTemp("/var/lib", "warden-e2e-"); err != nil {
		stateBase = dir
	}
	if serverDir, err = os.MkdirTemp("/var/lib", "warden-e2e-cwd-"); err != nil {
		home, _ := os.UserHomeDir()
		if serverDir, err = os.MkdirTemp(home, ".warden-e2e-cwd-"); err != nil {
			serverDir = ""
		}
	}
	if serverDir != "" {
		os.Chmod(serverDir, 0o755) // the confined and dropped-privilege runs start there too
	}
	build := exec.Command("go", "build", "-o", wardenBin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building warden: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.RemoveAll(stateBase)
	if serverDir != "" {
		os.RemoveAll(serverDir)
	}
	os.Exit(code)
}

// syncBuffer collects a server's stderr for failure messages.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// wardenEnv is a minimal environment for a server under test with its own
// state dir and HOME; extra entries are KEY=VALUE.
func wardenEnv(t *testing.T, extra ...string) (env []string, stateDir string) {
	t.Helper()
	stateDir = newStateDir(t)
	env = []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + t.TempDir(),
		"WARDEN_STATE_DIR=" + stateDir,
	}
	return append(env, extra...), stateDir
}

// newStateDir makes a state dir below stateBase, removed after the test.
func newStateDir(t *testing.T) string {
	t.Helper()
	d, err := os.MkdirTemp(stateBase, "state-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

type stdioServer struct {
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *syncBuffer
	state  string
}

// startStdio starts `warden serve` over stdio and connects the SDK client.
func startStdio(t *testing.T, env []string, state string, opts *mcp.ClientOptions, args ...string) *stdioServer {
	t.Helper()
	cmd := exec.Command(wardenBin, append([]string{"serve"}, args...)...)
	cmd.Env, cmd.Dir = env, serverDir
	cs, stderr := connectCmd(t, cmd, opts)
	return &stdioServer{cs: cs, cmd: cmd, stderr: stderr, state: state}
}

// connectCmd starts cmd, a warden serving over stdio however it is
// launched, and connects the SDK client; the session closes, and the
// server's stderr is logged on failure, when the test ends.
func connectCmd(t *testing.T, cmd *exec.Cmd, opts *mcp.ClientOptions) (*mcp.ClientSession, *syncBuffer) {
	t.Helper()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e", Version: "1"}, opts)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v\nstderr:\n%s", err, stderr)
	}
	t.Cleanup(func() {
		cs.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	return cs, stderr
}

// callTool calls a tool and returns the result and its structured content.
func callTool(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	return callToolCtx(ctx, t, cs, name, args)
}

func callToolCtx(ctx context.Context, t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("call %s: protocol error %v", name, err)
	}
	return res, structured(t, res)
}

func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	m := map[string]any{}
	if res.StructuredContent == nil {
		t.Fatalf("result has no structured content: %+v", res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("structured content is not an object: %s", b)
	}
	return m
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

type httpServer struct {
	url    string
	token  string
	cmd    *exec.Cmd
	stderr *syncBuffer
	state  string
}

// startHTTP starts `warden serve --http 127.0.0.1:0` and waits for its URL.
func startHTTP(t *testing.T, env []string, state string, args ...string) *httpServer {
	t.Helper()
	cmd := exec.Command(wardenBin, append([]string{"serve", "--http", "127.0.0.1:0"}, args...)...)
	cmd.Env, cmd.Dir = env, serverDir
	pr, pw := io.Pipe()
	stderr := &syncBuffer{}
	cmd.Stderr = pw
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
		pw.Close()
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	urlc := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sent := false
		for sc.Scan() {
			line := sc.Text()
			stderr.Write([]byte(line + "\n"))
			if i := strings.Index(line, "serving MCP at "); i >= 0 && !sent {
				urlc <- strings.TrimSpace(line[i+len("serving MCP at "):])
				sent = true
			}
		}
	}()
	select {
	case u := <-urlc:
		s := &httpServer{url: u, cmd: cmd, stderr: stderr, state: state}
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, "WARDEN_TOKEN="); ok {
				s.token = v
			}
		}
		if s.token == "" {
			b, err := os.ReadFile(filepath.Join(state, "token"))
			if err != nil {
				t.Fatalf("no generated token: %v", err)
			}
			s.token = strings.TrimSpace(string(b))
		}
		return s
	case <-time.After(20 * time.Second):
		t.Fatalf("server did not print its URL; stderr:\n%s", stderr)
		return nil
	}
}

// bearer adds a token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// connectHTTP connects the SDK client over streamable HTTP at a protocol
// revision ("" = the SDK's latest).
func connectHTTP(t *testing.T, s *httpServer, version string, opts *mcp.ClientOptions) *mcp.ClientSession {
	t.Helper()
	client := mcp.NewClient(&mcp.Implementation{Name: "e2e-http", Version: "1"}, opts)
	tr := &mcp.StreamableClientTransport{
		Endpoint:   s.url,
		HTTPClient: &http.Client{Transport: bearer{s.token, http.DefaultTransport}},
		MaxRetries: -1,
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := client.Connect(ctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		t.Fatalf("connect over HTTP (%q): %v", version, err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// processesWith lists PIDs whose command line contains marker.
func processesWith(marker string) []string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		if bytes.Contains(b, []byte(marker)) {
			pids = append(pids, e.Name())
		}
	}
	return pids
}

// waitGone waits up to d for no process to carry marker.
func waitGone(marker string, d time.Duration) []string {
	deadline := time.Now().Add(d)
	for {
		p := processesWith(marker)
		if len(p) == 0 || time.Now().After(deadline) {
			return p
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// vmHWM reads a process's peak resident set size in KiB.
func vmHWM(t *testing.T, pid int) int {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb int
			fmt.Sscanf(strings.TrimSpace(v), "%d", &kb)
			return kb
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

func execCommand(args, env []string) *exec.Cmd {
	cmd := exec.Command(wardenBin, args...)
	cmd.Env, cmd.Dir = env, serverDir
	return cmd
}

func writeFile(t *testing.T, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "warden.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// callApproved calls a tool and, if it needs approval, approves it the way
// a client's human would: by re-issuing the identical call with the token.
func callApproved(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
	t.Helper()
	res, got := callTool(t, cs, name, args)
	if got["status"] != "approval_required" {
		return res, got
	}
	with := map[string]any{"approval_token": got["approval_token"]}
	for k, v := range args {
		with[k] = v
	}
	return callTool(t, cs, name, with)
}

func writeFileB(b *testing.B, content string) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "warden.yaml")
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		b.Fatal(err)
	}
	return p
}
