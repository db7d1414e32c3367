package fleet

import (
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/sshpool"
)

func TestParseSpec(t *testing.T) {
	tests := []struct {
		spec, bind, dest string
		kind             sshpool.ForwardKind
		allowWide        bool
		err              string
	}{
		{spec: "L:8080:db:5432", kind: sshpool.ForwardLocal, bind: "127.0.0.1:8080", dest: "db:5432"},
		{spec: "L:127.0.0.1:0:10.0.0.5:80", kind: sshpool.ForwardLocal, bind: "127.0.0.1:0", dest: "10.0.0.5:80"},
		{spec: "l:localhost:0:db:1", kind: sshpool.ForwardLocal, bind: "127.0.0.1:0", dest: "db:1"},
		{spec: "L:[::1]:0:[fd00::5]:80", kind: sshpool.ForwardLocal, bind: "[::1]:0", dest: "[fd00::5]:80"},
		{spec: "R:0:127.0.0.1:22", kind: sshpool.ForwardRemote, bind: "127.0.0.1:0", dest: "127.0.0.1:22"},
		{spec: "D:1080", kind: sshpool.ForwardDynamic, bind: "127.0.0.1:1080"},
		{spec: "D:0.0.0.0:1080", kind: sshpool.ForwardDynamic, bind: "0.0.0.0:1080", allowWide: true},
		{spec: "D:0.0.0.0:1080", err: "not loopback"},
		{spec: "L:192.168.1.2:0:db:5432", err: "not loopback"},
		{spec: "L:0:-oProxyCommand=x:22", err: "destination"},
		{spec: "L:0:a;id:22", err: "destination"},
		{spec: "L:0:db:0", err: "destination port"},
		{spec: "L:0:db:70000", err: "destination port"},
		{spec: "L:+1:db:22", err: "bind port"},
		{spec: "L:db:22", err: "wrong number"},
		{spec: "D:127.0.0.1:0:x", err: "wrong number"},
		{spec: "X:0:db:22", err: "kind"},
		{spec: "L:myhost:0:db:22", err: "not an IP"},
		{spec: "L:[::1:0:db:22", err: "unclosed"},
		{spec: "", err: "kind"},
	}
	for _, tc := range tests {
		t.Run(tc.spec, func(t *testing.T) {
			got, err := ParseSpec(tc.spec, tc.allowWide)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("ParseSpec(%q) = %+v, %v; want an error mentioning %q", tc.spec, got, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Kind != tc.kind || got.Bind() != tc.bind || got.Dest() != tc.dest {
				t.Errorf("ParseSpec(%q) = %s %s -> %s; want %s %s -> %s", tc.spec, got.Kind, got.Bind(), got.Dest(), tc.kind, tc.bind, tc.dest)
			}
		})
	}
}

// FuzzParseSpec checks that whatever is accepted binds loopback (unless
// allowed otherwise) and names a destination no other program could read
// as an option.
func FuzzParseSpec(f *testing.F) {
	for _, s := range []string{"L:0:db:22", "R:[::1]:0:h:1", "D:1080", "L:0:-x:1", "L:[:0:a:1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sp, err := ParseSpec(s, false)
		if err != nil {
			return
		}
		if sp.BindAddr != "127.0.0.1" && sp.BindAddr != "::1" && !strings.HasPrefix(sp.BindAddr, "127.") {
			t.Fatalf("%q binds %s", s, sp.BindAddr)
		}
		if sp.Kind != sshpool.ForwardDynamic && sshpool.ValidateHost(sp.DestHost) != nil {
			t.Fatalf("%q has destination %q", s, sp.DestHost)
		}
	})
}
