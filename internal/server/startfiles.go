package server

import (
	"context"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/warden-mcp/warden/internal/config"
	"github.com/warden-mcp/warden/internal/runner"
)

// StartFile is a file or directory warden reads before it serves, and
// what it is to an operator.
type StartFile struct{ What, Path string }

// StartFiles are what warden reads before it serves: the config file (cfg
// may be nil while it is being read), the state dir, the audit log, the
// key, certificate and token files, the declarative tool and appliance
// pack files, and the SSH files the inventory is read from. Any of them
// on a mount whose server is gone holds the start.
func StartFiles(cfg *config.Config, configPath string) []StartFile {
	out := []StartFile{{"config file", configPath}}
	if cfg == nil {
		return out
	}
	out = append(out,
		StartFile{"state dir", cfg.StateDir},
		StartFile{"audit.path", cfg.Audit.Path},
		StartFile{"audit.key_file", cfg.Audit.KeyFile},
		StartFile{"http.token_file", cfg.HTTP.TokenFile},
		StartFile{"http.tls_cert_file", cfg.HTTP.TLSCertFile},
		StartFile{"http.tls_key_file", cfg.HTTP.TLSKeyFile},
		StartFile{"ssh.config", cfg.SSH.Config},
		StartFile{"ssh.known_hosts", cfg.SSH.KnownHosts},
	)
	for _, e := range cfg.Audit.Export {
		out = append(out, StartFile{"audit.export ca_file", e.CAFile}, StartFile{"audit.export cert_file", e.CertFile}, StartFile{"audit.export key_file", e.KeyFile})
	}
	for _, t := range cfg.Tools {
		out = append(out, StartFile{"tool file", t})
	}
	for _, p := range cfg.Packs.Files {
		out = append(out, StartFile{"pack file", p})
	}
	return slices.DeleteFunc(out, func(f StartFile) bool { return f.Path == "" || f.Path == "none" })
}

// NotAnswering looks at every one of files at once and returns, in their
// order, what each that did not answer within wait says about it. A file
// that is missing or unreadable answered.
func NotAnswering(files []StartFile, wait time.Duration) []error {
	errs := make([]error, len(files))
	var wg sync.WaitGroup
	for i, f := range files {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = runner.Answers(context.Background(), nil, f.What+" "+f.Path, wait, func() error {
				os.Stat(f.Path)
				return nil
			})
		}()
	}
	wg.Wait()
	return slices.DeleteFunc(errs, func(err error) bool { return err == nil })
}
