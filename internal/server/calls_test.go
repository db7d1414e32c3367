package server

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// countingTools counts the calls the lane runs through the relay.
type countingTools struct {
	callTools
	ran atomic.Int64
}

func (c *countingTools) Handler(name string) mcp.ToolHandler {
	h := c.callTools.Handler(name)
	if h == nil {
		return nil
	}
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		c.ran.Add(1)
		return h(ctx, req)
	}
}

// volatile matches what differs between two runs of the same call: its
// duration and approval tokens.
var volatile = regexp.MustCompile(`\d+ ms[],]|"duration_ms":\d+|"approval_token":"[^"]*"|approval_token: \S+|"expires_at":"[^"]*"|expires [^)]*\)`)

// TestCallLaneMatchesSDK sends the same lines to warden over stdio with
// the call lane and without it, and requires the same answers (but for
// durations and approval tokens), and the lane to have run the calls it
// should take and no other.
func TestCallLaneMatchesSDK(t *testing.T) {
	call := func(id, params string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":` + params + `}`
	}
	run := func(id, command string) string {
		return call(id, `{"name":"run_command","arguments":{"command":"`+command+`"}}`)
	}
	cases := []struct {
		name    string
		config  string
		version string
		lines   []string
		want    int   // answers to wait for beyond initialize's
		lane    int64 // calls the lane should run
	}{
		{"a command", "mode: readonly\n", "", []string{run("2", "echo hi")}, 1, 1},
		{"string and float ids", "mode: readonly\n", "", []string{run(`"two"`, "echo a"), run("3.0", "echo b")}, 2, 2},
		{"denied", "mode: readonly\n", "", []string{run("2", "rm -rf /tmp/x")}, 1, 1},
		{"needs approval", "mode: guarded\n", "", []string{run("2", "touch /tmp/warden-lane-test")}, 1, 1},
		{"invalid arguments", "mode: readonly\n", "", []string{
			call("2", `{"name":"run_command","arguments":{"command":5}}`),
			call("3", `{"name":"run_command","arguments":{"command":"echo","bogus":1}}`),
			call("4", `{"name":"run_command","arguments":null}`),
			call("5", `{"name":"run_command","arguments":"echo"}`),
			call("6", `{"name":"run_command"}`),
		}, 5, 5},
		{"approval by elicitation", "mode: guarded\napproval:\n  tier2: elicit\n", "", []string{run("2", "echo hi"), run("3", "touch /tmp/warden-lane-test")}, 2, 0},
		{"HTML characters", "mode: readonly\n", "", []string{run("2", "echo \\\"<a>&\\\"")}, 1, 1},
		{"progress token", "mode: readonly\n", "", []string{call("2", `{"_meta":{"progressToken":"p"},"name":"run_command","arguments":{"command":"echo hi"}}`)}, 1, 1},
		{"escaped name", "mode: readonly\n", "", []string{call("2", `{"name":"run\u005fcommand","arguments":{"command":"echo hi"}}`)}, 1, 1},
		{"nested past the SDK's depth", "mode: readonly\n", "", []string{call("2", `{"name":"run_command","arguments":{"command":"echo hi","x":`+strings.Repeat("[", 1001)+strings.Repeat("]", 1001)+`}}`)}, 1, 0},
		{"nested to the SDK's depth", "mode: readonly\n", "", []string{call("2", `{"name":"run_command","arguments":{"command":"echo hi","x":`+strings.Repeat("[", 997)+strings.Repeat("]", 997)+`}}`)}, 1, 1},
		{"unknown tool", "mode: readonly\n", "", []string{call("2", `{"name":"nope","arguments":{}}`)}, 1, 0},
		{"unknown parameter", "mode: readonly\n", "", []string{call("2", `{"name":"run_command","arguments":{"command":"echo hi"},"task":{"ttl":1000}}`)}, 1, 0},
		{"key case", "mode: readonly\n", "", []string{call("2", `{"Name":"run_command","arguments":{"command":"echo hi"}}`)}, 1, 0},
		{"null params", "mode: readonly\n", "", []string{call("2", `null`)}, 1, 0},
		{"missing params", "mode: readonly\n", "", []string{`{"jsonrpc":"2.0","id":2,"method":"tools/call"}`}, 1, 0},
		{"params not an object", "mode: readonly\n", "", []string{call("2", `["run_command"]`)}, 1, 0},
		{"request names a protocol", "mode: readonly\n", "", []string{call("2", `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"},"name":"run_command","arguments":{"command":"echo hi"}}`)}, 1, 0},
		{"mrtr retry parameters", "mode: readonly\n", "", []string{call("2", `{"name":"run_command","arguments":{"command":"echo hi"},"requestState":"x"}`)}, 1, 0},
		{"batch", "mode: readonly\n", "2025-03-26", []string{"[" + run("2", "echo a") + "," + run("3", "echo b") + "]"}, 1, 0},
		{"notification", "mode: readonly\n", "", []string{`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo hi"}}}`, `{"jsonrpc":"2.0","id":3,"method":"ping"}`}, 1, 0},
		{"input ends during a call", "mode: readonly\n", "", []string{run("2", "sleep 3")}, 0, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			version := tc.version
			if version == "" {
				version = "2025-11-25"
			}
			answers := func(lane bool) ([]string, *countingTools) {
				w, _ := assemble(t, tc.config)
				tools := &countingTools{callTools: w.Relay}
				got := converseWith(t, w.MCP, func(r io.Reader, out io.Writer) mcp.Transport {
					tr := stdioTransport{in: osPipe(t, r), out: out}
					if lane {
						tr.lane = newCallLane(context.Background(), w.MCP, tools)
					}
					return tr
				}, version, tc.lines, tc.want)
				for i, l := range got {
					got[i] = volatile.ReplaceAllString(l, "…")
				}
				slices.Sort(got)
				return got, tools
			}
			sdk, _ := answers(false)
			ours, tools := answers(true)
			if !slices.Equal(ours, sdk) {
				t.Errorf("with the lane:\n%s\nwithout:\n%s", strings.Join(ours, "\n"), strings.Join(sdk, "\n"))
			}
			// A call the lane took runs on a worker of its own, which a
			// busy machine may start only after the connection ended
			// (input ends during a call): wait for it, generously.
			for deadline := time.Now().Add(10 * time.Second); tools.ran.Load() < tc.lane && time.Now().Before(deadline); {
				time.Sleep(10 * time.Millisecond)
			}
			if ran := tools.ran.Load(); ran != tc.lane {
				t.Errorf("the lane ran %d calls, want %d", ran, tc.lane)
			}
			if len(sdk) != 1+tc.want {
				t.Errorf("%d answers, want %d: %q", len(sdk), 1+tc.want, sdk)
			}
		})
	}
}

