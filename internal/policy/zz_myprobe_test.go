package policy

import (
	"os"
	"strings"
	"testing"
)

func TestZZProbe(t *testing.T) {
	p := protectedPolicy(t)
	b, _ := os.ReadFile("/tmp/s33/probe.txt")
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		v := p.Evaluate(Input{Command: l, Host: "nas"})
		t.Logf("%-60q %s denied=%v %s", l, v.Tier, v.Denied, v.Reason)
	}
}
