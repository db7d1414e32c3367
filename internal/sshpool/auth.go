package sshpool

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"

	"golang.org/x/crypto/ssh"
	"golang.org/x/crypto/ssh/agent"
)

// ErrNoIdentity is returned when neither the agent nor any key file offers
// a usable key. warden never falls back to passwords.
var ErrNoIdentity = errors.New("no usable SSH key")

// signers gathers the keys to offer for t: the agent's first (unless
// IdentitiesOnly keeps only those matching the target's identity files),
// then the identity files, each preceded by its OpenSSH certificate
// (<key>-cert.pub) when one lies beside it. The returned closer ends the
// agent connection once authentication is over.
func (p *Pool) signers(t Target) ([]ssh.Signer, io.Closer, error) {
	var (
		out    []ssh.Signer
		seen   = map[string]bool{}
		closer io.Closer
	)
	add := func(s ssh.Signer) {
		k := string(s.PublicKey().Marshal())
		if !seen[k] {
			seen[k] = true
			out = append(out, s)
		}
	}

	var files []ssh.Signer
	wanted := map[string]bool{} // public keys named by identity files
	for _, path := range t.IdentityFiles {
		if pub, err := readPublicKey(path + ".pub"); err == nil {
			wanted[string(pub.Marshal())] = true
		}
		s, err := readKeyFile(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			p.log.Debug("ssh identity skipped", "file", path, "err", err)
			continue
		}
		wanted[string(s.PublicKey().Marshal())] = true
		if cert, err := readCertificate(path + "-cert.pub"); err == nil {
			if cs, err := ssh.NewCertSigner(cert, s); err == nil {
				files = append(files, cs)
			} else {
				p.log.Debug("ssh certificate skipped", "file", path+"-cert.pub", "err", err)
			}
		}
		files = append(files, s)
	}

	if p.opts.AgentSocket != "" {
		conn, err := net.Dial("unix", p.opts.AgentSocket)
		if err != nil {
			p.log.Debug("ssh agent unavailable", "socket", p.opts.AgentSocket, "err", err)
		} else {
			closer = conn
			agentSigners, err := agent.NewClient(conn).Signers()
			if err != nil {
				p.log.Debug("ssh agent listing failed", "err", err)
			}
			for _, s := range agentSigners {
				pub := s.PublicKey()
				if cert, ok := pub.(*ssh.Certificate); ok {
					pub = cert.Key
				}
				if t.IdentitiesOnly && !wanted[string(pub.Marshal())] {
					continue
				}
				add(s)
			}
		}
	}
	for _, s := range files {
		add(s)
	}
	if len(out) == 0 {
		if closer != nil {
			closer.Close()
		}
		return nil, nil, fmt.Errorf("%w for %s: the agent offers none and no identity file loads (tried %v; passphrase-protected keys need the agent)",
			ErrNoIdentity, t.User+"@"+t.Addr(), t.IdentityFiles)
	}
	if closer == nil {
		closer = io.NopCloser(nil)
	}
	return out, closer, nil
}

func readKeyFile(path string) (ssh.Signer, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	s, err := ssh.ParsePrivateKey(b)
	var missing *ssh.PassphraseMissingError
	if errors.As(err, &missing) {
		return nil, fmt.Errorf("%s is passphrase-protected; load it into ssh-agent", path)
	}
	return s, err
}

func readPublicKey(path string) (ssh.PublicKey, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	pub, _, _, _, err := ssh.ParseAuthorizedKey(bytes.TrimSpace(b))
	return pub, err
}

func readCertificate(path string) (*ssh.Certificate, error) {
	pub, err := readPublicKey(path)
	if err != nil {
		return nil, err
	}
	cert, ok := pub.(*ssh.Certificate)
	if !ok {
		return nil, fmt.Errorf("%s is not a certificate", path)
	}
	return cert, nil
}
