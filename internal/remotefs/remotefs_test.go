package remotefs

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// target returns a pool and the inventory target of srv.
func target(t *testing.T, srv *sshd.Server) (*sshpool.Pool, sshpool.Target) {
	t.Helper()
	pool, _, tg := sshpooltest.Server(t, srv, "box")
	return pool, tg
}

// shellExec runs scripts with a local shell, for the cases that need a
// shell's behaviour rather than a server's.
func shellExec(shell ...string) ExecFunc {
	return func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
		cmd := exec.CommandContext(ctx, shell[0], append(shell[1:], "-c", script)...)
		cmd.Stdin, cmd.Stdout = stdin, stdout
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		if errors.As(err, &ee) && ctx.Err() == nil {
			return Exit{Code: ee.ExitCode(), Stderr: stderr.Bytes()}, nil
		}
		if err != nil {
			return Exit{}, err
		}
		return Exit{Stderr: stderr.Bytes()}, nil
	}
}

// TestStartupNoiseIsSkipped: a login shell whose startup files print on
// stdout (bash reads ~/.bashrc under sshd) does not corrupt what a script
// prints after the marker.
func TestStartupNoiseIsSkipped(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f")
	if err := os.WriteFile(p, []byte("data"), 0o644); err != nil {
		t.Fatal(err)
	}
	noisy := func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
		return shellExec("/bin/sh")(ctx, "printf 'Welcome!\\nwarden-remotefs:'; "+script, stdin, stdout)
	}
	got, info, err := NewExec(noisy).ReadAt(context.Background(), p, 0, 10)
	if err != nil || string(got) != "data" || info.Size() != 4 {
		t.Fatalf("read = %q, %+v, %v", got, info, err)
	}
	mute := func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
		return Exit{Code: 1, Stderr: []byte("This account is currently not available.\n")}, nil
	}
	if _, err := NewExec(mute).Lstat(context.Background(), p); err == nil || !strings.Contains(err.Error(), "did not run the command") || !strings.Contains(err.Error(), "not available") {
		t.Errorf("a login that runs nothing: %v", err)
	}
}

// TestMissingCommand: a host without one of the commands says so.
func TestMissingCommand(t *testing.T) {
	run := func(ctx context.Context, script string, stdin io.Reader, stdout io.Writer) (Exit, error) {
		return shellExec("/usr/bin/env", "PATH="+t.TempDir(), "/bin/sh")(ctx, script, stdin, stdout)
	}
	_, err := NewExec(run).Lstat(context.Background(), "/")
	if err == nil || !strings.Contains(err.Error(), "a command is missing") {
		t.Errorf("lstat without stat: %v", err)
	}
}

