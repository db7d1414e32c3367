package edge

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// AdminSocket is the name of the admin socket inside the state dir.
const AdminSocket = "admin.sock"

// Admin is what the local admin socket acts on.
type Admin struct {
	// Sources is the lockout table; nil when serving stdio.
	Sources *Sources
	// Reload re-reads the configuration and tokens, as SIGHUP does.
	Reload func() error
	Logger *slog.Logger
}

// ServeAdmin serves the admin API on a unix socket at path, mode 0600 (its
// directory, the state dir, is 0700), until ctx ends. Only warden's own
// user (or root) can connect. A stale socket left by a crash is replaced;
// one a live warden answers on is an error.
func ServeAdmin(ctx context.Context, path string, a Admin) error {
	if a.Logger == nil {
		a.Logger = slog.New(slog.DiscardHandler)
	}
	if _, err := os.Lstat(path); err == nil {
		if c, err := net.DialTimeout("unix", path, time.Second); err == nil {
			c.Close()
			return fmt.Errorf("admin socket %s: another warden is serving it", path)
		}
		if err := os.Remove(path); err != nil {
			return fmt.Errorf("admin socket: %w", err)
		}
	}
	ln, err := net.Listen("unix", path)
	if err != nil {
		return fmt.Errorf("admin socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		ln.Close()
		return fmt.Errorf("admin socket: %w", err)
	}
	srv := &http.Server{Handler: a.handler(), ReadHeaderTimeout: 5 * time.Second}
	go func() {
		<-ctx.Done()
		srv.Close()
	}()
	err = srv.Serve(ln)
	os.Remove(path)
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

func (a Admin) handler() http.Handler {
	mux := http.NewServeMux()
	noTable := func(w http.ResponseWriter) bool {
		if a.Sources == nil {
			http.Error(w, "this warden serves no HTTP, so it has no lockout table", http.StatusNotFound)
			return true
		}
		return false
	}
	mux.HandleFunc("GET /lockouts", func(w http.ResponseWriter, r *http.Request) {
		if noTable(w) {
			return
		}
		writeJSON(w, a.Sources.List())
	})
	mux.HandleFunc("DELETE /lockouts/{addr}", func(w http.ResponseWriter, r *http.Request) {
		if noTable(w) {
			return
		}
		ok, err := a.Sources.Delete(r.PathValue("addr"))
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		writeJSON(w, map[string]bool{"deleted": ok})
	})
	mux.HandleFunc("DELETE /lockouts", func(w http.ResponseWriter, r *http.Request) {
		if noTable(w) {
			return
		}
		writeJSON(w, map[string]int{"flushed": a.Sources.Flush()})
	})
	mux.HandleFunc("POST /reload", func(w http.ResponseWriter, r *http.Request) {
		if a.Reload == nil {
			http.Error(w, "reload not supported", http.StatusNotFound)
			return
		}
		if err := a.Reload(); err != nil {
			http.Error(w, err.Error(), http.StatusUnprocessableEntity)
			return
		}
		writeJSON(w, map[string]bool{"reloaded": true})
	})
	return mux
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// AdminClient talks to a running warden's admin socket.
type AdminClient struct {
	c *http.Client
}

// NewAdminClient returns a client for the socket at path.
func NewAdminClient(path string) *AdminClient {
	return &AdminClient{c: &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			var d net.Dialer
			return d.DialContext(ctx, "unix", path)
		}},
	}}
}

// AdminSocketPath is the admin socket of a state dir.
func AdminSocketPath(stateDir string) string { return filepath.Join(stateDir, AdminSocket) }

// Do sends one admin request and decodes a JSON answer into out.
func (c *AdminClient) Do(ctx context.Context, method, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, method, "http://warden"+path, nil)
	if err != nil {
		return err
	}
	resp, err := c.c.Do(req)
	if err != nil {
		return fmt.Errorf("admin socket: %w (is warden serving?)", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if resp.StatusCode != http.StatusOK {
		return errors.New(strings.TrimSpace(string(b)))
	}
	if out != nil {
		return json.Unmarshal(b, out)
	}
	return nil
}
