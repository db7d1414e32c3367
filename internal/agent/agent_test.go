package agent

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/confine/confinetest"
	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/session"
)

var env = []string{"PATH=/usr/local/bin:/usr/bin:/bin", "LANG=C.UTF-8"}

// pair serves an agent on one end of a pipe and returns the client on the
// other, and a channel that gets Serve's result.
func pair(t *testing.T, o ServeOptions) (*Client, <-chan error) {
	t.Helper()
	a, b := net.Pipe()
	served := make(chan error, 1)
	go func() { served <- Serve(context.Background(), b, o) }()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := NewClient(ctx, a)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, served
}

// alive reports whether pid runs (a zombie does not count).
func alive(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] != 'Z'
}

// waitGone waits, generously, for pid to stop running.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); alive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("process %d is still running", pid)
		}
	}
}

// readPid waits for a pid file a test program writes.
func readPid(t *testing.T, path string) int {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && strings.HasSuffix(string(b), "\n") {
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid in %s", path)
		}
	}
}

func TestHello(t *testing.T) {
	c, _ := pair(t, ServeOptions{Version: "v-test"})
	h := c.Hello()
	if h.Protocol != Protocol || h.Version != "v-test" || h.PID != os.Getpid() || !strings.HasPrefix(h.Confinement.Mechanism, "none") {
		t.Errorf("hello %+v", h)
	}
}

func TestRun(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	ctx := context.Background()
	res, err := c.Run(ctx, runner.Request{Argv: []string{"sh", "-c", "cat; echo err >&2; exit 3"}, Env: env, Stdin: []byte("in\n")})
	if err != nil || string(res.Stdout) != "in\n" || string(res.Stderr) != "err\n" || res.ExitCode != 3 {
		t.Errorf("run: %+v %v", res, err)
	}
	res, err = c.Run(ctx, runner.Request{Argv: []string{"head", "-c", "100000", "/dev/zero"}, Env: env, MaxBytes: 1000})
	if err != nil || !res.Truncated || len(res.Stdout) > 1000 || res.TotalBytes != 100000 {
		t.Errorf("bounded run: truncated %v, kept %d of %d, %v", res.Truncated, len(res.Stdout), res.TotalBytes, err)
	}
	res, err = c.Run(ctx, runner.Request{Argv: []string{"sleep", "60"}, Env: env, Timeout: 200 * time.Millisecond})
	if err != nil || !res.TimedOut {
		t.Errorf("timed run: %+v %v", res, err)
	}
	_, err = c.Run(ctx, runner.Request{Argv: []string{"no-such-program-warden"}, Env: env})
	if err == nil || !strings.Contains(err.Error(), "no-such-program-warden") {
		t.Errorf("missing program: %v", err)
	}
}

