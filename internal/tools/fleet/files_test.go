package fleet

import (
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshpool"
)

// TestListingFiles: hosts_list says how each host's files are reached
// once that is known, and nothing before.
func TestListingFiles(t *testing.T) {
	inv, err := sshpool.NewInventory(sshpool.InventoryOptions{HomeDir: t.TempDir(), LocalUser: "op", Hosts: []sshpool.HostEntry{
		{Name: "router", Address: "192.168.1.1", User: "admin"},
		{Name: "nas", Address: "192.168.1.2", User: "admin"},
		{Name: "new", Address: "192.168.1.3", User: "admin"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	d := Deps{Inventory: inv, FilesTransport: func(h string) string { return map[string]string{"router": "exec", "nas": "sftp"}[h] }}
	l := d.listing()
	got := map[string]string{}
	for _, h := range l.Hosts {
		got[h.Name] = h.Files
	}
	if got["router"] != "exec" || got["nas"] != "sftp" || got["new"] != "" {
		t.Errorf("files = %v", got)
	}
	txt := l.text()
	if !strings.Contains(txt, "router\tadmin@192.168.1.1:22 files=exec (warden)") || strings.Contains(txt, "new\tadmin@192.168.1.3:22 files=") {
		t.Errorf("text:\n%s", txt)
	}
}
