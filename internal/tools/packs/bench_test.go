package packs

import (
	"strings"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
)

// BenchmarkGuard measures what the packs' per-host deny rules add to a
// policy evaluation: a host not probed yet (every pack's rules), a
// detected router (its pack's), and the base policy alone.
func BenchmarkGuard(b *testing.B) {
	ps, err := Builtin()
	if err != nil {
		b.Fatal(err)
	}
	base, _ := policy.New(policy.Rules{})
	d := NewDetector(ps, nil, 0)
	d.cache["asus"] = []string{"asuswrt-merlin"}
	g, err := NewGuard(base, ps, d)
	if err != nil {
		b.Fatal(err)
	}
	in := "cat /proc/net/arp | grep br0 && nvram get wan0_ipaddr"
	b.Run("base", func(b *testing.B) {
		for b.Loop() {
			base.Evaluate(policy.Input{Command: in, Host: "asus"})
		}
	})
	b.Run("unprobed", func(b *testing.B) {
		for b.Loop() {
			g.Evaluate(policy.Input{Command: in, Host: "new"})
		}
	})
	b.Run("detected", func(b *testing.B) {
		for b.Loop() {
			g.Evaluate(policy.Input{Command: in, Host: "asus"})
		}
	})
	// A 1 MiB script of ordinary read-only lines, alone and guarded.
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("ls -la /var/log | grep x\ncat /etc/hosts\nps aux | awk '{print $1}'\n" +
			"for f in /etc/*.conf; do head -1 \"$f\"; done\nnvram get wan0_ipaddr\n")
	}
	script := policy.Input{Interpreter: "sh", Script: sb.String(), Host: "new"}
	b.Run("base-1MiB", func(b *testing.B) {
		for b.Loop() {
			base.Evaluate(script)
		}
	})
	b.Run("unprobed-1MiB", func(b *testing.B) {
		for b.Loop() {
			g.Evaluate(script)
		}
	})
}