// TestCallLaneCancels starts a long call, and once it runs sends a second
// call with the same id (which gets no answer), a ping, and a cancel for
// the first: with the lane and without, the ping is answered and then the
// first call, cancelled, with the same answer.
func TestCallLaneCancels(t *testing.T) {
	var answers [2][]string
	for i, lane := range []bool{false, true} {
		w, _ := assemble(t, "mode: readonly\n")
		tools := &countingTools{callTools: w.Relay}
		tr := stdioTransport{}
		if lane {
			tr.lane = newCallLane(context.Background(), w.MCP, tools)
		}
		send, next := stdioSession(t, w.MCP, tr)
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"sleep 59.25"}}}`)
		// Once the program runs: a cancel that came while the call was
		// still being admitted would be answered before anything ran.
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, n := w.Relay.Activity().Last(); n == 1 && running("sleep\x0059.25") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the call did not start")
			}
			time.Sleep(10 * time.Millisecond)
		}
		send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"run_command","arguments":{"command":"echo second"}}}`)
		send(`{"jsonrpc":"2.0","id":3,"method":"ping"}`)
		if got := next(); got != `{"jsonrpc":"2.0","id":3,"result":{}}` {
			t.Fatalf("lane %v: answer to the ping: %s", lane, got)
		}
		send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2,"reason":"test"}}`)
		answers[i] = append(answers[i], volatile.ReplaceAllString(next(), "…"))
		if lane && tools.ran.Load() != 1 {
			t.Errorf("the lane ran %d calls, want 1", tools.ran.Load())
		}
	}
	if !slices.Equal(answers[0], answers[1]) {
		t.Errorf("with the lane %q, without %q", answers[1], answers[0])
	}
	if !strings.Contains(answers[1][0], `"id":2,`) || !strings.Contains(answers[1][0], "the command and its children were killed") {
		t.Errorf("answer to the cancelled call: %s", answers[1][0])
	}
}

// running reports whether a process's command line contains cmdline
// (arguments separated by NUL, as in /proc/PID/cmdline).
func running(cmdline string) bool {
	dirs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, d := range dirs {
		if b, err := os.ReadFile(d); err == nil && strings.Contains(string(b), cmdline) {
			return true
		}
	}
	return false
}

// stdioSession runs s over tr on pipes, initialized, and returns functions
// that send a line and read the next answer.
func stdioSession(t *testing.T, s *mcp.Server, tr stdioTransport) (send func(string), next func() string) {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	tr.in, tr.out = osPipe(t, inR), outW
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = s.Run(context.Background(), tr)
		outW.Close()
	}()
	t.Cleanup(func() {
		inW.Close()
		<-done
	})
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(outR)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	send = func(l string) {
		if _, err := io.WriteString(inW, l+"\n"); err != nil {
			t.Fatal(err)
		}
	}
	next = func() string {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("the server ended the connection")
			}
			return l
		case <-time.After(30 * time.Second):
			t.Fatal("no answer in 30 s")
		}
		return ""
	}
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	next()
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return send, next
}

// TestCallLaneAnswers holds the lane's encoding of a handler's outcome to
// the SDK's: an error keeps the code it wraps, a missing result or one
// asking for input is an internal error, content is never null, and HTML
// characters in text come out escaped, as the SDK's encoding writes them.
func TestCallLaneAnswers(t *testing.T) {
	id, err := jsonrpc.MakeID(float64(7))
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		res  *mcp.CallToolResult
		err  error
		want string
	}{
		{"wrapped coded error", nil, fmt.Errorf("arguments: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "bad"}),
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"arguments: bad"}}`},
		{"plain error", nil, errors.New("broken"), `{"jsonrpc":"2.0","id":7,"error":{"code":0,"message":"broken"}}`},
		{"no result", nil, nil, `{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"tool handler returned no result"}}`},
		{"input requests", &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"x": &mcp.ElicitParams{Message: "?"}}}, nil,
			`{"jsonrpc":"2.0","id":7,"error":{"code":-32603,"message":"server bug: input requests on a call answered without the SDK"}}`},
		{"no content", &mcp.CallToolResult{}, nil, `{"jsonrpc":"2.0","id":7,"result":{"content":[]}}`},
		{"HTML characters", &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "a<b>&c"}}}, nil,
			`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"a\u003cb\u003e\u0026c"}]}}`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return tc.res, tc.err }
			data, err := jsonrpc.EncodeMessage(answer(context.Background(), id, h, &mcp.CallToolRequest{}))
			if err != nil || string(data) != tc.want {
				t.Errorf("got %s (%v)\nwant %s", data, err, tc.want)
			}
		})
	}
}