func TestConcurrentCalls(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	var wg sync.WaitGroup
	errs := make(chan error, 40)
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			want := strconv.Itoa(i)
			res, err := c.Run(context.Background(), runner.Request{Argv: []string{"sh", "-c", "sleep 0.1; echo " + want}, Env: env})
			if err != nil || strings.TrimSpace(string(res.Stdout)) != want {
				errs <- fmt.Errorf("call %d: %q %v", i, res.Stdout, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// A cancelled call kills the command's whole process group, background
// children included, and the stream carries on.
func TestCancelKillsGroup(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	pidFile := filepath.Join(t.TempDir(), "pid")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan runner.Result, 1)
	go func() {
		res, _ := c.Run(ctx, runner.Request{Argv: []string{"sh", "-c", "sleep 300 & echo $! > " + pidFile + "; wait"}, Env: env})
		done <- res
	}()
	pid := readPid(t, pidFile)
	cancel()
	select {
	case res := <-done:
		if !res.Canceled {
			t.Errorf("cancelled run: %+v", res)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the cancelled run did not return")
	}
	waitGone(t, pid)
	res, err := c.Run(context.Background(), runner.Request{Argv: []string{"echo", "next"}, Env: env})
	if err != nil || string(res.Stdout) != "next\n" {
		t.Errorf("the next call: %+v %v", res, err)
	}
}

// When the stream closes the agent returns and nothing it started runs:
// not a command mid-call, not a session.
func TestStreamEndLeavesNothing(t *testing.T) {
	c, served := pair(t, ServeOptions{})
	dir := t.TempDir()
	go c.Run(context.Background(), runner.Request{Argv: []string{"sh", "-c", "sleep 300 & echo $! > " + dir + "/run; wait"}, Env: env})
	p, err := c.Start(context.Background(), session.Spec{Argv: []string{"sh", "-c", "sleep 300 & echo $! > " + dir + "/sess; wait"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	runPid, sessPid := readPid(t, dir+"/run"), readPid(t, dir+"/sess")
	c.Close()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the agent did not end with its stream")
	}
	waitGone(t, runPid)
	waitGone(t, sessPid)
	if _, _, err := p.Wait(); !errors.Is(err, nil) && !strings.Contains(err.Error(), "gone") {
		t.Errorf("Wait after the stream ended: %v", err)
	}
	if _, err := c.Run(context.Background(), runner.Request{Argv: []string{"true"}, Env: env}); !errors.Is(err, ErrGone) {
		t.Errorf("a call after the end: %v, want ErrGone", err)
	}
}

func TestFiles(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	fsys := c.FS()
	ctx := context.Background()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), []byte("hello world"), 0o640)
	os.Symlink("f", filepath.Join(dir, "link"))
	os.Symlink(".", filepath.Join(dir, "self"))
	info, err := fsys.Lstat(ctx, filepath.Join(dir, "link"))
	if err != nil || info.Type != hostfs.TypeSymlink {
		t.Errorf("lstat link: %+v %v", info, err)
	}
	if l, err := fsys.Readlink(ctx, filepath.Join(dir, "link")); l != "f" || err != nil {
		t.Errorf("readlink: %q %v", l, err)
	}
	data, info, err := fsys.ReadAt(ctx, filepath.Join(dir, "f"), 6, 100)
	if string(data) != "world" || info.Size != 11 || err != nil {
		t.Errorf("read at: %q %+v %v", data, info, err)
	}
	if _, _, err := fsys.ReadAt(ctx, filepath.Join(dir, "link"), 0, 100); err == nil {
		t.Error("read through a final symlink succeeded")
	}
	if _, _, err := fsys.ReadAt(ctx, filepath.Join(dir, "self", "f"), 0, 100); err == nil {
		t.Error("read through a symlinked parent succeeded")
	}
	if _, err := fsys.Lstat(ctx, filepath.Join(dir, "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("lstat of a missing file: %v, want ErrNotExist across the wire", err)
	}
	infos, more, err := fsys.ReadDir(ctx, dir, 2)
	if err != nil || len(infos) != 2 || !more || infos[0].Name != "f" {
		t.Errorf("read dir: %+v %v %v", infos, more, err)
	}
	if _, err := fsys.WriteFile(ctx, filepath.Join(dir, "f"), []byte("x"), hostfs.WriteOptions{}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("write over without overwrite: %v, want ErrExist", err)
	}
	mode := fs.FileMode(0o600)
	wi, err := fsys.WriteFile(ctx, filepath.Join(dir, "new"), []byte("new"), hostfs.WriteOptions{Mode: &mode})
	if err != nil || !wi.Created {
		t.Fatalf("write: %+v %v", wi, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "new")); string(b) != "new" {
		t.Errorf("written file holds %q", b)
	}
	if st, _ := os.Stat(filepath.Join(dir, "new")); st.Mode().Perm() != 0o600 {
		t.Errorf("written mode %v", st.Mode())
	}
	if _, err := fsys.WriteFile(ctx, filepath.Join(dir, "self", "via-link"), []byte("x"), hostfs.WriteOptions{}); err == nil {
		t.Error("write through a symlinked parent succeeded")
	}
	if _, err := os.Lstat(filepath.Join(dir, "via-link")); err == nil {
		t.Error("a write through a symlinked parent created its file")
	}
}

func TestSnapshotFS(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, "etc"), 0o755)
	big := bytes.Repeat([]byte("0123456789"), 300000) // over one chunk
	os.WriteFile(filepath.Join(root, "etc", "big"), big, 0o644)
	os.Symlink("/etc/passwd", filepath.Join(root, "etc", "out"))
	sfs, err := c.OpenSnapshot(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	fis, err := sfs.ReadDir("etc")
	if err != nil || len(fis) != 2 {
		t.Fatalf("read dir: %v %v", fis, err)
	}
	rc, err := sfs.Open("etc/big")
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(got, big) {
		t.Errorf("read %d bytes of %d: %v", len(got), len(big), err)
	}
	if _, err := sfs.Open("etc/out"); err == nil {
		t.Error("a symlink out of the snapshot was opened")
	}
	if _, err := c.OpenSnapshot(context.Background(), filepath.Join(root, "missing")); err == nil {
		t.Error("a missing snapshot root opened")
	}
}

func TestSession(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	p, err := c.Start(context.Background(), session.Spec{Argv: []string{"cat"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Write([]byte("ping\n")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	n, err := p.Read(buf)
	if string(buf[:n]) != "ping\n" || err != nil {
		t.Errorf("read %q %v", buf[:n], err)
	}
	if err := p.Resize(100, 40); !errors.Is(err, session.ErrNoTerminal) {
		t.Errorf("resize without a terminal: %v, want ErrNoTerminal", err)
	}
	if err := p.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if code, sig, _ := p.Wait(); code != -1 || sig == "" {
		t.Errorf("closed session exit %d %q", code, sig)
	}

	tp, err := c.Start(context.Background(), session.Spec{Argv: []string{"sh", "-c", "stty size; read x; stty size"}, Env: env, PTY: true, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	readUntil(t, tp, &out, "24 80")
	if err := tp.Resize(120, 50); err != nil {
		t.Fatal(err)
	}
	tp.Write([]byte("go\n"))
	readUntil(t, tp, &out, "50 120")
	if code, _, err := tp.Wait(); code != 0 || err != nil {
		t.Errorf("pty session exit %d %v", code, err)
	}
}

func readUntil(t *testing.T, r io.Reader, out *bytes.Buffer, want string) {
	t.Helper()
	buf := make([]byte, 4096)
	for !strings.Contains(out.String(), want) {
		n, err := r.Read(buf)
		out.Write(buf[:n])
		if err != nil {
			t.Fatalf("read: %v after %q", err, out.String())
		}
	}
}

// A session that writes far more than the window while nobody reads is
// held by flow control: the client's buffer never overruns (an overrun
// breaks the stream), and every byte arrives once read.
func TestSessionFlowControl(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	const total = 4 << 20
	p, err := c.Start(context.Background(), session.Spec{Argv: []string{"head", "-c", strconv.Itoa(total), "/dev/zero"}, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // let the agent run into the window
	rp := p.(*remoteProc)
	rp.out.mu.Lock()
	held := len(rp.out.buf)
	rp.out.mu.Unlock()
	if held > Window {
		t.Errorf("client buffer holds %d bytes, window %d", held, Window)
	}
	n, err := io.Copy(io.Discard, p)
	if n != total || err != nil {
		t.Errorf("read %d of %d: %v", n, total, err)
	}
	// Meanwhile other calls go through.
	if res, err := c.Run(context.Background(), runner.Request{Argv: []string{"echo", "ok"}, Env: env}); err != nil || string(res.Stdout) != "ok\n" {
		t.Errorf("run beside a session: %+v %v", res, err)
	}
}

// The agent confines each program to the level warden sends: a read
// cannot write, approved work can.
func TestConfinementLevel(t *testing.T) {
	conf, err := confine.New(confine.Options{}, confine.Auto)
	if err != nil {
		t.Fatal(err)
	}
	if !conf.Status().Active {
		t.Skipf("no confinement on this kernel: %s", conf.Status().Mechanism)
	}
	c, _ := pair(t, ServeOptions{Confiner: conf})
	if !c.Hello().Confinement.Active {
		t.Errorf("hello says %+v", c.Hello().Confinement)
	}
	// Read holds every path, the temporary directories too.
	target := filepath.Join(t.TempDir(), "written")
	readCtx := confine.With(context.Background(), confine.Admission{Level: confine.Read})
	res, err := c.Run(readCtx, runner.Request{Argv: []string{"sh", "-c", "echo x > " + target}, Env: env})
	if err != nil || res.ExitCode == 0 {
		t.Errorf("a write at Read: %+v %v", res, err)
	}
	if _, err := os.Stat(target); err == nil {
		t.Fatal("a program run at Read created a file")
	}
	fullCtx := confine.With(context.Background(), confine.Admission{Level: confine.Full})
	res, err = c.Run(fullCtx, runner.Request{Argv: []string{"sh", "-c", "echo x > " + target}, Env: env})
	if err != nil || res.ExitCode != 0 {
		t.Errorf("a write at Full: %+v %v", res, err)
	}
	if _, err := os.Stat(target); err != nil {
		t.Error("a program run at Full could not write")
	}
	// A read reaches a daemon's socket only when warden said the command
	// runs a daemon's client.
	sock := filepath.Join(t.TempDir(), "daemon.sock")
	confinetest.Daemon(t, sock)
	connect := []string{"python3", "-c", "import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(8).decode())", sock}
	for _, daemons := range []bool{false, true} {
		ctx := confine.With(context.Background(), confine.Admission{Level: confine.Read, Daemons: daemons})
		res, err := c.Run(ctx, runner.Request{Argv: connect, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if acted := strings.Contains(string(res.Stdout), "acted"); acted != daemons {
			t.Errorf("a read with Daemons %v reached a daemon: %v: %s%s", daemons, acted, res.Stdout, res.Stderr)
		}
	}
}

// A peer that breaks the protocol ends the stream with an error, never a
// panic or a hang.
func TestProtocolErrors(t *testing.T) {
	for name, raw := range map[string][]byte{
		"garbage":      []byte("not a frame at all, just text\n"),
		"huge":         appendFrame(nil, frame{typ: frameCall, id: 1})[:0:0],
		"unknown type": appendFrame(nil, frame{typ: 99, id: 1}),
		"bad json":     appendFrame(nil, frame{typ: frameCall, id: 1, payload: []byte("{")}),
		"reply to me":  appendFrame(nil, frame{typ: frameReply, id: 1, payload: []byte("{}")}),
		"short window": appendFrame(nil, frame{typ: frameWindow, id: 1, payload: []byte{1}}),
		"short length": {0, 0, 0, 1, 1},
		"truncated":    appendFrame(nil, frame{typ: frameCall, id: 1, payload: []byte(`{"op":"hello"}`)})[:12],
	} {
		t.Run(name, func(t *testing.T) {
			if name == "huge" {
				raw = []byte{0xff, 0xff, 0xff, 0xff, frameCall, 0, 0, 0, 1}
			}
			a, b := net.Pipe()
			served := make(chan error, 1)
			go func() { served <- Serve(context.Background(), b, ServeOptions{}) }()
			go func() { a.Write(raw); a.Close() }()
			select {
			case err := <-served:
				if name != "garbage" && err == nil && name != "truncated" {
					t.Errorf("Serve accepted %s", name)
				}
				if err != nil && !errors.Is(err, errFrame) && !errors.Is(err, errOverrun) {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(30 * time.Second):
				t.Fatal("Serve hung on a broken peer")
			}
		})
	}
}

func FuzzReadFrame(f *testing.F) {
	f.Add(appendFrame(nil, frame{typ: frameCall, id: 7, payload: []byte(`{"op":"hello"}`)}))
	f.Add(appendFrame(nil, frame{typ: frameWindow, id: 1, payload: windowPayload(10)}))
	f.Add([]byte{0, 0, 0, 5, 3, 0, 0, 0, 1})
	f.Add([]byte{0xff, 0xff, 0xff, 0xff})
	f.Fuzz(func(t *testing.T, b []byte) {
		r := bytes.NewReader(b)
		for {
			fr, err := readFrame(r, 1<<16)
			if err != nil {
				return
			}
			if len(fr.payload) > 1<<16 || fr.typ < frameCall || fr.typ > frameExit {
				t.Fatalf("accepted %+v", fr)
			}
			if fr.typ == frameWindow && len(fr.payload) != 4 {
				t.Fatalf("window of %d bytes", len(fr.payload))
			}
			// What decodes encodes back to the same bytes.
			enc := appendFrame(nil, fr)
			again, err := readFrame(bytes.NewReader(enc), 1<<16)
			if err != nil || again.typ != fr.typ || again.id != fr.id || !bytes.Equal(again.payload, fr.payload) {
				t.Fatalf("round trip of %+v: %+v %v", fr, again, err)
			}
		}
	})
}

// Whole files stream both ways in flat memory, within the window, and a
// refused write stops the sender.
func TestStreams(t *testing.T) {
	c, _ := pair(t, ServeOptions{})
	st, ok := c.FS().(hostfs.Streamer)
	if !ok {
		t.Fatal("the agent's files do not stream")
	}
	ctx := context.Background()
	dir := t.TempDir()
	big := bytes.Repeat([]byte("abcdefghij"), 1<<20) // 10 MiB, many windows
	wi, n, err := st.WriteFrom(ctx, filepath.Join(dir, "big"), bytes.NewReader(big), int64(len(big)), hostfs.WriteOptions{})
	if err != nil || n != int64(len(big)) || !wi.Created {
		t.Fatalf("write stream: %+v %d %v", wi, n, err)
	}
	rc, info, err := st.OpenRead(ctx, filepath.Join(dir, "big"))
	if err != nil || info.Size != int64(len(big)) {
		t.Fatalf("open read: %+v %v", info, err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, big) {
		t.Errorf("read stream: %d bytes of %d, %v", len(got), len(big), err)
	}
	// Over max: refused, and nothing is left in place.
	if _, _, err := st.WriteFrom(ctx, filepath.Join(dir, "over"), bytes.NewReader(big), 1000, hostfs.WriteOptions{}); err == nil {
		t.Error("a write stream over its bound succeeded")
	}
	if _, err := os.Lstat(filepath.Join(dir, "over")); err == nil {
		t.Error("a refused write stream left its file")
	}
	// Refused at once (exists): the sender stops, however much is left.
	if _, _, err := st.WriteFrom(ctx, filepath.Join(dir, "big"), io.MultiReader(bytes.NewReader(big), bytes.NewReader(big)), 1<<30, hostfs.WriteOptions{}); !errors.Is(err, fs.ErrExist) {
		t.Errorf("write stream over an existing file: %v, want ErrExist", err)
	}
	// Closing a read stream early ends it on the agent too.
	rc, _, err = st.OpenRead(ctx, filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 10)
	if _, err := rc.Read(buf); err != nil {
		t.Fatal(err)
	}
	if err := rc.Close(); err != nil {
		t.Errorf("close: %v", err)
	}
	if res, err := c.Run(ctx, runner.Request{Argv: []string{"echo", "ok"}, Env: env}); err != nil || string(res.Stdout) != "ok\n" {
		t.Errorf("a call after the streams: %+v %v", res, err)
	}
}
