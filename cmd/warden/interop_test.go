package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	mcpgo "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	mgo "github.com/mark3labs/mcp-go/mcp"
)

// Interop with a second, independent client implementation: mark3labs/mcp-go.
// Everything else in this package drives warden with the official SDK's
// client, which shares its protocol code with warden's server; a bug the two
// share would pass those tests. mcp-go was written separately, so these
// tests check warden against the protocol rather than against itself.
//
// Each transport is driven at both protocol eras mcp-go speaks: 2026-07-28
// (stateless: server/discover, protocol metadata in every request's _meta)
// and 2025-11-25 (the initialize handshake and a session).

// interopVersions are the protocol revisions mcp-go is asked for.
var interopVersions = []string{mgo.ProtocolVersion20260728, "2025-11-25"}

// progressCounter counts notifications/progress for one token.
type progressCounter struct {
	token string
	n     atomic.Int32
}

func (p *progressCounter) handle(n mgo.JSONRPCNotification) {
	if n.Method != string(mgo.MethodNotificationProgress) {
		return
	}
	if fmt.Sprint(n.Params.AdditionalFields["progressToken"]) == p.token {
		p.n.Add(1)
	}
}

// interopConn is one mcp-go client connected to a warden.
type interopConn struct {
	c       *mcpgo.Client
	version string
	// http and wire are set over HTTP: the server, and what mcp-go POSTed.
	http *httpServer
	wire *wireLog
}

// wireLog records the JSON-RPC messages a client POSTs.
type wireLog struct {
	base http.RoundTripper
	mu   sync.Mutex
	msgs []wireMsg
}

type wireMsg struct {
	Method string          `json:"method"`
	ID     json.RawMessage `json:"id"`
	Params json.RawMessage `json:"params"`
}

func (w *wireLog) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodPost && r.Body != nil {
		b, err := io.ReadAll(r.Body)
		r.Body.Close()
		if err != nil {
			return nil, err
		}
		var m wireMsg
		if json.Unmarshal(b, &m) == nil {
			w.mu.Lock()
			w.msgs = append(w.msgs, m)
			w.mu.Unlock()
		}
		r = r.Clone(r.Context())
		r.Body = io.NopCloser(bytes.NewReader(b))
	}
	return w.base.RoundTrip(r)
}

// find returns the id of the last message with method whose params contain
// substr, and whether there was one.
func (w *wireLog) find(method, substr string) (json.RawMessage, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.msgs) - 1; i >= 0; i-- {
		m := w.msgs[i]
		if m.Method == method && strings.Contains(string(m.Params), substr) {
			return m.ID, true
		}
	}
	return nil, false
}

// startMCPGo initialises c at version and checks that it reached warden at
// the revision it asked for.
func startMCPGo(t *testing.T, c *mcpgo.Client, version string) {
	t.Helper()
	// Start's context outlives the call: the stdio transport ties the
	// server process to it.
	if err := c.Start(context.Background()); err != nil {
		t.Fatalf("mcp-go start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.Initialize(ctx, mgo.InitializeRequest{Params: mgo.InitializeParams{
		ProtocolVersion: version,
		ClientInfo:      mgo.Implementation{Name: "mcp-go-interop", Version: "1"},
	}})
	if err != nil {
		t.Fatalf("mcp-go initialize at %s: %v", version, err)
	}
	if res.ProtocolVersion != version {
		t.Errorf("negotiated protocol %q, want %q", res.ProtocolVersion, version)
	}
	if res.ServerInfo.Name != "warden" {
		t.Errorf("server name %q, want warden", res.ServerInfo.Name)
	}
}

