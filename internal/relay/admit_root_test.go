package relay

import (
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// TestAdmitTellsTheClassifierRoot: the policy is told which calls run as
// root on their host (Options.HostRoot), so a root warden's or a root
// login's tar -x is classified as under sudo; a host not run as root,
// and a relay with no HostRoot, is not.
func TestAdmitTellsTheClassifierRoot(t *testing.T) {
	g := newRig(t, func(o *Options) {
		o.Mode = policy.Open
		o.HostRoot = func(h string) bool { return h == "nas" || h == "local" }
	})
	g.fanout([]string{"nas", "web"}, nil, nil, nil)
	g.call(nil, nil)
	root := map[string]bool{}
	for _, in := range g.pol.inputs {
		root[in.Host] = in.Root
	}
	want := map[string]bool{"nas": true, "web": false, "local": true}
	for h, w := range want {
		if got, ok := root[h]; !ok || got != w {
			t.Errorf("Input.Root for host %q = %v (asked %v); want %v", h, got, ok, w)
		}
	}

	g = newRig(t, func(o *Options) { o.Mode = policy.Open })
	g.fanout([]string{"nas"}, nil, nil, nil)
	for _, in := range g.pol.inputs {
		if in.Root {
			t.Errorf("Input.Root for host %q with no HostRoot = true; want false", in.Host)
		}
	}
}
