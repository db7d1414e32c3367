package runner

import "testing"

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		ok   bool
	}{
		{"/srv/data", true},
		{"/srv/a,b", true},
		{"/", false},
		{"", false},
		{"srv/data", false},
		{"/srv/../etc", false},
		{"/srv/data/", false},
		{"/srv\n/x", false},
		{"/srv\x00x", false},
	} {
		if got := CheckPath(tc.path) == nil; got != tc.ok {
			t.Errorf("CheckPath(%q) ok = %v, want %v", tc.path, got, tc.ok)
		}
	}
}

func TestLookPath(t *testing.T) {
	if p, err := LookPath("sh", []string{"PATH=relative:/bin"}); err != nil || p != "/bin/sh" {
		t.Errorf("LookPath(sh) = %q, %v; want /bin/sh (the relative entry skipped)", p, err)
	}
	if _, err := LookPath("sh", []string{"PATH=relative"}); err == nil {
		t.Error("LookPath with only a relative PATH entry found sh")
	}
	if _, err := LookPath("/nonexistent/prog", nil); err == nil {
		t.Error("LookPath of a missing absolute path: error = nil")
	}
}
