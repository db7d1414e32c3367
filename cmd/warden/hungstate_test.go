package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestHungStateDir: with warden's state directory on a FUSE mount (bindfs)
// whose daemon is stopped, as on an NFS share whose server is gone, a
// session started before goes on (what is typed runs and its output is
// read, though its recording waits), a new session is refused within
// exec.default_timeout saying why, and closing a session answers within
// it too, saying its recording is finished later, and the console says
// the recordings do not answer; run_script, whose
// script is staged beside the state dir, is refused within 10 s;
// a host tool whose rules wait on the state dir is answered after one
// wait, not one per program it runs. Once the daemon answers, the
// recording holds what the session printed meanwhile, what the refused
// calls made late is removed, and scripts and sessions run again.
func TestHungStateDir(t *testing.T) {
	// Mostly waits on a mount that does not answer, in a warden of its own.
	t.Parallel()
	w := consoleOnMount(t, false, "exec:\n  default_timeout: 2s\n", "WARDEN_MODE=guarded")
	s, src, fuse, console, bearer := w.s, w.src, w.fuse, w.console, w.bearer
	a := startSession(t, s.cs, nil)
	a.send("echo before-$((6*7))")
	a.readUntil("before-42")

	resume := fuse.Stop(t)
	began := time.Now()
	a.send("echo during-$((6*7))")
	a.readUntil("during-42")
	if _, got := callTool(t, s.cs, "session_start", nil); got["status"] == "ok" || !strings.Contains(fmt.Sprint(got["reason"]), "did not answer within 2s (a mount whose server does not answer?)") {
		t.Errorf("a session started with the recordings directory not answering: %v; want it refused saying why", got)
	}
	_, got := callTool(t, s.cs, "session_close", map[string]any{"session_id": a.id})
	if !strings.Contains(fmt.Sprint(got), "it is finished when it does") {
		t.Errorf("a session closed with its recording not answering: %v; want it to say so", got)
	}
	if took := time.Since(began); took > 40*time.Second {
		t.Errorf("a send, a read, a start and a close took %s with the recordings not answering", took)
	}
	if _, got := callTool(t, s.cs, "session_list", nil); strings.Contains(fmt.Sprint(got["sessions"]), a.id) {
		t.Errorf("the closed session is still listed: %v", got)
	}
	// The console lists and replays recordings: it says the directory
	// does not answer.
	for _, path := range []string{"/api/recordings", "/api/recordings/" + a.id} {
		if code, body, _ := webReq(t, "GET", console+path, bearer, ""); code != 503 || !strings.Contains(body, "did not answer within 10s (a mount whose server does not answer?)") {
			t.Errorf("GET %s with the recordings not answering: %d %s; want 503 saying why", path, code, body)
		}
	}
	// run_script stages its script beside the state dir, waiting on it
	// 10 s at most, however long the call's timeout.
	began = time.Now()
	if _, got := callTool(t, s.cs, "run_script", map[string]any{"script": "echo staged", "timeout_s": 60}); got["status"] == "ok" ||
		!strings.Contains(fmt.Sprint(got["reason"]), "did not answer within 10s (a mount whose server does not answer?)") {
		t.Errorf("run_script with its script directory not answering: %v; want it refused saying why", got)
	}
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("run_script took %s with its script directory not answering", took)
	}
	// The host tools' rules are first built now, which lists the state
	// dir: system_info's first probe waits on that build, and the five
	// after it are refused at once rather than each waiting as long.
	began = time.Now()
	if _, got := callTool(t, s.cs, "system_info", nil); !strings.Contains(fmt.Sprint(got["probes"]), "is not answering") {
		t.Errorf("system_info with the state dir not answering: %v; want its probes to say why they could not run", got)
	}
	if took := time.Since(began); took > 30*time.Second {
		t.Errorf("system_info took %s with the state dir not answering; want one wait for its rules, not one per probe", took)
	}

	resume()
	cast := filepath.Join(src, "state", "recordings", a.id+".cast")
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		b, _ := os.ReadFile(cast)
		if strings.Contains(string(b), "during-42") && strings.HasPrefix(string(b), `{"version":2`) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the recording once the daemon answers holds no output of the stall:\n%s", b)
		}
	}
	// What the refused start and script made once the daemon answered
	// is removed: the recording of the session that ran is all there is.
	left := func(dir string) []string {
		ents, _ := os.ReadDir(filepath.Join(src, dir))
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		return names
	}
	for deadline := time.Now().Add(30 * time.Second); fmt.Sprint(left("state/recordings")) != "["+a.id+".cast]" || len(left("state-scripts")) > 0; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("left behind by the refused calls: recordings %v, scripts %v", left("state/recordings"), left("state-scripts"))
		}
	}
	// Rules a call began to build while the daemon was stopped finish
	// once it answers; a start meanwhile is refused at once (the build
	// has taken past 10 s), so scripts run again within a bound, not at
	// the first try.
	var ran map[string]any
	for deadline := time.Now().Add(30 * time.Second); ran["stdout"] != "staged\n" && time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		_, ran = callTool(t, s.cs, "run_script", map[string]any{"script": "echo staged", "timeout_s": 5})
	}
	if ran["stdout"] != "staged\n" {
		t.Errorf("run_script 30 s after the daemon answers: %v", ran)
	}
	b := startSession(t, s.cs, nil)
	b.send("echo after-$((6*7))")
	b.readUntil("after-42")
}

