package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// fromAddr is an HTTP client whose connections leave from a given
// loopback address, so one machine can play several sources.
func fromAddr(ip string) *http.Client {
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}
	return &http.Client{Transport: &http.Transport{DialContext: d.DialContext}, Timeout: 30 * time.Second}
}

// postFrom sends an initialize with a bearer token from a client; err is
// set when the connection itself was refused or cut.
func postFrom(c *http.Client, url, token string) (int, error) {
	req, _ := http.NewRequest("POST", url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Authorization", "Bearer "+token)
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, nil
}

func auditLines(t *testing.T, state string) []map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		m := map[string]any{}
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("audit line %q: %v", line, err)
		}
		out = append(out, m)
	}
	return out
}

func TestLockoutTable(t *testing.T) {
	cfg := writeFile(t, "mode: open\nhttp:\n  rate_per_source: 0\n  lockout:\n    max_failures: 3\n    window: 1h\n    duration: 1h\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	attacker, bystander := fromAddr("127.0.0.2"), fromAddr("127.0.0.3")

	// A session the attacker's address opened with a good token before
	// the attack; a lockout must close it too.
	client := mcp.NewClient(&mcp.Implementation{Name: "victim", Version: "1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: s.url, HTTPClient: &http.Client{Transport: bearer{testToken, attacker.Transport}}, MaxRetries: -1,
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	callTool(t, cs, "server_info", nil)

	// The bystander fails too, but not often enough to be locked.
	for i := 0; i < 3; i++ {
		if code, err := postFrom(bystander, s.url, "wrong-token-0123456789"); err != nil || code != http.StatusUnauthorized {
			t.Fatalf("bystander bad token %d: %d %v", i, code, err)
		}
	}
	// More than max_failures bad tokens lock the attacker's address.
	for i := 0; i < 4; i++ {
		if code, err := postFrom(attacker, s.url, "wrong-token-0123456789"); err != nil || code != http.StatusUnauthorized {
			t.Fatalf("attacker bad token %d: %d %v", i, code, err)
		}
	}
	if code, err := postFrom(attacker, s.url, testToken); err == nil && code == http.StatusOK {
		t.Fatal("a locked-out source was served with a good token")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "server_info"}); err == nil {
		t.Error("the locked-out source's existing session still works")
	}
	cancel()
	if code, err := postFrom(bystander, s.url, testToken); err != nil || code != http.StatusOK {
		t.Fatalf("another source was affected by the lockout: %d %v", code, err)
	}

	out, err := execCommand([]string{"lockout", "list"}, env).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "127.0.0.2") || strings.Contains(string(out), "127.0.0.3") {
		t.Fatalf("lockout list: %v\n%s", err, out)
	}
	out, err = execCommand([]string{"lockout", "delete", "127.0.0.2"}, env).CombinedOutput()
	if err != nil {
		t.Fatalf("lockout delete: %v\n%s", err, out)
	}
	if code, err := postFrom(attacker, s.url, testToken); err != nil || code != http.StatusOK {
		t.Fatalf("after lockout delete the source is still refused: %d %v", code, err)
	}
	out, _ = execCommand([]string{"lockout", "list"}, env).CombinedOutput()
	if strings.Contains(string(out), "127.0.0.2") {
		t.Errorf("deleted entry still listed:\n%s", out)
	}
	// Lock it again and flush.
	for i := 0; i < 4; i++ {
		postFrom(attacker, s.url, "wrong-token-0123456789")
	}
	if code, err := postFrom(attacker, s.url, testToken); err == nil && code == http.StatusOK {
		t.Fatal("not locked again")
	}
	if out, err := execCommand([]string{"lockout", "flush"}, env).CombinedOutput(); err != nil || !strings.Contains(string(out), "unlocked 1") {
		t.Fatalf("lockout flush: %v\n%s", err, out)
	}
	if code, err := postFrom(attacker, s.url, testToken); err != nil || code != http.StatusOK {
		t.Fatalf("after flush: %d %v", code, err)
	}

	var locks, unlocks []string
	for _, r := range auditLines(t, state) {
		extra, _ := r["extra"].(map[string]any)
		switch r["tool"] {
		case "http.lockout":
			locks = append(locks, extra["source"].(string))
		case "http.unlock":
			unlocks = append(unlocks, extra["source"].(string)+" "+r["reason"].(string))
		}
	}
	if strings.Join(locks, ",") != "127.0.0.2,127.0.0.2" {
		t.Errorf("audited lockouts %v, want 127.0.0.2 twice", locks)
	}
	if len(unlocks) != 2 || !strings.Contains(unlocks[0], "deleted") || !strings.Contains(unlocks[1], "flushed") {
		t.Errorf("audited unlocks %v", unlocks)
	}
	if out, err := execCommand([]string{"audit", "verify"}, env).CombinedOutput(); err != nil {
		t.Errorf("audit verify after lockouts: %v\n%s", err, out)
	}
	fi, err := os.Stat(filepath.Join(state, "admin.sock"))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("admin socket: %v %v", fi.Mode(), err)
	}
}

