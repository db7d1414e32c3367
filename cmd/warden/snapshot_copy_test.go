package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSnapshotFetchAndRestore drives fetch_file, fetch_dir, restore_file
// and restore_dir through the real binary in guarded mode: each needs
// approval (tiers 2 and 3), fetches land where the path policy allows,
// restores only on the opted-in dataset and inside its allowlist, the
// current version kept aside, and the audit record carries both digests.
func TestSnapshotFetchAndRestore(t *testing.T) {
	f := newSnapFixture(t)
	out := t.TempDir()
	extra := fmt.Sprintf("    restore:\n      enabled: true\n      allow: [%s]\n", filepath.Join(f.live, "etc"))
	// The restore block belongs to the first source (backups).
	cfgText := strings.Replace(f.config(""), "    live: "+f.live+"\n", "    live: "+f.live+"\n"+extra, 1)
	cfg := writeFile(t, cfgText)
	env, state := wardenEnv(t, "WARDEN_CONFIG="+cfg, "WARDEN_MODE=guarded")
	s := startStdio(t, env, state, nil)
	first := f.days[0]
	sum := func(s string) string {
		h := sha256.Sum256([]byte(s))
		return hex.EncodeToString(h[:])
	}

	t.Run("fetch needs approval", func(t *testing.T) {
		dest := filepath.Join(out, "unapproved.conf")
		_, got := callTool(t, s.cs, "fetch_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/app.conf", "destination": dest})
		if got["status"] != "approval_required" {
			t.Fatalf("fetch_file in guarded mode: %v, want approval_required", got)
		}
		if _, err := os.Lstat(dest); err == nil {
			t.Fatal("an unapproved fetch wrote")
		}
	})

	t.Run("fetch_file and fetch_dir", func(t *testing.T) {
		dest := filepath.Join(out, "app.conf")
		res, got := callApproved(t, s.cs, "fetch_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/app.conf", "destination": dest})
		if res.IsError || got["status"] != "ok" {
			t.Fatalf("fetch_file: %s", text(res))
		}
		if b, _ := os.ReadFile(dest); string(b) != "listen=0.0.0.0\nmode=safe\n" {
			t.Errorf("fetched %q", b)
		}
		if m := list(got, "manifest"); len(m) != 1 || obj(m[0])["sha256"] != sum("listen=0.0.0.0\nmode=safe\n") {
			t.Errorf("manifest = %v", m)
		}
		res, got = callApproved(t, s.cs, "fetch_dir", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc", "destination": filepath.Join(out, "etc")})
		if res.IsError || got["files_written"] != 1.0 || got["skipped_count"] != 2.0 {
			t.Fatalf("fetch_dir: %s", text(res))
		}
		if _, err := os.Lstat(filepath.Join(out, "etc/escape")); err == nil {
			t.Error("fetch_dir created a symlink from the snapshot")
		}
		// A destination the path policy refuses: warden's own state dir.
		_, got = callTool(t, s.cs, "fetch_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/app.conf", "destination": filepath.Join(state, "x")})
		if got["status"] == "ok" || got["status"] == "approval_required" {
			t.Errorf("fetch into the state dir: %v, want refused before approval", got)
		}
	})

	t.Run("restore_file", func(t *testing.T) {
		live := filepath.Join(f.live, "etc/app.conf")
		before, _ := os.ReadFile(live)
		res, got := callApproved(t, s.cs, "restore_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "etc/app.conf"})
		if res.IsError || got["status"] != "ok" {
			t.Fatalf("restore_file: %s", text(res))
		}
		if b, _ := os.ReadFile(live); string(b) != "listen=0.0.0.0\nmode=safe\n" {
			t.Errorf("live app.conf = %q after restore", b)
		}
		files := list(got, "files")
		if len(files) != 1 {
			t.Fatalf("files = %v", files)
		}
		aside := obj(files[0])["kept_aside"].(string)
		if b, _ := os.ReadFile(aside); string(b) != string(before) || !strings.Contains(aside, ".warden-restore-") {
			t.Errorf("kept aside at %s: %q, want the previous %q", aside, b, before)
		}
		var rec map[string]any
		for _, r := range auditRecords(t, state) {
			if r["tool"] == "restore_file" && r["status"] == "ok" {
				rec = r
			}
		}
		restored := list(obj(rec["extra"]), "restored")
		if rec == nil || rec["tier"] != 3.0 || len(restored) != 1 || obj(restored[0])["sha256_before"] != sum(string(before)) || obj(restored[0])["sha256_after"] != sum("listen=0.0.0.0\nmode=safe\n") {
			t.Errorf("audit record = %v, want tier 3 with both digests", rec)
		}
	})

	t.Run("server_info reports each dataset's reach", func(t *testing.T) {
		got := mustOK(t, s, "server_info", map[string]any{})
		seen := map[string]bool{}
		for _, src := range list(got, "snapshot_sources") {
			seen[fmt.Sprint(obj(src)["dataset"])] = len(list(obj(src), "probes")) > 0
		}
		if !seen["backups"] || !seen["tank"] || !seen["home"] {
			t.Errorf("snapshot_sources = %v, want backups, tank and home with their probes", got["snapshot_sources"])
		}
	})

	t.Run("restore is refused outside the allowlist and where not enabled", func(t *testing.T) {
		_, got := callTool(t, s.cs, "restore_file", map[string]any{"dataset": "backups", "snapshot": first, "path": "data/big.dat"})
		if got["status"] != "invalid_argument" || !strings.Contains(fmt.Sprint(got["error"])+fmt.Sprint(got["reason"]), "allowlist") {
			t.Errorf("restore outside the allowlist: %v", got)
		}
		_, got = callTool(t, s.cs, "restore_file", map[string]any{"dataset": "home", "snapshot": "1", "path": "op/.bashrc"})
		if got["status"] != "invalid_argument" || !strings.Contains(fmt.Sprint(got), "not enabled") {
			t.Errorf("restore on a dataset without the opt-in: %v", got)
		}
		if b, _ := os.ReadFile(filepath.Join(f.snapper, "op/.bashrc")); !strings.Contains(string(b), "EDITOR=vi") {
			t.Errorf("home's live .bashrc changed: %q", b)
		}
	})
}
