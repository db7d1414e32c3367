package snapshot

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool"
)

// realSFTP connects to a real OpenSSH server on loopback and returns its
// SFTP session, as an inventory host's snapshots are read in production.
func realSFTP(t *testing.T) *sftp.Client {
	t.Helper()
	srv := sshd.Start(t, sshd.Options{})
	dir := t.TempDir()
	known := filepath.Join(dir, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: dir, LocalUser: srv.User, Hosts: []sshpool.HostEntry{{
		Name: "box", Address: srv.Host, Port: srv.Port, User: srv.User,
		IdentityFiles: []string{srv.UserKey.Path}, KnownHostsFile: known,
	}}})
	if err != nil {
		t.Fatal(err)
	}
	target, err := inv.Resolve("box")
	if err != nil {
		t.Fatal(err)
	}
	pool := sshpool.New(sshpool.Options{})
	t.Cleanup(func() { pool.Close() })
	client, err := pool.SFTP(t.Context(), target)
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// TestRealSSHDSource runs the shared suite, every tool, with every
// snapshot read over SFTP from a real OpenSSH server.
func TestRealSSHDSource(t *testing.T) {
	client := realSFTP(t)
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return fmt.Sprintf("s%d", i+1) })
	setMtimes(t, snapdir)
	e := newEngine(t, Config{OpenFS: SFTPOpener(client), Sources: []SourceConfig{{Name: "remote", Kind: KindZFS, Path: mount}}})
	runSuite(t, e, "remote")
}

// TestRealSSHDConfinement drives the escape cases over a real sshd.
func TestRealSSHDConfinement(t *testing.T) {
	e, _ := confineFixture(t, SFTPOpener(realSFTP(t)))
	testConfinement(t, e)
}
