package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// shimmed prepares a server whose children find harmless shims first on
// PATH for every dangerous program a case names: if policy ever let one
// through, the shim would only create the marker file, never reboot or wipe.
func shimmed(t *testing.T, mode string, extraConfig string) (env []string, state, marker, shims string) {
	t.Helper()
	shims = t.TempDir()
	marker = filepath.Join(t.TempDir(), "marker")
	for _, name := range []string{"reboot", "poweroff", "halt", "shutdown", "init", "telinit", "rm", "mkfs", "mkfs.ext4",
		"wipefs", "dd", "sudo", "busybox", "systemctl", "shred", "chmod", "chown", "iptables", "nft", "userdel",
		"python3", "perl", "awk", "git", "tar", "ssh", "rsync", "curl", "crontab", "zpool", "zfs", "sort", "xargs", "sed"} {
		// Each of its own content: the classifier knows a program file
		// by what it holds, and identical files would be one program.
		shim := fmt.Sprintf("#!/bin/sh\n# %s\necho ran \"$0\" \"$@\" >> %s\n", name, marker)
		if err := os.WriteFile(filepath.Join(shims, name), []byte(shim), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cfg := fmt.Sprintf("mode: %s\nexec:\n  path: %s:/usr/bin:/bin\n%s", mode, shims, extraConfig)
	env, state = wardenEnv(t, "WARDEN_CONFIG="+writeFile(t, cfg))
	return env, state, marker, shims
}

func TestPolicyEndToEnd(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	touch := "touch " + marker
	tests := []struct {
		name   string
		tool   string
		args   map[string]any
		status string // denied or approval_required
	}{
		// Class 1: shell syntax smuggling.
		{"substitution", "run_command", map[string]any{"command": "echo $(reboot)"}, "denied"},
		{"backticks", "run_command", map[string]any{"command": "echo `reboot`"}, "denied"},
		{"newline separator", "run_command", map[string]any{"command": touch + "\nreboot"}, "denied"},
		{"carriage return", "run_command", map[string]any{"command": touch + "\rreboot"}, "denied"},
		{"and list", "run_command", map[string]any{"command": touch + " && reboot"}, "denied"},
		{"or list", "run_command", map[string]any{"command": "false || reboot; " + touch}, "denied"},
		{"pipe", "run_command", map[string]any{"command": touch + " | poweroff"}, "denied"},
		{"background", "run_command", map[string]any{"command": "reboot & " + touch}, "denied"},
		{"subshell", "run_command", map[string]any{"command": "(" + touch + "; (reboot))"}, "denied"},
		{"quoted name", "run_command", map[string]any{"command": touch + "; \"re\"boot"}, "denied"},
		{"backslash name", "run_command", map[string]any{"command": touch + "; \\reboot"}, "denied"},
		{"absolute path", "run_command", map[string]any{"command": touch + "; " + shims + "/reboot"}, "denied"},
		{"glob in command position", "run_command", map[string]any{"command": touch + "; " + shims + "/reb??t"}, "denied"},
		{"variable in command position", "run_command", map[string]any{"command": "X=reboot; $X; " + touch}, "denied"},
		{"unknowable command position", "run_command", map[string]any{"command": "$(cat /etc/hostname); " + touch}, "approval_required"},
		{"process substitution", "run_command", map[string]any{"command": "cat <(reboot); " + touch}, "denied"},
		{"here-doc to shell", "run_command", map[string]any{"command": "sh <<EOF\nreboot\nEOF\n" + touch}, "denied"},
		{"function body", "run_command", map[string]any{"command": "f() { reboot; }; f; " + touch}, "denied"},
		// Class 2: programs that run programs.
		{"sh -c", "run_command", map[string]any{"command": "sh -c 'reboot'; " + touch}, "denied"},
		{"bash -c nested", "run_command", map[string]any{"command": "bash -c \"sh -c 'poweroff'\"; " + touch}, "denied"},
		{"echo pipe sh", "run_command", map[string]any{"command": "echo reboot | sh; " + touch}, "denied"},
		{"sudo", "run_command", map[string]any{"command": "sudo -- reboot; " + touch}, "denied"},
		{"env wrapper", "run_command", map[string]any{"command": "env -i reboot; " + touch}, "denied"},
		{"nohup nice timeout", "run_command", map[string]any{"command": "nohup nice timeout 5 reboot; " + touch}, "denied"},
		{"xargs", "run_command", map[string]any{"command": "echo now | xargs reboot; " + touch}, "denied"},
		{"busybox", "run_command", map[string]any{"command": "busybox reboot; " + touch}, "denied"},
		{"find -exec", "run_command", map[string]any{"command": "find " + shims + " -name reboot -exec rm -rf {} +"}, "approval_required"},
		{"git alias", "run_command", map[string]any{"command": "git -c alias.x='!" + touch + "' x"}, "approval_required"},
		{"awk system", "run_command", map[string]any{"command": "awk 'BEGIN{system(\"" + touch + "\")}'"}, "approval_required"},
		{"tar checkpoint", "run_command", map[string]any{"command": "tar cf /dev/null /etc/hostname --checkpoint=1 --checkpoint-action=exec=" + touch}, "approval_required"},
		{"ssh ProxyCommand", "run_command", map[string]any{"command": "ssh -o ProxyCommand='" + touch + "' x"}, "approval_required"},
		{"python -c", "run_command", map[string]any{"command": "python3 -c 'import os; os.system(\"" + touch + "\")'"}, "approval_required"},
		{"sort compress", "run_command", map[string]any{"command": "sort --compress-program=" + shims + "/rm /etc/hostname"}, "approval_required"},
		// Class 3: catastrophic commands.
		{"rm -rf /", "run_command", map[string]any{"command": touch + "; rm -rf /"}, "denied"},
		{"rm -fr /*", "run_command", map[string]any{"command": touch + "; rm -fr /*"}, "denied"},
		{"rm long flags", "run_command", map[string]any{"command": touch + "; rm --recursive --force /etc/"}, "denied"},
		{"no-preserve-root", "run_command", map[string]any{"command": touch + "; rm -r --no-preserve-root /"}, "denied"},
		{"mkfs", "run_command", map[string]any{"command": touch + "; mkfs.ext4 /dev/sda1"}, "denied"},
		{"dd to device", "run_command", map[string]any{"command": touch + "; dd if=/dev/zero of=/dev/sda"}, "denied"},
		{"redirect to device", "run_command", map[string]any{"command": touch + "; echo x > /dev/sda"}, "denied"},
		{"wipefs", "run_command", map[string]any{"command": touch + "; wipefs -a /dev/nvme0n1"}, "denied"},
		{"systemctl reboot", "run_command", map[string]any{"command": touch + "; systemctl reboot"}, "denied"},
		{"init 0", "run_command", map[string]any{"command": touch + "; init 0"}, "denied"},
		{"inside sh -c", "run_command", map[string]any{"command": "sh -c '" + touch + "; rm -rf /'"}, "denied"},
		{"script body", "run_script", map[string]any{"script": touch + "\nshutdown -h now\n"}, "denied"},
		{"bash script body", "run_script", map[string]any{"script": touch + "\nrm -rf --no-preserve-root /\n", "interpreter": "bash"}, "denied"},
		{"stdin to shell", "run_command", map[string]any{"command": "sh", "stdin": touch + "\nreboot\n"}, "denied"},
		{"env value", "run_command", map[string]any{"command": touch, "env": map[string]any{"BASH_ENV": "/tmp/evil"}}, "approval_required"},
		// Class 5: the agent changing its own rules.
		{"write warden state", "run_command", map[string]any{"command": "echo '{}' >> " + filepath.Join(state, "audit.jsonl") + "; " + touch}, "denied"},
		{"read warden token", "run_command", map[string]any{"command": "cat " + filepath.Join(state, "token") + "; " + touch}, "denied"},
		{"preload", "run_command", map[string]any{"command": "LD_PRELOAD=/tmp/x.so ls; " + touch}, "approval_required"},
		// Class 6: argument injection.
		{"host with dash", "run_command", map[string]any{"command": touch, "host": "-oProxyCommand=" + touch}, "invalid_argument"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, got := callTool(t, s.cs, tc.tool, tc.args)
			if !res.IsError || got["status"] != tc.status {
				t.Errorf("status %v, want %s: %s", got["status"], tc.status, text(res))
			}
			if b, err := os.ReadFile(marker); err == nil {
				os.Remove(marker)
				t.Fatalf("something ran: %s", b)
			}
		})
	}
	t.Run("ordinary read-only work runs", func(t *testing.T) {
		for _, cmd := range []string{"ls -la /etc | grep -c host", "df -h", "cat /etc/os-release", "ps aux | head -3", "uname -a; id"} {
			res, got := callTool(t, s.cs, "run_command", map[string]any{"command": cmd})
			if res.IsError || got["tier"] != nil && got["tier"] != float64(0) {
				t.Errorf("%q: %s", cmd, text(res))
			}
		}
	})
}

func TestReadonlyModeRunsNoMutation(t *testing.T) {
	env, state, marker, _ := shimmed(t, "readonly", "")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "run_command", map[string]any{"command": "touch " + marker})
	if !res.IsError || got["status"] != "denied" {
		t.Errorf("readonly let a write through: %s", text(res))
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("marker created in readonly mode")
	}
	res, _ = callTool(t, s.cs, "run_command", map[string]any{"command": "cat /etc/hostname"})
	if res.IsError {
		t.Errorf("readonly refused a read: %s", text(res))
	}
}

