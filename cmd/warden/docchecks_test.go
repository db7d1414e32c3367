package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"go.yaml.in/yaml/v3"

	"github.com/warden-mcp/warden/internal/tools/host"
	"github.com/warden-mcp/warden/internal/tools/packs"
)

// pack loads a doc's appliance pack as an operator's packs.files entry:
// warden config check accepts it there, and packs.Load (what serve
// calls, internal/server/packs.go) serves a pack of its name.
func (sb *docSandbox) pack(t *testing.T, where, body string) {
	t.Helper()
	p := sb.file(t, "pack.yaml", body)
	cfg := sb.file(t, "warden.yaml", "packs:\n  files: ["+p+"]\n")
	if _, errOut, code := runBin(t, sb.env, "config", "check", cfg); code != 0 {
		t.Errorf("%s: warden config check refuses the pack as packs.files (exit %d):\n%s", where, code, errOut)
	}
	all, err := packs.Load(packs.Options{Files: []string{p}})
	if err != nil {
		t.Errorf("%s: the pack does not load as a packs.files entry:\n%v", where, err)
		return
	}
	var doc struct {
		Name string `yaml:"name"`
	}
	if err := yaml.Unmarshal([]byte(body), &doc); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	for _, pk := range all {
		if pk.Name == doc.Name {
			return
		}
	}
	t.Errorf("%s: pack %q is not among the loaded packs", where, doc.Name)
}

