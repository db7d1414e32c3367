package sessions

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/session"
)

// seen is the real policy, remembering every input it classified.
type seen struct {
	*policy.Policy
	mu     sync.Mutex
	inputs []string
}

func (s *seen) Evaluate(in policy.Input) policy.Verdict {
	s.mu.Lock()
	s.inputs = append(s.inputs, in.Command)
	s.mu.Unlock()
	return s.Policy.Evaluate(in)
}

func (s *seen) last() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.inputs) == 0 {
		return ""
	}
	return s.inputs[len(s.inputs)-1]
}

type records struct {
	mu  sync.Mutex
	all []audit.Record
}

func (r *records) Append(_ context.Context, rec audit.Record) (audit.Record, error) {
	r.mu.Lock()
	r.all = append(r.all, rec)
	r.mu.Unlock()
	return rec, nil
}

func (r *records) Healthy() (bool, string) { return true, "" }

// levels records the confinement each local session was started with.
type levels struct {
	mu  sync.Mutex
	got []confine.Level
}

func (l *levels) Start(ctx context.Context, start func() error) (func(), error) {
	a, _ := confine.From(ctx)
	l.mu.Lock()
	l.got = append(l.got, a.Level)
	l.mu.Unlock()
	return func() {}, start()
}

type rig struct {
	t      *testing.T
	cs     *mcp.ClientSession
	policy *seen
	audit  *records
	levels *levels
}

func newRig(t *testing.T, mode policy.Mode) *rig {
	t.Helper()
	return newRigWith(t, mode, session.Options{})
}

// newRigWith is newRig with the session registry's options o (its
// Confine is the rig's).
func newRigWith(t *testing.T, mode policy.Mode, o session.Options) *rig {
	t.Helper()
	return newRigShell(t, mode, o, policy.Rules{}, "/bin/sh", t.TempDir())
}

// newRigShell is newRigWith with the policy's rules r, and sessions
// started with no command running shell, with home as their HOME.
func newRigShell(t *testing.T, mode policy.Mode, o session.Options, rules policy.Rules, shell, home string) *rig {
	t.Helper()
	p, err := policy.New(rules)
	if err != nil {
		t.Fatal(err)
	}
	rg := &rig{t: t, policy: &seen{Policy: p}, audit: &records{}, levels: &levels{}}
	o.Confine = rg.levels
	reg := session.NewRegistry(o)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		reg.Shutdown(ctx)
	})
	srv := mcp.NewServer(&mcp.Implementation{Name: "warden-test"}, nil)
	r := relay.New(srv, relay.Options{Policy: rg.policy, Audit: rg.audit, Mode: mode})
	Register(r, Deps{
		Registry: reg,
		Env:      []string{"PATH=/usr/bin:/bin", "HOME=" + home, "LANG=C.UTF-8", "TERM=dumb"},
		Shell:    shell,
	})
	st, ct := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	rg.cs, err = mcp.NewClient(&mcp.Implementation{Name: "t"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { rg.cs.Close() })
	return rg
}

func (rg *rig) call(name string, args map[string]any) map[string]any {
	rg.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := rg.cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		rg.t.Fatalf("%s: %v", name, err)
	}
	var got map[string]any
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &got); err != nil {
		rg.t.Fatalf("%s: structured content: %v", name, err)
	}
	return got
}

// approved calls a tool, re-issuing it with its approval token if it
// needs one, as a client's human would.
func (rg *rig) approved(name string, args map[string]any) map[string]any {
	rg.t.Helper()
	got := rg.call(name, args)
	if got["status"] != "approval_required" {
		return got
	}
	with := map[string]any{"approval_token": got["approval_token"]}
	for k, v := range args {
		with[k] = v
	}
	return rg.call(name, with)
}

// start starts a shell session and waits until it reads commands (a
// Ctrl-C before it handles the interrupt would kill it).
func (rg *rig) start(args map[string]any) string {
	rg.t.Helper()
	id := rg.startNow(args)
	rg.send(id, "echo ready-$((1+1))", true)
	rg.readUntil(id, "ready-2")
	return id
}