func TestToolModeNarrowsGlobalMode(t *testing.T) {
	env, state, marker, _ := shimmed(t, "open", "policy:\n  tool_modes: {run_script: readonly}\n")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "run_script", map[string]any{"script": "touch " + marker})
	if !res.IsError || got["status"] != "denied" {
		t.Errorf("tool mode did not narrow: %s", text(res))
	}
	res, _ = callTool(t, s.cs, "run_command", map[string]any{"command": "touch " + marker})
	if res.IsError {
		t.Errorf("run_command in open mode refused: %s", text(res))
	}
}

func TestApprovalTokenFlow(t *testing.T) {
	env, state, marker, _ := shimmed(t, "guarded", "approval:\n  token_ttl: 2s\n")
	s := startStdio(t, env, state, nil)
	args := map[string]any{"command": "echo run >> " + marker}
	res, got := callTool(t, s.cs, "run_command", args)
	if got["status"] != "approval_required" {
		t.Fatalf("dry call: %s", text(res))
	}
	token, _ := got["approval_token"].(string)
	if token == "" {
		t.Fatal("no approval_token")
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("dry call ran")
	}
	with := func(tok string, a map[string]any) map[string]any {
		m := map[string]any{"approval_token": tok}
		for k, v := range a {
			m[k] = v
		}
		return m
	}
	res, _ = callTool(t, s.cs, "run_command", with(token, args))
	if res.IsError {
		t.Fatalf("approved replay refused: %s", text(res))
	}
	res, got = callTool(t, s.cs, "run_command", with(token, args))
	if got["status"] != "denied" {
		t.Errorf("second replay: %s", text(res))
	}
	if b, _ := os.ReadFile(marker); strings.Count(string(b), "run") != 1 {
		t.Errorf("approved call ran %d times, want once", strings.Count(string(b), "run"))
	}

	// A token presented with a changed argument is refused and burned.
	_, got = callTool(t, s.cs, "run_command", args)
	token = got["approval_token"].(string)
	changed := map[string]any{"command": "echo other >> " + marker}
	if _, got = callTool(t, s.cs, "run_command", with(token, changed)); got["status"] != "denied" {
		t.Errorf("changed argument accepted: %v", got)
	}
	if _, got = callTool(t, s.cs, "run_command", with(token, args)); got["status"] != "denied" {
		t.Errorf("burned token still worked: %v", got)
	}

	// An expired token is refused.
	_, got = callTool(t, s.cs, "run_command", args)
	token = got["approval_token"].(string)
	time.Sleep(2500 * time.Millisecond)
	if res, got = callTool(t, s.cs, "run_command", with(token, args)); got["status"] != "denied" || !strings.Contains(text(res), "expired") {
		t.Errorf("expired token: %s", text(res))
	}
	if b, _ := os.ReadFile(marker); strings.Count(string(b), "\n") != 1 {
		t.Errorf("marker has %q, want exactly the one approved run", b)
	}
	audit, _ := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if strings.Contains(string(audit), token) {
		t.Error("an approval token reached the audit log")
	}
	if !strings.Contains(string(audit), `"decision":"approved"`) || !strings.Contains(string(audit), `"approval":"token"`) {
		t.Error("the approved run is not audited as approved by token")
	}
}

