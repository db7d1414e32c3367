package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"testing"
)

// lineClient is the smallest MCP client over stdio: it writes one JSON-RPC
// request line and reads one response line, with nothing in between. The
// latency benchmarks use it so that what they measure is warden and not
// the client; the Go SDK's client adds about 0.3 ms per call of its own
// (two decodes of the response, goroutine hand-offs), which the "sdk"
// variants show.
type lineClient struct {
	in  io.WriteCloser
	out *bufio.Reader
	id  int
}

// startLine starts cmd (warden serve) and completes the initialize
// handshake at protocol revision 2025-11-25.
func startLine(b testing.TB, cmd *exec.Cmd) *lineClient {
	b.Helper()
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		in.Close()
		_ = cmd.Wait()
	})
	c := &lineClient{in: in, out: bufio.NewReaderSize(out, 64<<10)}
	init := map[string]any{"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "bench", "version": "1"}}
	if _, err := c.request("initialize", init); err != nil {
		b.Fatal(err)
	}
	if _, err := fmt.Fprintln(in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`); err != nil {
		b.Fatal(err)
	}
	return c
}

// request sends one request and returns its result.
func (c *lineClient) request(method string, params any) (json.RawMessage, error) {
	c.id++
	line, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.id, "method": method, "params": params})
	if err != nil {
		return nil, err
	}
	if _, err := c.in.Write(append(line, '\n')); err != nil {
		return nil, err
	}
	reply, err := c.out.ReadBytes('\n')
	if err != nil {
		return nil, err
	}
	var resp struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(reply, &resp); err != nil {
		return nil, fmt.Errorf("%v: %s", err, reply)
	}
	switch {
	case resp.ID != c.id:
		return nil, fmt.Errorf("reply to request %d, want %d: %s", resp.ID, c.id, reply)
	case resp.Error != nil:
		return nil, fmt.Errorf("%s: %s", method, resp.Error.Message)
	}
	return resp.Result, nil
}

// callTool calls a tool and returns the stdout of its structured result,
// or an error if the call failed or did not exit 0.
func (c *lineClient) callTool(name string, args map[string]any) (string, error) {
	raw, err := c.request("tools/call", map[string]any{"name": name, "arguments": args})
	if err != nil {
		return "", err
	}
	var res struct {
		IsError    bool `json:"isError"`
		Structured struct {
			Status   string `json:"status"`
			ExitCode int    `json:"exit_code"`
			Stdout   string `json:"stdout"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		return "", err
	}
	if res.IsError || res.Structured.Status != "ok" || res.Structured.ExitCode != 0 {
		return "", fmt.Errorf("%s: %s", name, raw)
	}
	return res.Structured.Stdout, nil
}
