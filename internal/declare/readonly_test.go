package declare

import (
	"slices"
	"testing"
)

// TestReadOnlyGrants: below tier 2 a sandbox's write grants become reads,
// and every docker mount is read-only whatever it asked.
func TestReadOnlyGrants(t *testing.T) {
	o := map[string]any{
		"allow_read_folders":  []string{"/srv/r"},
		"allow_write_folders": []string{"/srv/w"},
		"allow_write_files":   []string{"/srv/f"},
		"mounts":              []string{"/a:/a", "/b:/b:rw", "/c:/c:ro"},
	}
	readOnlyGrants(o)
	if l(o, "allow_write_folders") != nil || l(o, "allow_write_files") != nil {
		t.Errorf("write grants left: %v", o)
	}
	if got := l(o, "allow_read_folders"); !slices.Equal(got, []string{"/srv/r", "/srv/w"}) {
		t.Errorf("read folders = %v", got)
	}
	if got := l(o, "allow_read_files"); !slices.Equal(got, []string{"/srv/f"}) {
		t.Errorf("read files = %v", got)
	}
	if got := l(o, "mounts"); !slices.Equal(got, []string{"/a:/a:ro", "/b:/b:ro", "/c:/c:ro"}) {
		t.Errorf("mounts = %v", got)
	}
}
