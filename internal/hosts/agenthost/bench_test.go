package agenthost_test

import (
	"bytes"
	"context"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	"github.com/warden-mcp/warden/internal/sshpool"
	"golang.org/x/crypto/ssh"
)

// controlMaster starts an OpenSSH master to target and returns the
// arguments of `ssh … echo hi` over it, or nil without an ssh client.
func controlMaster(b *testing.B, t sshpool.Target) []string {
	if _, err := exec.LookPath("ssh"); err != nil {
		return nil
	}
	base := []string{"-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
		"-o", "UserKnownHostsFile=" + t.KnownHostsFiles[0], "-o", "IdentitiesOnly=yes", "-i", t.IdentityFiles[0],
		"-p", strconv.Itoa(t.Port), "-l", t.User, "-o", "ControlPath=" + filepath.Join(b.TempDir(), "ctl")}
	master := exec.Command("ssh", append(base, "-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", "--", t.Host)...)
	if err := master.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		exec.Command("ssh", append(base, "-O", "exit", "--", t.Host)...).Run()
		master.Process.Kill()
		master.Wait()
	})
	check := append(base, "-O", "check", "--", t.Host)
	for end := time.Now().Add(30 * time.Second); exec.Command("ssh", check...).Run() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			b.Fatal("ControlMaster did not come up")
		}
	}
	return append(base, "-o", "ControlMaster=no", "--", t.Host, "echo hi")
}

// channelEcho starts `cat` on a session of client and returns a call that
// sends it 64 bytes and reads them back.
func channelEcho(b *testing.B, client *ssh.Client) func() error {
	s, err := client.NewSession()
	if err != nil {
		b.Fatal(err)
	}
	in, err := s.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := s.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := s.Start("cat"); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { in.Close(); s.Close() })
	msg, back := bytes.Repeat([]byte("x"), 64), make([]byte, 64)
	return func() error {
		if _, err := in.Write(msg); err != nil {
			return err
		}
		_, err := io.ReadFull(out, back)
		return err
	}
}

// BenchmarkEchoHi runs `/bin/sh -c "echo hi"` through each way warden
// reaches a host, one call of each in turn per iteration so all see the
// same machine: warden's local runner (confined, as it serves), the agent
// on a loopback sshd (confined there), the SSH runner with ssh.prestart,
// a bare session on the pooled connection (the SSH floor), the floors of
// the agent's share (a call through the agent that runs nothing, and
// bytes echoed by `cat` on a channel of the same connection) and `ssh`
// over an OpenSSH ControlMaster. Each reports its p50; agent/local is the
// agent's cost over a local call.
func BenchmarkEchoHi(b *testing.B) {
	r := newRig(b, agenthost.Required, nil)
	conf, err := confine.New(confine.Options{}, confine.Auto)
	if err != nil {
		b.Fatal(err)
	}
	loc := local.New(local.Options{Confine: conf})
	h := r.host(b)
	ssh, ok, err := r.sp.Resolve(context.Background(), "box")
	if err != nil || !ok {
		b.Fatal(err)
	}
	target, err := r.sp.Target("box")
	if err != nil {
		b.Fatal(err)
	}
	client, err := r.sp.Pool().Client(context.Background(), target)
	if err != nil {
		b.Fatal(err)
	}
	ctx := confine.With(context.Background(), confine.Admission{Level: confine.Read, Tool: "run_command"})
	req := runner.Request{Argv: []string{"/bin/sh", "-c", "echo hi"}, Env: env, Timeout: 30 * time.Second}
	run := func(rn runner.Runner) func() error {
		return func() error {
			res, err := rn.Run(ctx, req)
			if err == nil && string(res.Stdout) != "hi\n" {
				b.Fatalf("stdout %q", res.Stdout)
			}
			return err
		}
	}
	cm := controlMaster(b, target)
	contenders := []struct {
		name string
		call func() error
	}{
		{"local", run(loc)},
		{"agent", run(h.Runner)},
		{"ssh-prestart", run(ssh.Runner)},
		{"bare-session", func() error {
			s, err := client.NewSession()
			if err != nil {
				return err
			}
			defer s.Close()
			_, err = s.Output("echo hi")
			return err
		}},
	}
	// The floors of the agent's share: a call that runs nothing (lstat of
	// /) through the agent, and 64 bytes through `cat` on a channel of the
	// same connection and back, the least any protocol on one channel
	// costs. They come long enough after the agent's run to find it as
	// idle as the run does, and long enough before the next.
	fsys, err := h.Files(ctx)
	if err != nil {
		b.Fatal(err)
	}
	echo := channelEcho(b, client)
	contenders = append(contenders, []struct {
		name string
		call func() error
	}{
		{"agent-stat", func() error { _, err := fsys.Lstat(ctx, "/"); return err }},
		{"channel-echo", echo},
	}...)
	if cm != nil {
		contenders = append(contenders, struct {
			name string
			call func() error
		}{"controlmaster", func() error {
			out, err := exec.Command("ssh", cm...).CombinedOutput()
			if err == nil && string(out) != "hi\n" {
				b.Fatalf("ssh output %q", out)
			}
			return err
		}})
	}
	// Warm every path: the agent's upload and start, the SSH spare.
	for _, c := range contenders {
		for range 3 {
			if err := c.call(); err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
		}
	}
	if r.host(b).FilesTransport() != "agent" {
		b.Fatal("the agent is not in use")
	}
	times := make([][]time.Duration, len(contenders))
	for b.Loop() {
		for i, c := range contenders {
			start := time.Now()
			if err := c.call(); err != nil {
				b.Fatalf("%s: %v", c.name, err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	p50 := make([]float64, len(contenders))
	for i, c := range contenders {
		slices.Sort(times[i])
		p50[i] = float64(times[i][len(times[i])/2].Microseconds()) / 1000
		b.ReportMetric(p50[i], c.name+"-p50-ms")
	}
	b.ReportMetric(p50[1]/p50[0], "agent/local")
	b.ReportMetric(p50[1]/p50[3], "agent/bare")
	b.ReportMetric((p50[1]-p50[0])*1000, "agent-minus-local-µs")
	b.ReportMetric(0, "ns/op")
}