// output checks a doc's result of tool against the output schema the
// binary lists for it (with "status": "ok" when the doc shows the tool's
// own part of the result, without the relay's status).
func (sb *docSandbox) output(t *testing.T, where, tool, body string) {
	t.Helper()
	if sb.tools == nil {
		cs := sb.client(t, "serve")
		if cs == nil {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		res, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		sb.tools = map[string]*mcp.Tool{}
		for _, tl := range res.Tools {
			sb.tools[tl.Name] = tl
		}
	}
	tl, ok := sb.tools[tool]
	if !ok || tl.OutputSchema == nil {
		t.Errorf("%s: the binary lists no tool %s with an output schema", where, tool)
		return
	}
	b, err := json.Marshal(tl.OutputSchema)
	if err != nil {
		t.Fatal(err)
	}
	var schema jsonschema.Schema
	if err := json.Unmarshal(b, &schema); err != nil {
		t.Fatal(err)
	}
	rs, err := schema.Resolve(nil)
	if err != nil {
		t.Fatalf("%s: %s's output schema: %v", where, tool, err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(body), &v); err != nil {
		t.Errorf("%s: not JSON: %v", where, err)
		return
	}
	if newT, ok := outputTypes[tool]; ok {
		// The schema leaves objects open; the tool's own type does not.
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(newT()); err != nil {
			t.Errorf("%s: not a %s result: %v", where, tool, err)
		}
	}
	if _, ok := v["status"]; !ok {
		// A tool's own result, as its package's tests print it: the relay
		// adds the status every result carries.
		v["status"] = "ok"
	}
	if err := rs.Validate(v); err != nil {
		t.Errorf("%s: not a %s result by its output schema: %v", where, tool, err)
	}
}

// outputTypes are the Go types of tools' own results, for a check
// stricter than their open output schemas.
var outputTypes = map[string]func() any{
	"firewall_diagnose": func() any { return new(host.Diagnosis) },
}

// client starts the binary with args as an MCP client configuration
// would and connects the SDK client over stdio (nil, reported, when it
// cannot).
func (sb *docSandbox) client(t *testing.T, args ...string) *mcp.ClientSession {
	t.Helper()
	cmd := exec.Command(wardenBin, args...)
	cmd.Env = sb.env
	stderr := &syncBuffer{}
	cmd.Stderr = stderr
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "docs", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	if err != nil {
		t.Errorf("warden %v over stdio: %v\n%s", args, err, stderr)
		return nil
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// clientConfig checks an MCP client's entry for warden: an mcpServers
// JSON object, or claude mcp add lines.
func (sb *docSandbox) clientConfig(t *testing.T, where, body string) {
	t.Helper()
	if json.Valid([]byte(body)) {
		var cfg struct {
			MCPServers map[string]struct {
				Command string            `json:"command"`
				Args    []string          `json:"args"`
				URL     string            `json:"url"`
				Headers map[string]string `json:"headers"`
			} `json:"mcpServers"`
		}
		dec := json.NewDecoder(strings.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&cfg); err != nil || len(cfg.MCPServers) == 0 {
			t.Errorf("%s: not an mcpServers entry: %v", where, err)
			return
		}
		for name, s := range cfg.MCPServers {
			switch {
			case s.Command != "":
				sb.stdioEntry(t, where+" "+name, s.Command, s.Args)
			case s.URL != "":
				if len(s.Headers) != 1 || s.Headers["Authorization"] == "" {
					t.Errorf("%s: %s: headers %v; warden takes one, Authorization", where, name, s.Headers)
					continue
				}
				auth := "Authorization: " + s.Headers["Authorization"]
				sb.httpEntry(t, where+" "+name, s.URL, auth, func(token, _ string) string {
					return strings.ReplaceAll(auth, "<token>", token)
				})
			default:
				t.Errorf("%s: %s has neither command nor url", where, name)
			}
		}
		return
	}
	n := 0
	for _, line := range strings.Split(strings.ReplaceAll(body, "\\\n", " "), "\n") {
		words := shellWords(line)
		if len(words) < 4 || strings.Join(words[:3], " ") != "claude mcp add" {
			continue
		}
		n++
		if i := indexOf(words, "--"); i >= 0 {
			sb.stdioEntry(t, where, words[i+1], words[i+2:])
			continue
		}
		var u, header string
		for i := 3; i < len(words); i++ {
			switch {
			case words[i] == "--transport" || words[i] == "--header":
				if i+1 < len(words) {
					if words[i] == "--header" {
						header = words[i+1]
					} else if words[i+1] != "http" {
						t.Errorf("%s: transport %q; warden serves streamable HTTP", where, words[i+1])
					}
				}
				i++
			case strings.Contains(words[i], "://"):
				u = words[i]
			}
		}
		printed := sb.httpEntry(t, where, u, header, func(token, tokenFile string) string { return header })
		if strings.Contains(header, "$(cat ") && printed != strings.TrimSpace(line) {
			t.Errorf("%s: %q is not the connect line warden serve --http prints:\n%q", where, strings.TrimSpace(line), printed)
		}
	}
	if n == 0 {
		t.Errorf("%s: a client-config block with no mcpServers JSON and no claude mcp add line", where)
	}
}

// stdioEntry starts the entry's command (which must be warden) with its
// arguments and lists the tools over stdio.
func (sb *docSandbox) stdioEntry(t *testing.T, where, command string, args []string) {
	t.Helper()
	if !wardenWord.MatchString(command) {
		t.Errorf("%s: the command is %q, not warden", where, command)
		return
	}
	cs := sb.client(t, args...)
	if cs == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.ListTools(ctx, nil)
	if err != nil || len(res.Tools) == 0 {
		t.Errorf("%s: warden %v serves no tools over stdio: %v", where, args, err)
	}
}

// httpEntry starts warden serve --http on loopback and sends an MCP
// initialize to the entry's URL path (on the server's port) with the
// Authorization header the entry names, filled in as the shell would:
// $(cat FILE) is the token file serve wrote under HOME when FILE is
// that file, $VAR is the token given to warden in VAR, and fill maps
// what is left. The header must be needed (401 without) and sufficient.
// It returns the connect line serve printed, with the entry's URL for the
// server's and ~ for HOME.
func (sb *docSandbox) httpEntry(t *testing.T, where, rawURL, header string, fill func(token, tokenFile string) string) (printed string) {
	t.Helper()
	u, err := url.Parse(rawURL)
	if err != nil || u.Scheme != "http" || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") {
		t.Errorf("%s: %q is not a loopback http URL (serve --http binds loopback)", where, rawURL)
		return ""
	}
	home := t.TempDir()
	env := []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=" + home}
	token := ""
	value := strings.TrimPrefix(header, "Authorization: ")
	if v, ok := strings.CutPrefix(value, "Bearer $"); ok && !strings.HasPrefix(v, "(") {
		token = testToken
		env = append(env, v+"="+token)
	} else {
		// The state dir is the default under HOME, as the docs' reader has it.
		t.Cleanup(func() { os.RemoveAll(filepath.Join(home, ".local")) })
	}
	s := startHTTP(t, env, filepath.Join(home, ".local", "state", "warden"))
	served, err := url.Parse(s.url)
	if err != nil {
		t.Fatal(err)
	}
	if u.Path != served.Path {
		t.Errorf("%s: path %q; warden serves MCP at %q", where, u.Path, served.Path)
	}
	tokenFile := ""
	deadline := time.Now().Add(10 * time.Second)
	for token == "" && time.Now().Before(deadline) {
		for _, l := range strings.Split(s.stderr.String(), "\n") {
			if f, ok := strings.CutPrefix(l, "warden: bearer token in "); ok {
				tokenFile = f
			}
			if c, ok := strings.CutPrefix(l, "warden: connect with: "); ok {
				printed = strings.ReplaceAll(strings.ReplaceAll(c, s.url, rawURL), home, "~")
			}
		}
		if tokenFile != "" && printed != "" {
			b, err := os.ReadFile(tokenFile)
			if err != nil {
				t.Fatal(err)
			}
			token = strings.TrimSpace(string(b))
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	got := fill(token, tokenFile)
	if f, ok := strings.CutPrefix(got, "Authorization: Bearer $(cat "); ok {
		f = strings.Replace(strings.TrimSuffix(f, ")"), "~", home, 1)
		if f != tokenFile {
			t.Errorf("%s: the header reads %s; warden serve wrote its token to %s", where, f, tokenFile)
		}
		got = "Authorization: Bearer " + token
	} else if strings.HasPrefix(got, "Authorization: Bearer $") {
		got = "Authorization: Bearer " + token
	}
	k, v, ok := strings.Cut(got, ": ")
	if !ok {
		t.Errorf("%s: header %q is not NAME: VALUE", where, header)
		return printed
	}
	target := served.Scheme + "://" + served.Host + u.Path
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"docs","version":"1"}}}`
	if code, _ := rawPost(t, target, init, nil); code != http.StatusUnauthorized {
		t.Errorf("%s: without the header %s answers %d, want 401", where, target, code)
	}
	if code, resp := rawPost(t, target, init, map[string]string{k: v}); code != http.StatusOK || !bytes.Contains([]byte(resp), []byte(`"serverInfo"`)) {
		t.Errorf("%s: initialize at %s with the header: %d %s", where, target, code, resp)
	}
	return printed
}

// shellWords splits a line into words as sh would for the simple lines
// the docs show: blanks separate, quotes group, no expansion.
func shellWords(line string) []string {
	var out []string
	var cur strings.Builder
	in, quote := false, byte(0)
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote, in = c, true
		case c == ' ' || c == '\t':
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteByte(c)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}

func indexOf(words []string, w string) int {
	for i, x := range words {
		if x == w {
			return i
		}
	}
	return -1
}

// generatedElsewhere checks that a block another package's test writes
// names a test there that knows the doc.
func generatedElsewhere(t *testing.T, where, doc, test, pkg string) {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("../..", pkg, "*_test.go"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(b, []byte("func "+test+"(")) {
			if !bytes.Contains(b, []byte(filepath.Base(doc))) {
				t.Errorf("%s: %s (%s) does not name %s", where, test, f, filepath.Base(doc))
			}
			return
		}
	}
	t.Errorf("%s: no %s in %s", where, test, pkg)
}