func TestApprovalElicitFlow(t *testing.T) {
	for _, version := range []string{"2025-11-25", "2026-07-28"} {
		for _, answer := range []string{"accept", "decline", "cancel", "none"} {
			t.Run(version+"/"+answer, func(t *testing.T) {
				env, state, marker, _ := shimmed(t, "guarded", "approval:\n  tier2: elicit\n")
				env = append(env, "WARDEN_TOKEN="+testToken)
				s := startHTTP(t, env, state)
				var asked sync.WaitGroup
				opts := &mcp.ClientOptions{}
				if answer != "none" {
					asked.Add(1)
					opts.ElicitationHandler = func(ctx context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
						defer asked.Done()
						if !strings.Contains(req.Params.Message, marker) {
							t.Errorf("the question does not show the command: %q", req.Params.Message)
						}
						r := &mcp.ElicitResult{Action: answer}
						if answer == "accept" {
							r.Content = map[string]any{"approve": true}
						}
						return r, nil
					}
				}
				cs := connectHTTP(t, s, version, opts)
				res, got := callTool(t, cs, "run_command", map[string]any{"command": "echo approved > " + marker})
				_, statErr := os.Stat(marker)
				if answer == "accept" {
					if res.IsError || statErr != nil {
						t.Fatalf("accepted call did not run: %s", text(res))
					}
					return
				}
				if got["status"] != "denied" || statErr == nil {
					t.Errorf("%s: status %v, marker exists %v: %s", answer, got["status"], statErr == nil, text(res))
				}
			})
		}
	}
}

