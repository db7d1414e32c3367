package edge

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// TokenFile is the name of the generated token inside the state directory.
const TokenFile = "token"

// LoadOrCreateToken returns the token stored in stateDir, generating 32
// random bytes on first use and storing them 0600. created reports whether
// this call made it.
func LoadOrCreateToken(stateDir string) (token string, created bool, err error) {
	path := filepath.Join(stateDir, TokenFile)
	b, err := os.ReadFile(path)
	if err == nil {
		t := strings.TrimSpace(string(b))
		if t == "" {
			return "", false, fmt.Errorf("token file %s is empty; delete it to generate a new one", path)
		}
		return t, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", false, fmt.Errorf("read token: %w", err)
	}
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return "", false, fmt.Errorf("state dir: %w", err)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", false, err
	}
	t := base64.RawURLEncoding.EncodeToString(raw[:])
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", false, fmt.Errorf("create token file: %w", err)
	}
	if _, err := f.WriteString(t + "\n"); err != nil {
		f.Close()
		return "", false, fmt.Errorf("write token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return "", false, err
	}
	return t, true, nil
}
