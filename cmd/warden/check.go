package main

import (
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/declare"
	"github.com/warden-mcp/warden/internal/edge"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/server"
)

// loadChecked reads the configuration as serve does and runs preflight on
// it, reporting the problems of both at once.
func loadChecked(path string, getenv env, apply func(*config.Config)) (*config.Config, error) {
	cfg, err := loadConfig(path, getenv, apply)
	return checked(cfg, err)
}

// checked is loadChecked's check of what loadConfig returned.
func checked(cfg *config.Config, err error) (*config.Config, error) {
	var probs config.Problems
	if err != nil && (cfg == nil || !errors.As(err, &probs)) {
		return nil, err
	}
	probs = append(probs, preflight(cfg)...)
	if len(probs) > 0 {
		return nil, probs.Sorted()
	}
	return cfg, nil
}

// preflight checks what a valid configuration can still get wrong and
// only starting a server finds: rules that do not compile, files that do
// not open, declarative tools that do not load. serve, exe and config
// check all run it, so that `warden config check` refuses exactly what
// serve refuses, every problem at once, each named by its key and line.
func preflight(cfg *config.Config) config.Problems {
	var probs config.Problems
	bad := func(key, format string, args ...any) {
		probs = append(probs, cfg.Problem(key, format, args...))
	}
	for i, r := range cfg.Policy.Deny {
		if _, err := policy.New(policy.Rules{Deny: []string{r}}); err != nil {
			bad(fmt.Sprintf("policy.deny[%d]", i), "%q is not a regular expression: %s", r, regexpError(err))
		}
	}
	for i, r := range cfg.Policy.Allow {
		if _, err := policy.New(policy.Rules{Allow: []string{r}}); err != nil {
			// The policy anchors allow rules; name the rule as written.
			if _, own := regexp.Compile(r); own != nil {
				err = own
			}
			bad(fmt.Sprintf("policy.allow[%d]", i), "%q is not a regular expression: %s", r, regexpError(err))
		}
	}
	for i, h := range cfg.Policy.DenyHosts {
		if _, err := policy.New(policy.Rules{DenyHosts: []string{h}}); err != nil {
			bad(fmt.Sprintf("policy.deny_hosts[%d]", i), "%v", err)
		}
	}
	if f := cfg.Audit.KeyFile; f != "" {
		if _, err := os.ReadFile(f); err != nil {
			bad("audit.key_file", "cannot be read: %v", pathError(err))
		}
	}
	missing := false
	for i, p := range cfg.Tools {
		if _, err := os.Stat(p); err != nil {
			bad(fmt.Sprintf("tools[%d]", i), "%v", pathError(err))
			missing = true
		}
	}
	if len(cfg.Tools) > 0 && !missing {
		if _, err := declare.LoadPaths(cfg.Tools); err != nil {
			bad("tools", "the declarative tools do not load:\n%v", err)
		}
	}
	if cfg.HTTP.Addr != "" {
		if f := cfg.HTTP.TokenFile; f != "" && cfg.HTTP.Token == "" {
			if t, err := config.ReadTokenFile(f); err != nil {
				bad("http.token_file", "cannot be read: %v", pathError(errors.Unwrap(err)))
			} else if len(t) < config.MinTokenLen {
				bad("http.token_file", "the token in %s must be at least %d characters", f, config.MinTokenLen)
			}
		}
		if cfg.HTTP.TLSCertFile != "" && cfg.HTTP.TLSKeyFile != "" {
			if _, err := tls.LoadX509KeyPair(cfg.HTTP.TLSCertFile, cfg.HTTP.TLSKeyFile); err != nil {
				bad("http.tls_cert_file", "the certificate and key do not load: %v", err)
			}
		}
		if _, err := edge.LoadTokens(cfg.StateDir); cfg.StateDir != "" && err != nil {
			bad("state_dir", "the named tokens do not load: %v", err)
		}
	}
	return probs
}

var regexpErrorRE = regexp.MustCompile(`^error parsing regexp: `)

// regexpError is the regexp package's own complaint, without the rule
// policy.New repeats.
func regexpError(err error) string {
	for u := errors.Unwrap(err); u != nil; u = errors.Unwrap(u) {
		err = u
	}
	return regexpErrorRE.ReplaceAllString(err.Error(), "")
}

// pathError is an *os.PathError without the operation: "open x: no such
// file" becomes "x: no such file".
func pathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %w", pe.Path, pe.Err)
	}
	return err
}

// assemble builds the server serve would build from cfg, in a scratch
// state dir, and takes it down again: whatever serve would refuse past
// preflight (snapshot sources, the SSH inventory, groups, confinement
// required where there is none), config check refuses too.
func assemble(cfg *config.Config, path string, getenv env) error {
	scratch, err := os.MkdirTemp("", "warden-check-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	cp := *cfg
	cp.StateDir, cp.Audit.Path = scratch, scratch+"/audit.jsonl"
	w, err := server.New(server.Options{
		Config:        &cp,
		Version:       versionString(),
		Transport:     "check",
		Getenv:        getenv,
		ConfigPath:    path,
		LocalIdentity: localIdentity(),
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		return err
	}
	return w.Close()
}
