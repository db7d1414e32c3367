package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"

	"golang.org/x/crypto/ssh"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/warden-mcp/warden/internal/sshd"
)

// benchUser is the login on the loopback sshd: a created user with
// /bin/sh as its shell, because root's shell startup here (pyenv in
// ~/.bashrc) would dominate every remote row.
const benchUser = "wardenbench"

// benchHost is the remote's name in warden's inventory.
const benchHost = "benchhost"

// remote is the loopback sshd that the remote rows share.
type remote struct {
	srv        *sshd.Server
	knownHosts string
	err        error
}

// remoteHost starts the sshd on first use.
func (e *env) remoteHost() *remote {
	e.mu.Lock()
	r := e.rem
	e.mu.Unlock()
	if r != nil {
		return r
	}
	r = &remote{}
	tb := newTB(e.dir("sshd"))
	e.onClose(tb.close)
	r.err = guard(func() {
		r.srv = sshd.Start(tb, sshd.Options{User: benchUser, Shell: "/bin/sh"})
	})
	if r.err == nil {
		r.knownHosts = filepath.Join(e.dir("known-hosts"), "known_hosts")
		r.err = sshd.WriteKnownHosts(r.knownHosts, r.srv)
	}
	e.mu.Lock()
	e.rem = r
	e.mu.Unlock()
	return r
}

// sshArgs make ssh(1) non-interactive and independent of the machine's
// own ssh config.
func (r *remote) sshArgs() []string {
	return []string{
		"-F", "/dev/null",
		"-o", "BatchMode=yes",
		"-o", "StrictHostKeyChecking=yes",
		"-o", "UserKnownHostsFile=" + r.knownHosts,
		"-o", "IdentitiesOnly=yes",
		"-i", r.srv.UserKey.Path,
		"-p", strconv.Itoa(r.srv.Port),
		"-l", r.srv.User,
	}
}

func sshEcho(args []string) error {
	out, err := exec.Command("ssh", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("ssh: %v: %s", err, lastLines(out, 2))
	}
	if string(out) != "hi\n" {
		return fmt.Errorf("ssh printed %q", out)
	}
	return nil
}

// dialPooled opens the one connection a pool would keep.
func (r *remote) dialPooled() (*ssh.Client, error) {
	return ssh.Dial("tcp", r.srv.Addr, &ssh.ClientConfig{
		User:            r.srv.User,
		Auth:            []ssh.AuthMethod{ssh.PublicKeys(r.srv.UserKey.Signer)},
		HostKeyCallback: ssh.FixedHostKey(r.srv.HostKey),
		Timeout:         10 * time.Second,
	})
}

// bareSession runs one command on a new session of a pooled connection:
// the floor for any pooled remote exec.
func bareSession(c *ssh.Client, command string) ([]byte, error) {
	s, err := c.NewSession()
	if err != nil {
		return nil, err
	}
	defer s.Close()
	return s.Output(command)
}

// wardenRemoteConfig is warden's inventory entry for the loopback sshd.
func (r *remote) wardenRemoteConfig() string {
	return fmt.Sprintf("ssh:\n  config: none\n  known_hosts: %s\nhosts:\n  - name: %s\n    address: %s\n    port: %d\n    user: %s\n    identity_files: [%s]\n",
		r.knownHosts, benchHost, r.srv.Host, r.srv.Port, r.srv.User, r.srv.UserKey.Path)
}

// startWardenRemote starts warden over stdio with the sshd in its inventory.
func (e *env) startWardenRemote(ctx context.Context, r *remote) (*server, error) {
	s, err := e.startWardenStdio(ctx, r.wardenRemoteConfig())
	if err != nil {
		return nil, err
	}
	s.call = func(command string) *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "run_command", Arguments: map[string]any{"command": command, "host": benchHost, "timeout_s": 300}}
	}
	return s, nil
}

// startSSHMCP starts ssh-mcp's quick start (--host, --user, --key) against
// the sshd. Its shell tool is run-command {command}; it keeps one ssh2
// connection per profile.
func (e *env) startSSHMCP(ctx context.Context, r *remote) (*server, error) {
	if e.peers.err != nil {
		return nil, fmt.Errorf("npm install failed: %v", e.peers.err)
	}
	home := e.dir("sshmcp-home")
	args := []string{
		e.peers.node, e.peers.module("ssh-mcp/build/index.js"),
		"--host=" + r.srv.Host, "--port=" + strconv.Itoa(r.srv.Port),
		"--user=" + r.srv.User, "--key=" + r.srv.UserKey.Path,
	}
	s, err := e.startStdio(ctx, "ssh-mcp", args, e.nodeEnviron(home), home)
	if err != nil {
		return nil, err
	}
	s.call = func(command string) *mcp.CallToolParams {
		return &mcp.CallToolParams{Name: "run-command", Arguments: map[string]any{"command": command}}
	}
	s.stdout = allText
	return s, nil
}

