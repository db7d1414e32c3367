package sshpool

import (
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/skeema/knownhosts"
	"golang.org/x/crypto/ssh"
	xknownhosts "golang.org/x/crypto/ssh/knownhosts"
)

var (
	// ErrUnknownHost is matched (errors.Is) by a HostKeyError for a host
	// known_hosts does not list.
	ErrUnknownHost = errors.New("unknown host key")
	// ErrHostKeyChanged is matched by a HostKeyError for a host whose key
	// differs from the one known_hosts lists.
	ErrHostKeyChanged = errors.New("host key changed")
)

// HostKeyStatus is what host key verification found.
type HostKeyStatus string

const (
	// HostKeyKnown: the key matched known_hosts.
	HostKeyKnown HostKeyStatus = "known"
	// HostKeyUnknown: known_hosts has no key for the host; refused.
	HostKeyUnknown HostKeyStatus = "unknown"
	// HostKeyChanged: known_hosts has another key for the host; refused.
	HostKeyChanged HostKeyStatus = "changed"
	// HostKeyAdded: the host was unknown and its key was appended under
	// the accept-new policy.
	HostKeyAdded HostKeyStatus = "added"
)

// HostKeyError refuses a connection whose host key is not trusted. Its
// message is meant for the agent and operator: it names the offered key's
// fingerprint and the step that would trust it.
type HostKeyError struct {
	// Host and Port are the address as looked up in known_hosts.
	Host string
	Port int
	// Status is HostKeyUnknown or HostKeyChanged.
	Status HostKeyStatus
	// Offered is the key the server presented.
	Offered ssh.PublicKey
	// KnownHostsFile is where the key would be added: the first of
	// KnownHostsFiles, or empty when there is none.
	KnownHostsFile string
	// KnownHostsFiles are the known_hosts files warden looked the host up
	// in, in order, and Missing those of them that do not exist.
	KnownHostsFiles []string
	Missing         []string
	// Expected lists, for a changed key, the known_hosts lines that
	// disagree: "file:line type fingerprint".
	Expected []string
}

// Fingerprint returns the offered key's SHA256 fingerprint.
func (e *HostKeyError) Fingerprint() string { return ssh.FingerprintSHA256(e.Offered) }

func (e *HostKeyError) Error() string {
	where := knownhosts.Normalize(net.JoinHostPort(e.Host, strconv.Itoa(e.Port)))
	read := e.readFiles()
	if e.KnownHostsFile == "" {
		// Nothing to append to: say so instead of naming a file warden
		// does not read.
		what := "is not known"
		if e.Status == HostKeyChanged {
			what = "changed"
		}
		return fmt.Sprintf("host key for %s %s: the server offered %s %s, and no known_hosts file is read for this host "+
			"(UserKnownHostsFile none or /dev/null). Name one (known_hosts on the host or ssh.known_hosts in warden.yaml), "+
			"verify the fingerprint out of band and add the key to it (warden's ssh_keyscan tool shows the line)",
			where, what, e.Offered.Type(), e.Fingerprint())
	}
	scan := fmt.Sprintf("ssh-keyscan -p %d -t %s -- %s >> %s", e.Port, e.Offered.Type(), e.Host, e.KnownHostsFile)
	if e.Status == HostKeyChanged {
		return fmt.Sprintf("HOST KEY CHANGED for %s: the server offered %s %s, but known_hosts expects %s "+
			"(warden reads %s for this host). "+
			"Someone may be intercepting the connection, or the host was reinstalled; warden refuses to connect. "+
			"If the change is expected, remove the old entry (ssh-keygen -R '%s' -f %s), verify the new fingerprint "+
			"out of band, then add it (%s, or warden's ssh_keyscan tool)",
			where, e.Offered.Type(), e.Fingerprint(), strings.Join(e.Expected, "; "), read, where, e.expectedFile(), scan)
	}
	return fmt.Sprintf("host key for %s is not known: the server offered %s %s, and the known_hosts warden reads for this host "+
		"(%s) does not list it. "+
		"Verify that fingerprint out of band (on the host: ssh-keygen -lf /etc/ssh/ssh_host_%s_key.pub), "+
		"then trust it with: %s (or fetch it with warden's ssh_keyscan tool)",
		where, e.Offered.Type(), e.Fingerprint(), read, keyFileType(e.Offered.Type()), scan)
}

// readFiles lists the known_hosts files looked up, marking missing ones.
func (e *HostKeyError) readFiles() string {
	files := e.KnownHostsFiles
	if len(files) == 0 && e.KnownHostsFile != "" {
		files = []string{e.KnownHostsFile}
	}
	parts := make([]string, len(files))
	for i, f := range files {
		parts[i] = f
		if slices.Contains(e.Missing, f) {
			parts[i] += " (does not exist)"
		}
	}
	return strings.Join(parts, ", ")
}

