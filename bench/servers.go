package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// env is what one run shares: the binaries, the scratch dir, and things
// to stop at the end.
type env struct {
	cfg     config
	warden  string
	peers   peers
	scratch string

	mu      sync.Mutex
	closers []func()
	flags   *httptest.Server
	rem     *remote
	seq     int
}

func (e *env) onClose(f func()) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closers = append(e.closers, f)
}

func (e *env) close() {
	e.mu.Lock()
	cs := e.closers
	e.closers = nil
	e.mu.Unlock()
	for i := len(cs) - 1; i >= 0; i-- {
		cs[i]()
	}
}

// dir makes a fresh directory in the scratch dir.
func (e *env) dir(prefix string) string {
	e.mu.Lock()
	e.seq++
	n := e.seq
	e.mu.Unlock()
	d := filepath.Join(e.scratch, fmt.Sprintf("%s-%d", prefix, n))
	if err := os.MkdirAll(d, 0o755); err != nil {
		panic(err)
	}
	return d
}

// server is one MCP server under test with the client connected to it.
type server struct {
	name   string
	cs     *mcp.ClientSession
	cmd    *exec.Cmd
	stderr *tailBuffer
	// connect is how long starting the process and the MCP handshake took.
	connect time.Duration
	// tool and args make the server's own call for a shell command.
	call func(command string) *mcp.CallToolParams
	// stdout extracts what the command printed from a result.
	stdout func(*mcp.CallToolResult) string
	stop   func()
}

func (s *server) pid() int { return s.cmd.Process.Pid }

// alive reports whether the server process still runs.
func (s *server) alive() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.pid()))
	if err != nil {
		return false
	}
	i := strings.LastIndexByte(string(b), ')')
	return i > 0 && len(b) > i+2 && b[i+2] != 'Z'
}

// run calls the server's shell tool and checks that want was printed.
func (s *server) run(ctx context.Context, command, want string) (*mcp.CallToolResult, error) {
	res, err := s.cs.CallTool(ctx, s.call(command))
	if err != nil {
		return nil, err
	}
	if res.IsError {
		return res, fmt.Errorf("tool error: %s", oneLine(allText(res)))
	}
	if want != "" && !strings.Contains(s.stdout(res), want) {
		return res, fmt.Errorf("%w: %q does not contain %q", errMissingOutput, oneLine(s.stdout(res)), want)
	}
	return res, nil
}

// errMissingOutput is a call that succeeded without the command's output.
var errMissingOutput = errors.New("the result lacks the command's output")

// allText is a result's text content.
func allText(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

// wardenStdout is run_command's structured stdout.
func wardenStdout(res *mcp.CallToolResult) string {
	b, _ := json.Marshal(res.StructuredContent)
	var v struct {
		Stdout string `json:"stdout"`
	}
	json.Unmarshal(b, &v)
	return v.Stdout
}

// tailBuffer keeps the last max bytes a process wrote, for error messages.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
	// line, when set, sees every complete line.
	line func(string)
	part []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = t.b[len(t.b)-t.max:]
	}
	if t.line != nil {
		t.part = append(t.part, p...)
		for {
			i := strings.IndexByte(string(t.part), '\n')
			if i < 0 {
				break
			}
			t.line(string(t.part[:i]))
			t.part = t.part[i+1:]
		}
		if len(t.part) > 64<<10 {
			t.part = nil
		}
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

func newClient() *mcp.Client {
	return mcp.NewClient(&mcp.Implementation{Name: "warden-bench", Version: "1"}, nil)
}

// startStdio starts argv as an MCP server over stdio and connects.
func (e *env) startStdio(ctx context.Context, name string, argv, environ []string, dir string) (*server, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = environ
	cmd.Dir = dir
	stderr := &tailBuffer{max: 16 << 10}
	cmd.Stderr = stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cctx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := newClient().Connect(cctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		if cmd.Process != nil {
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			cmd.Wait()
		}
		return nil, fmt.Errorf("connect: %v; stderr: %s", err, lastLines([]byte(stderr.String()), 3))
	}
	s := &server{name: name, cs: cs, cmd: cmd, stderr: stderr, connect: time.Since(start)}
	var once sync.Once
	s.stop = func() {
		once.Do(func() {
			done := make(chan struct{})
			go func() { cs.Close(); close(done) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
			}
			// The whole group: servers that leave children behind.
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		})
	}
	e.onClose(s.stop)
	return s, nil
}

// wardenEnviron is a clean environment for one warden.
func (e *env) wardenEnviron(cfgPath string) []string {
	return []string{
		"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
		"HOME=" + e.dir("warden-home"),
		"WARDEN_STATE_DIR=" + e.dir("warden-state"),
		"WARDEN_MODE=open",
		"WARDEN_CONFIG=" + cfgPath,
	}
}

// wardenConfig writes a config for the bench: open mode, no fsync, and,
// when this build has them, no per-source HTTP rate or connection caps —
// the throughput rows measure warden, not its abuse limits, all of whose
// clients share one loopback address here.
func (e *env) wardenConfig(ctx context.Context, extra string) (string, error) {
	base := "mode: open\naudit:\n  sync: none\n" + extra
	limits := "http:\n  rate_per_source: 0\n  max_conns_per_source: 4096\n"
	dir := e.dir("warden-config")
	path := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(path, []byte(base+limits), 0o600); err != nil {
		return "", err
	}
	check := exec.CommandContext(ctx, e.warden, "config", "check", path)
	check.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	if check.Run() == nil {
		return path, nil
	}
	if err := os.WriteFile(path, []byte(base), 0o600); err != nil {
		return "", err
	}
	check = exec.CommandContext(ctx, e.warden, "config", "check", path)
	check.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir}
	if out, err := check.CombinedOutput(); err != nil {
		return "", fmt.Errorf("warden config check: %v: %s", err, lastLines(out, 3))
	}
	return path, nil
}

