package main

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// rawHTTP sends req as written on a connection from source (a loopback
// address) and returns the status line and body, or "" and the time taken
// when the server neither answered nor closed within limit.
func rawHTTP(t *testing.T, addr, source, req string, limit time.Duration) (status, body string) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(source)}, Timeout: 5 * time.Second}
	c, err := d.Dial("tcp", addr)
	if err != nil {
		return "dial: " + err.Error(), ""
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(limit))
	if _, err := io.WriteString(c, req); err != nil {
		return "write: " + err.Error(), ""
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return "read: " + err.Error(), ""
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 4096))
	return resp.Status, string(b)
}

// TestHTTPHostileClients plays hostile HTTP clients against one real
// server, over both MCP revisions: Host and Origin spellings, ambiguous or
// misplaced tokens, malformed JSON-RPC, trickled bodies and a brute force
// that spoofs forwarding headers. Each must end in a clear refusal, at
// once, with the server still serving.
func TestHTTPHostileClients(t *testing.T) {
	cfg := writeFile(t, "mode: open\nhttp:\n  rate_per_source: 0\n  lockout:\n    max_failures: 3\n    window: 1h\n    duration: 1h\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	u, err := url.Parse(s.url)
	if err != nil {
		t.Fatal(err)
	}
	addr, port := u.Host, u.Port()
	init1 := initializeBody
	init2 := `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}}}}`
	revisions := []struct{ name, header, body string }{
		{"2025-11-25", "Mcp-Protocol-Version: 2025-11-25\r\n", init1},
		{"2026-07-28", "Mcp-Protocol-Version: 2026-07-28\r\nMcp-Method: tools/list\r\n", init2},
	}
	request := func(host, header, body string) string {
		return fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nConnection: close\r\nContent-Length: %d\r\n%s\r\n%s", host, len(body), header, body)
	}
	auth := "Authorization: Bearer " + testToken + "\r\n"
	// Each request leaves from an address of its own, so that the bad
	// tokens below lock nothing out but the one source meant to be.
	sources := 0
	check := func(t *testing.T, name, req, want string) {
		t.Helper()
		sources++
		status, body := rawHTTP(t, addr, fmt.Sprintf("127.0.%d.%d", 1+sources/250, 1+sources%250), req, 5*time.Second)
		if !strings.HasPrefix(status, want) {
			t.Errorf("%s: %q %q, want %s", name, status, body, want)
		}
		if strings.Contains(body, "goroutine ") || strings.Contains(body, "panic") {
			t.Errorf("%s: a stack trace reached the client: %q", name, body)
		}
	}

	t.Run("Host", func(t *testing.T) {
		for _, h := range []string{
			"127.0.0.1:" + port, "localhost:" + port, "[::1]:" + port, "[::ffff:127.0.0.1]:" + port, "127.0.0.1", "localhost",
		} {
			check(t, "Host "+h, request(h, auth, init1), "200")
		}
		for _, h := range []string{
			"evil.example", "127.0.0.1.evil.example", "localhost.", "127.0.0.1.", "2130706433", "0x7f000001", "127.1",
			"[fe80::1%25lo]", "localhost.localdomain", "[::1]evil", "",
			// A port is digits: these only start like a loopback name.
			"localhost:80,evil.example", "localhost:abc", "localhost:", "127.0.0.1:0", "[::1]:99999", "localhost:+80",
			"127.0.0.1:8787x", "localhost:1e3",
		} {
			check(t, fmt.Sprintf("Host %q", h), request(h, auth, init1), "4")
		}
	})

	t.Run("Origin", func(t *testing.T) {
		for _, o := range []string{
			"null", "https://evil.example", "http://127.0.0.1:" + port + ".evil.example", "http://127.0.0.1:" + port + "@evil.example",
			"http://localhost:" + port, "http://127.0.0.1", "file://", "chrome-extension://abcdef",
		} {
			check(t, "Origin "+o, request(addr, auth+"Origin: "+o+"\r\n", init1), "403")
		}
		check(t, "own origin", request(addr, auth+"Origin: http://"+addr+"\r\n", init1), "200")
	})

	t.Run("Token", func(t *testing.T) {
		for _, rev := range revisions {
			good := request(addr, rev.header+auth, rev.body)
			check(t, rev.name+" good", good, "200")
			check(t, rev.name+" lowercase scheme", request(addr, rev.header+"Authorization: bearer "+testToken+"\r\n", rev.body), "200")
			for name, h := range map[string]string{
				"none":               "",
				"wrong":              "Authorization: Bearer x" + testToken + "\r\n",
				"prefix":             "Authorization: Bearer " + testToken[:len(testToken)-1] + "\r\n",
				"Basic":              "Authorization: Basic " + testToken + "\r\n",
				"trailing word":      "Authorization: Bearer " + testToken + " x\r\n",
				"cookie":             "Cookie: token=" + testToken + "\r\n",
				"other header":       "X-Authorization: Bearer " + testToken + "\r\n",
				"two, same":          auth + auth,
				"two, good then bad": auth + "Authorization: Bearer wrong-0123456789abcdef\r\n",
				"two, bad then good": "Authorization: Bearer wrong-0123456789abcdef\r\n" + auth,
				"two, empty second":  auth + "Authorization: \r\n",
			} {
				check(t, rev.name+" "+name, request(addr, rev.header+h, rev.body), "401")
			}
			q := strings.Replace(good, "POST /mcp ", "POST /mcp?access_token="+testToken+"&token="+testToken+" ", 1)
			check(t, rev.name+" token in the query", strings.Replace(q, auth, "", 1), "401")
		}
	})

	t.Run("JSONRPC", func(t *testing.T) {
		for _, rev := range revisions {
			for name, body := range map[string]string{
				"batch":        "[" + rev.body + "," + rev.body + "]",
				"empty batch":  "[]",
				"id object":    strings.Replace(rev.body, `"id":1`, `"id":{"a":1}`, 1),
				"id huge":      strings.Replace(rev.body, `"id":1`, `"id":1e999999`, 1),
				"deep nesting": strings.Repeat("[", 100000),
				"method NUL":   strings.Replace(rev.body, `"method":"`, `"method":"\u0000`, 1),
				"not JSON":     "hello",
				"null":         "null",
				"no version":   strings.Replace(rev.body, `"jsonrpc":"2.0",`, "", 1),
				"bad UTF-8":    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"\xff\xfe\"}",
			} {
				check(t, rev.name+" "+name, request(addr, rev.header+auth, body), "4")
			}
		}
	})

	t.Run("Trickle", func(t *testing.T) {
		// A request refused before its body is read is answered at once,
		// not after a body that never ends.
		for name, h := range map[string]string{
			"no token":    "",
			"wrong token": "Authorization: Bearer wrong-0123456789abcdef\r\n",
			"bad Origin":  auth + "Origin: https://evil.example\r\n",
		} {
			req := fmt.Sprintf("POST /mcp HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n%s\r\n[", addr, h)
			start := time.Now()
			status, _ := rawHTTP(t, addr, "127.0.0.4", req, 3*time.Second)
			if !strings.HasPrefix(status, "40") || time.Since(start) > 2*time.Second {
				t.Errorf("%s with a trickled body: %q after %v, want a refusal at once", name, status, time.Since(start))
			}
		}
	})

	t.Run("LockoutIgnoresForwardingHeaders", func(t *testing.T) {
		// Bad tokens from 127.0.0.2 that name other sources in every
		// forwarding header lock 127.0.0.2, and no one else.
		spoof := []string{
			"X-Forwarded-For: 127.0.0.1\r\n", "X-Real-IP: 127.0.0.1\r\n", "Forwarded: for=127.0.0.1\r\n",
			"X-Forwarded-For: 10.0.0.1, 127.0.0.1\r\n", "True-Client-IP: 127.0.0.1\r\n", "X-Forwarded-For: 192.0.2.7\r\n",
		}
		for i := range 4 {
			h := spoof[i%len(spoof)] + spoof[(i+3)%len(spoof)] + "Authorization: Bearer wrong-0123456789abcdef\r\n"
			rawHTTP(t, addr, "127.0.0.2", request(addr, h, init1), 5*time.Second)
		}
		for _, h := range spoof {
			if status, _ := rawHTTP(t, addr, "127.0.0.2", request(addr, h+auth, init1), 5*time.Second); strings.HasPrefix(status, "200") {
				t.Fatalf("the attacking source was served after its lockout, claiming %q", h)
			}
		}
		if status, _ := rawHTTP(t, addr, "127.0.0.1", request(addr, auth, init1), 5*time.Second); !strings.HasPrefix(status, "200") {
			t.Fatalf("the real user after another source's lockout: %q", status)
		}
	})

	check(t, "still serving", request(addr, auth, init1), "200")
}
