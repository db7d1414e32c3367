package server

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/confine/confinetest"
)

// TestOwnPathsHoldEverySecretFile: each file whose content is one of
// warden's secrets is among the paths no child may reach.
func TestOwnPathsHoldEverySecretFile(t *testing.T) {
	cfg := &config.Config{StateDir: "/var/lib/warden"}
	cfg.Audit.Path = "/var/log/warden/audit.jsonl"
	cfg.Audit.KeyFile = "/etc/warden/audit.key"
	cfg.HTTP.TokenFile = "/etc/warden/token"
	cfg.HTTP.TLSKeyFile = "/etc/warden/tls.key"
	cfg.Audit.Export = []config.AuditExport{{KeyFile: "/etc/warden/otlp-client.key"}, {KeyFile: "/etc/warden/syslog-client.key"}}
	got := ownPaths(cfg, "/etc/warden/config.yaml")
	for _, want := range []string{"/var/lib/warden", "/var/log/warden/audit.jsonl", "/etc/warden/config.yaml", "/etc/warden/audit.key",
		"/etc/warden/token", "/etc/warden/tls.key", "/etc/warden/otlp-client.key", "/etc/warden/syslog-client.key"} {
		if !slices.Contains(got, want) {
			t.Errorf("ownPaths lacks %s: %v", want, got)
		}
	}
}

// TestPrivateKeys: the keys kept from reads are the identity files that
// exist, of every inventory host and its jump hosts, ssh's default keys in
// HOME, and the agent's socket; nothing that is missing, nor a file named
// as the agent's socket that is not one.
func TestPrivateKeys(t *testing.T) {
	dir, home := t.TempDir(), t.TempDir()
	file := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("key\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	nas, jump := file(filepath.Join(dir, "nas")), file(filepath.Join(dir, "jump"))
	def := file(filepath.Join(home, ".ssh", "id_ed25519"))
	// Copies beside a key hold it; its public half does not.
	copies := []string{file(def + ".bak"), file(filepath.Join(home, ".ssh", "old_id_ed25519")), file(nas + "~")}
	pub := file(def + ".pub")
	sock := filepath.Join(dir, "agent.sock")
	confinetest.Agent(t, sock, "agent")
	// The jump host is known only by a pattern of ssh_config, so only the
	// hop names its key.
	sshConfig := file(filepath.Join(dir, "ssh_config"))
	if err := os.WriteFile(sshConfig, []byte("Host bastion-*\n  IdentityFile "+jump+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := &config.Config{SSH: config.SSH{Config: sshConfig}, Hosts: []config.Host{
		{Name: "nas", Address: "192.0.2.2", IdentityFiles: []string{nas, filepath.Join(dir, "missing")}, ProxyJump: "bastion-1"},
	}}
	env := map[string]string{"HOME": home, "SSH_AUTH_SOCK": sock, "USER": "u"}
	got := privateKeys(cfg, Options{Getenv: func(k string) string { return env[k] }})
	for _, want := range append([]string{nas, jump, def, sock}, copies...) {
		if !slices.Contains(got, want) {
			t.Errorf("privateKeys lacks %s: %v", want, got)
		}
	}
	if slices.Contains(got, filepath.Join(dir, "missing")) || slices.Contains(got, filepath.Join(home, ".ssh", "id_rsa")) {
		t.Errorf("privateKeys lists a file that does not exist: %v", got)
	}
	if slices.Contains(got, pub) {
		t.Errorf("privateKeys lists a public key: %v", got)
	}
	// A socket that is not one is no agent.
	env["SSH_AUTH_SOCK"] = nas
	if got := privateKeys(&config.Config{SSH: config.SSH{Config: "none"}}, Options{Getenv: func(k string) string { return env[k] }}); slices.Contains(got, nas) {
		t.Errorf("a regular file named as the agent's socket was listed: %v", got)
	}
}

// TestGrowingDirs: the audit log's directory is one warden adds files to
// only when it lies outside the state dir, which is covered whole.
func TestGrowingDirs(t *testing.T) {
	cfg := &config.Config{StateDir: "/var/lib/warden"}
	for path, want := range map[string][]string{
		"/var/lib/warden/audit.jsonl":     nil,
		"/var/lib/warden/log/audit.jsonl": nil,
		"/var/log/warden/audit.jsonl":     {"/var/log/warden"},
		"/var/lib/warden-log/audit.jsonl": {"/var/lib/warden-log"},
		"":                                nil,
	} {
		cfg.Audit.Path = path
		if got := growingDirs(cfg); !slices.Equal(got, want) {
			t.Errorf("audit log %q: growing %v, want %v", path, got, want)
		}
	}
}

// TestReloadKeepsNewKeysFromReads: a host added by a reload logs in with
// a key reads could read before; from the reload on they cannot.
func TestReloadKeepsNewKeysFromReads(t *testing.T) {
	key := filepath.Join(t.TempDir(), "new_host_key")
	if err := os.WriteFile(key, []byte("canary-2f9e-reloaded-key\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	yml := "mode: open\nssh:\n  config: none\n"
	w, c := assemble(t, yml)
	if !w.conf.Status().Active {
		t.Skipf("confinement not active here: %s", w.conf.Status().Mechanism)
	}
	cs := connect(t, w)
	read := func() string {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": "cat " + key}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		return string(b)
	}
	if !strings.Contains(read(), "canary-2f9e") {
		t.Fatal("control: the key is not readable before any host names it")
	}
	c2, err := config.Parse("test", []byte(yml+"hosts:\n  - {name: nas, address: 192.0.2.2, identity_files: ["+key+"]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	c2.StateDir = c.StateDir
	if err := c2.Finish("/root", ""); err != nil {
		t.Fatal(err)
	}
	if err := w.Reload(c2, ""); err != nil {
		t.Fatal(err)
	}
	if out := read(); strings.Contains(out, "canary-2f9e") {
		t.Errorf("after the reload a read still reads the new host's key: %s", out)
	}
}
