package main

import (
	"context"
	"io"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/agent"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/hosts"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/hosts/sshhost"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// pipes joins a child's stdout and stdin into the agent client's stream.
type pipes struct {
	io.Reader
	io.WriteCloser
}

// `warden agent` serves the protocol on stdin and stdout and exits 0
// when its stdin closes; arguments are refused.
func TestAgentSubcommand(t *testing.T) {
	cmd := exec.Command(wardenBin, "agent")
	cmd.Env = []string{"PATH=/usr/local/bin:/usr/bin:/bin"}
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr syncBuffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	c, err := agent.NewClient(ctx, pipes{stdout, stdin})
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("hello: %v (%s)", err, stderr.String())
	}
	if h := c.Hello(); h.Version == "" || h.PID != cmd.Process.Pid || h.OS != runtime.GOOS {
		t.Errorf("hello %+v", h)
	}
	res, err := c.Run(ctx, runner.Request{Argv: []string{"echo", "hi"}, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil || string(res.Stdout) != "hi\n" {
		t.Errorf("run: %+v %v", res, err)
	}
	c.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("warden agent after its stream closed: %v (%s)", err, stderr.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("warden agent did not exit when its stream closed")
	}
	out, errOut, code := runWarden(t, nil, "agent", "extra")
	if code != 2 || !strings.Contains(errOut, "takes no arguments") {
		t.Errorf("warden agent extra: exit %d, %q %q", code, out, errOut)
	}
}

// The real binary, uploaded to a loopback OpenSSH host by the agent host
// kind, runs there as the agent: commands are confined on the far side
// and the process is gone once warden lets go.
func TestAgentOverSSH(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("logs in as a user of its own, which needs root")
	}
	const login = "wardentest"
	srv := sshd.Start(t, sshd.Options{User: login})
	u, err := user.Lookup(login)
	if err != nil {
		t.Fatal(err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	base, err := os.MkdirTemp("/var/lib", "warden-agent-e2e-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(base)
	os.Chmod(base, 0o755)
	cache := filepath.Join(base, "cache")
	os.Mkdir(cache, 0o755)
	os.Chown(cache, uid, -1)
	pool, inv, _ := sshpooltest.Server(t, srv, "box")
	sp, err := sshhost.New(sshhost.Options{Inventory: inv, Pool: pool, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	ap, err := agenthost.New(agenthost.Options{SSH: sp, Modes: map[string]string{"box": agenthost.Required}, CacheDir: cache,
		Builds: map[string]string{runtime.GOOS + "/" + runtime.GOARCH: wardenBin}})
	if err != nil {
		t.Fatal(err)
	}
	set := hosts.New(ap, sp)
	defer set.Close()
	h, err := set.Resolve(context.Background(), "box")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(confine.With(context.Background(), confine.Admission{Level: confine.Read}), 120*time.Second)
	defer cancel()
	marker := filepath.Join(base, "written")
	res, err := h.Runner.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", "id -un; touch " + marker}, Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil || !strings.HasPrefix(string(res.Stdout), login+"\n") {
		t.Fatalf("run through the agent: %+v %v", res, err)
	}
	if _, err := os.Stat(marker); err == nil && strings.Contains(h.Confinement, "landlock") {
		t.Error("a read-level command wrote a file on the agent host")
	}
	h, _ = set.Resolve(context.Background(), "box")
	if !strings.HasPrefix(h.Confinement, "agent ") || h.FilesTransport() != "agent" {
		t.Errorf("box: confinement %q, files %q", h.Confinement, h.FilesTransport())
	}
	bin, _ := filepath.Glob(filepath.Join(cache, "*", "warden"))
	if len(bin) != 1 {
		t.Fatalf("cached builds %v", bin)
	}
	set.Close()
	for deadline := time.Now().Add(60 * time.Second); len(processesWith(bin[0])) > 0; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent is still running: %v", processesWith(bin[0]))
		}
	}
}
