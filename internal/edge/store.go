package edge

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// TokensFile is the name of the named-token store inside the state dir.
const TokensFile = "tokens.json"

// tokenPrefix marks warden's named tokens, so that secret scanners and the
// audit redactor can tell them apart from other strings.
const tokenPrefix = "wdn_"

// Scopes, from least to most. A token's tier ceiling is the highest its
// scopes grant.
const (
	ScopeRead    = "warden:read"
	ScopeOperate = "warden:operate"
	ScopeAdmin   = "warden:admin"
)

// Scopes lists the scopes warden understands.
var Scopes = []string{ScopeRead, ScopeOperate, ScopeAdmin}

// NamedToken is one stored bearer token: only its SHA-256 is kept.
type NamedToken struct {
	Name    string    `json:"name"`
	SHA256  string    `json:"sha256"`
	Scopes  []string  `json:"scopes"`
	Created time.Time `json:"created"`
}

// Identity is the audited identity of a named token's caller.
func (t NamedToken) Identity() string { return "token:" + t.Name }

var tokenName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// ValidTokenName reports whether name may name a token: 1–64 letters,
// digits, '.', '_' or '-', not starting with punctuation, and not
// "default" (the WARDEN_TOKEN identity).
func ValidTokenName(name string) bool {
	return tokenName.MatchString(name) && name != "default"
}

// ParseScopes splits a comma- or space-separated scope list and checks
// every entry is a warden scope.
func ParseScopes(s string) ([]string, error) {
	var out []string
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		if !slices.Contains(Scopes, f) {
			return nil, fmt.Errorf("unknown scope %q (want %s)", f, strings.Join(Scopes, ", "))
		}
		if !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no scope given")
	}
	return out, nil
}

// LoadTokens reads the named tokens of stateDir; a missing store is empty.
func LoadTokens(stateDir string) ([]NamedToken, error) {
	b, err := os.ReadFile(filepath.Join(stateDir, TokensFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read tokens: %w", err)
	}
	var doc struct {
		Tokens []NamedToken `json:"tokens"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		return nil, fmt.Errorf("read tokens: %s: %w", TokensFile, err)
	}
	for _, t := range doc.Tokens {
		if !ValidTokenName(t.Name) || len(t.SHA256) != 64 {
			return nil, fmt.Errorf("read tokens: %s: bad entry %q", TokensFile, t.Name)
		}
		if _, err := hex.DecodeString(t.SHA256); err != nil {
			return nil, fmt.Errorf("read tokens: %s: bad hash for %q", TokensFile, t.Name)
		}
		for _, s := range t.Scopes {
			if !slices.Contains(Scopes, s) {
				return nil, fmt.Errorf("read tokens: %s: %q has unknown scope %q", TokensFile, t.Name, s)
			}
		}
	}
	return doc.Tokens, nil
}

// NewToken creates a named token in stateDir and returns its secret, which
// is shown once and never stored.
func NewToken(stateDir, name string, scopes []string, now time.Time) (string, error) {
	if !ValidTokenName(name) {
		return "", fmt.Errorf("new token: %q is not a valid name (letters, digits, . _ -; at most 64; not \"default\")", name)
	}
	tokens, err := LoadTokens(stateDir)
	if err != nil {
		return "", err
	}
	if slices.ContainsFunc(tokens, func(t NamedToken) bool { return t.Name == name }) {
		return "", fmt.Errorf("new token: %q exists; revoke it first", name)
	}
	var raw [32]byte
	if _, err := rand.Read(raw[:]); err != nil {
		return "", err
	}
	secret := tokenPrefix + base64.RawURLEncoding.EncodeToString(raw[:])
	tokens = append(tokens, NamedToken{Name: name, SHA256: hashToken(secret), Scopes: scopes, Created: now.UTC()})
	return secret, saveTokens(stateDir, tokens)
}

// RevokeToken removes a named token.
func RevokeToken(stateDir, name string) error {
	tokens, err := LoadTokens(stateDir)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(tokens, func(t NamedToken) bool { return t.Name == name })
	if i < 0 {
		return fmt.Errorf("revoke token: no token named %q", name)
	}
	return saveTokens(stateDir, slices.Delete(tokens, i, i+1))
}

// saveTokens replaces the store atomically (write, fsync, rename), 0600.
func saveTokens(stateDir string, tokens []NamedToken) error {
	if err := os.MkdirAll(stateDir, 0o700); err != nil {
		return fmt.Errorf("state dir: %w", err)
	}
	if tokens == nil {
		tokens = []NamedToken{}
	}
	b, err := json.MarshalIndent(map[string]any{"tokens": tokens}, "", "  ")
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(stateDir, ".tokens-*.json")
	if err != nil {
		return fmt.Errorf("save tokens: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.Write(append(b, '\n')); err != nil {
		f.Close()
		return fmt.Errorf("save tokens: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("save tokens: %w", err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("save tokens: %w", err)
	}
	if err := os.Rename(f.Name(), filepath.Join(stateDir, TokensFile)); err != nil {
		return fmt.Errorf("save tokens: %w", err)
	}
	return nil
}

func hashToken(t string) string {
	sum := sha256.Sum256([]byte(t))
	return hex.EncodeToString(sum[:])
}
