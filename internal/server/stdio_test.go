package server

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestStdioTransportMatchesSDK feeds the same lines to an MCP server over
// warden's stdio transport and over the SDK's IOTransport and requires the
// same answers, or the same end of the connection, for each.
func TestStdioTransportMatchesSDK(t *testing.T) {
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	}
	cases := []struct {
		name    string
		version string
		lines   []string
		want    int // answers to wait for beyond initialize's
	}{
		{"call", "2025-11-25", []string{call("2")}, 1},
		{"string and float ids", "2025-11-25", []string{call(`"two"`), call("3.0"), call("4.5")}, 3},
		{"null id is a notification", "2025-11-25", []string{`{"jsonrpc":"2.0","id":null,"method":"ping"}`, `{"jsonrpc":"2.0","id":5,"method":"ping"}`}, 1},
		{"blank lines and a value across lines", "2025-11-25", []string{"", "  ", "{\"jsonrpc\":\"2.0\",\n\"id\":5,\n\"method\":\"ping\"}"}, 1},
		{"key case matters", "2025-11-25", []string{`{"jsonrpc":"2.0","id":6,"METHOD":"ping"}`, `{"jsonrpc":"2.0","id":7,"method":"ping"}`}, 1},
		{"wrong key case ends it", "2025-11-25", []string{`{"JSONRPC":"2.0","id":7,"method":"ping"}`}, 0},
		{"response to nobody", "2025-11-25", []string{`{"jsonrpc":"2.0","id":8,"result":{}}`, `{"jsonrpc":"2.0","id":9,"error":{"code":1,"message":"x"}}`, `{"jsonrpc":"2.0","id":10,"method":"ping"}`}, 1},
		{"batch before 2025-06-18", "2025-03-26", []string{"[" + call("21") + "," + call(`"twenty-two"`) + "]"}, 1},
		{"batch of a call and a ping", "2025-03-26", []string{"[" + call("24") + `,{"jsonrpc":"2.0","method":"ping","id":25}]`}, 1},
		{"batch of one ping", "2025-03-26", []string{`[{"jsonrpc":"2.0","id":20,"method":"ping"}]`}, 1},
		{"batch of notifications", "2025-03-26", []string{`[{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}]`, `{"jsonrpc":"2.0","id":11,"method":"ping"}`}, 1},
		{"batch from 2025-06-18", "2025-06-18", []string{"[" + call("12") + "]"}, 0},
		{"empty batch", "2025-03-26", []string{"[]"}, 0},
		{"duplicate ids in a batch", "2025-03-26", []string{"[" + call("13") + "," + call("13") + "]"}, 0},
		{"invalid json", "2025-11-25", []string{`{"jsonrpc":"2.0","id":14,`}, 0},
		{"trailing data", "2025-11-25", []string{`{"jsonrpc":"2.0","id":15,"method":"ping"} x`}, 0},
		{"two values on a line", "2025-11-25", []string{`{"jsonrpc":"2.0","id":16,"method":"ping"}{"jsonrpc":"2.0","id":17,"method":"ping"}`}, 0},
		{"wrong version tag", "2025-11-25", []string{`{"jsonrpc":"1.0","id":18,"method":"ping"}`}, 0},
		{"object id", "2025-11-25", []string{`{"jsonrpc":"2.0","id":{},"method":"ping"}`}, 0},
		{"non-string method", "2025-11-25", []string{`{"jsonrpc":"2.0","id":19,"method":1}`}, 0},
		{"not an object", "2025-11-25", []string{`"ping"`}, 0},
		{"response without id", "2025-11-25", []string{`{"jsonrpc":"2.0","result":{}}`}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ours := converse(t, func(r io.Reader, w io.Writer) mcp.Transport { return stdioTransport{in: r, out: w} }, tc.version, tc.lines, tc.want)
			polled := converse(t, func(r io.Reader, w io.Writer) mcp.Transport { return stdioTransport{in: osPipe(t, r), out: w} }, tc.version, tc.lines, tc.want)
			sdks := converse(t, func(r io.Reader, w io.Writer) mcp.Transport {
				return &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriter{w}}
			}, tc.version, tc.lines, tc.want)
			if !slices.Equal(ours, sdks) {
				t.Errorf("warden's transport answered\n%s\nthe SDK's\n%s", strings.Join(ours, "\n"), strings.Join(sdks, "\n"))
			}
			if !slices.Equal(polled, sdks) {
				t.Errorf("warden's transport reading a pipe answered\n%s\nthe SDK's\n%s", strings.Join(polled, "\n"), strings.Join(sdks, "\n"))
			}
			if !slices.ContainsFunc(ours, func(l string) bool { return strings.HasPrefix(l, `{"jsonrpc":"2.0","id":1,"result":{"capabilities"`) }) {
				t.Errorf("no answer to initialize: %q", ours)
			}
		})
	}
}

// TestStdioBatchWithNotification is where warden's transport departs from
// the SDK's on purpose: the SDK waits for an answer to every request of a
// batch, notifications included, so a batch that carries one is never
// answered at all. JSON-RPC answers calls only.
func TestStdioBatchWithNotification(t *testing.T) {
	call := func(id string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`
	}
	note := `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":99}}`
	got := converse(t, func(r io.Reader, w io.Writer) mcp.Transport { return stdioTransport{in: r, out: w} }, "2025-03-26",
		[]string{"[" + call("2") + "," + note + "," + call(`"three"`) + "]"}, 1)
	want := `[{"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"hi"}]}},{"jsonrpc":"2.0","id":"three","result":{"content":[{"type":"text","text":"hi"}]}}]`
	if len(got) != 2 || got[0] != want {
		t.Errorf("got %q\nwant the answer to initialize and %s", got, want)
	}
}

// osPipe returns the read end of an OS pipe fed from r, as warden's
// standard input is when a client starts it.
func osPipe(t *testing.T, r io.Reader) *os.File {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pr.Close() })
	go func() {
		_, _ = io.Copy(pw, r)
		pw.Close()
	}()
	return pr
}