// TestIdleExitWithStateDirNotAnswering: a warden serving with an idle
// exit, whose state dir (where it keeps last_activity) stopped answering
// once it served, still exits when idle, saying its last write of
// last_activity did not finish, rather than wait on the file for good.
func TestIdleExitWithStateDirNotAnswering(t *testing.T) {
	t.Parallel()
	w := startOnMount(t, false, "serve", "--http", "127.0.0.1:0", "--idle-exit", "3s")
	// Serving starts after "warden starting": it reads the tokens in the
	// state dir, which is to stop answering only once that is done.
	for deadline := time.Now().Add(30 * time.Second); !strings.Contains(w.out.String(), "serving MCP at"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) || w.exited() {
			w.kill()
			t.Fatalf("warden did not serve:\n%s", w.out.String())
		}
	}
	w.awaitExit(t, w.fuse.Stop(t), 60*time.Second)
	if out := w.out.String(); !strings.Contains(out, "last_activity") || !strings.Contains(out, "warden stopped") {
		t.Errorf("the exit does not say the last_activity file did not answer:\n%s", out)
	}
}

// TestStartWithStateDirNotAnswering: a warden whose state dir does not
// answer when it starts (a hard NFS mount whose server is gone) exits
// saying so, rather than wait without a word.
func TestStartWithStateDirNotAnswering(t *testing.T) {
	t.Parallel()
	w := startOnMount(t, true, "serve")
	w.awaitExit(t, w.resume, 60*time.Second)
	if out := w.out.String(); !strings.Contains(out, "did not answer within 10s (a mount whose server does not answer?)") || strings.Contains(out, "warden starting") {
		t.Errorf("warden did not refuse to start saying its state dir does not answer:\n%s", out)
	}
	if w.cmd.ProcessState.Success() {
		t.Error("warden exited 0 without serving")
	}
}

// mountedWarden is a warden process whose state dir is on a FUSE mount.
type mountedWarden struct {
	cmd    *exec.Cmd
	out    *syncBuffer
	done   chan error
	fuse   *hostfstest.FUSE
	resume func() // set when the mount was stopped before warden started
}

// startOnMount starts warden with args, its state dir on a bindfs mount,
// stopped first when stopped is set.
func startOnMount(t *testing.T, stopped bool, args ...string) *mountedWarden {
	src := t.TempDir()
	_, mnt := hostfstest.MountPoint(t)
	w := &mountedWarden{out: new(syncBuffer), done: make(chan error, 1), fuse: hostfstest.MountFUSE(t, src, mnt)}
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	if err := os.WriteFile(cfg, []byte("exec:\n  default_timeout: 2s\naudit:\n  path: "+filepath.Join(t.TempDir(), "audit.jsonl")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(mnt, "state")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	if stopped {
		w.resume = w.fuse.Stop(t)
	}
	env, _ := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_STATE_DIR="+state, "WARDEN_TOKEN=mount-test-token-0123456789abcdef")
	w.cmd = execCommand(args, env)
	w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
	if err := w.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { w.done <- w.cmd.Wait() }()
	return w
}

// exited reports whether warden's main thread is gone (a zombie): a
// thread of an exited warden may still wait in the kernel on the stopped
// daemon, so the process is reaped only once the daemon answers.
func (w *mountedWarden) exited() bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", w.cmd.Process.Pid))
	i := bytes.LastIndexByte(b, ')')
	return err != nil || i > 0 && i+2 < len(b) && b[i+2] == 'Z'
}

func (w *mountedWarden) kill() {
	if w.resume != nil {
		w.resume()
	}
	_ = w.cmd.Process.Kill()
	<-w.done
}

// awaitExit waits up to limit for warden to exit with its mount stopped,
// then resumes the mount and reaps it.
func (w *mountedWarden) awaitExit(t *testing.T, resume func(), limit time.Duration) {
	t.Helper()
	w.resume = resume
	for deadline := time.Now().Add(limit); !w.exited(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			w.kill()
			t.Fatalf("warden did not exit with its state dir not answering:\n%s", w.out.String())
		}
	}
	resume()
	<-w.done
}

