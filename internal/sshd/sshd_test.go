package sshd

import (
	"os/exec"
	"os/user"
	"strings"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

func dial(t *testing.T, s *Server) *ssh.Client {
	t.Helper()
	c, err := ssh.Dial("tcp", s.Addr, &ssh.ClientConfig{
		User:            s.User,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(s.UserKey.Signer)},
		HostKeyCallback: ssh.FixedHostKey(s.HostKey),
		Timeout:         5 * time.Second,
	})
	if err != nil {
		t.Fatalf("dial %s: %v\n%s", s.Addr, err, s.Log())
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func run(t *testing.T, c *ssh.Client, cmd string) string {
	t.Helper()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatalf("session: %v", err)
	}
	defer sess.Close()
	out, err := sess.CombinedOutput(cmd)
	if err != nil {
		t.Fatalf("%s: %v: %s", cmd, err, out)
	}
	return string(out)
}

func TestStartRunsCommandsAsRoot(t *testing.T) {
	s := Start(t, Options{})
	if got := run(t, dial(t, s), "id -u"); strings.TrimSpace(got) != "0" {
		t.Errorf("id -u = %q, want 0", got)
	}
}

func TestUserWithShell(t *testing.T) {
	s := Start(t, Options{User: "wardensh", Shell: "/bin/sh"})
	got := run(t, dial(t, s), "getent passwd $(id -un) | cut -d: -f1,7")
	if want := "wardensh:/bin/sh\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestKeepsTheTestUsersShell: a server for the user running the tests,
// named, with another shell is refused, and the user's shell is as it was
// (usermod on root's would change every later login of root's).
func TestKeepsTheTestUsersShell(t *testing.T) {
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	before, found, err := loginShell(u.Username)
	if err != nil || !found {
		t.Skipf("no passwd entry for %s: %v", u.Username, err)
	}
	other := "/bin/sh"
	if before == other {
		other = "/bin/bash"
	}
	if _, err := ensureUser(u.Username, other); err == nil || !strings.Contains(err.Error(), "not changing the login shell") {
		t.Errorf("a server for %s with shell %s: %v; want it refused", u.Username, other, err)
	}
	if after, _, _ := loginShell(u.Username); after != before {
		t.Errorf("%s's login shell is %s; want %s as before", u.Username, after, before)
		exec.Command("usermod", "--shell", before, u.Username).Run()
	}
}

func TestRestartKeepsAddressAndHostKey(t *testing.T) {
	s := Start(t, Options{})
	c := dial(t, s)
	s.Restart(t)
	// The old connection died with the server.
	if _, err := c.NewSession(); err == nil {
		t.Error("session on a connection to a restarted server: want error")
	}
	if got := run(t, dial(t, s), "echo back"); got != "back\n" {
		t.Errorf("got %q after restart", got)
	}
}
