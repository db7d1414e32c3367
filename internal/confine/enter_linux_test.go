package confine

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestUnescapeMount(t *testing.T) {
	for in, want := range map[string]string{
		`/mnt/plain`:         "/mnt/plain",
		`/mnt/with\040space`: "/mnt/with space",
		`/a\011tab\134slash`: "/a\ttab\\slash",
		`/trailing\04`:       `/trailing\04`,
		`/not\999octal`:      `/not\999octal`,
		`/v/\040\040`:        "/v/  ",
	} {
		if got := unescapeMount(in); got != want {
			t.Errorf("unescapeMount(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestHostPathsOwnNamespace maps paths into warden's own mount namespace:
// each is found where it is, and a path on no mounted file system is
// reported missing rather than guessed.
func TestHostPathsOwnNamespace(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(dir, "state dir")
	if err := os.Mkdir(state, 0o700); err != nil {
		t.Fatal(err)
	}
	found, missing, err := hostPaths(os.Getpid(), []string{state})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(found, state) || len(missing) != 0 {
		t.Errorf("hostPaths = %q, missing %q; want %q found", found, missing, state)
	}
}