// TestStdioCloseEndsWaitingRead: a Read waiting for a client that sends
// nothing returns once the connection is closed (idle exit, SIGTERM), on
// a pipe, which Read reads itself, and on any other reader.
func TestStdioCloseEndsWaitingRead(t *testing.T) {
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	silent, _ := io.Pipe()
	for name, in := range map[string]io.Reader{"pipe": pr, "reader": silent} {
		conn, err := stdioTransport{in: in, out: io.Discard}.Connect(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if polled := conn.(*stdioConn).polled != nil; polled != (name == "pipe") {
			t.Errorf("%s: read by Read itself: %v", name, polled)
		}
		got := make(chan error, 1)
		go func() {
			_, err := conn.Read(context.Background())
			got <- err
		}()
		select {
		case err := <-got:
			t.Fatalf("%s: Read returned before Close: %v", name, err)
		case <-time.After(50 * time.Millisecond):
		}
		conn.Close()
		select {
		case err := <-got:
			if !errors.Is(err, io.EOF) {
				t.Errorf("%s: Read after Close: %v, want EOF", name, err)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: Read still waiting after Close", name)
		}
	}
}

// TestStdioFrameLimit: a message longer than the limit ends the
// connection, as the SDK's IOTransport with the same limit does, reading a
// pipe and any reader; one within it is answered.
func TestStdioFrameLimit(t *testing.T) {
	const limit = 4096
	ping := func(pad int) string {
		return `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"` + strings.Repeat("x", pad) + `"}}`
	}
	for _, tc := range []struct {
		line string
		want int // answers beyond initialize's
	}{{ping(limit / 2), 1}, {ping(2 * limit), 0}} {
		lines := []string{tc.line}
		ours := converse(t, func(r io.Reader, w io.Writer) mcp.Transport { return stdioTransport{in: r, out: w, limit: limit} }, "2025-11-25", lines, tc.want)
		polled := converse(t, func(r io.Reader, w io.Writer) mcp.Transport {
			return stdioTransport{in: osPipe(t, r), out: w, limit: limit}
		}, "2025-11-25", lines, tc.want)
		sdks := converse(t, func(r io.Reader, w io.Writer) mcp.Transport {
			return &mcp.IOTransport{Reader: io.NopCloser(r), Writer: nopWriter{w}, MaxLineLength: limit}
		}, "2025-11-25", lines, tc.want)
		if !slices.Equal(ours, sdks) || !slices.Equal(polled, sdks) {
			t.Errorf("%d bytes: warden's transport answered\n%s\nreading a pipe\n%s\nthe SDK's\n%s", len(tc.line),
				strings.Join(ours, "\n"), strings.Join(polled, "\n"), strings.Join(sdks, "\n"))
		}
		if ended := ours[len(ours)-1] == "error"; ended != (tc.want == 0) {
			t.Errorf("%d bytes: connection ended on an error: %v; answers %q", len(tc.line), ended, ours)
		}
	}
}

type nopWriter struct{ io.Writer }

func (nopWriter) Close() error { return nil }

// converse runs an MCP server with one tool over the transport made by
// mk, initializes it at version, writes lines, waits for want more lines
// (or the end of the connection) and closes its input. It returns what
// the server wrote, sorted (tool calls are answered concurrently), with
// "error" last when the server ended the connection on an error.
func converse(t *testing.T, mk func(io.Reader, io.Writer) mcp.Transport, version string, lines []string, want int) []string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "stdio-test", Version: "1"}, nil)
	type in struct {
		Text string `json:"text"`
	}
	mcp.AddTool(s, &mcp.Tool{Name: "echo"}, func(_ context.Context, _ *mcp.CallToolRequest, a in) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.Text}}}, nil, nil
	})
	return converseWith(t, s, mk, version, lines, want)
}

// converseWith is converse with the server s.
func converseWith(t *testing.T, s *mcp.Server, mk func(io.Reader, io.Writer) mcp.Transport, version string, lines []string, want int) []string {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- s.Run(context.Background(), mk(inR, outW))
		outW.Close()
	}()
	initialized, enough := make(chan struct{}), make(chan struct{})
	go func() {
		defer inW.Close()
		init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`
		if _, err := io.WriteString(inW, init+"\n"); err != nil {
			return
		}
		// The rest goes once initialize is answered, so that a line that
		// ends the connection cannot overtake it.
		<-initialized
		for _, l := range append([]string{`{"jsonrpc":"2.0","method":"notifications/initialized"}`}, lines...) {
			if _, err := io.WriteString(inW, l+"\n"); err != nil {
				return
			}
		}
		<-enough
	}()
	stop := time.AfterFunc(10*time.Second, func() { inW.Close() })
	defer stop.Stop()
	var got []string
	sc := bufio.NewScanner(outR)
	for sc.Scan() {
		got = append(got, sc.Text())
		if len(got) == 1 {
			close(initialized)
		}
		if len(got) == 1+want {
			close(enough)
		}
	}
	if len(got) == 0 {
		close(initialized)
	}
	if len(got) < 1+want {
		close(enough)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("server did not stop")
	}
	slices.Sort(got)
	if err != nil && !errors.Is(err, io.EOF) {
		got = append(got, "error")
	}
	return got
}
