//go:build linux

package hosts_test

import (
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshd"
	snapshottools "github.com/warden-mcp/warden/internal/tools/snapshot"
)

// loopBtrfs makes and mounts a small btrfs on a loop device, or skips (with
// WARDEN_REQUIRE_BTRFS=1, fails) where that cannot be done.
func loopBtrfs(t *testing.T) string {
	t.Helper()
	need := func(why string) {
		t.Helper()
		if os.Getenv("WARDEN_REQUIRE_BTRFS") == "1" {
			t.Fatalf("btrfs required (WARDEN_REQUIRE_BTRFS=1): %s", why)
		}
		t.Skipf("no real btrfs: %s", why)
	}
	if os.Geteuid() != 0 {
		need("loop mounts need root")
	}
	if _, err := exec.LookPath("mkfs.btrfs"); err != nil {
		need("mkfs.btrfs not installed")
	}
	base, err := os.MkdirTemp("", "warden-btrfs-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(base) })
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	img := filepath.Join(base, "fs.img")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 256<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mkfs.btrfs", "-q", img).CombinedOutput(); err != nil {
		need(fmt.Sprintf("mkfs.btrfs: %v %s", err, out))
	}
	mnt := filepath.Join(base, "mnt")
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("mount", "-o", "loop", img, mnt).CombinedOutput(); err != nil {
		need(fmt.Sprintf("mount: %v %s", err, out))
	}
	t.Cleanup(func() {
		if exec.Command("umount", mnt).Run() != nil {
			_ = exec.Command("umount", "-l", mnt).Run()
		}
	})
	return mnt
}

func btrfsCmd(t *testing.T, args ...string) {
	t.Helper()
	if out, err := exec.Command("btrfs", args...).CombinedOutput(); err != nil {
		t.Fatalf("btrfs %s: %v %s", strings.Join(args, " "), err, out)
	}
}

// TestSnapshotCopiesBtrfsOverSSH fetches and restores from real read-only
// btrfs snapshot subvolumes on a loop device, read and written over SSH
// (SFTP from OpenSSH, the exec channel from dropbear) as an unprivileged
// login: the copy lands on the host, the live subvolume's current version
// is kept aside, and the snapshot is unchanged.
func TestSnapshotCopiesBtrfsOverSSH(t *testing.T) {
	for name, start := range map[string]func(t *testing.T) *sshd.Server{
		"openssh":  func(t *testing.T) *sshd.Server { return sshd.Start(t, sshd.Options{User: suiteUser}) },
		"dropbear": func(t *testing.T) *sshd.Server { return sshd.StartDropbear(t, sshd.DropbearOptions{User: suiteUser}) },
	} {
		t.Run(name, func(t *testing.T) {
			mnt := loopBtrfs(t)
			k := setupSSH(t, start(t))
			u, err := user.Lookup(suiteUser)
			if err != nil {
				t.Fatal(err)
			}
			uid, _ := strconv.Atoi(u.Uid)
			live := filepath.Join(mnt, "live")
			snaps := filepath.Join(mnt, "snaps")
			out := filepath.Join(mnt, "out")
			btrfsCmd(t, "subvolume", "create", live)
			for _, d := range []string{snaps, out, filepath.Join(live, "etc")} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			write := func(p, s string) {
				if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			write(filepath.Join(live, "etc/app.conf"), "good\n")
			write(filepath.Join(live, "etc/other.conf"), "other\n")
			btrfsCmd(t, "subvolume", "snapshot", "-r", live, filepath.Join(snaps, "s1"))
			write(filepath.Join(live, "etc/app.conf"), "broken\n")
			for _, p := range []string{live, filepath.Join(live, "etc"), filepath.Join(live, "etc/app.conf"), filepath.Join(live, "etc/other.conf"), out} {
				if err := os.Lchown(p, uid, -1); err != nil {
					t.Fatal(err)
				}
			}
			k.dir = mnt
			rec := &records{}
			cs := serveSource(t, k, snapshottools.Source{Host: k.name,
				SourceConfig: engine.SourceConfig{Name: "vol", Kind: engine.KindBtrfs, Path: snaps, Live: live},
				Restore:      snapshottools.Restore{Enabled: true, Allow: []string{filepath.Join(live, "etc")}}}, rec)

			got, text := call(t, cs, "fetch_dir", map[string]any{"dataset": "vol", "snapshot": "s1", "path": "etc", "host": k.name, "destination": filepath.Join(out, "etc")})
			if b, _ := os.ReadFile(filepath.Join(out, "etc/app.conf")); string(b) != "good\n" || got["files_written"] != float64(2) {
				t.Fatalf("fetch_dir from btrfs over SSH: %q %v %s", b, got, text)
			}
			if st, err := os.Stat(filepath.Join(out, "etc/app.conf")); err != nil || int(st.Sys().(*syscall.Stat_t).Uid) != uid {
				t.Errorf("the copy is not the SSH login's own file: %v", err)
			}
			got, text = approved(t, cs, "restore_file", map[string]any{"dataset": "vol", "snapshot": "s1", "path": "etc/app.conf"})
			files, _ := got["files"].([]any)
			if b, _ := os.ReadFile(filepath.Join(live, "etc/app.conf")); string(b) != "good\n" || len(files) != 1 {
				t.Fatalf("restore_file into the live subvolume over SSH: %q %v %s", b, got, text)
			}
			aside, _ := files[0].(map[string]any)["kept_aside"].(string)
			if b, _ := os.ReadFile(aside); string(b) != "broken\n" {
				t.Errorf("kept aside %s holds %q, want the broken version", aside, b)
			}
			if extra := fmt.Sprint(rec.last("restore_file").Extra); !strings.Contains(extra, sum("broken\n")) || !strings.Contains(extra, sum("good\n")) {
				t.Errorf("audit extra %s lacks the digests before and after", extra)
			}
			if b, _ := os.ReadFile(filepath.Join(snaps, "s1/etc/app.conf")); string(b) != "good\n" {
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
