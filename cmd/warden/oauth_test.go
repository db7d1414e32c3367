package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/clientcredentials"
)

// The OAuth tests run against oidc-provider, a certified OpenID provider,
// on Node 22, both pinned in testdata/oidc/package-lock.json and installed
// with npm ci into .cache/oidc at the repository root on first use (or
// when the lockfile changes). Without npm they skip, unless
// WARDEN_REQUIRE_OIDC=1.

const testResource = "https://warden.test/mcp"

type oidcServer struct{ issuerA, issuerB string }

func startOIDC(t *testing.T) *oidcServer {
	t.Helper()
	src, err := filepath.Abs("testdata/oidc")
	if err != nil {
		t.Fatal(err)
	}
	cache := filepath.Join(src, "..", "..", "..", "..", ".cache", "oidc")
	node := filepath.Join(cache, "node_modules", "node", "bin", "node")
	var stamp bytes.Buffer
	for _, f := range []string{"package.json", "package-lock.json"} {
		b, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			t.Fatal(err)
		}
		stamp.Write(b)
	}
	sum := sha256.Sum256(stamp.Bytes())
	want := hex.EncodeToString(sum[:])
	if got, _ := os.ReadFile(filepath.Join(cache, ".stamp")); string(got) != want || !exists(node) {
		if _, err := exec.LookPath("npm"); err != nil {
			if os.Getenv("WARDEN_REQUIRE_OIDC") == "1" {
				t.Fatal("npm is needed to install oidc-provider")
			}
			t.Skip("npm not installed; set WARDEN_REQUIRE_OIDC=1 to require the OAuth tests")
		}
		os.RemoveAll(cache)
		if err := os.MkdirAll(cache, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, f := range []string{"package.json", "package-lock.json"} {
			b, _ := os.ReadFile(filepath.Join(src, f))
			os.WriteFile(filepath.Join(cache, f), b, 0o644)
		}
		ci := exec.Command("npm", "ci", "--no-audit", "--no-fund", "--loglevel=error")
		ci.Dir = cache
		if out, err := ci.CombinedOutput(); err != nil {
			t.Fatalf("npm ci for oidc-provider: %v\n%s", err, out)
		}
		os.WriteFile(filepath.Join(cache, ".stamp"), []byte(want), 0o644)
	}
	// The script resolves oidc-provider from its own directory.
	script, _ := os.ReadFile(filepath.Join(src, "server.mjs"))
	if err := os.WriteFile(filepath.Join(cache, "server.mjs"), script, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, filepath.Join(cache, "server.mjs"), testResource)
	stdout, _ := cmd.StdoutPipe()
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
		if t.Failed() {
			t.Logf("oidc-provider stderr:\n%s", stderr)
		}
	})
	s := &oidcServer{}
	sc := bufio.NewScanner(stdout)
	for (s.issuerA == "" || s.issuerB == "") && sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "issuer A "); ok {
			s.issuerA = v
		}
		if v, ok := strings.CutPrefix(sc.Text(), "issuer B "); ok {
			s.issuerB = v
		}
	}
	if s.issuerB == "" {
		t.Fatalf("oidc-provider did not start:\n%s", stderr)
	}
	go io.Copy(io.Discard, stdout)
	return s
}

func exists(p string) bool { _, err := os.Stat(p); return err == nil }

func clientConfig(issuer, client, scope, resource string) *clientcredentials.Config {
	return &clientcredentials.Config{
		ClientID:       client,
		ClientSecret:   "secret-" + client,
		TokenURL:       issuer + "/token",
		Scopes:         strings.Fields(scope),
		EndpointParams: url.Values{"resource": {resource}},
		AuthStyle:      oauth2.AuthStyleInHeader,
	}
}

