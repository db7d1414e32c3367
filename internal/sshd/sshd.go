// Package sshd starts real OpenSSH servers on loopback for tests: generated
// host and user keys, a config of its own in a temporary directory, and
// cleanup that kills the server and every process it started; and, with
// StartDropbear, router-like dropbear servers with a BusyBox userland and no
// SFTP. It is a
// normal package, not a _test file, so that every package whose tests need a
// remote host can share it.
//
// A server "only reachable through a jump host" is approximated: start it
// on another loopback address (ListenAddress 127.0.0.2) and give the pool
// under test a dialler that refuses that address, so only a connection
// tunnelled through the jump server's sshd can reach it. Both servers run
// on this machine, so the kernel itself would let a direct dial through.
//
// Tests that use it need Debian's openssh-server (/usr/sbin/sshd). When it
// is missing, Start skips the test, unless WARDEN_REQUIRE_SSHD=1 (set by
// CI), in which case the test fails.
package sshd

import (
	"bufio"
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"golang.org/x/crypto/ssh"
)

// Binary is where Debian's openssh-server installs the daemon. sshd must be
// started by absolute path so that it can re-execute itself per connection.
const Binary = "/usr/sbin/sshd"

// RequireEnv names the environment variable that turns a missing sshd from
// a skipped test into a failed one.
const RequireEnv = "WARDEN_REQUIRE_SSHD"

// Options shapes one server.
type Options struct {
	// ListenAddress is the loopback address to bind; default 127.0.0.1.
	// Any address in 127.0.0.0/8 works on Linux.
	ListenAddress string
	// User is the login permitted on the server. Empty means the user
	// running the test. A user that does not exist is created (as root)
	// with Shell as its login shell; an existing one gets Shell set.
	User string
	// Shell is the login shell for a created User; default /bin/sh.
	Shell string
	// UserKey is the key the client authenticates with; nil generates one.
	// Share one key across servers to let one identity reach them all.
	UserKey *Key
	// AllowTCPForwarding enables direct-tcpip and tcpip-forward, needed
	// for a jump host and for port forwards. Off by default.
	AllowTCPForwarding bool
	// ExtraConfig lines are appended to the generated sshd_config.
	ExtraConfig []string
	// NoSFTP leaves out the Subsystem line: the server refuses SFTP, as
	// a stripped-down appliance's does.
	NoSFTP bool
}

// Key is a generated ed25519 key pair written to disk in OpenSSH format.
type Key struct {
	// Path is the private key file (mode 0600); Path+".pub" holds the
	// public key.
	Path   string
	Signer ssh.Signer
}

// Public returns the key's public half.
func (k *Key) Public() ssh.PublicKey { return k.Signer.PublicKey() }

// Server is one running sshd.
type Server struct {
	// Host is the address the server listens on, Port its port and Addr
	// both joined.
	Host string
	Port int
	Addr string
	// User is the login the server permits.
	User string
	// HostKey is the server's public host key.
	HostKey ssh.PublicKey
	// HostKeyPath is the private host key file.
	HostKeyPath string
	// UserKey is the key authorized for User.
	UserKey *Key
	// Dir is the server's private directory: config, keys, log.
	Dir string

	configPath string
	logPath    string
	// argv runs a server other than sshd (see StartDropbear).
	argv []string

	mu     sync.Mutex
	cmd    *exec.Cmd
	stopMu sync.Mutex
}

// Start runs a fresh sshd and stops it when the test ends. It skips the
// test when sshd is not installed, unless WARDEN_REQUIRE_SSHD=1.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	Require(t)
	if opts.ListenAddress == "" {
		opts.ListenAddress = "127.0.0.1"
	}
	if opts.Shell == "" {
		opts.Shell = "/bin/sh"
	}
	login, err := ensureUser(opts.User, opts.Shell)
	if err != nil {
		t.Fatalf("sshd: %v", err)
	}
	// The directory must be readable by the login user: sshd reads
	// authorized_keys with that user's privileges.
	dir, err := os.MkdirTemp("", "warden-sshd-")
	if err != nil {
		t.Fatalf("sshd: %v", err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
		t.Fatalf("sshd: privilege separation directory: %v", err)
	}

	hostKey, err := writeKey(filepath.Join(dir, "ssh_host_ed25519_key"))
	if err != nil {
		t.Fatalf("sshd: host key: %v", err)
	}
	userKey := opts.UserKey
	if userKey == nil {
		userKey = NewKey(t)
	}
	authorized := filepath.Join(dir, "authorized_keys")
	if err := os.WriteFile(authorized, ssh.MarshalAuthorizedKey(userKey.Public()), 0o644); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	port, err := freePort(opts.ListenAddress)
	if err != nil {
		t.Fatalf("sshd: %v", err)
	}

	s := &Server{
		Host:        opts.ListenAddress,
		Port:        port,
		Addr:        net.JoinHostPort(opts.ListenAddress, strconv.Itoa(port)),
		User:        login,
		HostKey:     hostKey.Public(),
		HostKeyPath: hostKey.Path,
		UserKey:     userKey,
		Dir:         dir,
		configPath:  filepath.Join(dir, "sshd_config"),
		logPath:     filepath.Join(dir, "sshd.log"),
	}
	if err := os.WriteFile(s.configPath, []byte(s.config(opts, authorized)), 0o644); err != nil {
		t.Fatalf("sshd: %v", err)
	}
	if err := s.start(); err != nil {
		t.Fatalf("sshd: %v\n%s", err, s.Log())
	}
	t.Cleanup(func() { s.Resume(); s.Stop() })
	return s
}

