package agenthost_test

import (
	"bytes"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/session"
	"github.com/warden-mcp/warden/internal/sshd"
)

// TestDropbear serves an agent host behind dropbear with a BusyBox
// userland, as a router is: the build is uploaded and verified with
// BusyBox's tools, the agent starts under dropbear, a command and a
// session run through it, and when warden closes the host nothing the
// agent started is left running (checked in /proc).
func TestDropbear(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("dropbear for tests needs root")
	}
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: testUser})
	r := newRigOn(t, srv, agenthost.Required, nil, nil)

	// A command; its login's userland is BusyBox.
	res, err := r.run(t, "echo hi; readlink /bin/sha256sum")
	if err != nil || string(res.Stdout) != "hi\nbusybox\n" {
		t.Fatalf("run: %+v %v", res, err)
	}
	if got, want := fileSum(t, r.cachedBinary(t)), selfSum(t); got != want {
		t.Errorf("the uploaded agent is %s, want %s", got, want)
	}
	pids := r.agentPIDs()
	if len(pids) != 1 {
		t.Fatalf("agents running: %v, want one", pids)
	}
	if comm := ancestorComms(pids[0]); !strings.Contains(comm, "dropbear") {
		t.Errorf("the agent's ancestors are %s, want dropbear among them", comm)
	}

	// A command that leaves a child running in its process group.
	sleeper, done := r.startSleeper(t, "sleeper")

	// A session: a PTY shell the agent started, driven through it.
	ctx, cancel := context.WithTimeout(full(), 60*time.Second)
	defer cancel()
	p, err := r.host(t).Starter.Start(ctx, session.Spec{Argv: []string{"/bin/sh"}, Env: env, PTY: true, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatalf("session start: %v", err)
	}
	if _, err := p.Write([]byte("echo shell-$$ sum-$((40+2))\n")); err != nil {
		t.Fatal(err)
	}
	out := readUntil(t, p, "sum-42")
	i := strings.LastIndex(out, "shell-")
	shell, _ := strconv.Atoi(strings.Fields(out[i+len("shell-"):])[0])
	if shell <= 0 {
		t.Fatalf("no shell pid in %q", out)
	}

	// Closing the host ends the agent, the session's shell and the
	// command's leftover child.
	r.set.Close()
	waitGone(t, "the agent behind dropbear", pids[0])
	waitGone(t, "the session's shell", shell)
	waitGone(t, "the command's background child", sleeper)
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Error("the command under a closed agent did not return")
	}
	if left := r.agentPIDs(); len(left) != 0 {
		t.Errorf("agents left running: %v", left)
	}
}

// readUntil reads p until its output holds want.
func readUntil(t *testing.T, p session.Process, want string) string {
	t.Helper()
	var buf bytes.Buffer
	got := make(chan error, 1)
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := p.Read(b)
			buf.Write(b[:n])
			if bytes.Contains(buf.Bytes(), []byte(want)) || err != nil {
				got <- err
				return
			}
		}
	}()
	select {
	case err := <-got:
		if !bytes.Contains(buf.Bytes(), []byte(want)) {
			t.Fatalf("the session ended (%v) before printing %q: %q", err, want, buf.String())
		}
		return buf.String()
	case <-time.After(60 * time.Second):
		t.Fatalf("the session did not print %q", want)
		return ""
	}
}

// ancestorComms names pid's ancestors, nearest first.
func ancestorComms(pid int) string {
	var names []string
	for i := 0; i < 6 && pid > 1; i++ {
		pid = ppid(pid)
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm")
		names = append(names, strings.TrimSpace(string(b)))
	}
	return strings.Join(names, " < ")
}
