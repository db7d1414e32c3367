package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/sshd"
)

// Benchmarks of remote execution through warden against what an operator
// would otherwise use, all on loopback sshd instances as a user whose
// login shell is /bin/sh:
//
//	BenchmarkSSHEcho/warden         run_command(host, "echo hi") over stdio
//	BenchmarkSSHEcho/warden-sdk     the same through the Go SDK's client
//	BenchmarkSSHEcho/fresh-ssh      a new ssh process and connection per call
//	BenchmarkSSHEcho/controlmaster  an ssh process per call over a master
//	BenchmarkSSHEcho/floor          a bare session on one pooled x/crypto/ssh client
//	BenchmarkSSHVsFloor             floor, warden and controlmaster alternated
//	BenchmarkSSHFanout50/cold       fanout("uname -a") to 50 sshds, no connection open
//	BenchmarkSSHFanout50/warm       the same with the pool's connections open
//
// Run with:
//
//	go test ./cmd/warden -run '^$' -bench 'SSH' -benchtime 200x
//
// (the fan-out benchmarks cap themselves at 20 cold and 50 warm rounds).

// sshBench is servers, a shared user key and a known_hosts file.
type sshBench struct {
	srv   []*sshd.Server
	key   *sshd.Key
	known string
}

func newSSHBench(b *testing.B, n int) *sshBench {
	b.Helper()
	sb := &sshBench{key: sshd.NewKey(b)}
	for range n {
		sb.srv = append(sb.srv, sshd.Start(b, sshd.Options{User: sshUser, UserKey: sb.key}))
	}
	sb.known = filepath.Join(b.TempDir(), "known_hosts")
	if err := sshd.WriteKnownHosts(sb.known, sb.srv...); err != nil {
		b.Fatal(err)
	}
	return sb
}

// warden starts warden over stdio with the servers as hosts h0…hN-1 in
// group all and connects the SDK's client.
func (sb *sshBench) warden(b *testing.B) *mcp.ClientSession {
	b.Helper()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "1"}, nil).Connect(context.Background(), &mcp.CommandTransport{Command: sb.wardenCmd(b)}, nil)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { cs.Close() })
	return cs
}

// wardenCmd is the warden serve command for the servers.
func (sb *sshBench) wardenCmd(b *testing.B) *exec.Cmd {
	b.Helper()
	var cfg strings.Builder
	cfg.WriteString("ssh:\n  config: none\n  known_hosts: " + sb.known + "\n  max_conns: 128\nhosts:\n")
	for i, s := range sb.srv {
		fmt.Fprintf(&cfg, "  - {name: h%d, address: %s, port: %d, user: %s, identity_files: [%s], groups: [all]}\n", i, s.Host, s.Port, sshUser, sb.key.Path)
	}
	dir := b.TempDir()
	path := filepath.Join(dir, "warden.yaml")
	if err := os.WriteFile(path, []byte(cfg.String()), 0o600); err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(wardenBin, "serve")
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + dir, "WARDEN_STATE_DIR=" + filepath.Join(dir, "state"), "WARDEN_CONFIG=" + path}
	return cmd
}

func (sb *sshBench) sshArgs(s *sshd.Server) []string {
	return []string{
		"-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
		"-o", "UserKnownHostsFile=" + sb.known, "-o", "IdentitiesOnly=yes", "-i", sb.key.Path,
		"-p", strconv.Itoa(s.Port), "-l", sshUser,
	}
}

// sample runs op b.N times and reports its latency percentiles.
func sample(b *testing.B, op func() error) {
	b.Helper()
	samples := make([]time.Duration, 0, b.N)
	for b.Loop() {
		start := time.Now()
		err := op()
		samples = append(samples, time.Since(start))
		if err != nil {
			b.Fatal(err)
		}
	}
	reportPercentiles(b, samples)
}

// echoWarden returns a warm run_command(h0, "echo hi") through warden over
// stdio, with the line client or the SDK's.
func (sb *sshBench) echoWarden(b *testing.B, client string) func() error {
	b.Helper()
	args := map[string]any{"host": "h0", "command": "echo hi"}
	var call func() error
	if client == "line" {
		lc := startLine(b, sb.wardenCmd(b))
		call = func() error {
			out, err := lc.callTool("run_command", args)
			if err == nil && out != "hi\n" {
				err = fmt.Errorf("output %q", out)
			}
			return err
		}
	} else {
		cs := sb.warden(b)
		params := &mcp.CallToolParams{Name: "run_command", Arguments: args}
		call = func() error {
			res, err := cs.CallTool(context.Background(), params)
			if err != nil {
				return err
			}
			if res.IsError || !strings.HasPrefix(text(res), "hi\n") {
				return fmt.Errorf("run_command: %s", text(res))
			}
			return nil
		}
	}
	for range 20 { // connect and warm up
		if err := call(); err != nil {
			b.Fatal(err)
		}
	}
	return call
}

// sshEcho runs ssh with args and checks that it printed hi.
func sshEcho(args []string) error {
	out, err := exec.Command("ssh", args...).CombinedOutput()
	if err != nil || string(out) != "hi\n" {
		return fmt.Errorf("ssh: %v: %s", err, out)
	}
	return nil
}