// Require skips or fails t when sshd cannot be run here.
func Require(t testing.TB) {
	t.Helper()
	var why string
	if _, err := os.Stat(Binary); err != nil {
		why = "OpenSSH server not installed (" + Binary + "); apt-get install openssh-server openssh-client"
	} else if os.Geteuid() != 0 {
		why = "starting sshd for tests needs root"
	}
	skipUnless(t, why)
}

// skipUnless does nothing when why is empty; otherwise it fails t if
// RequireEnv is 1 and skips it if not.
func skipUnless(t testing.TB, why string) {
	t.Helper()
	if why == "" {
		return
	}
	if os.Getenv(RequireEnv) == "1" {
		t.Fatalf("%s, and %s=1", why, RequireEnv)
	}
	t.Skip(why)
}

func (s *Server) config(opts Options, authorized string) string {
	forwarding := "no"
	if opts.AllowTCPForwarding {
		forwarding = "yes"
	}
	lines := []string{
		"Port " + strconv.Itoa(s.Port),
		"ListenAddress " + opts.ListenAddress,
		"HostKey " + s.HostKeyPath,
		"PidFile " + filepath.Join(s.Dir, "sshd.pid"),
		"AuthorizedKeysFile " + authorized,
		"StrictModes no",
		"UsePAM no",
		"PubkeyAuthentication yes",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PermitRootLogin prohibit-password",
		"AllowUsers " + s.User,
		"AllowTcpForwarding " + forwarding,
		"GatewayPorts no",
		"X11Forwarding no",
		"PrintMotd no",
		"PrintLastLog no",
		"UseDNS no",
		"MaxStartups 200",
		"MaxSessions 10",
		"LogLevel VERBOSE",
	}
	if !opts.NoSFTP {
		lines = append(lines, "Subsystem sftp internal-sftp")
	}
	lines = append(lines, opts.ExtraConfig...)
	return strings.Join(lines, "\n") + "\n"
}

