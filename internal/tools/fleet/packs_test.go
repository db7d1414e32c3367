package fleet

import (
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshpool"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// TestHostsListShowsPacks: hosts_list shows the appliance packs detected
// on each host it was asked about, and nothing for hosts not probed.
func TestHostsListShowsPacks(t *testing.T) {
	f, err := sshpooltest.NewFleet(t.TempDir(), 3)
	if err != nil {
		t.Fatal(err)
	}
	inv, err := sshpool.NewInventory(f.Options)
	if err != nil {
		t.Fatal(err)
	}
	var router string
	for _, e := range inv.List() {
		if e.Target != nil {
			router = e.Name
			break
		}
	}
	d := Deps{Inventory: inv, Packs: func(host string) []string {
		if host == router {
			return []string{"asuswrt-merlin"}
		}
		return nil
	}}
	l := d.listing()
	for _, h := range l.Hosts {
		got := strings.Join(h.Packs, ",")
		if want := map[bool]string{true: "asuswrt-merlin"}[h.Name == router]; got != want {
			t.Errorf("%s: packs %q, want %q", h.Name, got, want)
		}
	}
	if !strings.Contains(l.text(), router+"\t") || !strings.Contains(l.text(), "packs=asuswrt-merlin") {
		t.Errorf("text does not show the packs:\n%s", l.text())
	}
}
