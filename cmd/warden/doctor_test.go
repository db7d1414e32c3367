package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/runner/landlock"
	"github.com/warden-mcp/warden/internal/sshd"
)

var updateGolden = flag.Bool("update", false, "rewrite golden files under testdata/")

// doctorMachine is a state dir with a token file and an audit log of a
// few real records, and a config whose exec.path is bin.
type doctorMachine struct {
	state, bin, config string
	env                []string
}

func newDoctorMachine(t *testing.T, sandboxes bool) *doctorMachine {
	t.Helper()
	if err := landlock.Available(false); err != nil {
		if os.Getenv("WARDEN_REQUIRE_LANDLOCK") == "1" {
			t.Fatalf("landlock required: %v", err)
		}
		t.Skipf("the goldens are of a machine with Landlock: %v", err)
	}
	m := &doctorMachine{bin: t.TempDir()}
	if sandboxes {
		for _, name := range []string{"bwrap", "firejail", "docker"} {
			p, err := exec.LookPath(name)
			if err != nil {
				if os.Getenv("WARDEN_REQUIRE_"+strings.ToUpper(name)) == "1" {
					t.Fatalf("%s required but not found", name)
				}
				t.Skipf("%s is not installed", name)
			}
			if err := os.Symlink(p, filepath.Join(m.bin, name)); err != nil {
				t.Fatal(err)
			}
		}
	}
	m.config = writeFile(t, "ssh:\n  config: none\nexec:\n  path: "+m.bin+"\n")
	m.env, m.state = wardenEnv(t, "WARDEN_CONFIG="+m.config)
	if _, _, err := edge.LoadOrCreateToken(m.state); err != nil {
		t.Fatal(err)
	}
	for range 3 {
		if _, errOut, code := runBin(t, m.env, "exe", "server_info"); code != 0 {
			t.Fatalf("exe server_info: exit %d: %s", code, errOut)
		}
	}
	return m
}

// normalise replaces what differs between runs and machines: paths,
// digests, the confinement mechanism (checked against server_info
// separately), Landlock's gaps and the docker daemon's state.
func (m *doctorMachine) normalise(out string) string {
	out = strings.NewReplacer(m.state, "$STATE", m.config, "$CONFIG", m.bin, "$BIN").Replace(out)
	for _, r := range []struct{ re, with string }{
		{`sha256:[0-9a-f]{64}`, "sha256:$$DIGEST"},
		{`(?m)^(ok +confinement +)\S+$`, "${1}$$MECHANISM"},
		{`(?m)^ +gap: .*\n`, ""},
		{`\(daemon [^)]*\)`, "(daemon $$DOCKERD)"},
	} {
		out = regexp.MustCompile(r.re).ReplaceAllString(out, r.with)
	}
	return out
}

func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "doctor", name+".golden")
	if *updateGolden {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run TestDoctor -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("warden doctor differs from %s (go test -update rewrites it):\n got:\n%s\nwant:\n%s", path, got, want)
	}
}

