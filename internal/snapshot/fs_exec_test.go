package snapshot

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// routerExec connects to a real dropbear server with a BusyBox userland
// and no SFTP, logged in as an unprivileged user, and returns its exec
// file system. It makes the test's temporary directories readable by that
// user, or every read would fail and prove nothing.
func routerExec(t *testing.T) *remotefs.Exec {
	t.Helper()
	return execFS(t, sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"}))
}

// execFS returns the exec file system of srv, logged in as its user.
func execFS(t *testing.T, srv *sshd.Server) *remotefs.Exec {
	t.Helper()
	pool, _, target := sshpooltest.Server(t, srv, "router")
	return remotefs.NewExec(remotefs.SSH(pool, target))
}

// TestExecSource runs the shared suite, every tool, with every snapshot
// read over the exec channel of a dropbear server with BusyBox.
func TestExecSource(t *testing.T) {
	fsys := routerExec(t)
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return fmt.Sprintf("s%d", i+1) })
	setMtimes(t, snapdir)
	e := newEngine(t, Config{OpenFS: ExecOpener(fsys), Sources: []SourceConfig{{Name: "remote", Kind: KindZFS, Path: mount}}})
	runSuite(t, e, "remote")
}

// TestExecConfinement drives the escape cases over the exec channel of a
// router.
func TestExecConfinement(t *testing.T) {
	e, _ := confineFixture(t, ExecOpener(routerExec(t)))
	testConfinement(t, e)
}
