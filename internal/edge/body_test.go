package edge

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

const bodyTestToken = "body-test-token-0123456789"

// slowServer serves the edge with a short body timeout and one tool that
// takes longer than it to answer.
func slowServer(t *testing.T, timeout time.Duration) string {
	t.Helper()
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(2 * timeout):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "slow-done"}}}, nil, nil
	})
	h := Handler(s, Options{Auth: NewAuth(bodyTestToken, nil, nil), MaxBodyBytes: 1 << 20, BodyTimeout: timeout})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { Serve(ctx, ln, h, ServeOptions{Grace: time.Second}); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	return ln.Addr().String()
}

// trickle sends a request whose body never completes, one byte per tick,
// and returns what the server answered and how long until it closed.
func trickle(t *testing.T, addr, header string, limit time.Duration) (string, time.Duration) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: 100000\r\n%s\r\n", addr, header)
	start := time.Now()
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(c)
		got <- string(b)
	}()
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case s := <-got:
			return s, time.Since(start)
		case <-tick.C:
			if time.Since(start) > limit {
				return "", limit
			}
			c.Write([]byte("["))
		}
	}
}

func TestBodyTimeout(t *testing.T) {
	const timeout = 300 * time.Millisecond
	addr := slowServer(t, timeout)
	tests := []struct {
		name, header string
		within       time.Duration
		want         string
	}{
		// Refused before the body is read: answered and closed at once,
		// not after the body (which never ends) or the timeout.
		{"no token", "", timeout, "401 Unauthorized"},
		{"wrong token", "Authorization: Bearer wrong-0123456789abcdef\r\n", timeout, "401 Unauthorized"},
		{"two tokens", "Authorization: Bearer " + bodyTestToken + "\r\nAuthorization: Bearer " + bodyTestToken + "\r\n", timeout, "401 Unauthorized"},
		{"foreign Origin", "Authorization: Bearer " + bodyTestToken + "\r\nOrigin: https://evil.example\r\n", timeout, "403 Forbidden"},
		// Admitted, then the body trickles: cut at the timeout.
		{"token v1", "Authorization: Bearer " + bodyTestToken + "\r\n", 3 * timeout, ""},
		{"token v2", "Authorization: Bearer " + bodyTestToken + "\r\nMcp-Protocol-Version: 2026-07-28\r\n", 3 * timeout, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, took := trickle(t, addr, tc.header, 10*timeout)
			if took > tc.within {
				t.Fatalf("connection held %v by a trickled body, want closed within %v (answer %q)", took, tc.within, got)
			}
			if !strings.Contains(got, tc.want) {
				t.Fatalf("answer %q, want %q", got, tc.want)
			}
		})
	}

	// A call that runs past the body timeout still gets its answer: the
	// deadline ends with the body.
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	br := bufio.NewReader(c)
	post := func(body, extra string) string {
		t.Helper()
		fmt.Fprintf(c, "POST /mcp HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: %d\r\n%s\r\n%s", addr, bodyTestToken, len(body), extra, body)
		c.SetReadDeadline(time.Now().Add(10 * timeout))
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatalf("reading the answer: %v", err)
		}
		return resp.Header.Get("Mcp-Session-Id") + "\n" + string(b)
	}
	init := post(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`, "")
	sid, _, _ := strings.Cut(init, "\n")
	post(`{"jsonrpc":"2.0","method":"notifications/initialized"}`, "Mcp-Session-Id: "+sid+"\r\n")
	calls := map[string]string{
		"Mcp-Session-Id: " + sid + "\r\n":                                                  `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
		"Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/call\r\nMcp-Name: slow\r\n": `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}}`,
	}
	for extra, call := range calls {
		if got := post(call, extra); !strings.Contains(got, "slow-done") {
			t.Fatalf("a call longer than the body timeout lost its answer (%s): %q", extra, got)
		}
	}
}
