package sshd

import (
	"io"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// TestDropbearIsARouter shows what StartDropbear stands for: a dropbear
// server whose login finds BusyBox for every command and has no SFTP.
func TestDropbearIsARouter(t *testing.T) {
	s := StartDropbear(t, DropbearOptions{User: "wardentest"})
	// Only the host key's own algorithm, as the pool asks: dropbear
	// 2022.83 offers RSA signatures even without an RSA host key.
	c, err := ssh.Dial("tcp", s.Addr, &ssh.ClientConfig{
		User:              s.User,
		Auth:              []ssh.AuthMethod{ssh.PublicKeys(s.UserKey.Signer)},
		HostKeyCallback:   ssh.FixedHostKey(s.HostKey),
		HostKeyAlgorithms: []string{s.HostKey.Type()},
		Timeout:           5 * time.Second,
	})
	if err != nil {
		t.Fatalf("dial: %v\n%s", err, s.Log())
	}
	defer c.Close()
	if out := run(t, c, "cat --help 2>&1; true"); !strings.Contains(out, "BusyBox") {
		t.Errorf("cat is not BusyBox's: %q", out)
	}
	if out := run(t, c, "echo $0; id -un"); out != "sh\nwardentest\n" {
		t.Errorf("login shell and user: %q", out)
	}
	// dropbear accepts the subsystem and runs its sftp-server, which is
	// not there.
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	stderr, err := sess.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := sess.RequestSubsystem("sftp"); err != nil {
		return
	}
	// A real sftp-server would wait for its client.
	time.AfterFunc(10*time.Second, func() { sess.Close() })
	if msg, _ := io.ReadAll(stderr); !strings.Contains(string(msg), "not found") {
		t.Errorf("sftp subsystem said %q; want its server not found", msg)
	}
}