func wardenCall(command string) *mcp.CallToolParams {
	return &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": command, "timeout_s": 300}}
}

// startWardenStdio starts `warden serve` over stdio.
func (e *env) startWardenStdio(ctx context.Context, extraConfig string) (*server, error) {
	cfg, err := e.wardenConfig(ctx, extraConfig)
	if err != nil {
		return nil, err
	}
	s, err := e.startStdio(ctx, "warden", []string{e.warden, "serve"}, e.wardenEnviron(cfg), "")
	if err != nil {
		return nil, err
	}
	s.call, s.stdout = wardenCall, wardenStdout
	return s, nil
}

// wardenHTTP is a `warden serve --http` process.
type wardenHTTP struct {
	url, token string
	cmd        *exec.Cmd
	stderr     *tailBuffer
}

func (e *env) startWardenHTTP(ctx context.Context) (*wardenHTTP, error) {
	cfg, err := e.wardenConfig(ctx, "")
	if err != nil {
		return nil, err
	}
	token := "bench-" + fmt.Sprint(time.Now().UnixNano())
	cmd := exec.Command(e.warden, "serve", "--http", "127.0.0.1:0")
	cmd.Env = append(e.wardenEnviron(cfg), "WARDEN_TOKEN="+token)
	urlc := make(chan string, 1)
	stderr := &tailBuffer{max: 16 << 10}
	stderr.line = func(l string) {
		if _, u, ok := strings.Cut(l, "serving MCP at "); ok {
			select {
			case urlc <- strings.TrimSpace(u):
			default:
			}
		}
	}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	e.onClose(func() {
		cmd.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	})
	select {
	case u := <-urlc:
		return &wardenHTTP{url: u, token: token, cmd: cmd, stderr: stderr}, nil
	case <-exited:
		return nil, fmt.Errorf("warden serve --http exited: %s", lastLines([]byte(stderr.String()), 3))
	case <-time.After(30 * time.Second):
		return nil, fmt.Errorf("warden serve --http printed no URL: %s", lastLines([]byte(stderr.String()), 3))
	}
}

// bearer adds the token to every request.
type bearer struct {
	token string
	base  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.base.RoundTrip(r)
}

// connect opens one client session to the HTTP server at a protocol
// revision ("" = the SDK's newest), on its own HTTP connection pool.
func (w *wardenHTTP) connect(ctx context.Context, version string) (*server, error) {
	tr := &mcp.StreamableClientTransport{
		Endpoint:   w.url,
		HTTPClient: &http.Client{Transport: bearer{w.token, &http.Transport{MaxIdleConnsPerHost: 4}}},
		MaxRetries: -1,
	}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	start := time.Now()
	cs, err := newClient().Connect(cctx, tr, &mcp.ClientSessionOptions{ProtocolVersion: version})
	if err != nil {
		return nil, err
	}
	return &server{name: "warden", cs: cs, cmd: w.cmd, connect: time.Since(start),
		call: wardenCall, stdout: wardenStdout, stop: func() { cs.Close() }}, nil
}