// TestDoctorGolden runs warden doctor on this machine with the sandboxes
// in exec.path and without, on a healthy state dir and on one whose
// modes are loose and whose audit log was edited.
func TestDoctorGolden(t *testing.T) {
	tests := []struct {
		name      string
		sandboxes bool
		spoil     func(t *testing.T, m *doctorMachine)
		code      int
	}{
		{"sandboxes", true, nil, 0},
		{"no-sandboxes", false, nil, 0},
		{"loose-modes-edited-audit", true, func(t *testing.T, m *doctorMachine) {
			chmod(t, m.state, 0o755)
			chmod(t, filepath.Join(m.state, "token"), 0o644)
			log := filepath.Join(m.state, "audit.jsonl")
			b, err := os.ReadFile(log)
			if err != nil {
				t.Fatal(err)
			}
			b = []byte(strings.Replace(string(b), `"tool":"server_info"`, `"tool":"server_inf0"`, 1))
			if err := os.WriteFile(log, b, 0o600); err != nil {
				t.Fatal(err)
			}
		}, 1},
		{"invalid-config", false, func(t *testing.T, m *doctorMachine) {
			if err := os.WriteFile(m.config, []byte("mode: yolo\npolicy:\n  deny: ['(']\n"), 0o600); err != nil {
				t.Fatal(err)
			}
		}, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m := newDoctorMachine(t, tc.sandboxes)
			if tc.spoil != nil {
				tc.spoil(t, m)
			}
			out, errOut, code := runBin(t, m.env, "doctor")
			if code != tc.code {
				t.Errorf("exit %d, want %d; stderr: %s", code, tc.code, errOut)
			}
			checkGolden(t, tc.name, m.normalise(out))
		})
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

// TestDoctorConfinementIsTheServers: what doctor says about confinement
// is what a server on this machine reports in server_info.
func TestDoctorConfinementIsTheServers(t *testing.T) {
	env, state := wardenEnv(t)
	out, _, _ := runBin(t, env, "doctor")
	line := regexp.MustCompile(`(?m)^(\w+) +confinement +(.*)$`).FindStringSubmatch(out)
	if line == nil {
		t.Fatalf("no confinement line:\n%s", out)
	}
	s := startStdio(t, env, state, nil)
	_, info := callTool(t, s.cs, "server_info", map[string]any{})
	conf, _ := info["confinement"].(map[string]any)
	mech, _ := conf["mechanism"].(string)
	if active, _ := conf["active"].(bool); active {
		if line[1] != "ok" || line[2] != mech {
			t.Errorf("doctor: %s %q; server_info: active, %q", line[1], line[2], mech)
		}
	} else if line[1] == "ok" || !strings.Contains(line[2], strings.TrimPrefix(mech, "none: ")) {
		t.Errorf("doctor: %s %q; server_info: inactive, %q", line[1], line[2], mech)
	}
}

// TestDoctorConfigDrift: given a running server's URL, doctor says whether
// it runs the config on disk: yes at start, no after the file is edited,
// yes again once the server reloaded it on SIGHUP.
func TestDoctorConfigDrift(t *testing.T) {
	path := writeFile(t, "mode: guarded\n")
	env, state := wardenEnv(t, "WARDEN_CONFIG="+path)
	s := startHTTP(t, env, state)
	doctor := func() (string, int) {
		out, _, code := runBin(t, env, "doctor", "--url", s.url)
		m := regexp.MustCompile(`(?m)^\w+ +server +.*$`).FindString(out)
		return m, code
	}
	line, code := doctor()
	if want := fmt.Sprintf("ok    server       %s runs %s as on disk (sha256:", s.url, path); code != 0 || !strings.HasPrefix(line, want) {
		t.Fatalf("at start: exit %d, %q; want %q…", code, line, want)
	}
	if err := os.WriteFile(path, []byte("mode: readonly\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	line, code = doctor()
	if want := fmt.Sprintf("fail  server       %s runs another config (sha256:", s.url); code != 1 || !strings.HasPrefix(line, want) {
		t.Fatalf("after the edit: exit %d, %q; want %q…", code, line, want)
	}
	if err := s.cmd.Process.Signal(syscall.SIGHUP); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for {
		if line, code = doctor(); code == 0 {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("after SIGHUP: still %q", line)
		}
		time.Sleep(200 * time.Millisecond)
	}
	// A wrong token is a failure that says so, not a hang.
	out, _, code := runBin(t, append(env, "WARDEN_TOKEN=wrong-token-0123456789"), "doctor", "--url", s.url)
	if code != 1 || !strings.Contains(out, "fail  server       cannot connect to "+s.url) {
		t.Errorf("wrong token: exit %d:\n%s", code, out)
	}
}

// TestDoctorSSHHosts: doctor connects to every inventory host, bounded,
// and says which answers with a known key and a working login, which
// offers a key known_hosts does not list (and adds nothing to it), and
// which does not answer.
func TestDoctorSSHHosts(t *testing.T) {
	key := sshd.NewKey(t)
	known := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	stranger := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	down := sshd.Start(t, sshd.Options{User: sshUser, UserKey: key})
	down.Stop()
	dir := t.TempDir()
	knownHosts := filepath.Join(dir, "known_hosts")
	if err := sshd.WriteKnownHosts(knownHosts, known); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(knownHosts)
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + knownHosts + "\nhosts:\n")
	for name, s := range map[string]*sshd.Server{"known": known, "stranger": stranger, "down": down} {
		fmt.Fprintf(&cfg, "  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n    host_key_policy: accept-new\n",
			name, s.Host, s.Port, sshUser, key.Path)
	}
	env, _ := wardenEnv(t, "WARDEN_CONFIG="+writeFile(t, cfg.String()))
	out, _, code := runBin(t, env, "doctor", "--host-timeout", "3s")
	if code != 1 {
		t.Errorf("exit %d, want 1 (two hosts fail)", code)
	}
	for _, want := range []string{
		fmt.Sprintf("ok    ssh known    %s reachable, host key known (%s), login works\n", known.Addr, ssh.FingerprintSHA256(known.HostKey)),
		fmt.Sprintf("fail  ssh stranger %s reachable, host key unknown (%s)\n", stranger.Addr, ssh.FingerprintSHA256(stranger.HostKey)),
		fmt.Sprintf("fail  ssh down     %s not reachable\n", down.Addr),
	} {
		if !strings.Contains(out, want) {
			t.Errorf("doctor lacks %q:\n%s", want, out)
		}
	}
	if after, _ := os.ReadFile(knownHosts); !bytes.Equal(before, after) {
		t.Errorf("doctor changed known_hosts despite host_key_policy: accept-new:\n%s", after)
	}
}