// mcpgoStdio starts `warden serve` under mcp-go's stdio transport.
func mcpgoStdio(t *testing.T, version string, progress *progressCounter) *interopConn {
	t.Helper()
	env, _ := wardenEnv(t, "WARDEN_MODE=open")
	stderr := &syncBuffer{}
	tr := transport.NewStdioWithOptions(wardenBin, nil, []string{"serve"},
		transport.WithCommandFunc(func(ctx context.Context, command string, _ []string, args []string) (*exec.Cmd, error) {
			cmd := exec.CommandContext(ctx, command, args...)
			cmd.Env = env // exactly this environment, not the test's
			return cmd, nil
		}),
		transport.WithCommandStderrWriter(stderr))
	c := mcpgo.NewClient(tr)
	c.OnNotification(progress.handle)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr)
		}
	})
	startMCPGo(t, c, version)
	return &interopConn{c: c, version: version}
}

// mcpgoHTTP starts `warden serve --http` and connects mcp-go's streamable
// HTTP transport with the bearer token in a header.
func mcpgoHTTP(t *testing.T, version string, progress *progressCounter) *interopConn {
	t.Helper()
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startHTTP(t, env, state)
	wire := &wireLog{base: http.DefaultTransport}
	c, err := mcpgo.NewStreamableHttpClient(s.url,
		transport.WithHTTPBasicClient(&http.Client{Transport: wire}),
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer " + s.token}))
	if err != nil {
		t.Fatal(err)
	}
	c.OnNotification(progress.handle)
	startMCPGo(t, c, version)
	return &interopConn{c: c, version: version, http: s, wire: wire}
}

func TestInteropMCPGo(t *testing.T) {
	transports := []struct {
		name  string
		start func(*testing.T, string, *progressCounter) *interopConn
	}{
		{"stdio", mcpgoStdio},
		{"http", mcpgoHTTP},
	}
	for _, tr := range transports {
		for _, version := range interopVersions {
			t.Run(tr.name+"/"+version, func(t *testing.T) {
				t.Parallel()
				progress := &progressCounter{token: "interop-" + tr.name + "-" + version}
				ic := tr.start(t, version, progress)
				t.Run("list tools", func(t *testing.T) { interopListTools(t, ic.c) })
				t.Run("run_command", func(t *testing.T) { interopRunCommand(t, ic.c) })
				t.Run("progress", func(t *testing.T) { interopProgress(t, ic.c, progress) })
				t.Run("cancel", func(t *testing.T) { interopCancel(t, ic) })
			})
		}
	}
}

func interopListTools(t *testing.T, c *mcpgo.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mgo.ListToolsRequest{})
	if err != nil {
		t.Fatalf("tools/list: %v", err)
	}
	var names []string
	var run *mgo.Tool
	for i, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Name == "run_command" {
			run = &res.Tools[i]
		}
	}
	for _, want := range []string{"run_command", "run_script", "session_start", "read_file", "server_info"} {
		if !slices.Contains(names, want) {
			t.Errorf("tools/list has no %s; got %v", want, names)
		}
	}
	if run == nil {
		return
	}
	if _, ok := run.InputSchema.Properties["command"]; !ok || !slices.Contains(run.InputSchema.Required, "command") {
		t.Errorf("run_command input schema lacks a required command: %+v", run.InputSchema)
	}
	if run.OutputSchema.Type != "object" {
		t.Errorf("run_command has no object output schema: %+v", run.OutputSchema)
	}
}

// interopStructured decodes a result's structured content.
func interopStructured(t *testing.T, res *mgo.CallToolResult) map[string]any {
	t.Helper()
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		t.Fatalf("structured content is not an object: %s", b)
	}
	return m
}

func interopText(res *mgo.CallToolResult) string {
	var s string
	for _, c := range res.Content {
		if tc, ok := c.(mgo.TextContent); ok {
			s += tc.Text
		}
	}
	return s
}

func interopRunCommand(t *testing.T, c *mcpgo.Client) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mgo.CallToolRequest{Params: mgo.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo hi; echo err >&2; exit 3"}}}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call run_command: %v", err)
	}
	got := interopStructured(t, res)
	if got["stdout"] != "hi\n" || got["stderr"] != "err\n" || got["exit_code"] != float64(3) {
		t.Errorf("run_command result: %v", got)
	}
	if interopText(res) == "" {
		t.Error("run_command result has no text rendering")
	}
	// A refusal is a tool result with isError, never a protocol error.
	req.Params.Arguments = map[string]any{"command": "echo hi", "timeout_s": "soon"}
	res, err = c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("a bad argument became a protocol error: %v", err)
	}
	if !res.IsError {
		t.Errorf("a bad argument was not an isError result: %s", interopText(res))
	}
}

