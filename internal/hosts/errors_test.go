package hosts_test

import (
	"context"
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/hosts/localhost"
)

// TestLocalOptionsRefused: a local host without its runners, an entered
// one without an unconfined runner or with a negative pid is refused with
// the reason, never built half-way.
func TestLocalOptionsRefused(t *testing.T) {
	ok := localRunners()
	for _, c := range []struct {
		name string
		o    localhost.Options
		want string
	}{
		{"no runners", localhost.Options{}, "local runners are required"},
		{"negative pid", func() localhost.Options { o := ok; o.EnterPID = -1; return o }(), "not a process id"},
		{"entered without a bare runner", func() localhost.Options { o := ok; o.EnterPID = 1; o.Bare = nil; return o }(), "unconfined runner"},
	} {
		if _, err := localhost.New(c.o); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error saying %q", c.name, err, c.want)
		}
	}
}

// TestUnknownHost: a name no provider knows fails resolution, snapshot
// reach and the mode, addresses and transport lookups the same way, naming
// the host and where the inventory is listed.
func TestUnknownHost(t *testing.T) {
	set, _ := newSet(t, nil, nil, localRunners())
	if _, err := set.Resolve(context.Background(), "ghost"); err == nil || !strings.Contains(err.Error(), `host "ghost"`) || !strings.Contains(err.Error(), "hosts_list") {
		t.Errorf("Resolve: %v", err)
	}
	if _, _, err := set.Snapshots("ghost"); err == nil || !strings.Contains(err.Error(), `host "ghost"`) {
		t.Errorf("Snapshots: %v", err)
	}
	if m, a, tr := set.Mode("ghost"), set.Addrs("ghost"), set.FilesTransport("ghost"); m != "" || a != nil || tr != "" {
		t.Errorf("lookups of an unknown host: mode %q addrs %v transport %q", m, a, tr)
	}
	h, err := set.Resolve(context.Background(), "")
	if err != nil || h.Name != "local" || !h.Local() || h.FilesTransport() != "local" {
		t.Errorf(`Resolve(""): %+v %v`, h, err)
	}
}
