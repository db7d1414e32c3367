package agenthost_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/confine"
	"github.com/warden-mcp/warden/internal/confine/confinetest"
	"github.com/warden-mcp/warden/internal/hosts/agenthost"
	"github.com/warden-mcp/warden/internal/runner"
)

// TestBlindSpotSuite runs the confinement suite's writes — every way to
// change the file system a classifier could take for a read — through the
// agent's runner on a real loopback sshd, logged in as root and as a user
// of its own, each admitted as a read (and as Temp and Inspect): the
// classifier is out of the loop, and the remote kernel must refuse each
// write. Approved work writes the same directory, so the refusals are the
// confinement's, not the permissions'.
func TestBlindSpotSuite(t *testing.T) {
	if st, err := confine.New(confine.Options{}, confine.Auto); err != nil || !st.Status().Active {
		t.Skip("no kernel confinement here")
	}
	for _, login := range []struct{ name, user string }{{"root", ""}, {"nonroot", testUser}} {
		t.Run(login.name, func(t *testing.T) {
			r := newRigAs(t, login.user, agenthost.Required, nil, nil)
			res, err := r.run(t, "id -u")
			if err != nil {
				t.Fatal(err)
			}
			if uid := strings.TrimSpace(string(res.Stdout)); uid != fmt.Sprint(r.uid) {
				t.Fatalf("logged in as uid %s, want %d", uid, r.uid)
			}
			mech := r.host(t).Confinement
			if !strings.Contains(mech, "landlock") {
				t.Fatalf("the agent host's confinement is %q, want landlock", mech)
			}
			t.Logf("uid %d: %s", r.uid, mech)
			target := filepath.Join(r.work, "target")
			runAt := func(level confine.Level, script string) runner.Result {
				t.Helper()
				ctx, cancel := context.WithTimeout(confine.With(context.Background(), confine.Admission{Level: level, Tool: "run_command"}), 60*time.Second)
				defer cancel()
				res, err := r.host(t).Runner.Run(ctx, runner.Request{Argv: []string{"/bin/sh", "-c", script}, Env: append(env, "T="+target)})
				if err != nil {
					t.Fatalf("%s at %s: %v", script, level, err)
				}
				return res
			}
			for _, level := range []confine.Level{confine.Read, confine.Temp, confine.Inspect} {
				for _, w := range confinetest.Writes() {
					t.Run(string(level)+"/"+w.Name, func(t *testing.T) {
						if level == confine.Temp && confinetest.Metadata(w.Name) && !strings.Contains(mech, "mountns") {
							t.Skip("a known gap without a mount namespace (Status.Gaps)")
						}
						resetTarget(t, target, r.uid)
						before := snapshotDir(t, target)
						res := runAt(level, w.Script)
						if after := snapshotDir(t, target); after != before {
							t.Errorf("%s at %s changed the file system:\nbefore:\n%s\nafter:\n%s\nstderr: %s", w.Script, level, before, after, res.Stderr)
						}
					})
				}
			}
			// The control: approved, each write lands, so each case above
			// tests the kernel and not a script that fails on its own.
			for _, w := range confinetest.Writes() {
				if strings.Contains(mech, "mountns") && confinetest.AcrossMounts(w.Name) {
					continue // the target's directory is pinned above the agent's own
				}
				resetTarget(t, target, r.uid)
				before := snapshotDir(t, target)
				if res := runAt(confine.Full, w.Script); snapshotDir(t, target) == before {
					t.Errorf("%s changed nothing even when approved: %s", w.Script, res.Stderr)
				}
			}
			// The control: approved work writes there.
			resetTarget(t, target, r.uid)
			if res := runAt(confine.Full, `echo x > $T/new && rm $T/existing`); res.ExitCode != 0 {
				t.Fatalf("an approved write failed: %+v", res)
			}
			if _, err := os.Stat(filepath.Join(target, "new")); err != nil {
				t.Errorf("an approved write did not land: %v", err)
			}
		})
	}
}

// resetTarget makes dir hold a file "existing" with an old time and a
// directory "sub", all owned by uid.
func resetTarget(t *testing.T, dir string, uid int) {
	t.Helper()
	os.RemoveAll(dir)
	if err := os.MkdirAll(filepath.Join(dir, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	existing := filepath.Join(dir, "existing")
	if err := os.WriteFile(existing, []byte("original\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2020, 1, 2, 3, 4, 5, 0, time.UTC)
	os.Chtimes(existing, old, old)
	for _, p := range []string{dir, filepath.Join(dir, "sub"), existing} {
		if err := os.Chown(p, uid, uid); err != nil {
			t.Fatal(err)
		}
	}
}

// snapshotDir describes dir (confinetest.Snapshot).
func snapshotDir(t *testing.T, dir string) string {
	t.Helper()
	s, err := confinetest.Snapshot(dir)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
