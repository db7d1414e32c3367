package agent

import (
	"context"
	"testing"

	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/hostfs/hostfstest"
)

// TestReadDirUnansweredAcrossWire: an entry the agent's host could not
// look at (a FUSE mount whose daemon is stopped) reaches warden listed as
// not answering, beside the entries that answered.
func TestReadDirUnansweredAcrossWire(t *testing.T) {
	src := t.TempDir()
	hold, mnt := hostfstest.MountPoint(t)
	hostfstest.MountFUSE(t, src, mnt).Stop(t)

	c, _ := pair(t, ServeOptions{})
	infos, _, err := c.FS().ReadDir(context.Background(), hold, 10)
	if err != nil {
		t.Fatal(err)
	}
	want := []hostfs.Info{{Name: "nas", Type: hostfs.TypeDir, Unanswered: true}}
	if len(infos) != 2 || infos[0] != want[0] || infos[1].Name != "plain" || infos[1].Unanswered || infos[1].Type != hostfs.TypeDir {
		t.Errorf("read dir across the wire with a stopped mount: %+v, want nas unanswered beside plain", infos)
	}
}
