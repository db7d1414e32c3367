package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// BenchmarkAgentVsLocal is issue 23's comparison as the agent sees it:
// whole run_command("echo hi") tool calls through one warden over stdio
// (the line client), on this machine and on a loopback sshd, alternated
// one call each per iteration so that every path sees the same machine:
//
//	local    run_command("echo hi"), confined on this machine
//	agent    run_command(host: box-agent), through warden's agent there
//	prestart run_command(host: box-ssh), the SSH runner with ssh.prestart
//	floor    a bare session on one pooled x/crypto/ssh connection
//	cm       ssh over an OpenSSH ControlMaster
//
// It reports each median and the agent's ratio to the local call (the
// issue's target: at most 1.15). As root only: warden logs in to the
// sshd as a user of its own, whose cache holds the uploaded agent.
//
//	go test ./cmd/warden -run '^$' -bench AgentVsLocal -benchtime 300x -count 3
func BenchmarkAgentVsLocal(b *testing.B) {
	if os.Geteuid() != 0 {
		b.Skip("logs in to sshd as a user of its own, which needs root")
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("ssh not installed (openssh-client)")
	}
	sb := newSSHBench(b, 1)
	s := sb.srv[0]
	dir := b.TempDir()
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + sb.known + "\nhosts:\n")
	for _, h := range []struct{ name, agent string }{{"box-agent", "required"}, {"box-ssh", "off"}} {
		fmt.Fprintf(&cfg, "  - {name: %s, address: %s, port: %d, user: %s, identity_files: [%s], agent: %s}\n",
			h.name, s.Host, s.Port, sshUser, sb.key.Path, h.agent)
	}
	path := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(wardenBin, "serve")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "WARDEN_STATE_DIR=" + filepath.Join(dir, "state"), "WARDEN_CONFIG=" + path}
	lc := startLine(b, cmd)
	echo := func(host string) func() error {
		args := map[string]any{"command": "echo hi"}
		if host != "" {
			args["host"] = host
		}
		return func() error {
			out, err := lc.callTool("run_command", args)
			if err == nil && out != "hi\n" {
				err = fmt.Errorf("run_command on %q: output %q", host, out)
			}
			return err
		}
	}
	names := []string{"local", "agent", "prestart", "floor", "cm"}
	ops := []func() error{echo(""), echo("box-agent"), echo("box-ssh"), sb.echoFloor(b), sb.echoControlMaster(b)}
	for i, op := range ops[:3] { // connect, upload the agent, start spares
		for range 20 {
			if err := op(); err != nil {
				b.Fatalf("%s: %v", names[i], err)
			}
		}
	}
	// The two hosts really take the two paths.
	raw, err := lc.request("tools/call", map[string]any{"name": "hosts_list", "arguments": map[string]any{}})
	if err != nil {
		b.Fatal(err)
	}
	var list struct {
		Structured struct {
			Hosts []struct{ Name, Confinement string } `json:"hosts"`
		} `json:"structuredContent"`
	}
	if err := json.Unmarshal(raw, &list); err != nil {
		b.Fatal(err)
	}
	if len(list.Structured.Hosts) != 2 {
		b.Fatalf("hosts_list: %s", raw)
	}
	for _, h := range list.Structured.Hosts {
		if agent := strings.HasPrefix(h.Confinement, "agent "); agent != (h.Name == "box-agent") {
			b.Fatalf("%s: confinement %q", h.Name, h.Confinement)
		}
	}
	samples := make([][]time.Duration, len(ops))
	for b.Loop() {
		for i, op := range ops {
			start := time.Now()
			err := op()
			samples[i] = append(samples[i], time.Since(start))
			if err != nil {
				b.Fatalf("%s: %v", names[i], err)
			}
		}
	}
	p50 := make([]float64, len(ops))
	for i, s := range samples {
		slices.Sort(s)
		p50[i] = float64(s[len(s)/2].Nanoseconds())
		b.ReportMetric(p50[i], names[i]+"-p50-ns")
	}
	b.ReportMetric(p50[1]/p50[0], "agent/local")
	b.ReportMetric(p50[2]/p50[0], "prestart/local")
}
