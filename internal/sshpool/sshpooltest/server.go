package sshpooltest

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// Server makes srv an inventory host called name — its host key trusted
// in a known_hosts file of the test's own, its user's key as identity —
// and returns a pool closed with the test, the inventory and the host's
// target. The test's temporary directory is opened to other users, so a
// server whose login is not root can read what the test puts there.
func Server(t testing.TB, srv *sshd.Server, name string) (*sshpool.Pool, *sshpool.Inventory, sshpool.Target) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	known := filepath.Join(dir, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: dir, LocalUser: srv.User, Hosts: []sshpool.HostEntry{{
		Name: name, Address: srv.Host, Port: srv.Port, User: srv.User,
		IdentityFiles: []string{srv.UserKey.Path}, KnownHostsFile: known,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	target, err := inv.Resolve(name)
	if err != nil {
		t.Fatal(err)
	}
	pool := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { pool.Close() })
	return pool, inv, target
}
