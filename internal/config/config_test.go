package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func finish(t *testing.T, yml string, env map[string]string) (*Config, error) {
	t.Helper()
	var data []byte
	if yml != "" {
		data = []byte(yml)
	}
	c, err := Parse("test.yaml", data)
	if err != nil {
		return nil, err
	}
	c.Env(func(k string) string { return env[k] })
	return c, c.Finish("/home/u", "")
}

// read is how cmd/warden reads a config: file, environment, validation.
func read(t *testing.T, yml string, env map[string]string) (*Config, error) {
	t.Helper()
	path := ""
	if yml != "" {
		path = filepath.Join(t.TempDir(), "test.yaml")
		if err := os.WriteFile(path, []byte(yml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	c, err := Read(path, func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return env[k]
	}, nil)
	if err != nil && path != "" {
		// Name the file as the cases do, wherever the test put it.
		return nil, errors.New(strings.ReplaceAll(err.Error(), path, "test.yaml"))
	}
	if err != nil {
		return nil, err
	}
	return c, nil
}

func TestDefaultIsValid(t *testing.T) {
	c, err := finish(t, "", nil)
	if err != nil {
		t.Fatalf("embedded default: %v", err)
	}
	if got, want := c.Mode, "guarded"; got != want {
		t.Errorf("mode = %q, want %q", got, want)
	}
	if got, want := c.StateDir, "/home/u/.local/state/warden"; got != want {
		t.Errorf("state_dir = %q, want %q", got, want)
	}
	if got, want := c.Audit.Path, "/home/u/.local/state/warden/audit.jsonl"; got != want {
		t.Errorf("audit.path = %q, want %q", got, want)
	}
	if got, want := c.Exec.DefaultMaxBytes, 64<<10; got != want {
		t.Errorf("default_max_bytes = %d, want %d", got, want)
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		yml  string
		env  map[string]string
		want []string // substrings of the error
	}{
		{"unknown top key", "mode: open\nbogus: 1\n", nil, []string{"test.yaml:2: bogus: unknown key"}},
		{"unknown nested key", "http:\n  addr: 127.0.0.1:1\n  tokn: x\n", nil, []string{"test.yaml:3: http.tokn: unknown key; did you mean \"token\"?"}},
		{"bad mode", "mode: yolo\n", nil, []string{"mode", "yolo"}},
		{"bad confinement", "confinement: maybe\n", nil, []string{"confinement", "maybe"}},
		{"bad env confinement", "", map[string]string{"WARDEN_CONFINEMENT": "off"}, []string{"confinement", "off"}},
		{"relative writable", "confine:\n  writable: [srv]\n", nil, []string{"confine.writable", "srv"}},
		{"pack tool name", "packs:\n  disable: [\"rm -rf\"]\n", nil, []string{"packs.disable[0]", "not a tool name"}},
		{"empty pack file", "packs:\n  files: [\"\"]\n", nil, []string{"packs.files[0]", "empty"}},
		{"host deny regex", "hosts:\n  - name: router\n    deny: [\"(\"]\n", nil, []string{"hosts[0].deny[0]", "regular expression"}},
		{"writable root", "confine:\n  tools:\n    run_script: {writable: [/]}\n", nil, []string{"confine.tools.run_script.writable"}},
		{"bad env mode", "", map[string]string{"WARDEN_MODE": "root"}, []string{"mode", "root"}},
		{"short token", "", map[string]string{"WARDEN_TOKEN": "short"}, []string{"http.token", "16"}},
		{"non-loopback", "http:\n  addr: 0.0.0.0:8787\n", nil, []string{"http.addr", "allow_non_loopback"}},
		{"bad duration", "exec:\n  default_timeout: soon\n", nil, []string{"test.yaml:2: exec.default_timeout: \"soon\" is not a duration"}},
		{"ceiling", "exec:\n  max_bytes: 99999999\n", nil, []string{"exec.max_bytes", "ceiling"}},
		{"default above max", "exec:\n  default_max_bytes: 3000000\n", nil, []string{"exec."}},
		{"timeout order", "exec:\n  max_timeout: 1s\n", nil, []string{"exec.max_timeout"}},
		{"waiting looks", "exec:\n  max_waiting_looks: 20000\n", nil, []string{"exec.max_waiting_looks", "10,000"}},
		{"no waiting looks", "exec:\n  max_waiting_looks: 0\n", nil, []string{"exec.max_waiting_looks"}},
		{"approval mech", "approval:\n  tier3: wave\n", nil, []string{"approval.tier3", "wave"}},
		{"audit sync", "audit:\n  sync: sometimes\n", nil, []string{"audit.sync"}},
		{"env name", "exec:\n  env_passthrough: ['A B']\n", nil, []string{"env_passthrough"}},
		{"host dash", "hosts:\n  - name: -oProxyCommand=x\n", nil, []string{"hosts[0].name"}},
		{"host shell relative", "hosts:\n  - name: nas\n    shell: sh\n", nil, []string{"hosts[0].shell"}},
		{"tool mode", "policy:\n  tool_modes: {run_command: wild}\n", nil, []string{"policy.tool_modes.run_command"}},
		{"classify timeout short", "policy:\n  classify_timeout: 10ms\n", nil, []string{"policy.classify_timeout", "between 1s and 5m"}},
		{"classify timeout long", "policy:\n  classify_timeout: 1h\n", nil, []string{"policy.classify_timeout"}},
		{"group dash", "groups:\n  - name: -x\n    hosts: [a]\n", nil, []string{"groups[0].name"}},
		{"group is a host", "hosts:\n  - name: nas\n    address: 10.0.0.2\ngroups:\n  - name: nas\n    hosts: [nas]\n", nil, []string{"groups[0].name", "name of a host"}},
		{"group empty", "groups:\n  - name: web\n    hosts: []\n", nil, []string{"groups[0].hosts"}},
		{"group member dash", "groups:\n  - name: web\n    hosts: [-oProxyCommand=x]\n", nil, []string{"groups[0].hosts"}},
		{"host files relative", "hosts:\n  - name: nas\n    files: {allow_roots: [srv]}\n", nil, []string{"hosts[0].files"}},
		{"host files transport", "hosts:\n  - name: nas\n    files_transport: scp\n", nil, []string{"hosts[0].files_transport"}},
		{"host agent", "hosts:\n  - name: nas\n    agent: yes\n", nil, []string{"hosts[0].agent"}},
		{"forwards max", "ssh:\n  forwards: {max: 0}\n", nil, []string{"ssh.forwards.max"}},
		{"prestart negative", "ssh:\n  prestart: -1s\n", nil, []string{"ssh.prestart"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.yml, tc.env)
			if err == nil {
				t.Fatalf("got no error, want one mentioning %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestPrecedenceAndMasking(t *testing.T) {
	c, err := finish(t, "mode: readonly\nhttp:\n  token: file-token-0123456789\n",
		map[string]string{"WARDEN_MODE": "open", "WARDEN_TOKEN": "env-token-0123456789", "WARDEN_STATE_DIR": "/srv/w"})
	if err != nil {
		t.Fatal(err)
	}
	if c.Mode != "open" || c.HTTP.Token != "env-token-0123456789" || c.StateDir != "/srv/w" {
		t.Errorf("env did not override file: mode=%q token=%q state=%q", c.Mode, c.HTTP.Token, c.StateDir)
	}
	out, err := c.Masked()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(out), "env-token") {
		t.Errorf("masked output leaks the token:\n%s", out)
	}
	if !strings.Contains(string(out), "mode: open") {
		t.Errorf("masked output lacks the effective mode:\n%s", out)
	}
}

func FuzzParse(f *testing.F) {
	f.Add([]byte("mode: open\n"))
	f.Add(Default)
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Parse("fuzz", data)
		if err == nil {
			_ = c.Finish("/h", "")
		}
	})
}
