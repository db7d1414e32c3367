package host

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestLiveCaptures re-runs testdata/capture/openrc-dnf.sh, which captures
// rc-service and dnf output from Debian 12's real openrc and dnf packages in
// a bubblewrap root, and checks that the committed *.captured.txt fixtures
// still hold the same bytes. It needs root on Debian 12 with bwrap and the
// apt archive reachable (about 15 s), so it only runs when
// WARDEN_LIVE_CAPTURE=1.
func TestLiveCaptures(t *testing.T) {
	if os.Getenv("WARDEN_LIVE_CAPTURE") != "1" {
		t.Skip("set WARDEN_LIVE_CAPTURE=1 (root, Debian 12, bwrap, apt archive) to re-capture")
	}
	dir := t.TempDir()
	cmd := exec.Command(filepath.Join("testdata", "capture", "openrc-dnf.sh"), dir)
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("openrc-dnf.sh: %v\n%s", err, b)
	}
	for _, name := range []string{"openrc-status-started", "openrc-status-stopped", "openrc-status-missing", "dnf-check-update"} {
		got, err := os.ReadFile(filepath.Join(dir, name+".captured.txt"))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join("testdata", name+".captured.txt"))
		if err != nil {
			t.Fatal(err)
		}
		gotHead, gotBody, _ := bytes.Cut(got, []byte("\n"))
		wantHead, wantBody, _ := bytes.Cut(want, []byte("\n"))
		if !bytes.Equal(gotBody, wantBody) {
			t.Errorf("%s: real output changed; captured now:\n%s", name, gotBody)
		}
		// The header names the date and package versions; only say so.
		if g, w := strings.SplitN(string(gotHead), ": ", 3), strings.SplitN(string(wantHead), ": ", 3); len(g) == 3 && len(w) == 3 && g[2] != w[2] {
			t.Logf("%s: header now %q", name, gotHead)
		}
	}
}
