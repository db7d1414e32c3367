package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestHostShellIsTheClassifiers: an SSH host's configured shell runs
// run_command's text, and the classifier reads it as that shell does. In
// readonly mode, text that bash reads as read-only but zsh runs code for
// (a glob qualifier, an unbraced subscript's arithmetic, a value globbed
// with $~) is refused on a host whose shell is zsh, and nothing it would
// write lands; a read stays admitted there. On a host whose shell is fish,
// whose grammar the classifier does not read, nothing is admitted
// unapproved.
func TestHostShellIsTheClassifiers(t *testing.T) {
	zsh := shellOrSkip(t, "zsh")
	fish := shellOrSkip(t, "fish")
	key := sshd.NewKey(t)
	srv := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	dir := userDir(t)
	mark := func(n int) string { return filepath.Join(dir, fmt.Sprintf("m%d", n)) }
	for name, text := range map[string]string{
		"sub":  "a[$(touch " + mark(2) + ")]",
		"glob": dir + "/*(e:'touch " + mark(3) + "':)",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + known + "\n  connect_timeout: 5s\n")
	cfg.WriteString("hosts:\n")
	for name, shell := range map[string]string{"z": zsh, "f": fish} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    shell: %s\n",
			name, srv.Host, srv.Port, sshUser, key.Path, shell)
	}
	path := filepath.Join(home, "warden.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	env, state := wardenEnv(t, "WARDEN_MODE=readonly", "WARDEN_CONFIG="+path)
	s := startStdio(t, env, state, nil)
	run := func(host, command string) map[string]any {
		t.Helper()
		_, got := callTool(t, s.cs, "run_command", map[string]any{"host": host, "command": command})
		return got
	}

	got := run("z", "echo $ZSH_VERSION; ls "+dir)
	if got["status"] != "ok" || strings.TrimSpace(strings.Split(got["stdout"].(string), "\n")[0]) == "" {
		t.Fatalf("a read on the zsh host: %v; want it run by zsh", got)
	}
	for i, cmd := range []string{
		"ls " + dir + "/*(e:'touch " + mark(1) + "':)",
		"a=(1 2); x=$(cat " + dir + "/sub); echo $a[$x]",
		"x=$(cat " + dir + "/glob); ls $~x",
		"ls " + dir + "/*(+f)",
	} {
		got := run("z", cmd)
		if got["status"] == "ok" {
			t.Errorf("%q on the zsh host was run in readonly mode: %v", cmd, got)
		}
		if _, err := os.Stat(mark(i + 1)); err == nil {
			t.Errorf("%q on the zsh host wrote %s", cmd, mark(i+1))
		}
	}

	got = run("f", "echo hi")
	if got["status"] != "denied" || !strings.Contains(fmt.Sprint(got["reason"]), "not a POSIX shell") {
		t.Errorf("a command on the fish host: %v; want it refused, its shell not read", got)
	}
}