// TestStartHeldByFileNotAnswering: any file a start reads on a mount that
// does not answer (the config, the audit log, a tool file: a hard NFS
// mount whose server is gone) holds the start in the kernel; warden gives
// up once --start-timeout has passed, naming the file, and exits 1 so a
// service manager can start it again later.
func TestStartHeldByFileNotAnswering(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ name, what string }{
		{"config", "config file"},
		{"audit", "audit.path"},
		{"tool", "tool file"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			src := t.TempDir()
			_, mnt := hostfstest.MountPoint(t)
			fuse := hostfstest.MountFUSE(t, src, mnt)
			cfg, held := filepath.Join(t.TempDir(), "warden.yaml"), filepath.Join(mnt, "held")
			body := "exec:\n  default_timeout: 2s\n"
			switch c.name {
			case "config":
				cfg = held
			case "audit":
				body += "audit:\n  path: " + held + "\n"
			case "tool":
				body += "tools: [" + held + "]\n"
				if err := os.WriteFile(held, []byte("mcp:\n  tools: []\n"), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(cfg, []byte(body), 0o600); err != nil {
				t.Fatal(err)
			}
			w := &mountedWarden{out: new(syncBuffer), done: make(chan error, 1), fuse: fuse}
			w.resume = fuse.Stop(t)
			env, _ := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_TOKEN=mount-test-token-0123456789abcdef")
			w.cmd = execCommand([]string{"serve", "--start-timeout", "3s"}, env)
			w.cmd.Stdout, w.cmd.Stderr = w.out, w.out
			if err := w.cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() { w.done <- w.cmd.Wait() }()
			w.awaitExit(t, w.resume, 60*time.Second)
			want := c.what + " " + held + " did not answer within 2s (a mount whose server does not answer?)"
			if out := w.out.String(); !strings.Contains(out, "not serving 3s after starting") || !strings.Contains(out, want) {
				t.Errorf("warden did not give up its start naming %s:\n%s", held, out)
			}
			if w.cmd.ProcessState.Success() {
				t.Error("warden exited 0 without serving")
			}
		})
	}
}

