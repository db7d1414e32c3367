// Package sessiontest is the conformance suite for session.Starter
// implementations: every starter (the local one, the SSH one) runs the same
// scenarios through a real session.Registry, so a session behaves the same
// wherever it runs.
package sessiontest

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/runner/runnertest"
	"github.com/warden-mcp/warden/internal/session"
)

// Config says how to run the suite against one Starter.
type Config struct {
	// Starter is the implementation under test.
	Starter session.Starter
	// Env is the environment given to every session (it should set PATH).
	Env []string
	// SameHost reports whether the started processes are visible in this
	// host's /proc (true for the local starter and for an sshd on
	// loopback), which the process-tree checks need.
	SameHost bool
	// Timeout bounds each wait for output (default 10s).
	Timeout time.Duration
}

// Run runs every scenario as a subtest.
func Run(t *testing.T, c Config) {
	if c.Timeout == 0 {
		c.Timeout = 10 * time.Second
	}
	for _, tc := range []struct {
		name string
		fn   func(*testing.T, *harness)
	}{
		{"ShellArithmetic", testShellArithmetic},
		{"PromptAnswered", testPromptAnswered},
		{"ResizeVisibleInStty", testResize},
		{"InterruptForegroundCommand", testInterrupt},
		{"ExitStatus", testExitStatus},
		{"CloseKillsBackgroundJob", testCloseKillsBackgroundJob},
		{"PipesRoundTrip", testPipes},
		{"ForegroundAfterCtrlC", testForeground},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reg := session.NewRegistry(session.Options{RecordDir: t.TempDir(), KillGrace: 500 * time.Millisecond})
			t.Cleanup(func() {
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				defer cancel()
				if err := reg.Shutdown(ctx); err != nil {
					t.Errorf("Shutdown: %v", err)
				}
			})
			tc.fn(t, &harness{t: t, c: c, reg: reg})
		})
	}
}

type harness struct {
	t   *testing.T
	c   Config
	reg *session.Registry
}

func (h *harness) start(spec session.Spec) string {
	h.t.Helper()
	spec.Starter = h.c.Starter
	spec.Env = append(append([]string{}, h.c.Env...), spec.Env...)
	info, err := h.reg.Start(context.Background(), spec)
	if err != nil {
		h.t.Fatalf("Start: %v", err)
	}
	return info.ID
}

// shell starts sh in a PTY and waits until it answers.
func (h *harness) shell() string {
	h.t.Helper()
	id := h.start(session.Spec{Argv: []string{"sh"}, PTY: true})
	h.send(id, "PS1='$ '; echo rea''dy\n")
	h.readUntil(id, "ready\n")
	return id
}

func (h *harness) send(id, data string) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), h.c.Timeout)
	defer cancel()
	if err := h.reg.Send(ctx, id, []byte(data)); err != nil {
		h.t.Fatalf("Send(%q): %v", data, err)
	}
}

func (h *harness) readUntil(id, want string) string {
	h.t.Helper()
	var got strings.Builder
	deadline := time.Now().Add(h.c.Timeout)
	for time.Now().Before(deadline) {
		res, err := h.reg.Read(context.Background(), id, session.ReadOptions{Wait: time.Until(deadline), Quiet: 20 * time.Millisecond})
		if err != nil {
			h.t.Fatalf("Read: %v (so far %q)", err, got.String())
		}
		got.WriteString(res.Data)
		if strings.Contains(got.String(), want) {
			return got.String()
		}
		if res.Exited {
			break
		}
	}
	h.t.Fatalf("output never contained %q; got %q", want, got.String())
	return ""
}

func (h *harness) readToExit(id string) (string, session.ReadResult) {
	h.t.Helper()
	var got strings.Builder
	deadline := time.Now().Add(h.c.Timeout)
	for time.Now().Before(deadline) {
		res, err := h.reg.Read(context.Background(), id, session.ReadOptions{Wait: time.Until(deadline)})
		if err != nil {
			h.t.Fatalf("Read: %v", err)
		}
		got.WriteString(res.Data)
		if res.Exited && !res.More {
			return got.String(), res
		}
	}
	h.t.Fatalf("program did not exit; output %q", got.String())
	return "", session.ReadResult{}
}