func TestSourceAllowlistAndRate(t *testing.T) {
	cfg := writeFile(t, "mode: open\nhttp:\n  allowed_sources: [127.0.0.1/32, 127.0.0.3]\n  rate_per_source: 0.001\n  rate_burst: 2\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	if code, err := postFrom(fromAddr("127.0.0.2"), s.url, testToken); err == nil && code == http.StatusOK {
		t.Error("a source outside the allowlist was served")
	}
	c := fromAddr("127.0.0.3")
	for i, want := range []int{200, 200, 429} {
		if code, err := postFrom(c, s.url, testToken); err != nil || code != want {
			t.Errorf("request %d from an allowed source: %d %v, want %d", i, code, err, want)
		}
	}
}

func TestNamedTokensAndScopes(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_TOKEN="+testToken)
	out, err := execCommand([]string{"token", "new", "ci", "--scope", "warden:read"}, env).Output()
	if err != nil {
		t.Fatal(err)
	}
	ci := strings.TrimSpace(string(out))
	b, _ := os.ReadFile(filepath.Join(state, "tokens.json"))
	if len(ci) < 40 || strings.Contains(string(b), ci) {
		t.Fatalf("token %q, store:\n%s", ci, b)
	}
	if fi, _ := os.Stat(filepath.Join(state, "tokens.json")); fi.Mode().Perm() != 0o600 {
		t.Errorf("token store mode %o", fi.Mode().Perm())
	}
	s := startHTTP(t, env, state)
	marker := filepath.Join(t.TempDir(), "m")

	as := func(token string) *mcp.ClientSession {
		return connectHTTP(t, &httpServer{url: s.url, token: token}, "", nil)
	}
	cs := as(ci)
	if res, got := callTool(t, cs, "run_command", map[string]any{"command": "echo read"}); res.IsError || got["stdout"] != "read\n" {
		t.Fatalf("read-scoped token, tier 0: %s", text(res))
	}
	res, got := callTool(t, cs, "run_command", map[string]any{"command": "touch " + marker})
	if got["status"] != "denied" || !strings.Contains(text(res), "scope") {
		t.Errorf("read-scoped token ran a tier 2 command in open mode: %s", text(res))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the refused command ran")
	}

	// A token made while the server runs works at once (admin socket).
	out, err = execCommand([]string{"token", "new", "ops", "--scope", "warden:operate"}, env).Output()
	if err != nil {
		t.Fatal(err)
	}
	ops := strings.TrimSpace(string(out))
	if res, got := callTool(t, as(ops), "run_command", map[string]any{"command": "touch " + marker}); got["status"] != "ok" {
		t.Fatalf("operate-scoped token, tier 2: %s", text(res))
	}
	list, _ := execCommand([]string{"token", "list"}, env).Output()
	if !strings.Contains(string(list), "ci") || !strings.Contains(string(list), "warden:operate") || strings.Contains(string(list), ops) {
		t.Errorf("token list:\n%s", list)
	}
	if out, err := execCommand([]string{"token", "revoke", "ops"}, env).CombinedOutput(); err != nil {
		t.Fatalf("revoke: %v %s", err, out)
	}
	if code, _ := rawPost(t, s.url, initializeBody, map[string]string{"Authorization": "Bearer " + ops}); code != http.StatusUnauthorized {
		t.Errorf("revoked token: %d, want 401", code)
	}
	ids := map[string]bool{}
	for _, r := range auditLines(t, state) {
		ids[r["identity"].(string)] = true
	}
	if !ids["token:ci"] || !ids["token:ops"] {
		t.Errorf("named identities not audited: %v", ids)
	}
}

