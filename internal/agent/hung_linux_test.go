package agent

import (
	"context"
	"strings"
	"testing"
	"time"

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

// TestAgentLooksBounded: a call on the agent's files that waits on a
// stopped mount holds its look after warden gave up on it; past the
// agent's bound, the next call on its files, even on a path that answers,
// is refused at once, saying why.
func TestAgentLooksBounded(t *testing.T) {
	src := t.TempDir()
	_, mnt := hostfstest.MountPoint(t)
	hostfstest.MountFUSE(t, src, mnt).Stop(t)

	c, _ := pair(t, ServeOptions{MaxWaitingLooks: 1})
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, err := c.FS().Lstat(ctx, mnt+"/f"); err == nil {
		t.Fatal("lstat on a stopped mount returned")
	}
	_, err := c.FS().Lstat(context.Background(), src)
	if err == nil || !strings.Contains(err.Error(), "1 earlier looks at files are still waiting") {
		t.Errorf("lstat of an answering path with the agent's look waiting: %v, want it refused", err)
	}
}
