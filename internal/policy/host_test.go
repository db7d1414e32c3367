package policy

import (
	"strings"
	"testing"
)

func TestCanonicalHost(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"169.254.169.254", "169.254.169.254"},
		{"2852039166", "169.254.169.254"},
		{"0xa9fea9fe", "169.254.169.254"},
		{"0XA9FEA9FE", "169.254.169.254"},
		{"0251.0376.0251.0376", "169.254.169.254"},
		{"0xa9.0xfe.0xa9.0xfe", "169.254.169.254"},
		{"169.0xfe.0251.254", "169.254.169.254"},
		{"169.254.43518", "169.254.169.254"},
		{"169.16689662", "169.254.169.254"},
		{"169.254.169.254.", "169.254.169.254"},
		{" 169.254.169.254 ", "169.254.169.254"},
		{"::ffff:169.254.169.254", "169.254.169.254"},
		{"::ffff:a9fe:a9fe", "169.254.169.254"},
		{"[::ffff:169.254.169.254]", "169.254.169.254"},
		{"64:ff9b::a9fe:a9fe", "169.254.169.254"},
		{"127.1", "127.0.0.1"},
		{"0", "0.0.0.0"},
		{"0x7f000001", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"[::1]", "::1"},
		{"FD00:0:0::1", "fd00::1"},
		{"Example.COM.", "example.com"},
		{"web1", "web1"},
		{"256.1.1.1", "256.1.1.1"},
		{"1.2.3.4.5", "1.2.3.4.5"},
		{"08.1.1.1", "08.1.1.1"},
		{"1e100.net", "1e100.net"},
	}
	for _, tc := range tests {
		if got := CanonicalHost(tc.in); got != tc.want {
			t.Errorf("CanonicalHost(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNewErrors(t *testing.T) {
	tests := []struct {
		name string
		r    Rules
		want string
	}{
		{"bad deny regex", Rules{Deny: []string{"("}}, `deny rule "("`},
		{"bad allow regex", Rules{Allow: []string{"[a"}}, `allow rule "[a"`},
		{"bad cidr", Rules{DenyHosts: []string{"10.0.0.0/99"}}, `deny host "10.0.0.0/99"`},
		{"bad cidr address", Rules{DenyHosts: []string{"nonsense/8"}}, `deny host "nonsense/8"`},
		{"empty host", Rules{DenyHosts: []string{" "}}, `deny host " "`},
		{"host with space", Rules{DenyHosts: []string{"a b"}}, `deny host "a b"`},
	}
	for _, tc := range tests {
		_, err := New(tc.r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: New = %v, want error naming %s", tc.name, err, tc.want)
		}
	}
	if _, err := New(Rules{Deny: []string{"x"}, Allow: []string{"y"}, DenyHosts: []string{"1.2.3.4", "10.0.0.0/8", "::ffff:10.0.0.0/104", "h.example", "*.corp"}}); err != nil {
		t.Errorf("New(valid) = %v", err)
	}
}

func TestDenyHosts(t *testing.T) {
	p, err := New(Rules{DenyHosts: []string{"169.254.169.254", "10.0.0.0/8", "::ffff:192.168.0.0/112", "*.corp.example", "bastion"}})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		host  string
		addrs []string
		deny  bool
	}{
		{"0xa9fea9fe", nil, true},
		{"2852039166", nil, true},
		{"10.255.0.1", nil, true},
		{"012.0.0.1", nil, true},
		{"192.168.3.4", nil, true},
		{"a.corp.example", nil, true},
		{"corp.example", nil, true},
		{"CORP.example.", nil, true},
		{"notcorp.example", nil, false},
		{"Bastion.", nil, true},
		{"bastion2", nil, false},
		{"web1", []string{"10.1.1.1"}, true},
		{"web1", []string{"192.0.2.1", "0xa9fea9fe"}, true},
		{"web1", []string{"192.0.2.1"}, false},
		{"local", nil, false},
		{"", nil, false},
		{"11.0.0.1", nil, false},
	}
	for _, tc := range tests {
		v := p.Evaluate(Input{Command: "uptime", Host: tc.host, HostAddrs: tc.addrs})
		if v.Denied != tc.deny {
			t.Errorf("host %q addrs %v: denied=%v (%s), want %v", tc.host, tc.addrs, v.Denied, v.Reason, tc.deny)
		}
	}
}

// TestCanonicalHostMapsLikeAResolver: a name beyond ASCII is read as a
// resolver maps it (IDNA's UTS #46), so fullwidth and circled digits and
// the ideographic full stop spell the address they stand for.
func TestCanonicalHostMapsLikeAResolver(t *testing.T) {
	for in, want := range map[string]string{
		"①⑥⑨.②⑤④.①⑥⑨.②⑤④":          "169.254.169.254",
		"１６９．２５４．１６９．２５４":          "169.254.169.254",
		"169。254。169。254":          "169.254.169.254",
		"ⓜⓔⓣⓐⓓⓐⓣⓐ.google.internal": "metadata.google.internal",
		"Bücher.example":           "xn--bcher-kva.example",
		"ex\u00adample.com":        "example.com",
	} {
		if got := CanonicalHost(in); got != want {
			t.Errorf("CanonicalHost(%q) = %q, want %q", in, got, want)
		}
	}
}