// TestShells runs the operations under every POSIX shell a router or
// server logs in with, on this machine.
func TestShells(t *testing.T) {
	shells := map[string][]string{"dash": {"/bin/sh"}, "busybox_ash": {"/bin/busybox", "sh"}, "bash": {"/bin/bash", "--posix"}}
	for name, sh := range shells {
		t.Run(name, func(t *testing.T) {
			if _, err := os.Stat(sh[0]); err != nil {
				t.Skip(err)
			}
			dir := t.TempDir()
			e := NewExec(shellExec(sh...))
			ctx := context.Background()
			name := filepath.Join(dir, "x'y \"$z\"\n`w`")
			if _, err := e.Write(ctx, name, strings.NewReader("one"), WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			if _, err := e.Write(ctx, name, strings.NewReader("two"), WriteOptions{}); !errors.Is(err, fs.ErrExist) {
				t.Errorf("second write: %v, want exists", err)
			}
			got, _, err := e.ReadAt(ctx, name, 1, 5)
			if err != nil || string(got) != "ne" {
				t.Errorf("read = %q, %v", got, err)
			}
			infos, more, err := e.ReadDir(ctx, dir, 0)
			if err != nil || more || len(infos) != 1 || infos[0].Name() != filepath.Base(name) {
				t.Errorf("readdir = %+v, %v, %v", infos, more, err)
			}
		})
	}
}

// TestWriteIsCommittedOnlyWhole: a write whose source fails, or whose
// context ends, in the middle never replaces the target and leaves no
// temporary file.
func TestWriteIsCommittedOnlyWhole(t *testing.T) {
	pool, tg := target(t, sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"}))
	e := NewExec(SSH(pool, tg))
	dir := userDir(t)
	p := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(p, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	gone := errors.New("disk gone")
	broken := io.MultiReader(strings.NewReader("new new new"), iotest.ErrReader(gone))
	if _, err := e.Write(context.Background(), p, broken, WriteOptions{Overwrite: true}); !errors.Is(err, gone) {
		t.Errorf("write from a failing source: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("partial"))
		cancel()
		time.Sleep(300 * time.Millisecond)
		pw.Close()
	}()
	if _, err := e.Write(ctx, p, pr, WriteOptions{Overwrite: true}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled write: %v", err)
	}
	if b, _ := os.ReadFile(p); string(b) != "old" {
		t.Errorf("target is %q after failed writes", b)
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// userDir is a directory wardentest owns.
func userDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "warden-remotefs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if out, err := exec.Command("chown", "wardentest:", dir).CombinedOutput(); err != nil {
		t.Fatalf("chown: %v: %s", err, out)
	}
	return dir
}

// TestSSHExec covers the exec channel itself on dropbear: exit codes,
// stdin, bounded stderr, cancellation that ends the remote command, and
// scripts too long for one request.
func TestSSHExec(t *testing.T) {
	srv := sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"})
	pool, tg := target(t, srv)
	run := SSH(pool, tg)
	ctx := context.Background()
	var out bytes.Buffer
	x, err := run(ctx, "tr a-z A-Z; echo oops >&2; exit 3", strings.NewReader("abc\n"), &out)
	if err != nil || x.Code != 3 || out.String() != "ABC\n" || string(x.Stderr) != "oops\n" {
		t.Errorf("run = %+v %q %v", x, out.String(), err)
	}
	x, err = run(ctx, "head -c 100000 /dev/zero >&2", nil, io.Discard)
	if err != nil || len(x.Stderr) != maxStderr {
		t.Errorf("stderr kept %d bytes, %v; want %d", len(x.Stderr), err, maxStderr)
	}
	if _, err := run(ctx, strings.Repeat("#", maxScript+1), nil, io.Discard); err == nil {
		t.Error("a script longer than a request may be was sent")
	}
	cctx, cancel := context.WithTimeout(ctx, 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	var pidOut bytes.Buffer
	_, err = run(cctx, "echo $$; exec sleep 30", nil, &pidOut)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 5*time.Second {
		t.Errorf("cancelled run: %v after %s", err, time.Since(start))
	}
	// The killed command, this one and not another test's sleep, is gone
	// from the server (dropbear runs on this machine).
	pid, err := strconv.Atoi(strings.TrimSpace(pidOut.String()))
	if err != nil {
		t.Fatalf("the command's pid: %q: %v", pidOut.String(), err)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
		if err != nil || !bytes.HasPrefix(cmdline, []byte("sleep\x0030")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("sleep 30 (pid %d) still runs", pid)
		}
	}
}

func TestModeOf(t *testing.T) {
	tests := []struct {
		name string
		raw  uint32
		want fs.FileMode
	}{
		{"file", 0o100644, 0o644},
		{"dir", 0o40755, fs.ModeDir | 0o755},
		{"symlink", 0o120777, fs.ModeSymlink | 0o777},
		{"fifo", 0o10600, fs.ModeNamedPipe | 0o600},
		{"socket", 0o140755, fs.ModeSocket | 0o755},
		{"char", 0o20666, fs.ModeDevice | fs.ModeCharDevice | 0o666},
		{"block", 0o60660, fs.ModeDevice | 0o660},
		{"setuid", 0o104755, fs.ModeSetuid | 0o755},
		{"sticky dir", 0o41777, fs.ModeDir | fs.ModeSticky | 0o777},
		{"setgid", 0o102755, fs.ModeSetgid | 0o755},
	}
	for _, tc := range tests {
		if got := modeOf(tc.raw); got != tc.want {
			t.Errorf("%s: modeOf(%o) = %v, want %v", tc.name, tc.raw, got, tc.want)
		}
	}
}

func TestParseStat(t *testing.T) {
	in, err := parseStat("x", "81a4 12 1735787045 1001 1002 2049 131")
	if err != nil || in.Size() != 12 || in.Mode() != 0o644 || in.ModTime().Unix() != 1735787045 || in.UID() != 1001 || in.GID() != 1002 {
		t.Errorf("parse = %+v, %v", in, err)
	}
	for _, bad := range []string{"", "81a4 12 1 2 3 4", "81a4 12 1 2 3 4 5 6", "zz 1 1 1 1 1 1", "81a4 -1 1 1 1 1 1", "81a4 1 1 -1 1 1 1", "81a4  1 1 1 1 1", "81a4 1 1 1 1 1 x"} {
		if _, err := parseStat("x", bad); err == nil {
			t.Errorf("parseStat(%q) accepted", bad)
		}
	}
}

func FuzzParseStat(f *testing.F) {
	f.Add("81a4 12 1735787045 1001 1002 2049 131")
	f.Add("a1ff 3 0 0 0 0 0")
	f.Fuzz(func(t *testing.T, line string) {
		in, err := parseStat("x", line)
		if err == nil && in.Size() < 0 {
			t.Errorf("negative size from %q", line)
		}
	})
}

func TestParseListing(t *testing.T) {
	names, stats := parseListing([]byte("a\x00b c\n\x00\x00l1\nl2\n"))
	if strings.Join(names, "|") != "a|b c\n" || strings.Join(stats, "|") != "l1|l2" {
		t.Errorf("names %q stats %q", names, stats)
	}
	names, stats = parseListing([]byte("a\x00b\x00"))
	if len(names) != 2 || stats != nil {
		t.Errorf("names only: %q %q", names, stats)
	}
}

func FuzzParseListing(f *testing.F) {
	f.Add([]byte("a\x00b c\x00\n\x00"))
	f.Add([]byte("a\x00\x00l1\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		names, stats := parseListing(b)
		for _, n := range names {
			if n == "" || strings.ContainsRune(n, 0) {
				t.Errorf("name %q from %q", n, b)
			}
		}
		for _, s := range stats {
			if strings.ContainsAny(s, "\n\x00") && !strings.Contains(string(b), s) {
				t.Errorf("stat line %q from %q", s, b)
			}
		}
	})
}

func FuzzMarkWriter(f *testing.F) {
	f.Add([]byte("noise\n"+marker+"\ndata"), 3)
	f.Fuzz(func(t *testing.T, b []byte, split int) {
		var out bytes.Buffer
		m := &markWriter{w: &out}
		if split < 0 || split > len(b) {
			split = len(b) / 2
		}
		m.Write(b[:split])
		m.Write(b[split:])
		line := []byte(marker + "\n")
		i := bytes.Index(b, line)
		if (i >= 0) != m.seen {
			t.Fatalf("seen = %v for %q", m.seen, b)
		}
		if i >= 0 && !bytes.Equal(out.Bytes(), b[i+len(line):]) {
			t.Errorf("passed %q, want %q", out.Bytes(), b[i+len(line):])
		}
	})
}