func (s *Server) start() error {
	logf, err := os.OpenFile(s.logPath, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(Binary, "-D", "-e", "-f", s.configPath)
	if len(s.argv) > 0 {
		cmd = exec.Command(s.argv[0], s.argv[1:]...)
	}
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("start sshd: %w", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	s.mu.Lock()
	s.cmd = cmd
	s.mu.Unlock()

	deadline := time.Now().Add(10 * time.Second)
	for {
		select {
		case err := <-exited:
			return fmt.Errorf("sshd exited at start: %v", err)
		default:
		}
		if bannerOK(s.Addr) {
			return nil
		}
		if time.Now().After(deadline) {
			s.Stop()
			return errors.New("the server did not accept connections within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// bannerOK reports whether an SSH server answers at addr.
func bannerOK(addr string) bool {
	c, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(2 * time.Second))
	line, err := bufio.NewReader(c).ReadString('\n')
	return err == nil && strings.HasPrefix(line, "SSH-2.0-")
}

// Stop kills sshd and everything it started — per-connection daemons,
// shells and the commands they run — as a crashed host would lose them.
// Stopping a stopped server does nothing.
func (s *Server) Stop() {
	// A Stop running in another goroutine finishes before this one
	// returns, so a Restart cannot find the old listener still bound.
	s.stopMu.Lock()
	defer s.stopMu.Unlock()
	s.mu.Lock()
	cmd := s.cmd
	s.cmd = nil
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	pid := cmd.Process.Pid
	// Per-connection daemons leave the process group (setsid), so walk
	// the process tree instead.
	for _, p := range descendants(pid) {
		syscall.Kill(p, syscall.SIGKILL)
	}
	cmd.Process.Kill()
	for i := 0; i < 200; i++ {
		if syscall.Kill(pid, 0) != nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Restart stops the server and starts it again on the same address with
// the same host key, as a rebooted host would come back.
func (s *Server) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	if err := s.start(); err != nil {
		t.Fatalf("sshd restart: %v\n%s", err, s.Log())
	}
}

// Log returns what sshd has logged so far.
func (s *Server) Log() string {
	b, _ := os.ReadFile(s.logPath)
	return string(b)
}

// KnownHostsLine returns the known_hosts line that trusts this server's
// host key at its address and port.
func (s *Server) KnownHostsLine() string {
	host := s.Host
	if s.Port != 22 {
		host = "[" + s.Host + "]:" + strconv.Itoa(s.Port)
	}
	return host + " " + strings.TrimSpace(string(ssh.MarshalAuthorizedKey(s.HostKey)))
}

// WriteKnownHosts appends a line for each server to the known_hosts file at
// path, creating it if needed.
func WriteKnownHosts(path string, servers ...*Server) error {
	var b bytes.Buffer
	for _, s := range servers {
		b.WriteString(s.KnownHostsLine() + "\n")
	}
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	if _, err := f.Write(b.Bytes()); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// NewKey generates an ed25519 key pair in a temporary directory of the
// test's.
func NewKey(t testing.TB) *Key {
	t.Helper()
	k, err := writeKey(filepath.Join(t.TempDir(), "id_ed25519"))
	if err != nil {
		t.Fatalf("sshd: user key: %v", err)
	}
	return k
}

func writeKey(path string) (*Key, error) {
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return nil, err
	}
	block, err := ssh.MarshalPrivateKey(priv, "")
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path, pem.EncodeToMemory(block), 0o600); err != nil {
		return nil, err
	}
	signer, err := ssh.NewSignerFromKey(priv)
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(path+".pub", ssh.MarshalAuthorizedKey(signer.PublicKey()), 0o644); err != nil {
		return nil, err
	}
	return &Key{Path: path, Signer: signer}, nil
}

func freePort(host string) (int, error) {
	l, err := net.Listen("tcp", net.JoinHostPort(host, "0"))
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

// ensureUser returns the login to permit, creating name with shell when it
// does not exist yet and giving it shell when it has another — unless name
// is the user running the tests.
func ensureUser(name, shell string) (string, error) {
	if name == "" {
		u, err := user.Current()
		if err != nil {
			return "", err
		}
		return u.Username, nil
	}
	have, found, err := loginShell(name)
	if err != nil {
		return "", err
	}
	if !found {
		// "*" rather than useradd's default "!": sshd without PAM
		// refuses accounts whose password field marks them locked.
		out, err := exec.Command("useradd", "--create-home", "--shell", shell, "--password", "*", name).CombinedOutput()
		if err == nil {
			return name, nil
		}
		// Another test binary may have created it meanwhile.
		if have, found, _ = loginShell(name); !found {
			return "", fmt.Errorf("useradd %s: %v: %s", name, err, out)
		}
	}
	if have == shell {
		return name, nil
	}
	// The user running the tests keeps its shell: changing root's to
	// /bin/sh would outlive the test and change every later login.
	if u, err := user.Current(); err == nil && u.Username == name {
		return "", fmt.Errorf("not changing the login shell of %s, the user running the tests, from %s to %s: leave User empty to log in as it", name, have, shell)
	}
	out, err := exec.Command("usermod", "--shell", shell, name).CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("usermod %s: %v: %s", name, err, out)
	}
	return name, nil
}

// loginShell reads name's login shell from the passwd database.
func loginShell(name string) (shell string, found bool, err error) {
	out, err := exec.Command("getent", "passwd", name).Output()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 2 {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("getent passwd %s: %w", name, err)
	}
	fields := strings.Split(strings.TrimSpace(string(out)), ":")
	if len(fields) < 7 {
		return "", false, fmt.Errorf("getent passwd %s: malformed entry", name)
	}
	return fields[6], true, nil
}

// Pause stops sshd and every process it started with SIGSTOP, so
// connections stay open but nothing answers — a hung host.
func (s *Server) Pause() { s.signalAll(syscall.SIGSTOP) }

// Resume undoes Pause.
func (s *Server) Resume() { s.signalAll(syscall.SIGCONT) }

func (s *Server) signalAll(sig syscall.Signal) {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return
	}
	syscall.Kill(cmd.Process.Pid, sig)
	for _, p := range descendants(cmd.Process.Pid) {
		syscall.Kill(p, sig)
	}
}

// SignalNamed sends sig to every process below the server whose command
// name is name (sftp-server: tests stop one to have it stop answering, as
// one waiting on a mount would) and returns their pids. A process whose
// connection has ended is no longer below the server: signal it by pid.
func (s *Server) SignalNamed(name string, sig syscall.Signal) []int {
	s.mu.Lock()
	cmd := s.cmd
	s.mu.Unlock()
	if cmd == nil || cmd.Process == nil {
		return nil
	}
	var pids []int
	for _, p := range descendants(cmd.Process.Pid) {
		if comm, err := os.ReadFile(fmt.Sprintf("/proc/%d/comm", p)); err == nil && strings.TrimSpace(string(comm)) == name {
			syscall.Kill(p, sig)
			pids = append(pids, p)
		}
	}
	return pids
}
