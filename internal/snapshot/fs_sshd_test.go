package snapshot

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/pkg/sftp"

	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// realSFTP connects to a real OpenSSH server on loopback and returns its
// SFTP session, as an inventory host's snapshots are read in production.
func realSFTP(t *testing.T) *sftp.Client {
	t.Helper()
	pool, _, target := sshpooltest.Server(t, sshd.Start(t, sshd.Options{}), "box")
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
