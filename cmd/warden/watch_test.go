package main

import (
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// watcher is a running `warden watch` whose output the test reads.
type watcher struct {
	cmd  *exec.Cmd
	out  *syncBuffer
	errb *syncBuffer
	done chan error
}

func startWatch(t *testing.T, env []string, args ...string) *watcher {
	t.Helper()
	w := &watcher{out: &syncBuffer{}, errb: &syncBuffer{}, done: make(chan error, 1)}
	w.cmd = execCommand(append([]string{"watch"}, args...), env)
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.errb
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	t.Cleanup(func() {
		_ = w.cmd.Process.Kill()
		<-w.done
	})
	return w
}

// until waits for the watcher's output to contain want.
func (w *watcher) until(t *testing.T, want string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(w.out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("watch never showed %q; stdout %q, stderr %q", want, w.out.String(), w.errb.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// An operator follows a live session from another terminal: what the
// agent types and the shell prints shows up as it happens, the agent's own
// reads are not robbed of it, and watch ends when the session does.
func TestWatchFollowsLiveSession(t *testing.T) {
	s, env := consoleServer(t, "", nil)
	sh := startSession(t, s.cs, map[string]any{"command": "/bin/sh"})
	// Each line is typed once the shell has prompted for it, so the terminal
	// echoes it after the prompt and the transcript does not depend on timing.
	prompt := "$ "
	if os.Geteuid() == 0 {
		prompt = "# "
	}
	sh.readUntil(prompt)
	sh.send("echo before-$((2*3))")
	sh.readUntil("before-6\n" + prompt)
	w := startWatch(t, env, sh.id)
	w.until(t, "before-6") // the session's output so far
	sh.send("echo typed-$((6*7))")
	w.until(t, "typed-42") // and what it prints now
	// Watching took nothing from the agent.
	sh.readUntil("typed-42\n" + prompt)
	if strings.Contains(w.out.String(), "\x1b") {
		t.Errorf("plain watch passed a terminal escape through: %q", w.out.String())
	}
	sh.send("exit")
	select {
	case err := <-w.done:
		w.done <- err // for the cleanup
		if err != nil {
			t.Errorf("watch ended with %v; stderr %q", err, w.errb.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatal("watch did not end when the session did")
	}
	// What the operator saw is docs/console.md's example, where the
	// session's shell runs as root (as in CI) and prompts with "# ".
	if os.Geteuid() == 0 {
		generatedBy(t, "../../docs/console.md", "TestWatchFollowsLiveSession", "watch", "$ warden watch 3f2a9c…\n"+w.out.String())
	}
}

func TestWatchUnknownSession(t *testing.T) {
	_, env := consoleServer(t, "", nil)
	waitPending(t, env, 0)
	_, errOut, code := operator(t, env, "watch", "0123456789abcdef")
	if code != 1 || !strings.Contains(errOut, "no live session") {
		t.Errorf("code %d, stderr %q, want 1 and no live session", code, errOut)
	}
}
