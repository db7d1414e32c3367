package docker

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMountsHideWardensOwnFiles: the daemon makes a mount outside any
// confinement of warden's, so a mount whose source is, holds or lies in
// one of warden's own paths is refused in every spelling of the source; a
// sibling mounts as before.
func TestMountsHideWardensOwnFiles(t *testing.T) {
	root := t.TempDir()
	state := filepath.Join(root, "lib", "warden")
	other := filepath.Join(root, "lib", "other")
	for _, d := range []string{state, other} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	token := filepath.Join(state, "token")
	if err := os.WriteFile(token, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ name, to string }{{"lnstate", state}, {"lnlib", filepath.Dir(state)}, {"lntoken", token}} {
		if err := os.Symlink(l.to, filepath.Join(root, l.name)); err != nil {
			t.Fatal(err)
		}
	}
	for _, src := range []string{state, token, filepath.Dir(state), root, filepath.Join(root, "lnstate"), filepath.Join(root, "lnlib"), filepath.Join(root, "lntoken")} {
		for _, mode := range []string{"", ":ro", ":rw"} {
			o := Options{Image: "alpine", Mounts: []string{src + ":/data" + mode}, Hide: []string{state}}
			if _, err := o.args(); err == nil || !strings.Contains(err.Error(), "warden's own files") {
				t.Errorf("mount %s%s: err = %v, want refused as showing warden's own files", src, mode, err)
			}
		}
	}
	o := Options{Image: "alpine", Mounts: []string{other + ":/data:ro", "/srv:/srv"}, Hide: []string{state}}
	if _, err := o.args(); err != nil {
		t.Errorf("sibling mount: %v", err)
	}
}
