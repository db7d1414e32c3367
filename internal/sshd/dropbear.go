package sshd

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/crypto/ssh"

	"github.com/warden-mcp/warden/internal/shellword"
)

// Dropbear is where Debian's dropbear-bin installs the server.
const Dropbear = "/usr/sbin/dropbear"

// BusyBox is Debian's busybox-static binary, the router userland.
const BusyBox = "/bin/busybox"

// dropbearSFTPServer is the SFTP server Debian's dropbear runs for the
// sftp subsystem, installed by openssh-sftp-server.
const dropbearSFTPServer = "/usr/lib/sftp-server"

// DropbearOptions shapes one router-like server.
type DropbearOptions struct {
	// ListenAddress is the loopback address to bind; default 127.0.0.1.
	ListenAddress string
	// User is the login, created if needed, whose login shell is /bin/sh
	// (BusyBox sh on the server). Empty means the user running the test.
	User string
	// UserKey is the key the client authenticates with; nil generates one.
	UserKey *Key
}

// StartDropbear runs a router-like SSH server and stops it when the test
// ends: dropbear with no SFTP server, whose logins find a BusyBox userland.
// It runs in a mount namespace of its own in which a directory holding a
// copy of busybox-static and a symlink per applet is bind-mounted over
// /usr/bin (and so /bin), as a router's PATH holds nothing but BusyBox,
// and a home of its own holding authorized_keys over the user's. Nothing
// outside the namespace changes. The returned Server is used like one
// from Start.
//
// It needs Debian's dropbear-bin and busybox-static and root; it skips the
// test when they are missing, unless WARDEN_REQUIRE_SSHD=1.
func StartDropbear(t testing.TB, opts DropbearOptions) *Server {
	t.Helper()
	RequireDropbear(t)
	if opts.ListenAddress == "" {
		opts.ListenAddress = "127.0.0.1"
	}
	login, err := ensureUser(opts.User, "/bin/sh")
	if err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	u, err := user.Lookup(login)
	if err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	dir, err := os.MkdirTemp("", "warden-dropbear-")
	if err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	farm := filepath.Join(dir, "bin")
	home := filepath.Join(dir, "home")
	for _, d := range []string{dir, farm, home, filepath.Join(home, ".ssh")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatalf("dropbear: %v", err)
		}
		if err := os.Chmod(d, 0o755); err != nil {
			t.Fatalf("dropbear: %v", err)
		}
	}
	if err := busyboxFarm(farm); err != nil {
		t.Fatalf("dropbear: %v", err)
	}

	hostKeyPath := filepath.Join(dir, "dropbear_ed25519_host_key")
	if out, err := exec.Command("dropbearkey", "-t", "ed25519", "-f", hostKeyPath).CombinedOutput(); err != nil {
		t.Fatalf("dropbearkey: %v: %s", err, out)
	}
	hostKey, err := dropbearPublic(hostKeyPath)
	if err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	userKey := opts.UserKey
	if userKey == nil {
		userKey = NewKey(t)
	}
	if err := os.WriteFile(filepath.Join(home, ".ssh", "authorized_keys"), ssh.MarshalAuthorizedKey(userKey.Public()), 0o644); err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	port, err := freePort(opts.ListenAddress)
	if err != nil {
		t.Fatalf("dropbear: %v", err)
	}
	addr := net.JoinHostPort(opts.ListenAddress, strconv.Itoa(port))
	s := &Server{
		Host:        opts.ListenAddress,
		Port:        port,
		Addr:        addr,
		User:        login,
		HostKey:     hostKey,
		HostKeyPath: hostKeyPath,
		UserKey:     userKey,
		Dir:         dir,
		logPath:     filepath.Join(dir, "dropbear.log"),
	}
	// -s: no password logins; -F -E: foreground, log to stderr.
	script := "mount -o bind " + shellword.Quote(farm) + " /usr/bin && " +
		"mount -o bind " + shellword.Quote(home) + " " + shellword.Quote(u.HomeDir) + " && " +
		hideSFTPServer(dir) +
		"exec " + Dropbear + " -F -E -s -p " + shellword.Quote(addr) + " -r " + shellword.Quote(hostKeyPath) +
		" -P " + shellword.Quote(filepath.Join(dir, "dropbear.pid"))
	s.argv = []string{"unshare", "--mount", "--propagation", "private", "--", filepath.Join(farm, "busybox"), "sh", "-c", script}
	if err := s.start(); err != nil {
		t.Fatalf("dropbear: %v\n%s", err, s.Log())
	}
	t.Cleanup(func() { s.Resume(); s.Stop() })
	return s
}

// hideSFTPServer returns the mount that hides OpenSSH's sftp-server, if
// this machine has it, from dropbear: an empty directory over its own
// directory, or /dev/null over it where that directory holds more.
func hideSFTPServer(dir string) string {
	real, err := filepath.EvalSymlinks(dropbearSFTPServer)
	if err != nil {
		return ""
	}
	if d := filepath.Dir(real); filepath.Base(d) == "openssh" {
		empty := filepath.Join(dir, "empty")
		if err := os.Mkdir(empty, 0o755); err == nil {
			return "mount -o bind " + shellword.Quote(empty) + " " + shellword.Quote(d) + " && "
		}
	}
	return "mount -o bind /dev/null " + shellword.Quote(real) + " && "
}

// RequireDropbear skips or fails t when dropbear cannot be run here.
func RequireDropbear(t testing.TB) {
	t.Helper()
	var why string
	for _, p := range []string{Dropbear, BusyBox} {
		if _, err := os.Stat(p); err != nil {
			why = p + " not installed; apt-get install dropbear-bin busybox-static"
		}
	}
	if _, err := exec.LookPath("dropbearkey"); err != nil && why == "" {
		why = "dropbearkey not installed; apt-get install dropbear-bin"
	}
	if why == "" && os.Geteuid() != 0 {
		why = "starting dropbear for tests needs root"
	}
	skipUnless(t, why)
}

// busyboxFarm fills dir with a copy of busybox-static and a relative
// symlink to it for every applet, as a router's /bin is.
func busyboxFarm(dir string) error {
	src, err := os.Open(BusyBox)
	if err != nil {
		return err
	}
	defer src.Close()
	dst, err := os.OpenFile(filepath.Join(dir, "busybox"), os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(dst, src); err != nil {
		dst.Close()
		return err
	}
	if err := dst.Close(); err != nil {
		return err
	}
	out, err := exec.Command(BusyBox, "--list").Output()
	if err != nil {
		return fmt.Errorf("busybox --list: %w", err)
	}
	sc := bufio.NewScanner(strings.NewReader(string(out)))
	for sc.Scan() {
		name := strings.TrimSpace(sc.Text())
		if name == "" || name == "busybox" || strings.Contains(name, "/") {
			continue
		}
		if err := os.Symlink("busybox", filepath.Join(dir, name)); err != nil {
			return err
		}
	}
	return sc.Err()
}

// dropbearPublic reads the public half of a dropbear host key.
func dropbearPublic(path string) (ssh.PublicKey, error) {
	out, err := exec.Command("dropbearkey", "-y", "-f", path).Output()
	if err != nil {
		return nil, fmt.Errorf("dropbearkey -y: %w", err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(line, "ssh-") {
			k, _, _, _, err := ssh.ParseAuthorizedKey([]byte(line))
			return k, err
		}
	}
	return nil, fmt.Errorf("dropbearkey -y printed no public key: %s", out)
}