func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value is the counter, gauge or histogram count of the series with labels.
func value(fams map[string]*dto.MetricFamily, name string, labels map[string]string) float64 {
	f := fams[name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		for _, l := range m.Label {
			if v, ok := labels[l.GetName()]; ok && v != l.GetValue() {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

func TestMetricsAfterABurst(t *testing.T) {
	cfg := writeFile(t, "mode: readonly\nmetrics:\n  addr: 127.0.0.1:0\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	var metricsURL string
	for _, line := range strings.Split(s.stderr.String(), "\n") {
		if v, ok := strings.CutPrefix(line, "warden: metrics at "); ok {
			metricsURL = v
		}
	}
	if !strings.HasPrefix(metricsURL, "http://127.0.0.1:") {
		t.Fatalf("no loopback metrics URL in:\n%s", s.stderr)
	}
	cs := connectHTTP(t, s, "2025-11-25", nil) // a stateful session, counted as one
	for i := 0; i < 5; i++ {
		callTool(t, cs, "run_command", map[string]any{"command": "echo hi"})
	}
	for i := 0; i < 2; i++ {
		callTool(t, cs, "run_command", map[string]any{"command": "touch /tmp/never"})
	}
	for i := 0; i < 3; i++ {
		rawPost(t, s.url, initializeBody, map[string]string{"Authorization": "Bearer wrong-token-0123456789"})
	}
	fams := scrape(t, metricsURL)
	checks := []struct {
		name   string
		labels map[string]string
		want   float64
	}{
		{"warden_calls_total", map[string]string{"tool": "run_command", "decision": "allow", "status": "ok"}, 5},
		{"warden_calls_total", map[string]string{"tool": "run_command", "decision": "denied", "status": "denied"}, 2},
		{"warden_call_duration_seconds", map[string]string{"tool": "run_command"}, 7},
		{"warden_http_refusals_total", map[string]string{"reason": "invalid_token"}, 3},
		{"warden_mcp_sessions", nil, 1},
		{"warden_audit_write_failures_total", nil, 0},
		{"warden_lockouts_total", nil, 0},
		{"warden_terminal_sessions", nil, 0},
		{"warden_ssh_connections", nil, 0},
	}
	for _, c := range checks {
		if got := value(fams, c.name, c.labels); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	// The MCP port serves no metrics, and /healthz says only ok.
	resp, err := http.Get(strings.TrimSuffix(s.url, "/mcp") + "/metrics")
	if err == nil {
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			t.Error("metrics served on the MCP port")
		}
	}
	resp, err = http.Get(strings.TrimSuffix(s.url, "/mcp") + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "ok\n" {
		t.Errorf("healthz says %q", b)
	}
}

func TestStartupRefusesNonLoopbackMetrics(t *testing.T) {
	env, _ := wardenEnv(t)
	out, err := execCommand([]string{"serve", "--http", "127.0.0.1:0", "--config", writeFile(t, "metrics:\n  addr: 0.0.0.0:9090\n")}, env).CombinedOutput()
	if err == nil || !strings.Contains(string(out), "metrics.addr") {
		t.Fatalf("started with public metrics: %v\n%s", err, out)
	}
}

// waitFor polls until cond holds, for at most d.
func waitFor(d time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}

func exitCode(err error) int {
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

func TestSIGTERMLetsACallFinish(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open", "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	cs := connectHTTP(t, s, "2025-11-25", nil)
	marker := filepath.Join(t.TempDir(), "started")
	type result struct {
		res *mcp.CallToolResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch " + marker + "; sleep 3; echo finished"}})
		done <- result{res, err}
	}()
	if !waitFor(20*time.Second, func() bool { _, err := os.Stat(marker); return err == nil }) {
		t.Fatal("the command did not start")
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	r := <-done
	if r.err != nil || r.res.IsError || structured(t, r.res)["stdout"] != "finished\n" {
		t.Fatalf("the call in flight did not finish: %v %v", r.err, r.res)
	}
	if code := exitCode(s.cmd.Wait()); code != 0 {
		t.Errorf("exit code %d after SIGTERM, want 0", code)
	}
	var audited bool
	for _, rec := range auditLines(t, state) {
		if rec["tool"] == "run_command" && rec["status"] == "ok" && strings.Contains(rec["args"].(map[string]any)["command"].(string), "finished") {
			audited = true
		}
	}
	if !audited {
		t.Error("the call that finished during shutdown is not in the audit log")
	}
	if out, err := execCommand([]string{"audit", "verify"}, env).CombinedOutput(); err != nil {
		t.Errorf("audit verify: %v\n%s", err, out)
	}
}

func TestSIGTERMAbortsAfterGrace(t *testing.T) {
	cfg := writeFile(t, "mode: open\nhttp:\n  shutdown_grace: 1s\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	cs := connectHTTP(t, s, "2025-11-25", nil)
	marker := filepath.Join(t.TempDir(), "started")
	go cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "touch " + marker + "; sleep 60; echo never-" + "printed"}})
	if !waitFor(20*time.Second, func() bool { _, err := os.Stat(marker); return err == nil }) {
		t.Fatal("the command did not start")
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	exited := make(chan error, 1)
	go func() { exited <- s.cmd.Wait() }()
	select {
	case err := <-exited:
		if code := exitCode(err); code != 0 {
			t.Errorf("exit code %d, want 0", code)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("warden did not stop a call that outlived the grace period")
	}
	if p := waitGone("never-printed", 5*time.Second); len(p) > 0 {
		t.Errorf("the aborted command survives: %v", p)
	}
	var audited bool
	for _, rec := range auditLines(t, state) {
		if rec["tool"] == "run_command" && rec["status"] != "ok" {
			audited = true
		}
	}
	if !audited {
		t.Error("the aborted call is not audited")
	}
}

func TestSIGHUPReload(t *testing.T) {
	cfgFile := writeFile(t, "mode: open\npolicy:\n  deny: [forbidden-one]\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfgFile, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)
	cs := connectHTTP(t, s, "", nil)
	status := func(cmd string) any {
		_, got := callTool(t, cs, "run_command", map[string]any{"command": "echo " + cmd})
		return got["status"]
	}
	if status("forbidden-one") != "denied" || status("forbidden-two") != "ok" {
		t.Fatal("initial rules not in force")
	}
	count := func(s *httpServer, msg string) int { return strings.Count(s.stderr.String(), msg) }
	hup := func(content, wait string, n int) {
		t.Helper()
		if err := os.WriteFile(cfgFile, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		s.cmd.Process.Signal(syscall.SIGHUP)
		if !waitFor(20*time.Second, func() bool { return count(s, wait) >= n }) {
			t.Fatalf("no %q after SIGHUP:\n%s", wait, s.stderr)
		}
	}
	hup("mode: open\npolicy:\n  deny: [forbidden-two]\n", "reloaded configuration", 1)
	if status("forbidden-one") != "ok" || status("forbidden-two") != "denied" {
		t.Fatal("reloaded rules not in force")
	}
	// Broken files change nothing: an unknown key, an invalid mode, and a
	// rule that only fails when the policy is built.
	broken := []string{
		"mode: open\npolicy:\n  deny: []\nshell: yes\n",
		"mode: yolo\npolicy:\n  deny: []\n",
		"mode: open\npolicy:\n  deny: ['(']\n",
	}
	for i, content := range broken {
		hup(content, "reload failed", i+1)
		if status("forbidden-two") != "denied" || status("forbidden-one") != "ok" {
			t.Fatalf("broken config %d changed the rules in force", i)
		}
	}
	// The server is alive and serving after all that.
	if status("still-here") != "ok" {
		t.Fatal("server stopped serving")
	}
}