// echoControlMaster starts an OpenSSH master to the first server and
// returns an `ssh … echo hi` through it.
func (sb *sshBench) echoControlMaster(b *testing.B) func() error {
	b.Helper()
	s := sb.srv[0]
	ctl := filepath.Join(b.TempDir(), "ctl")
	base := append(sb.sshArgs(s), "-o", "ControlPath="+ctl)
	master := exec.Command("ssh", append(base, "-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", "--", s.Host)...)
	if err := master.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		_ = exec.Command("ssh", append(base, "-O", "exit", "--", s.Host)...).Run()
		_ = master.Process.Kill()
		_ = master.Wait()
	})
	check := append(base, "-O", "check", "--", s.Host)
	for end := time.Now().Add(10 * time.Second); exec.Command("ssh", check...).Run() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("ControlMaster did not come up")
		}
	}
	args := append(base, "-o", "ControlMaster=no", "--", s.Host, "echo hi")
	return func() error { return sshEcho(args) }
}

// echoFloor dials the first server once and returns a bare session
// running echo hi on that connection.
func (sb *sshBench) echoFloor(b *testing.B) func() error {
	b.Helper()
	s := sb.srv[0]
	known, err := ssh.ParsePublicKey(s.HostKey.Marshal())
	if err != nil {
		b.Fatal(err)
	}
	c, err := ssh.Dial("tcp", s.Addr, &ssh.ClientConfig{
		User:            sshUser,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(sb.key.Signer)},
		HostKeyCallback: ssh.FixedHostKey(known),
	})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.Close() })
	return func() error {
		sess, err := c.NewSession()
		if err != nil {
			return err
		}
		defer sess.Close()
		out, err := sess.Output("echo hi")
		if err == nil && string(out) != "hi\n" {
			err = fmt.Errorf("output %q", out)
		}
		return err
	}
}

func BenchmarkSSHEcho(b *testing.B) {
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("ssh not installed (openssh-client)")
	}
	sb := newSSHBench(b, 1)
	b.Run("warden", func(b *testing.B) { sample(b, sb.echoWarden(b, "line")) })
	b.Run("warden-sdk", func(b *testing.B) { sample(b, sb.echoWarden(b, "sdk")) })
	b.Run("fresh-ssh", func(b *testing.B) {
		s := sb.srv[0]
		args := append(sb.sshArgs(s), "--", s.Host, "echo hi")
		sample(b, func() error { return sshEcho(args) })
	})
	b.Run("controlmaster", func(b *testing.B) { sample(b, sb.echoControlMaster(b)) })
	b.Run("floor", func(b *testing.B) { sample(b, sb.echoFloor(b)) })
}

// BenchmarkSSHVsFloor runs the floor, warden (line client) and
// ControlMaster in turn, one call each per iteration, so that all three see
// the same machine state; on this VM the bare session alone moves by ±15 %
// between blocks. It reports the three medians, warden's ratio to the
// floor and how many times faster than ControlMaster warden is.
func BenchmarkSSHVsFloor(b *testing.B) {
	if _, err := exec.LookPath("ssh"); err != nil {
		b.Skip("ssh not installed (openssh-client)")
	}
	sb := newSSHBench(b, 1)
	ops := []func() error{sb.echoFloor(b), sb.echoWarden(b, "line"), sb.echoControlMaster(b)}
	samples := make([][]time.Duration, len(ops))
	for b.Loop() {
		for i, op := range ops {
			start := time.Now()
			err := op()
			samples[i] = append(samples[i], time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
	}
	p50 := make([]time.Duration, len(ops))
	for i, s := range samples {
		slices.Sort(s)
		p50[i] = s[len(s)/2]
	}
	b.ReportMetric(float64(p50[0].Nanoseconds()), "floor-p50-ns")
	b.ReportMetric(float64(p50[1].Nanoseconds()), "warden-p50-ns")
	b.ReportMetric(float64(p50[2].Nanoseconds()), "cm-p50-ns")
	b.ReportMetric(float64(p50[1])/float64(p50[0]), "floor-ratio")
	b.ReportMetric(float64(p50[2])/float64(p50[1]), "cm-speedup")
}

func BenchmarkSSHFanout50(b *testing.B) {
	sb := newSSHBench(b, 50)
	params := &mcp.CallToolParams{Name: "fanout", Arguments: map[string]any{"command": "uname -a", "hosts": []string{"all"}, "concurrency": 32}}
	fanout := func(cs *mcp.ClientSession) error {
		res, err := cs.CallTool(context.Background(), params)
		if err != nil {
			return err
		}
		if res.IsError || !strings.Contains(text(res), "[50 ok, 0 failed, 0 refused]") {
			return fmt.Errorf("fanout: %s", text(res))
		}
		return nil
	}
	// Cold: a fresh warden per round, so every connection is dialled,
	// handshaken and authenticated inside the call. Starting warden is
	// not timed.
	b.Run("cold", func(b *testing.B) {
		samples := make([]time.Duration, 0, b.N)
		for i := 0; b.Loop(); i++ {
			if i >= 20 {
				continue
			}
			b.StopTimer()
			cs := sb.warden(b)
			b.StartTimer()
			start := time.Now()
			err := fanout(cs)
			samples = append(samples, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
			b.StopTimer()
			cs.Close()
			b.StartTimer()
		}
		reportPercentiles(b, samples)
	})
	b.Run("warm", func(b *testing.B) {
		cs := sb.warden(b)
		if err := fanout(cs); err != nil {
			b.Fatal(err)
		}
		samples := make([]time.Duration, 0, b.N)
		for i := 0; b.Loop(); i++ {
			if i >= 50 {
				continue
			}
			start := time.Now()
			err := fanout(cs)
			samples = append(samples, time.Since(start))
			if err != nil {
				b.Fatal(err)
			}
		}
		reportPercentiles(b, samples)
	})
}