// TestReplayOfRecordingNotAnswering: a recording whose share stops
// answering while the console replays it ends the reply as broken within
// the console's wait, rather than hold it for good or end it as if the
// recording were whole; the console answers other requests meanwhile.
func TestReplayOfRecordingNotAnswering(t *testing.T) {
	t.Parallel()
	w := consoleOnMount(t, false, "")
	src, fuse, console, bearer := w.src, w.fuse, w.console, w.bearer
	// A recording larger than the socket buffers and read-ahead hold.
	const id = "0123456789abcdef0123456789abcdef"
	var rec bytes.Buffer
	rec.WriteString(`{"version":2,"width":80,"height":24}` + "\n")
	for i := 0; rec.Len() < 32<<20; i++ {
		fmt.Fprintf(&rec, "[%d.0, \"o\", \"line %d of a long recording\\r\\n\"]\n", i, i)
	}
	if err := os.MkdirAll(filepath.Join(src, "state", "recordings"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(src, "state", "recordings", id+".cast"), rec.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", console+"/api/recordings/"+id, nil)
	req.Header.Set("Authorization", bearer["Authorization"])
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.ReadFull(resp.Body, make([]byte, 64<<10)); err != nil || resp.StatusCode != 200 {
		t.Fatalf("the replay did not start: %d %v", resp.StatusCode, err)
	}
	resume := fuse.Stop(t)
	defer resume()
	got := make(chan error, 1)
	go func() {
		n, err := io.Copy(io.Discard, resp.Body)
		if err == nil && n+64<<10 < int64(rec.Len()) {
			err = fmt.Errorf("the reply ended as whole after %d of %d bytes", n+64<<10, rec.Len())
		} else if err == nil {
			err = errors.New("the whole recording was sent: the mount stopped too late to show anything")
		}
		got <- err
	}()
	select {
	case err := <-got:
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("the replay of a recording that stopped answering ended with %v; want the reply broken off", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the replay of a recording that stopped answering was held for 60 s")
	}
	if code, body, _ := webReq(t, "GET", console+"/api/sessions", bearer, ""); code != 200 {
		t.Errorf("the console did not answer meanwhile: %d %s", code, body)
	}
}

// TestConsoleAuditNotAnswering: with the audit log on a share that stops
// answering, the console's audit search and chain check answer 503 within
// its wait, saying so, and answer again once the share does.
func TestConsoleAuditNotAnswering(t *testing.T) {
	t.Parallel()
	w := consoleOnMount(t, true, "")
	fuse, console, bearer := w.fuse, w.console, w.bearer
	paths := []string{"/api/audit", "/api/audit/verify"}
	for _, p := range paths {
		if code, body, _ := webReq(t, "GET", console+p, bearer, ""); code != 200 {
			t.Fatalf("GET %s with the audit log answering: %d %s", p, code, body)
		}
	}
	resume := fuse.Stop(t)
	for _, p := range paths {
		began := time.Now()
		if code, body, _ := webReq(t, "GET", console+p, bearer, ""); code != 503 || !strings.Contains(body, "the audit log did not answer within 10s (a mount whose server does not answer?)") {
			t.Errorf("GET %s with the audit log not answering: %d %s; want 503 saying why", p, code, body)
		}
		if took := time.Since(began); took > 25*time.Second {
			t.Errorf("GET %s took %s with the audit log not answering", p, took)
		}
	}
	resume()
	for _, p := range paths {
		if code, body, _ := webReq(t, "GET", console+p, bearer, ""); code != 200 {
			t.Errorf("GET %s once the audit log answers: %d %s", p, code, body)
		}
	}
}

// consoleWarden is a warden serving its console, with its state dir or
// its audit log on a FUSE mount.
type consoleWarden struct {
	s       *stdioServer
	src     string // the mount's source
	fuse    *hostfstest.FUSE
	console string // the console's URL
	bearer  map[string]string
}

// consoleOnMount starts a warden serving its console, with its state dir
// on a FUSE mount, or its audit log when audit is set; config adds to
// its config file, env to its environment.
func consoleOnMount(t *testing.T, audit bool, config string, env ...string) *consoleWarden {
	w := &consoleWarden{src: t.TempDir()}
	_, mnt := hostfstest.MountPoint(t)
	w.fuse = hostfstest.MountFUSE(t, w.src, mnt)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	w.console = "http://" + ln.Addr().String()
	ln.Close()
	cfg := filepath.Join(t.TempDir(), "warden.yaml")
	auditPath, state := filepath.Join(t.TempDir(), "audit.jsonl"), filepath.Join(mnt, "state")
	if audit {
		auditPath, state = filepath.Join(mnt, "audit.jsonl"), filepath.Join(t.TempDir(), "state")
	}
	if err := os.WriteFile(cfg, []byte(config+"audit:\n  path: "+auditPath+"\nconsole:\n  listen: "+strings.TrimPrefix(w.console, "http://")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	e, _ := wardenEnv(t, append(env, "WARDEN_CONFIG="+cfg, "WARDEN_STATE_DIR="+state)...)
	w.s = startStdio(t, e, state, nil)
	var opTok []byte
	for deadline := time.Now().Add(30 * time.Second); len(opTok) == 0; time.Sleep(50 * time.Millisecond) {
		if opTok, _ = os.ReadFile(filepath.Join(state, "console-token")); time.Now().After(deadline) {
			t.Fatal("the console wrote no token")
		}
	}
	w.bearer = map[string]string{"Authorization": "Bearer " + strings.TrimSpace(string(opTok))}
	return w
}