// expectedFile is the file holding the disagreeing key, for ssh-keygen -R.
func (e *HostKeyError) expectedFile() string {
	for _, line := range e.Expected {
		for _, f := range e.KnownHostsFiles {
			if strings.HasPrefix(line, f+":") {
				return f
			}
		}
	}
	return e.KnownHostsFile
}

// Is matches ErrUnknownHost or ErrHostKeyChanged.
func (e *HostKeyError) Is(target error) bool {
	switch target {
	case ErrUnknownHost:
		return e.Status == HostKeyUnknown
	case ErrHostKeyChanged:
		return e.Status == HostKeyChanged
	}
	return false
}

// keyFileType maps a key type to the suffix of OpenSSH's host key file.
func keyFileType(typ string) string {
	switch {
	case typ == ssh.KeyAlgoED25519:
		return "ed25519"
	case strings.HasPrefix(typ, "ecdsa-"):
		return "ecdsa"
	case typ == ssh.KeyAlgoRSA:
		return "rsa"
	}
	return "*"
}

// hostKeyCheck verifies one connection's host key against the target's
// known_hosts files and records what it found.
type hostKeyCheck struct {
	target Target
	db     *knownhosts.HostKeyDB
	// appendMu serialises accept-new writes across the pool.
	appendMu *sync.Mutex

	status  HostKeyStatus
	offered ssh.PublicKey
	// missing are the target's known_hosts files that do not exist.
	missing []string
}

func newHostKeyCheck(t Target, appendMu *sync.Mutex) (*hostKeyCheck, error) {
	h := &hostKeyCheck{target: t, appendMu: appendMu}
	var files []string
	for _, f := range t.KnownHostsFiles {
		if _, err := os.Stat(f); errors.Is(err, fs.ErrNotExist) {
			h.missing = append(h.missing, f)
			continue
		}
		files = append(files, f)
	}
	if len(files) > 0 {
		db, err := knownhosts.NewDB(files...)
		if err != nil {
			// A known_hosts file that cannot be read must not turn
			// into "no keys known": fail closed.
			return nil, fmt.Errorf("read known_hosts: %w", err)
		}
		h.db = db
	}
	return h, nil
}

// algorithms returns the host key algorithms to offer, so negotiation
// picks a key type known_hosts holds; nil leaves the library's default.
func (h *hostKeyCheck) algorithms() []string {
	if h.db == nil {
		return nil
	}
	return h.db.HostKeyAlgorithms(h.target.Addr())
}

func (h *hostKeyCheck) callback(hostname string, remote net.Addr, key ssh.PublicKey) error {
	h.offered = key
	var keyErr *xknownhosts.KeyError
	if h.db != nil {
		err := h.db.HostKeyCallback()(hostname, remote, key)
		if err == nil {
			h.status = HostKeyKnown
			return nil
		}
		if !errors.As(err, &keyErr) {
			return fmt.Errorf("check host key: %w", err)
		}
	}
	file := ""
	if len(h.target.KnownHostsFiles) > 0 {
		file = h.target.KnownHostsFiles[0]
	}
	refuse := func(status HostKeyStatus) *HostKeyError {
		h.status = status
		return &HostKeyError{
			Host: h.target.Host, Port: h.target.Port, Status: status, Offered: key, KnownHostsFile: file,
			KnownHostsFiles: slices.Clone(h.target.KnownHostsFiles), Missing: h.missing,
		}
	}
	if keyErr != nil && len(keyErr.Want) > 0 {
		e := refuse(HostKeyChanged)
		for _, w := range keyErr.Want {
			e.Expected = append(e.Expected, fmt.Sprintf("%s:%d %s %s", w.Filename, w.Line, w.Key.Type(), ssh.FingerprintSHA256(w.Key)))
		}
		return e
	}
	if h.target.HostKeyPolicy == HostKeyAcceptNew && len(h.target.KnownHostsFiles) > 0 {
		if err := h.appendKey(file, hostname, remote, key); err != nil {
			return fmt.Errorf("accept new host key: %w", err)
		}
		h.status = HostKeyAdded
		return nil
	}
	return refuse(HostKeyUnknown)
}

func (h *hostKeyCheck) appendKey(file, hostname string, remote net.Addr, key ssh.PublicKey) error {
	h.appendMu.Lock()
	defer h.appendMu.Unlock()
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		return err
	}
	f, err := os.OpenFile(file, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	// The address as dialled is what a later lookup uses; the remote
	// address of a channel through a jump host means nothing here.
	if err := knownhosts.WriteKnownHost(f, hostname, &net.TCPAddr{IP: net.IPv4zero}, key); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