func interopProgress(t *testing.T, c *mcpgo.Client, progress *progressCounter) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	req := mgo.CallToolRequest{Params: mgo.CallToolParams{
		Name:      "run_command",
		Arguments: map[string]any{"command": "sleep 2.5; echo done"},
		Meta:      &mgo.Meta{ProgressToken: progress.token},
	}}
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call: %v", err)
	}
	if got := interopStructured(t, res); got["stdout"] != "done\n" {
		t.Errorf("result: %v", got)
	}
	if n := progress.n.Load(); n < 2 {
		t.Errorf("got %d progress notifications for token %q over 2.5 s, want at least 2", n, progress.token)
	}
}

func interopCancel(t *testing.T, ic *interopConn) {
	c := ic.c
	// The marker is in the shell's and in sleep's command line, so the
	// check below sees either one surviving.
	marker := fmt.Sprintf("31.%d", time.Now().UnixNano()%1e9)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(ctx, mgo.CallToolRequest{Params: mgo.CallToolParams{
			Name:      "run_command",
			Arguments: map[string]any{"command": "sleep " + marker + "; echo finished"},
		}})
		errc <- err
	}()
	deadline := time.Now().Add(15 * time.Second)
	for len(processesWith(marker)) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the command never started")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled call returned %v, want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the cancelled call did not return")
	}
	if ic.wire != nil && ic.version < mgo.ProtocolVersion20260728 {
		interopLegacyHTTPCancel(t, ic, marker)
	}
	if left := waitGone(marker, 10*time.Second); len(left) > 0 {
		t.Errorf("processes %v still run after the call was cancelled", left)
	}
	// The connection is still good for the next call.
	cctx, ccancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer ccancel()
	res, err := c.CallTool(cctx, mgo.CallToolRequest{Params: mgo.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "echo after"}}})
	if err != nil || interopStructured(t, res)["stdout"] != "after\n" {
		t.Errorf("call after a cancel: %v %v", err, res)
	}
}

// interopLegacyHTTPCancel makes up for mcp-go v1.2.1 over streamable HTTP at
// revisions before 2026-07-28: when a call's context ends it only drops the
// POST and sends no notifications/cancelled (client.cancelRequest returns
// early for every HTTP transport). At those revisions a disconnect is not a
// cancellation — the transport spec says a client SHOULD send
// notifications/cancelled to cancel, and the server SHOULD NOT read a
// disconnect as one — so warden rightly keeps the command running. This
// checks that, then sends the notification mcp-go should have sent, on
// mcp-go's own session, so the test still proves warden stops the command.
func interopLegacyHTTPCancel(t *testing.T, ic *interopConn, marker string) {
	t.Helper()
	if _, sent := ic.wire.find("notifications/cancelled", ""); sent {
		return // mcp-go cancels by itself now; the check below covers it
	}
	if left := waitGone(marker, time.Second); len(left) == 0 {
		t.Fatal("a dropped POST stopped the command at a revision where a disconnect is not a cancellation")
	}
	id, ok := ic.wire.find("tools/call", marker)
	if !ok {
		t.Fatal("mcp-go's tools/call was not seen on the wire")
	}
	t.Logf("mcp-go sent no notifications/cancelled over HTTP at %s; sending it for request %s", ic.version, id)
	body := fmt.Sprintf(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":%s,"reason":"interop"}}`, id)
	req, err := http.NewRequest(http.MethodPost, ic.http.url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+ic.http.token)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", ic.c.GetSessionId())
	req.Header.Set("Mcp-Protocol-Version", ic.version)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		t.Fatalf("notifications/cancelled: HTTP %d, want 202", resp.StatusCode)
	}
}