// stubTools is one tool whose handler returns an empty result.
type stubTools struct{}

func (stubTools) Handler(name string) mcp.ToolHandler {
	if name != "t" {
		return nil
	}
	return func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	}
}

func (stubTools) ReturnsInputRequests() bool { return false }

// failingWriter fails every write.
type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("stdout closed") }

// TestCallLaneStops: once an answer cannot be written the lane takes no
// more calls, and once warden is stopping it takes none at all; the SDK
// answers (or refuses) them instead.
func TestCallLaneStops(t *testing.T) {
	call := func(id float64) *jsonrpc.Request {
		jid, _ := jsonrpc.MakeID(id)
		return &jsonrpc.Request{ID: jid, Method: "tools/call", Params: json.RawMessage(`{"name":"t","arguments":{}}`)}
	}
	newConn := func(out io.Writer) *stdioConn {
		return &stdioConn{out: out, version: "2025-11-25", closed: make(chan struct{})}
	}

	l := newCallLane(context.Background(), nil, stubTools{})
	l.session = new(mcp.ServerSession)
	c := newConn(failingWriter{})
	if !l.take(context.Background(), c, call(1)) {
		t.Fatal("the lane did not take a call it can answer")
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		l.mu.Lock()
		ended, left := l.ended, len(l.inflight)
		l.mu.Unlock()
		if ended != nil && left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("a failed write did not stop the lane (ended %v, %d in flight)", ended, left)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if l.take(context.Background(), c, call(2)) {
		t.Error("the lane took a call after its answers could no longer be written")
	}

	stop, cancel := context.WithCancel(context.Background())
	cancel()
	l = newCallLane(stop, nil, stubTools{})
	l.session = new(mcp.ServerSession)
	if l.take(context.Background(), newConn(io.Discard), call(3)) {
		t.Error("the lane took a call while warden was stopping")
	}
	if l.take(context.Background(), &stdioConn{out: io.Discard}, call(4)) {
		t.Error("the lane took a call before the initialize answer")
	}
}

// goroutineID is the running goroutine's number, from its stack header.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	id, _, _ := strings.Cut(strings.TrimPrefix(string(buf), "goroutine "), " ")
	return id
}

// TestCallLaneWorkers: a call after an answered one runs on the goroutine
// that answered it, whose stack has already grown, and the lane's workers
// end when warden stops.
func TestCallLaneWorkers(t *testing.T) {
	stop, cancel := context.WithCancel(context.Background())
	l := newCallLane(stop, nil, nil)
	before := runtime.NumGoroutine()
	ran := make(chan string)
	l.spawn(func() { ran <- goroutineID() })
	first := <-ran
	reused := false
	// The worker takes the next call once it waits for one; the first
	// tries may find it still returning from the last.
	for i := 0; i < 200 && !reused; i++ {
		l.spawn(func() { ran <- goroutineID() })
		reused = <-ran == first
		time.Sleep(5 * time.Millisecond)
	}
	if !reused {
		t.Fatalf("200 calls after the first, none ran on its worker (goroutine %s)", first)
	}
	cancel()
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > before {
		t.Errorf("%d goroutines after stop, %d before the first call", n, before)
	}
}