func TestAuditRecordsHashNotBody(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	res, got := callTool(t, s.cs, "run_command", map[string]any{
		"command": "printf 'MARK%sUNIQ' ER",
		"env":     map[string]any{"API_TOKEN": "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
		"stdin":   "password=hunter2-very-secret",
	})
	if res.IsError || got["stdout"] != "MARKERUNIQ" {
		t.Fatal(text(res))
	}
	callTool(t, s.cs, "run_command", map[string]any{"command": "rm -rf /", "stdin": "Authorization: Bearer sk-ant-api03-secretsecretsecret"})
	s.cs.Close()
	b, err := os.ReadFile(filepath.Join(state, "audit.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	log := string(b)
	sum := sha256.Sum256([]byte("MARKERUNIQ"))
	for _, leak := range []string{"MARKERUNIQ", "ghp_abcdefghijklmnopqrstuvwxyz0123456789", "hunter2-very-secret", "sk-ant-api03-secretsecretsecret"} {
		if strings.Contains(log, leak) {
			t.Errorf("audit log contains %q", leak)
		}
	}
	if !strings.Contains(log, hex.EncodeToString(sum[:])) {
		t.Error("audit log lacks the output's SHA-256")
	}
	if !strings.Contains(log, `"decision":"denied"`) {
		t.Error("the denial was not audited")
	}
	out, err := execCommand([]string{"audit", "verify"}, env).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "ok: 2 records") {
		t.Errorf("audit verify: %v\n%s", err, out)
	}
}

func TestAuditSurvivesKill9(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < 200; j++ {
				_, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "server_info"})
				if err != nil {
					return
				}
			}
		}()
	}
	time.Sleep(700 * time.Millisecond)
	s.cmd.Process.Signal(syscall.SIGKILL)
	wg.Wait()
	out, err := execCommand([]string{"audit", "verify"}, env).CombinedOutput()
	if err != nil && !strings.Contains(string(out), "truncated") {
		t.Fatalf("log does not verify after kill -9: %v\n%s", err, out)
	}
	t.Logf("after kill -9: %s", out)
}

func TestAuditVerifyDetectsTampering(t *testing.T) {
	env, state := wardenEnv(t, "WARDEN_MODE=open")
	s := startStdio(t, env, state, nil)
	for i := 0; i < 5; i++ {
		callTool(t, s.cs, "run_command", map[string]any{"command": fmt.Sprintf("echo %d", i)})
	}
	s.cs.Close()
	path := filepath.Join(state, "audit.jsonl")
	orig, _ := os.ReadFile(path)
	lines := strings.SplitAfter(strings.TrimSuffix(string(orig), "\n"), "\n")
	for i := range lines {
		if !strings.HasSuffix(lines[i], "\n") {
			lines[i] += "\n"
		}
	}
	tests := []struct {
		name string
		edit func([]string) []string
	}{
		{"edit", func(l []string) []string { l[2] = strings.Replace(l[2], `"exit_code":0`, `"exit_code":1`, 1); return l }},
		{"delete", func(l []string) []string { return append(l[:2:2], l[3:]...) }},
		{"insert", func(l []string) []string { return append(l[:3:3], append([]string{l[1]}, l[3:]...)...) }},
		{"reorder", func(l []string) []string { l[1], l[2] = l[2], l[1]; return l }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			edited := tc.edit(append([]string(nil), lines...))
			p := filepath.Join(t.TempDir(), "audit.jsonl")
			os.WriteFile(p, []byte(strings.Join(edited, "")), 0o600)
			out, err := execCommand([]string{"audit", "verify", p}, env).CombinedOutput()
			if err == nil || !strings.Contains(string(out), "FAIL") {
				t.Errorf("tampering not detected: %s", out)
			}
		})
	}
}