// startNow starts a session with approval and returns it at once, for a
// start command whose program may not read commands as a shell does.
func (rg *rig) startNow(args map[string]any) string {
	rg.t.Helper()
	got := rg.approved("session_start", args)
	if got["status"] != "ok" {
		rg.t.Fatalf("session_start: %v", got)
	}
	return got["session_id"].(string)
}

// opened starts a writable session, sends opener there with approval,
// and returns the session and a marker path that nothing has made.
func (rg *rig) opened(opener string) (id, marker string) {
	rg.t.Helper()
	marker = filepath.Join(rg.t.TempDir(), "marker")
	id = rg.start(map[string]any{"writable": true})
	if got := rg.approved("session_send", map[string]any{"session_id": id, "data": opener, "enter": true}); got["status"] != "ok" {
		rg.t.Fatalf("send %q: %v", opener, got)
	}
	return id, marker
}

func (rg *rig) send(id, data string, enter bool) map[string]any {
	rg.t.Helper()
	return rg.call("session_send", map[string]any{"session_id": id, "data": data, "enter": enter})
}

// readUntil reads the session until its output holds want.
// splitWrite types "echo \\" and then "touch marker" as lines of their
// own, pause apart, so that a program taking the first line leaves the
// second to run alone, and returns the refusal of the first send refused
// (nil when both ran). Then it types Ctrl-C and, pause later, an empty
// line, and waits until the shell runs a sync command: the marker's fate
// is settled when it returns.
func (rg *rig) splitWrite(id, marker string, pause time.Duration, sync int) map[string]any {
	rg.t.Helper()
	var refused map[string]any
	for _, data := range []string{"echo \\", "touch " + marker} {
		if got := rg.send(id, data, true); got["status"] != "ok" {
			refused = got
			break
		}
		time.Sleep(pause)
	}
	// The settling sends are approved where they need it: a program that
	// survives Ctrl-C (openssl's passphrase prompt) keeps the terminal,
	// and warden refuses what would be typed to it (held.go).
	settle := func(data string, enter bool) {
		rg.approved("session_send", map[string]any{"session_id": id, "data": data, "enter": enter})
	}
	settle("\x03", false)
	// A program reading the terminal restores it with a flush of what was
	// typed meanwhile: let it exit first.
	time.Sleep(pause)
	settle("", true)
	// dash may drop the line typed just after Ctrl-C: resync types it
	// again until it shows.
	rg.resync(id, sync)
	return refused
}

func (rg *rig) readUntil(id, want string) string {
	rg.t.Helper()
	var all strings.Builder
	deadline := time.Now().Add(15 * time.Second)
	for time.Now().Before(deadline) {
		got := rg.call("session_read", map[string]any{"session_id": id, "wait_s": 1})
		s, _ := got["data"].(string)
		all.WriteString(s)
		if strings.Contains(all.String(), want) {
			return all.String()
		}
	}
	rg.t.Fatalf("never read %q; got %q", want, all.String())
	return ""
}

// mark is a file outside the temporary directories, where touch is a
// mutation, that the test removes afterwards. The checkout may itself be
// under /tmp, so it is not used.
func mark(t *testing.T) string {
	t.Helper()
	for _, base := range []string{"/var/lib", os.Getenv("HOME")} {
		if dir, err := os.MkdirTemp(base, ".lines-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return filepath.Join(dir, "marker")
		}
	}
	t.Skip("no writable directory outside the temporary directories")
	return ""
}

