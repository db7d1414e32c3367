package hosts_test

import (
	"os"
	"testing"

	"github.com/warden-mcp/warden/internal/sshpool"
)

// TestRootFollowsTheLoginUser: a host's commands run as root when warden
// itself is root on this machine, or when an SSH host's login user (its
// inventory entry, ssh_config, or warden's own user) is root; the
// classifier is told so through the relay (Set.Root).
func TestRootFollowsTheLoginUser(t *testing.T) {
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: t.TempDir(), LocalUser: "alice", Hosts: []sshpool.HostEntry{
		{Name: "nas", Address: "192.0.2.10", User: "root"},
		{Name: "web", Address: "192.0.2.11", User: "deploy"},
		{Name: "plain", Address: "192.0.2.12"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	set, _ := newSet(t, inv, sshpool.New(sshpool.Options{}), localRunners())
	for name, want := range map[string]bool{"nas": true, "web": false, "plain": false, "local": os.Geteuid() == 0, "ghost": false} {
		if got := set.Root(name); got != want {
			t.Errorf("Root(%q) = %v; want %v", name, got, want)
		}
	}
}