func testShellArithmetic(t *testing.T, h *harness) {
	id := h.shell()
	h.send(id, "echo $((6*7))\n")
	if out := h.readUntil(id, "\n42\n"); strings.ContainsAny(out, "\r\x1b") {
		t.Errorf("stripped output holds control characters: %q", out)
	}
}

func testPromptAnswered(t *testing.T, h *harness) {
	id := h.shell()
	// Built at run time, so the echoed command line cannot match.
	h.send(id, "printf '%s? ' \"$(echo na)me\"; read n; echo hi $n\n")
	h.readUntil(id, "name? ")
	res, err := h.reg.Read(context.Background(), id, session.ReadOptions{Wait: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Data, "hi") {
		t.Fatalf("program did not wait at its prompt: %q", res.Data)
	}
	h.send(id, "warden\n")
	h.readUntil(id, "hi warden\n")
}

func testResize(t *testing.T, h *harness) {
	id := h.shell()
	h.send(id, "stty size\n")
	h.readUntil(id, "\n24 80\n")
	if err := h.reg.Resize(id, 132, 40); err != nil {
		t.Fatalf("Resize: %v", err)
	}
	h.send(id, "stty size\n")
	h.readUntil(id, "\n40 132\n")
	if l := h.reg.List(); len(l) != 1 || l[0].Cols != 132 || l[0].Rows != 40 {
		t.Errorf("List after resize = %+v, want 132x40", l)
	}
}

func testInterrupt(t *testing.T, h *harness) {
	id := h.shell()
	m := runnertest.Marker(t)
	h.send(id, "sleep "+m+"\n")
	if h.c.SameHost {
		runnertest.WaitProcs(t, m, func(n int) bool { return n == 1 }, h.c.Timeout)
	} else {
		time.Sleep(500 * time.Millisecond)
	}
	if err := h.reg.Signal(id, "INT"); err != nil {
		t.Fatalf("Signal: %v", err)
	}
	// The sleep is interrupted (or this echo would wait 1000s) and the
	// shell carries on.
	h.send(id, "echo alive-$((1+1))\n")
	h.readUntil(id, "alive-2")
	if l := h.reg.List(); len(l) != 1 || l[0].Exited {
		t.Errorf("the shell exited: %+v", l)
	}
}

func testExitStatus(t *testing.T, h *harness) {
	id := h.shell()
	h.send(id, "exit 3\n")
	_, res := h.readToExit(id)
	if res.ExitCode == nil || *res.ExitCode != 3 {
		t.Fatalf("exit code %v (result %+v), want 3", res.ExitCode, res)
	}
	ci, err := h.reg.Close(id)
	if err != nil {
		t.Fatal(err)
	}
	if ci.ExitCode == nil || *ci.ExitCode != 3 || ci.RecordingSHA256 == "" {
		t.Errorf("CloseInfo = %+v, want exit 3 and a recording", ci)
	}
}

func testCloseKillsBackgroundJob(t *testing.T, h *harness) {
	if !h.c.SameHost {
		t.Skip("needs the session's processes in this host's /proc")
	}
	id := h.shell()
	m := runnertest.Marker(t)
	h.send(id, "sleep "+m+" &\n")
	runnertest.WaitProcs(t, m, func(n int) bool { return n == 1 }, h.c.Timeout)
	if _, err := h.reg.Close(id); err != nil {
		t.Fatalf("Close: %v", err)
	}
	runnertest.WaitProcs(t, m, func(n int) bool { return n == 0 }, 2*time.Second)
	if _, err := h.reg.Read(context.Background(), id, session.ReadOptions{}); !errors.Is(err, session.ErrNotFound) {
		t.Errorf("Read after Close = %v, want ErrNotFound", err)
	}
}

func testPipes(t *testing.T, h *harness) {
	id := h.start(session.Spec{Argv: []string{"sh", "-c", `echo out; echo err >&2; read x; echo "got $x"; exit 5`}})
	h.readUntil(id, "err\n")
	h.send(id, "abc\n")
	out, res := h.readToExit(id)
	if !strings.Contains(out, "got abc\n") {
		t.Errorf("output %q, want got abc", out)
	}
	if res.ExitCode == nil || *res.ExitCode != 5 {
		t.Errorf("exit code %v, want 5", res.ExitCode)
	}
}
