package snapshot

import (
	"fmt"
	"net"
	"path/filepath"
	"testing"

	"github.com/pkg/sftp"
)

// sftpClient serves the local filesystem over a real SFTP session on an
// in-memory pipe, as sftp-server would behind sshd.
func sftpClient(t *testing.T) *sftp.Client {
	t.Helper()
	srvConn, cliConn := net.Pipe()
	srv, err := sftp.NewServer(srvConn, sftp.ReadOnly())
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve() }()
	c, err := sftp.NewClientPipe(cliConn, cliConn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		srv.Close()
	})
	return c
}

// TestSFTPSource runs the shared suite with every snapshot read over SFTP.
func TestSFTPSource(t *testing.T) {
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return fmt.Sprintf("s%d", i+1) })
	setMtimes(t, snapdir)
	e := newEngine(t, Config{OpenFS: SFTPOpener(sftpClient(t)), Sources: []SourceConfig{{Name: "remote", Kind: KindZFS, Path: mount}}})
	runSuite(t, e, "remote")
}
