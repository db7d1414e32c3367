package console

import (
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// staleSocket leaves a socket file at path that nothing listens on, as a
// warden killed with SIGKILL does.
func staleSocket(t *testing.T, path string) {
	t.Helper()
	ln, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("the stale socket is not there: %v", err)
	}
}

// A socket left by a dead warden, at our own path and another's, is
// removed and ours created afresh.
func TestListenReplacesStaleSockets(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "console")
	os.MkdirAll(dir, 0o700)
	mine, other := filepath.Join(dir, "1.sock"), filepath.Join(dir, "424242.sock")
	staleSocket(t, mine)
	staleSocket(t, other)
	ln, err := Listen(mine)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	defer ln.Close()
	if _, err := os.Lstat(other); !os.IsNotExist(err) {
		t.Errorf("the dead warden's socket %s is still there (err %v)", other, err)
	}
	fi, err := os.Lstat(mine)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("new socket: %v, mode %v", err, fi.Mode())
	}
	go func() {
		if c, err := ln.Accept(); err == nil {
			c.Close()
		}
	}()
	c, err := net.Dial("unix", mine)
	if err != nil {
		t.Fatalf("the re-created socket does not answer: %v", err)
	}
	c.Close()
}

// A socket a running server answers on is not stolen: Listen refuses with
// a clear error and the server keeps its socket.
func TestListenRefusesLiveSocket(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "console")
	os.MkdirAll(dir, 0o700)
	path := filepath.Join(dir, "1.sock")
	live, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer live.Close()
	go func() {
		for {
			c, err := live.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	ln, err := Listen(path)
	if err == nil {
		ln.Close()
		t.Fatal("Listen took over a live socket")
	}
	if !strings.Contains(err.Error(), "in use by a running warden") {
		t.Errorf("error %q does not say the socket is in use", err)
	}
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("the running server lost its socket: %v", err)
	}
	c.Close()
}

// TestDecodeAnswerStrict: an answer body that could be read two ways —
// a key twice, a key in another case (which encoding/json would match),
// an unknown key — is refused; the plain spellings are read.
func TestDecodeAnswerStrict(t *testing.T) {
	const d = "0000000000000000000000000000000000000000000000000000000000000000"
	bad := []string{
		`{"approve":false,"approve":true}`,
		`{"approve":true,"digest":"` + d + `","digest":"ff"}`,
		`{"approve":false,"Approve":true}`,
		`{"APPROVE":true}`,
		`{"appro\u0076e":false,"approve":true}`,
		`{"approve":true,"reason":"a","reason":"b"}`,
		`{"approve":true,"Digest":"` + d + `"}`,
		`{"approve":true,"extra":1}`,
		`{"approve":true} {"approve":false}`,
		`[true]`,
	}
	for _, s := range bad {
		if b, err := decodeAnswer(strings.NewReader(s)); err == nil {
			t.Errorf("decodeAnswer(%s) = %+v, want an error", s, b)
		}
	}
	good := map[string]AnswerBody{
		`{"approve":true}`: {Approve: true},
		`{"approve":false,"reason":"no","digest":"` + d + `"}`: {Reason: "no", Digest: d},
		` {"digest":"` + d + `", "approve": true} `:            {Approve: true, Digest: d},
	}
	for s, want := range good {
		if b, err := decodeAnswer(strings.NewReader(s)); err != nil || b != want {
			t.Errorf("decodeAnswer(%s) = %+v, %v, want %+v", s, b, err, want)
		}
	}
}
