package confine

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// TestEnterUnavailable: namespaces that cannot be joined (here, of a
// process that does not exist) leave nothing confined and say why, and
// confinement: required refuses them; a negative pid is no process.
func TestEnterUnavailable(t *testing.T) {
	const gone = 1 << 22 // above pid_max's ceiling: never a process
	c, err := New(Options{Enter: gone}, Auto)
	if err != nil {
		t.Fatal(err)
	}
	if st := c.Status(); st.Active || !strings.HasPrefix(st.Mechanism, "none: ") || !strings.Contains(st.Mechanism, "4194304") {
		t.Errorf("status %+v, want inactive and naming the process", st)
	}
	if _, err := New(Options{Enter: gone}, Required); err == nil {
		t.Error("confinement: required served without the namespaces it must join")
	}
	if _, err := New(Options{Enter: -1}, Auto); err == nil {
		t.Error("a negative pid was taken")
	}
}