// In guarded mode, text that only assembles a mutation once the terminal
// has edited it needs approval, and nothing of it is typed.
func TestSendClassifiesWhatTheShellRuns(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Guarded)
	marker := mark(t)
	id := rg.start(nil)
	steps := []struct {
		name  string
		sends []string // the last one is checked; "…" ends one sent without Enter
	}{
		{"erase", []string{"cat " + marker + strings.Repeat("\x7f", len("cat "+marker)) + "touch " + marker}},
		{"kill", []string{"ls #\x15touch " + marker}},
		{"word erase", []string{"ls foo\x17\x17touch " + marker}},
		{"split", []string{"tou…", "ch " + marker}},
		{"split in three", []string{"echo hi; t…", "ouch…", " " + marker}},
		{"second line", []string{"ls\ntouch " + marker + "\n"}},
		{"continued", []string{`touc\`, "h " + marker}},
	}
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			rg.send(id, "\x03", true)
			var got map[string]any
			for i, s := range st.sends {
				s, cut := strings.CutSuffix(s, "…")
				if i < len(st.sends)-1 {
					// The human approves each harmless-looking piece.
					if got := rg.approved("session_send", map[string]any{"session_id": id, "data": s, "enter": !cut}); got["status"] != "ok" {
						t.Fatalf("piece %q: %v", s, got)
					}
					continue
				}
				got = rg.send(id, s, !cut)
			}
			if got["status"] == "ok" {
				t.Fatalf("assembled touch was typed: %v (classified %q)", got, rg.policy.last())
			}
			if !strings.Contains(rg.policy.last(), marker) {
				t.Errorf("classified %q, not the assembled line", rg.policy.last())
			}
		})
	}
	if got := rg.send(id, "\x03", true); got["status"] != "ok" {
		t.Fatalf("ctrl-c: %v", got)
	}
	if got := rg.send(id, "echo alive-$((40+2))", true); got["status"] != "ok" {
		t.Fatalf("echo: %v", got)
	}
	rg.readUntil(id, "alive-42")
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("the marker exists: an assembled touch ran")
	}
}

// A partial line is classified as what it would be if entered now, so a
// removal cannot be typed in pieces that each look harmless.
func TestPartialLinesAreClassified(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	id := rg.start(nil)
	if got := rg.send(id, "ls; rm -rf /tmp/warden-nothing", false); got["status"] != "approval_required" {
		t.Fatalf("partial removal: %v", got)
	}
	if got := rg.send(id, "echo a", false); got["status"] != "ok" {
		t.Fatalf("harmless partial: %v", got)
	}
	if got := rg.send(id, "b; rm -rf /tmp/warden-nothing", true); got["status"] != "approval_required" {
		t.Fatalf("completing send: %v", got)
	}
	if got, want := rg.policy.last(), "echo ab; rm -rf /tmp/warden-nothing\n"; got != want {
		t.Errorf("classified %q, want %q", got, want)
	}
	// The refused send typed nothing: the line is still "echo a".
	if got := rg.send(id, "bc", true); got["status"] != "ok" {
		t.Fatalf("finishing the harmless line: %v", got)
	}
	rg.readUntil(id, "abc")
}

func TestUnseenKeysAreRefusedOutsideWritableSessions(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	id := rg.start(nil)
	for _, data := range []string{"\x01", "ls\t", "\x1b[A", "rm -rf / \x08\x08\x08\x08\x08\x08\x08\x08\x08ls", "!!", "\x1a", "ls\x19"} {
		got := rg.send(id, data, true)
		if got["status"] != "denied" || !strings.Contains(got["reason"].(string), "writable=true") {
			t.Errorf("%q: %v", data, got)
		}
	}
	// Nothing was typed: the line is empty.
	rg.send(id, "echo clean-$((1+1))", true)
	out := rg.readUntil(id, "clean-2")
	if strings.Contains(out, "ls") {
		t.Errorf("a refused send reached the terminal: %q", out)
	}
	// A record of each refusal, with the reason.
	var refusals int
	rg.audit.mu.Lock()
	for _, r := range rg.audit.all {
		if r.Tool == "session_send" && r.Decision == "denied" && strings.Contains(r.Reason, "cannot see") {
			refusals++
		}
	}
	rg.audit.mu.Unlock()
	if refusals < 3 {
		t.Errorf("%d refusals in the audit log, want at least 3", refusals)
	}
}

// An interrupt from session_signal is followed like Ctrl-C: dash drops the
// line it reads next, so that line must be a complete command.
func TestSignalInterruptIsFollowed(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	id := rg.start(nil)
	if got := rg.call("session_signal", map[string]any{"session_id": id, "signal": "INT"}); got["status"] != "ok" {
		t.Fatalf("signal: %v", got)
	}
	if got := rg.send(id, "echo 'a\nrm -rf /tmp/warden-nothing #'", true); got["status"] != "denied" {
		t.Errorf("an unfinished line after an interrupt: %v", got)
	}
	if got := rg.send(id, "", true); got["status"] != "ok" {
		t.Fatalf("empty line: %v", got)
	}
	if got := rg.send(id, "echo 'multi\nline'", true); got["status"] != "ok" {
		t.Errorf("a multi-line command once the interrupt is past: %v", got)
	}
	rg.readUntil(id, "line")
}

func TestWritableSessions(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Guarded)
	if got := rg.call("session_start", map[string]any{"writable": true}); got["status"] != "approval_required" {
		t.Fatalf("writable start without approval: %v", got)
	}
	ro := rg.start(nil)
	rw := rg.start(map[string]any{"writable": true})
	rg.levels.mu.Lock()
	got := append([]confine.Level(nil), rg.levels.got...)
	rg.levels.mu.Unlock()
	if len(got) != 2 || got[0] != confine.Read || got[1] != confine.Full {
		t.Errorf("confinement of a read-only and a writable start: %v", got)
	}
	list := rg.call("session_list", nil)
	byID := map[string]bool{}
	for _, s := range list["sessions"].([]any) {
		m := s.(map[string]any)
		byID[m["id"].(string)] = m["writable"].(bool)
	}
	if byID[ro] || !byID[rw] {
		t.Errorf("session_list writable: %v", byID)
	}
	// A key warden cannot see needs approval at tier 3 in a writable
	// session, and then types.
	res := rg.send(rw, "echo tab\tdone", true)
	if res["status"] != "approval_required" || res["tier"] != float64(3) {
		t.Fatalf("tab in a writable session: %v", res)
	}
	res = rg.approved("session_send", map[string]any{"session_id": rw, "data": "echo tab\tdone", "enter": true})
	if res["status"] != "ok" {
		t.Fatalf("approved tab: %v", res)
	}
	// After a line warden could not see, it does not guess until Ctrl-C.
	if res := rg.send(rw, "echo next", true); res["status"] != "approval_required" {
		t.Errorf("a line after an unseen one: %v", res)
	}
	if res := rg.send(rw, "\x03", true); res["status"] != "ok" {
		t.Errorf("ctrl-c: %v", res)
	}
	if res := rg.send(rw, "echo after-$((2+2))", true); res["status"] != "ok" {
		t.Errorf("after ctrl-c: %v", res)
	}
	rg.readUntil(rw, "after-4")
}

func TestSendsToOneSessionAreTypedInTurn(t *testing.T) {
	t.Parallel()
	rg := newRig(t, policy.Open)
	id := rg.start(nil)
	var wg sync.WaitGroup
	var mu sync.Mutex
	statuses := map[any]int{}
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got := rg.send(id, "echo turn-"+string(rune('a'+i)), true)
			mu.Lock()
			statuses[got["status"]]++
			mu.Unlock()
		}()
	}
	wg.Wait()
	for st := range statuses {
		if st != "ok" && st != "denied" {
			t.Errorf("statuses %v", statuses)
		}
	}
	if statuses["ok"] == 0 {
		t.Errorf("no send typed: %v", statuses)
	}
}

// openerLeavesNoWrite starts a guarded session, sends opener, then types
// splitWrite's two lines (sync as there), and fails when the marker was
// made: the program opener starts must not have handed the touch to the
// shell unclassified.
func openerLeavesNoWrite(t *testing.T, opener string, sync int) {
	t.Helper()
	rg := newRig(t, policy.Guarded)
	marker := mark(t)
	id := rg.start(nil)
	if got := rg.send(id, opener, true); got["status"] != "ok" {
		t.Fatalf("send %q: %v", opener, got)
	}
	time.Sleep(300 * time.Millisecond)
	rg.splitWrite(id, marker, 300*time.Millisecond, sync)
	if _, err := os.Stat(marker); err == nil {
		t.Errorf("an unapproved send ran touch after %q", opener)
	}
}
