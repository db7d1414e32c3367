package config

import (
	"slices"
	"strings"
	"testing"
)

func TestApprovalMechanisms(t *testing.T) {
	tests := []struct {
		name         string
		yml          string
		tier2, tier3 []string
	}{
		{"default", "", []string{"token"}, []string{"token"}},
		{"console enabled", "console:\n  enabled: true\n", []string{"token"}, []string{"console"}},
		{"web console", "console:\n  listen: 127.0.0.1:8788\n", []string{"token"}, []string{"console"}},
		{"explicit tier3 wins", "console:\n  enabled: true\napproval:\n  tier3: token\n", []string{"token"}, []string{"token"}},
		{"tier2 human", "approval:\n  tier2: elicit\n", []string{"elicit"}, []string{"elicit"}},
		{"list", "approval:\n  tier3: [console, elicit]\n", []string{"token"}, []string{"console", "elicit"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := read(t, tc.yml, nil)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.TierMechanisms(2); !slices.Equal(got, tc.tier2) {
				t.Errorf("tier 2 = %v, want %v", got, tc.tier2)
			}
			if got := c.TierMechanisms(3); !slices.Equal(got, tc.tier3) {
				t.Errorf("tier 3 = %v, want %v", got, tc.tier3)
			}
		})
	}
}

func TestApprovalErrors(t *testing.T) {
	tests := []struct {
		name string
		yml  string
		want []string
	}{
		{"token with human", "approval:\n  tier3: [token, console]\n", []string{"approval.tier3", "not a human answer"}},
		{"twice", "approval:\n  tier2: [console, console]\n", []string{"approval.tier2", "twice"}},
		{"unknown in list", "approval:\n  tier2: [console, pager]\n", []string{"approval.tier2", "pager"}},
		{"mapping", "approval:\n  tier2: {a: b}\n", []string{"approval.tier2", "mechanism"}},
		{"wait", "approval:\n  wait: 0s\n", []string{"approval.wait"}},
		{"pending", "approval:\n  max_pending: 0\n", []string{"approval.max_pending"}},
		{"webhook url", "approval:\n  notify: [{url: 'ftp://x', format: json}]\n", []string{"approval.notify[0].url"}},
		{"webhook userinfo", "approval:\n  notify: [{url: 'https://u:p@x', format: json}]\n", []string{"approval.notify[0].url", "password"}},
		{"webhook topic", "approval:\n  notify: [{url: 'https://ntfy.sh', format: ntfy}]\n", []string{"approval.notify[0].topic"}},
		{"webhook retries", "approval:\n  notify: [{url: 'https://x', format: json, retries: 99}]\n", []string{"approval.notify[0].retries"}},
		{"console url", "console:\n  url: javascript:alert(1)\n", []string{"console.url"}},
		{"console listen public", "console:\n  listen: 0.0.0.0:8788\n", []string{"console.listen", "loopback"}},
		{"console listen bad", "console:\n  listen: nowhere\n", []string{"console.listen", "host:port"}},
		{"operator scope an agent's", "console:\n  operator_scope: warden:admin\n", []string{"console.operator_scope", "agent's scope"}},
		{"operator scope empty", "console:\n  operator_scope: ''\n", []string{"console.operator_scope"}},
		{"operator scope two", "console:\n  operator_scope: 'a b'\n", []string{"console.operator_scope", "not one OAuth scope"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := read(t, tc.yml, nil)
			if err == nil {
				t.Fatalf("got no error, want one mentioning %q", tc.want)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}