func TestOAuthResourceServer(t *testing.T) {
	idp := startOIDC(t)
	cfg := writeFile(t, "mode: open\nhttp:\n  oauth:\n    issuer: "+idp.issuerA+"\n    resource: "+testResource+"\n    clock_skew: 0s\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN="+testToken)
	s := startHTTP(t, env, state)

	get := func(issuer, client, scope, resource string) string {
		t.Helper()
		tok, err := clientConfig(issuer, client, scope, resource).Token(context.Background())
		if err != nil {
			t.Fatalf("token from %s for %s: %v", issuer, client, err)
		}
		return tok.AccessToken
	}
	all := "warden:read warden:operate warden:admin"
	good := get(idp.issuerA, "warden-admin", all, testResource)
	short := get(idp.issuerA, "warden-short", all, testResource)

	// A good token with one signature byte changed.
	parts := strings.Split(good, ".")
	sig := []byte(parts[2])
	sig[len(sig)/2] ^= 0x01
	if sig[len(sig)/2] == '.' {
		sig[len(sig)/2] = 'A'
	}
	forged := parts[0] + "." + parts[1] + "." + string(sig)

	resp, err := http.Post(idp.issuerA+"/test/id_token?sub=alice", "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	idTokenBytes, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	idToken := string(idTokenBytes)
	if !looksJWT(idToken) {
		t.Fatalf("no ID token from the provider: %q", idToken)
	}

	// Wait out the short-lived token (oidc-provider gives it 2 s; the
	// configured skew is 0).
	var claims struct{ Exp int64 }
	payload, _ := base64.RawURLEncoding.DecodeString(strings.Split(short, ".")[1])
	json.Unmarshal(payload, &claims)
	time.Sleep(time.Until(time.Unix(claims.Exp+1, 0)))

	tests := []struct {
		name      string
		token     string
		want      int
		challenge string
	}{
		{"valid", good, http.StatusOK, ""},
		{"wrong audience", get(idp.issuerA, "warden-admin", all, "https://other.test/mcp"), http.StatusUnauthorized, `error="invalid_token"`},
		{"expired", short, http.StatusUnauthorized, `error="invalid_token"`},
		{"wrong issuer, same key", get(idp.issuerB, "warden-admin", all, testResource), http.StatusUnauthorized, `error="invalid_token"`},
		{"bad signature", forged, http.StatusUnauthorized, `error="invalid_token"`},
		{"ID token as access token", idToken, http.StatusUnauthorized, `error="invalid_token"`},
		{"no warden scope", get(idp.issuerA, "warden-admin", "other:thing", testResource), http.StatusForbidden, `error="insufficient_scope"`},
		{"no token", "", http.StatusUnauthorized, `resource_metadata="https://warden.test/.well-known/oauth-protected-resource"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := map[string]string{}
			if tc.token != "" {
				h["Authorization"] = "Bearer " + tc.token
			}
			code, www := postChallenge(t, s.url, h)
			if code != tc.want {
				t.Errorf("status %d, want %d", code, tc.want)
			}
			if !strings.Contains(www, tc.challenge) || (tc.want != 200 && !strings.Contains(www, "resource_metadata=")) {
				t.Errorf("WWW-Authenticate %q, want it to contain %q and resource_metadata", www, tc.challenge)
			}
		})
	}

	// RFC 9728 metadata names the resource and the issuer.
	resp, err = http.Get(strings.TrimSuffix(s.url, "/mcp") + "/.well-known/oauth-protected-resource")
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
		ScopesSupported      []string `json:"scopes_supported"`
	}
	json.NewDecoder(resp.Body).Decode(&md)
	resp.Body.Close()
	if md.Resource != testResource || len(md.AuthorizationServers) != 1 || md.AuthorizationServers[0] != idp.issuerA || len(md.ScopesSupported) != 3 {
		t.Errorf("metadata %+v", md)
	}

	// The SDK client completes calls with tokens it obtains itself.
	connect := func(client, scope string) *mcp.ClientSession {
		ts := clientConfig(idp.issuerA, client, scope, testResource).TokenSource(context.Background())
		c := mcp.NewClient(&mcp.Implementation{Name: "oauth-e2e", Version: "1"}, nil)
		cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{
			Endpoint: s.url, HTTPClient: oauth2.NewClient(context.Background(), ts), MaxRetries: -1,
		}, nil)
		if err != nil {
			t.Fatalf("connect as %s: %v", client, err)
		}
		t.Cleanup(func() { cs.Close() })
		return cs
	}
	marker := filepath.Join(t.TempDir(), "m")
	admin := connect("warden-admin", all)
	if res, got := callTool(t, admin, "run_command", map[string]any{"command": "echo via-oauth"}); res.IsError || got["stdout"] != "via-oauth\n" {
		t.Fatalf("OAuth call: %s", text(res))
	}
	reader := connect("warden-reader", "warden:read")
	if res, got := callTool(t, reader, "run_command", map[string]any{"command": "touch " + marker}); got["status"] != "denied" {
		t.Errorf("warden:read ran a tier 2 command: %s", text(res))
	}
	if exists(marker) {
		t.Fatal("the refused command ran")
	}
	if res, got := callTool(t, admin, "run_command", map[string]any{"command": "touch " + marker}); got["status"] != "ok" {
		t.Errorf("warden:admin refused a tier 2 command in open mode: %s", text(res))
	}
	ids := map[string]bool{}
	for _, r := range auditLines(t, state) {
		ids[r["identity"].(string)] = true
	}
	if !ids["oauth:warden-admin"] || !ids["oauth:warden-reader"] {
		t.Errorf("OAuth subjects not audited: %v", ids)
	}
	if strings.Contains(s.stderr.String(), parts[2]) {
		t.Error("a token's signature reached the log")
	}
}

func looksJWT(s string) bool { return strings.Count(s, ".") == 2 && strings.HasPrefix(s, "eyJ") }

// postChallenge posts an initialize and returns the status and the
// WWW-Authenticate header.
func postChallenge(t *testing.T, url string, header map[string]string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest("POST", url, strings.NewReader(initializeBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Header.Get("WWW-Authenticate")
}