// remoteRows is section 3: echo hi on the loopback sshd by every path.
func (e *env) remoteRows(ctx context.Context) *table {
	t := &table{
		title: "Remote exec: `echo hi` on a loopback sshd",
		cols:  []string{"path", "p50", "p90", "p99", "p50 ÷ pooled session", "note"},
	}
	if _, err := exec.LookPath("ssh"); err != nil {
		t.notes = append(t.notes, "ssh(1) is not installed (apt-get install openssh-client).")
	}
	logf("remote: starting sshd")
	r := e.remoteHost()
	names := []string{"bare pooled x/crypto/ssh session", "OpenSSH ControlMaster", "fresh `ssh` per call", "warden `run_command` host=…, stdio", "ssh-mcp 2.11.0 `run-command`, stdio"}
	if r.err != nil {
		for _, n := range names {
			t.skip(n, "sshd: "+r.err.Error())
		}
		return t
	}
	t.notes = append(t.notes, fmt.Sprintf("OpenSSH sshd on %s, login %s (shell /bin/sh), ed25519 keys. %d sequential calls per pooled row after 10 warm-up calls; %d for fresh `ssh`.", r.srv.Addr, r.srv.User, e.cfg.remote, e.cfg.fresh))

	var floor dist
	logf("remote: bare pooled session")
	c, err := r.dialPooled()
	if err != nil {
		t.skip(names[0], err.Error())
	} else {
		floor, err = measure(ctx, e.cfg.remote, 10, func() error {
			out, err := bareSession(c, echoCommand)
			if err == nil && string(out) != "hi\n" {
				err = fmt.Errorf("printed %q", out)
			}
			return err
		})
		c.Close()
		if err != nil {
			t.skip(names[0], err.Error())
		} else {
			t.row(names[0], ms(floor.p50), ms(floor.p90), ms(floor.p99), "1.00×", "the floor: one `session` channel on a kept connection")
		}
	}
	add := func(name string, d dist, err error, note string) {
		if err != nil {
			t.skip(name, err.Error())
			return
		}
		t.row(name, ms(d.p50), ms(d.p90), ms(d.p99), ratio(d.p50, floor.p50), join(note, missingNote(d)))
	}

	logf("remote: ControlMaster")
	d, err := e.controlMaster(ctx, r)
	add(names[1], d, err, "an `ssh` process per call, multiplexed over a master connection")

	logf("remote: fresh ssh")
	args := append(r.sshArgs(), "--", r.srv.Host, echoCommand)
	d, err = measure(ctx, e.cfg.fresh, 2, func() error { return sshEcho(args) })
	add(names[2], d, err, "key exchange and authentication every call")

	logf("remote: warden")
	if s, err := e.startWardenRemote(ctx, r); err != nil {
		add(names[3], dist{}, err, "")
	} else {
		d, err = measure(ctx, e.cfg.remote, 10, callOp(ctx, s))
		s.stop()
		add(names[3], d, err, "MCP + policy + audit + pooled x/crypto/ssh")
	}

	logf("remote: ssh-mcp")
	if s, err := e.startSSHMCP(ctx, r); err != nil {
		add(names[4], dist{}, err, "")
	} else {
		d, err = measure(ctx, e.cfg.remote, 10, callOp(ctx, s))
		s.stop()
		add(names[4], d, err, "MCP + its policy + audit + pooled ssh2 (Node), whose socket has no TCP_NODELAY")
	}
	return t
}

// controlMaster measures ssh(1) multiplexed over a ControlMaster.
func (e *env) controlMaster(ctx context.Context, r *remote) (dist, error) {
	if _, err := exec.LookPath("ssh"); err != nil {
		return dist{}, fmt.Errorf("ssh(1) is not installed")
	}
	ctl := filepath.Join(e.dir("ctl"), "c")
	base := append(r.sshArgs(), "-o", "ControlPath="+ctl)
	master := exec.Command("ssh", append(base, "-o", "ControlMaster=yes", "-o", "ControlPersist=no", "-N", "--", r.srv.Host)...)
	if err := master.Start(); err != nil {
		return dist{}, err
	}
	defer func() {
		exec.Command("ssh", append(base, "-O", "exit", "--", r.srv.Host)...).Run()
		master.Process.Kill()
		master.Wait()
		os.Remove(ctl)
	}()
	check := append(base, "-O", "check", "--", r.srv.Host)
	for end := time.Now().Add(10 * time.Second); exec.Command("ssh", check...).Run() != nil; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			return dist{}, fmt.Errorf("ControlMaster did not come up")
		}
	}
	args := append(base, "-o", "ControlMaster=no", "--", r.srv.Host, echoCommand)
	return measure(ctx, e.cfg.remote, 10, func() error { return sshEcho(args) })
}
