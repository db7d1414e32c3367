//go:build linux

package hosts_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/warden-mcp/warden/internal/policy"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/snapshot/btrfstest"
	"github.com/warden-mcp/warden/internal/sshd"
	snapshottools "github.com/warden-mcp/warden/internal/tools/snapshot"
)

// TestSnapshotCopiesBtrfs runs fetch_file, fetch_dir, restore_file and
// restore_dir from real read-only btrfs snapshot subvolumes on a loop
// device, on this machine and over SSH (SFTP from OpenSSH, the exec
// channel from dropbear) as an unprivileged login: each copy lands on the
// host, owned by its login, with the digest of what was written; each
// restore puts the snapshot's version into the live subvolume, keeps the
// current one aside and audits both digests at tier 3; the snapshot is
// unchanged.
func TestSnapshotCopiesBtrfs(t *testing.T) {
	kinds := []struct {
		name  string
		setup func(t *testing.T) kind
	}{
		{"local", setupLocal},
		{"openssh", func(t *testing.T) kind { return setupSSH(t, sshd.Start(t, sshd.Options{User: suiteUser})) }},
		{"dropbear", func(t *testing.T) kind {
			return setupSSH(t, sshd.StartDropbear(t, sshd.DropbearOptions{User: suiteUser}))
		}},
	}
	for _, hk := range kinds {
		t.Run(hk.name, func(t *testing.T) {
			// Mounted before the server starts: dropbear runs in a mount
			// namespace of its own.
			mnt := btrfstest.Mount(t)
			k := hk.setup(t)
			uid := os.Getuid()
			if hk.name != "local" {
				u, err := user.Lookup(suiteUser)
				if err != nil {
					t.Fatal(err)
				}
				uid, _ = strconv.Atoi(u.Uid)
			}
			live := filepath.Join(mnt, "live")
			snaps := filepath.Join(mnt, "snaps")
			out := filepath.Join(mnt, "out")
			btrfstest.Run(t, "subvolume", "create", live)
			for _, d := range []string{snaps, out, filepath.Join(live, "etc")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(p, s string) {
				t.Helper()
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Lchown(p, uid, -1); err != nil {
					t.Fatal(err)
				}
			}
			read := func(p string) string {
				b, _ := os.ReadFile(p)
				return string(b)
			}
			write(filepath.Join(live, "etc/app.conf"), "good\n")
			write(filepath.Join(live, "etc/other.conf"), "other\n")
			btrfstest.Run(t, "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
			write(filepath.Join(live, "etc/app.conf"), "broken\n")
			for _, p := range []string{live, filepath.Join(live, "etc"), out} {
				if err := os.Lchown(p, uid, -1); err != nil {
					t.Fatal(err)
				}
			}
			k.dir = mnt
			h, err := k.set.Resolve(context.Background(), k.name)
			if err != nil {
				t.Fatal(err)
			}
			rec := &records{}
			cs := serveSource(t, k, snapshottools.Source{Host: k.name,
				SourceConfig: engine.SourceConfig{Name: "vol", Kind: engine.KindBtrfs, Path: snaps, Live: live},
				Restore:      snapshottools.Restore{Enabled: true, Allow: []string{filepath.Join(live, "etc")}}}, rec)

			owned := func(t *testing.T, p string) {
				t.Helper()
				if st, err := os.Stat(p); err != nil || int(st.Sys().(*syscall.Stat_t).Uid) != uid {
					t.Errorf("%s is not the login's own file (uid %d): %v", p, uid, err)
				}
			}
			// keptAside checks every restored file's entry: the live file
			// now holds the snapshot's version, the previous one is kept
			// aside, and the audit record carries both digests.
			keptAside := func(t *testing.T, tool string, got map[string]any, text string, before map[string]string) {
				t.Helper()
				files, _ := got["files"].([]any)
				if len(files) != len(before) {
					t.Fatalf("%s restored %d files, want %d: %v %s", tool, len(files), len(before), got, text)
				}
				r := rec.last(tool)
				extra := fmt.Sprint(r.Extra)
				if r.Tier != int(policy.TierDestructive) || r.Host != h.Name {
					t.Errorf("audit: tier %d host %q, want tier 3 on %s", r.Tier, r.Host, h.Name)
				}
				for _, f := range files {
					m := f.(map[string]any)
					dest, _ := m["destination"].(string)
					aside, _ := m["kept_aside"].(string)
					if read(aside) != before[dest] || !strings.HasPrefix(aside, dest+".warden-restore-") {
						t.Errorf("%s: %s kept aside as %s holding %q, want %q", tool, dest, aside, read(aside), before[dest])
					}
					if !strings.Contains(extra, sum(before[dest])) || !strings.Contains(extra, sum(read(filepath.Join(snaps, "s1", strings.TrimPrefix(dest, live))))) {
						t.Errorf("audit extra %s lacks the digests of %s before and after", extra, dest)
					}
				}
			}
			steps := []struct {
				tool  string
				args  map[string]any
				check func(t *testing.T, got map[string]any, text string)
			}{
				{"fetch_file", map[string]any{"path": "etc/app.conf", "host": k.name, "destination": filepath.Join(out, "app.conf")}, func(t *testing.T, got map[string]any, text string) {
					m, _ := got["manifest"].([]any)
					if read(filepath.Join(out, "app.conf")) != "good\n" || len(m) != 1 || m[0].(map[string]any)["sha256"] != sum("good\n") || got["host"] != h.Name {
						t.Fatalf("fetch_file: %q, %v %s", read(filepath.Join(out, "app.conf")), got, text)
					}
					owned(t, filepath.Join(out, "app.conf"))
				}},
				{"fetch_dir", map[string]any{"path": "etc", "host": k.name, "destination": filepath.Join(out, "etc")}, func(t *testing.T, got map[string]any, text string) {
					if read(filepath.Join(out, "etc/app.conf")) != "good\n" || read(filepath.Join(out, "etc/other.conf")) != "other\n" || got["files_written"] != float64(2) {
						t.Fatalf("fetch_dir: %v %s", got, text)
					}
					owned(t, filepath.Join(out, "etc/other.conf"))
				}},
				{"restore_file", map[string]any{"path": "etc/app.conf"}, func(t *testing.T, got map[string]any, text string) {
					if read(filepath.Join(live, "etc/app.conf")) != "good\n" {
						t.Fatalf("restore_file left %q: %v %s", read(filepath.Join(live, "etc/app.conf")), got, text)
					}
					keptAside(t, "restore_file", got, text, map[string]string{filepath.Join(live, "etc/app.conf"): "broken\n"})
				}},
				{"restore_dir", map[string]any{"path": "etc"}, func(t *testing.T, got map[string]any, text string) {
					if read(filepath.Join(live, "etc/app.conf")) != "good\n" || read(filepath.Join(live, "etc/other.conf")) != "other\n" || got["files_written"] != float64(2) {
						t.Fatalf("restore_dir: %v %s", got, text)
					}
					keptAside(t, "restore_dir", got, text, map[string]string{filepath.Join(live, "etc/app.conf"): "broken again\n", filepath.Join(live, "etc/other.conf"): "other, changed\n"})
				}},
			}
			for _, st := range steps {
				t.Run(st.tool, func(t *testing.T) {
					if st.tool == "restore_dir" {
						write(filepath.Join(live, "etc/app.conf"), "broken again\n")
						write(filepath.Join(live, "etc/other.conf"), "other, changed\n")
					}
					st.args["dataset"], st.args["snapshot"] = "vol", "s1"
					got, text := approved(t, cs, st.tool, st.args)
					st.check(t, got, text)
				})
			}
			if read(filepath.Join(snaps, "s1/etc/app.conf")) != "good\n" || read(filepath.Join(snaps, "s1/etc/other.conf")) != "other\n" {
				t.Error("the snapshot changed")
			}
		})
	}
}

// TestSnapshotRestoreFullDiskOverSSH restores a 2 MiB file onto a 1 MiB
// tmpfs over SFTP and through the agent: the version kept aside (a copy,
// there) fits, the new content does not, and the original is left intact
// with nothing else behind — no aside copy, no temporary file. (The
// dropbear router of the suite runs in a mount namespace of its own, which
// a tmpfs mounted after it started does not reach.)
func TestSnapshotRestoreFullDiskOverSSH(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("mounting a tmpfs needs root")
	}
	for name, setup := range map[string]func(t *testing.T) kind{
		"openssh": func(t *testing.T) kind { return setupSSH(t, sshd.Start(t, sshd.Options{User: suiteUser})) },
		"agent":   func(t *testing.T) kind { return setupAgent(t, sshd.Start(t, sshd.Options{User: suiteUser})) },
	} {
		t.Run(name, func(t *testing.T) {
			k := setup(t)
			u, err := user.Lookup(suiteUser)
			if err != nil {
				t.Fatal(err)
			}
			snap := filepath.Join(k.dir, "snaps", "daily.2026-11-02", "etc", "huge.bin")
			if err := os.WriteFile(snap, []byte(strings.Repeat("h", 2<<20)), 0o644); err != nil {
				t.Fatal(err)
			}
			etc := filepath.Join(k.dir, "live", "etc")
			if err := os.MkdirAll(etc, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=1m,uid="+u.Uid+",mode=0755", "tmpfs", etc).CombinedOutput(); err != nil {
				t.Fatalf("mount tmpfs: %v: %s", err, out)
			}
			t.Cleanup(func() { _ = exec.Command("umount", etc).Run() })
			uid, _ := strconv.Atoi(u.Uid)
			orig := filepath.Join(etc, "huge.bin")
			if err := os.WriteFile(orig, []byte("original\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chown(orig, uid, -1); err != nil {
				t.Fatal(err)
			}
			for _, p := range []string{filepath.Join(k.dir, "live")} {
				if err := os.Chown(p, uid, -1); err != nil {
					t.Fatal(err)
				}
			}
			cs := serveCopies(t, k, filepath.Join(k.dir, "live"), &records{})
			no, text := refused(t, cs, "restore_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc/huge.bin"})
			// SFTP (version 3) reports ENOSPC as SSH_FX_FAILURE.
			if !no || !strings.Contains(text, "no space left") && !strings.Contains(text, "Failure") {
				t.Fatalf("restore onto a full disk: refused %v: %s; want a write failure", no, text)
			}
			if b, _ := os.ReadFile(orig); string(b) != "original\n" {
				t.Fatalf("original = %q after a failed restore (%s)", b, text)
			}
			ents, err := os.ReadDir(etc)
			if err != nil {
				t.Fatal(err)
			}
			if len(ents) != 1 {
				var names []string
				for _, e := range ents {
					names = append(names, e.Name())
				}
				t.Errorf("etc holds %v after a failed restore, want only huge.bin (%s)", names, text)
			}
		})
	}
}
