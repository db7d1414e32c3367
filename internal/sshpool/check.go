package sshpool

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/skeema/knownhosts"
	"golang.org/x/crypto/ssh"
)

// CheckResult is one host's health as hosts_check reports it.
type CheckResult struct {
	Name string
	Addr string
	// Reachable reports whether an SSH server answered.
	Reachable bool
	// AuthOK reports whether warden logged in.
	AuthOK bool
	// HostKey is what verification found; empty when no key was seen.
	HostKey HostKeyStatus
	// Fingerprint is the SHA256 fingerprint of the key the server offered.
	Fingerprint string
	// Latency is one keepalive round trip on the connection.
	Latency time.Duration
	// Err is why the check failed, fit to show the agent.
	Err error
}

// Check connects to t (or reuses its pooled connection) and reports
// reachability, authentication, host key status and latency.
func (p *Pool) Check(ctx context.Context, t Target) CheckResult {
	r := CheckResult{Name: t.Name, Addr: t.Addr()}
	l, err := p.Acquire(ctx, t)
	if err != nil {
		r.Err = err
		var de *DialError
		if errors.As(err, &de) {
			switch de.Stage {
			case StageHostKey, StageAuth, StageHandshake:
				r.Reachable = true
			}
			var hke *HostKeyError
			if errors.As(err, &hke) {
				r.HostKey = hke.Status
				r.Fingerprint = hke.Fingerprint()
			} else if de.Stage == StageAuth {
				r.HostKey = HostKeyKnown
			}
		}
		return r
	}
	defer l.Release()
	r.Reachable, r.AuthOK = true, true
	c := l.conn()
	r.HostKey, r.Fingerprint = c.hostKey, c.fingerprint
	r.Latency, r.Err = l.Ping(ctx)
	return r
}

// ScannedKey is one host key a server offered to Keyscan.
type ScannedKey struct {
	Type        string
	Fingerprint string
	Key         ssh.PublicKey
	// Line is the known_hosts line that would trust the key.
	Line string
}

// scanAlgorithms are asked for one at a time, as ssh-keyscan does, so the
// server shows each kind of key it has.
var scanAlgorithms = []string{
	ssh.KeyAlgoED25519,
	ssh.KeyAlgoECDSA256,
	ssh.KeyAlgoECDSA384,
	ssh.KeyAlgoECDSA521,
	ssh.KeyAlgoRSASHA512,
}

// errScanned ends a keyscan handshake as soon as the key is seen.
var errScanned = errors.New("host key recorded")

// Keyscan connects to host:port and returns the host keys it offers, one
// handshake per key type. It never authenticates and never trusts what it
// sees: the keys are for a human to review. host must pass ValidateHost.
func (p *Pool) Keyscan(ctx context.Context, host string, port int) ([]ScannedKey, error) {
	if err := ValidateHost(host); err != nil {
		return nil, fmt.Errorf("keyscan: %w", err)
	}
	if port < 1 || port > 65535 {
		return nil, fmt.Errorf("keyscan: port %d out of range: %w", port, ErrInvalidName)
	}
	addr := net.JoinHostPort(host, strconv.Itoa(port))
	ctx, cancel := context.WithTimeout(ctx, p.opts.ConnectTimeout)
	defer cancel()

	type found struct {
		key ssh.PublicKey
		err error
	}
	results := make([]found, len(scanAlgorithms))
	var wg sync.WaitGroup
	for i, algo := range scanAlgorithms {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i].key, results[i].err = p.scanOne(ctx, addr, algo)
		}()
	}
	wg.Wait()

	var keys []ScannedKey
	seen := map[string]bool{}
	var errs []string
	for i, f := range results {
		if f.err != nil {
			errs = append(errs, scanAlgorithms[i]+": "+f.err.Error())
			continue
		}
		if seen[string(f.key.Marshal())] {
			continue
		}
		seen[string(f.key.Marshal())] = true
		keys = append(keys, ScannedKey{
			Type:        f.key.Type(),
			Fingerprint: ssh.FingerprintSHA256(f.key),
			Key:         f.key,
			Line:        knownhosts.Line([]string{addr}, f.key),
		})
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("keyscan %s: no host key offered (%s)", addr, strings.Join(errs, "; "))
	}
	return keys, nil
}

func (p *Pool) scanOne(ctx context.Context, addr, algo string) (ssh.PublicKey, error) {
	nc, err := p.opts.Dial(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	stop := context.AfterFunc(ctx, func() { nc.Close() })
	defer stop()
	var key ssh.PublicKey
	cfg := &ssh.ClientConfig{
		User:              "keyscan",
		HostKeyAlgorithms: []string{algo},
		ClientVersion:     clientVersion,
		HostKeyCallback: func(_ string, _ net.Addr, k ssh.PublicKey) error {
			key = k
			return errScanned
		},
	}
	_, _, _, err = ssh.NewClientConn(nc, addr, cfg)
	if key != nil {
		return key, nil
	}
	if err == nil {
		err = errors.New("handshake ended without a host key")
	}
	return nil, err
}
