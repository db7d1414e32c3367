package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/sshd"
)

// TestSnapshotToolsHideWardensOwnFiles reads warden's own files through the
// snapshot tools, which read as warden itself, unconfined: a dataset whose
// live data is / (a btrfs root), the state dir's parent, or a snapper tree
// holding the config file, in the live data and in snapshot copies, named
// in every spelling the engine resolves (./, //, /./, a symlinked parent, a
// walk or search from above, a snapshot directory inside the live data,
// /proc/self and its kin) and through every tool that reads, lists, hashes
// or copies. No answer may carry the files' content or list their names;
// the benign files beside them must still read.
func TestSnapshotToolsHideWardensOwnFiles(t *testing.T) {
	const (
		tokenLive = "TOKEN-live-5e1c"
		tokenSnap = "TOKEN-snap-8d02"
		confLive  = "CONF-live-31aa"
		confSnap  = "CONF-snap-77b4"
		benign    = "BENIGN-ok-4242"
		day       = "daily-2026-01-01"
	)
	env, state := wardenEnv(t)
	base := filepath.Dir(state)
	relState := strings.TrimPrefix(state, "/")
	old := time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)
	mkfile(t, filepath.Join(state, "token"), tokenLive+"\n", time.Now())
	mkfile(t, filepath.Join(state, "approvals", "pending.json"), tokenLive+"\n", time.Now())

	tmp := t.TempDir()
	mkfile(t, filepath.Join(tmp, "benign.txt"), benign+"\n", time.Now())
	// Symlinks inside the tree that resolve into the state dir, relative
	// (followed inside the root) and to its parent.
	relTo := func(from, to string) string {
		r, err := filepath.Rel(from, to)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if err := os.Symlink(relTo(tmp, state), filepath.Join(tmp, "lnk")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(relTo(tmp, base), filepath.Join(tmp, "lnb")); err != nil {
		t.Fatal(err)
	}
	relTmp := strings.TrimPrefix(tmp, "/")

	// Dated copies: one of / (a copy of the state dir at its own path), one
	// of the state dir's parent.
	rootSnaps, baseSnaps := filepath.Join(tmp, "rootsnaps"), filepath.Join(tmp, "basesnaps")
	mkfile(t, filepath.Join(rootSnaps, day, relState, "token"), tokenSnap+"\n", old)
	mkfile(t, filepath.Join(rootSnaps, day, relTmp, "benign.txt"), benign+"\n", old)
	mkfile(t, filepath.Join(baseSnaps, day, filepath.Base(state), "token"), tokenSnap+"\n", old)
	mkfile(t, filepath.Join(baseSnaps, day, "other", "benign.txt"), benign+"\n", old)

	// snapper: the config file lives in the live tree, and snapshot 1
	// holds an older copy of it.
	sn := filepath.Join(tmp, "sn")
	mkfile(t, filepath.Join(sn, ".snapshots/1/snapshot/etc/warden.yaml"), "# "+confSnap+"\n", old)
	mkfile(t, filepath.Join(sn, ".snapshots/1/snapshot/etc/app.conf"), benign+"\n", old)
	mkfile(t, filepath.Join(sn, ".snapshots/1/info.xml"), "<?xml version=\"1.0\"?>\n<snapshot>\n  <type>single</type>\n  <num>1</num>\n  <date>2026-01-01 12:00:00</date>\n</snapshot>\n", old)
	mkfile(t, filepath.Join(sn, "etc/app.conf"), benign+"\n", time.Now())
	cfgPath := filepath.Join(sn, "etc/warden.yaml")
	cfg := fmt.Sprintf(`# %s
mode: open
snapshots:
  - name: root
    kind: dir
    path: %s
    pattern: "daily-*"
    time_format: "2006-01-02"
    live: /
  - name: base
    kind: dir
    path: %s
    pattern: "daily-*"
    time_format: "2006-01-02"
    live: %s
  - name: snapper
    kind: btrfs
    path: %s
`, confLive, rootSnaps, baseSnaps, base, sn)
	mkfile(t, cfgPath, cfg, time.Now())
	env = append(env, "WARDEN_CONFIG="+cfgPath)
	s := startStdio(t, env, state, nil)
	pid := s.cmd.Process.Pid

	secrets := []string{tokenLive, tokenSnap, confLive, confSnap, "WARDEN_ENV_FD", "PATH=/"}
	dest := t.TempDir()
	type call struct {
		tool string
		args map[string]any
		// names must not appear in the answer either (listings).
		names []string
	}
	root := func(snap, p string) map[string]any {
		return map[string]any{"dataset": "root", "snapshot": snap, "path": p}
	}
	tok := relState + "/token"
	stateName := filepath.Base(state)
	var calls []call
	for _, snap := range []string{"@live", day} {
		for _, p := range []string{
			tok,
			"./" + tok,
			strings.ReplaceAll(tok, "/", "//"),
			relState + "/./token",
			relState + "//./token/",
			relState + "/approvals/pending.json",
			relTmp + "/lnk/token",
			relTmp + "/lnb/" + stateName + "/token",
			relTmp + "/./lnk/./token",
		} {
			calls = append(calls,
				call{"snapshot_read_file", root(snap, p), nil},
				call{"checksum_file", root(snap, p), nil},
				call{"file_history", map[string]any{"dataset": "root", "path": p}, nil},
				call{"versions_of", map[string]any{"dataset": "root", "path": p}, nil},
				call{"bisect_change", map[string]any{"dataset": "root", "path": p, "predicate": "contains", "value": "TOKEN"}, nil},
				call{"snapshots_containing", map[string]any{"dataset": "root", "path": p}, nil},
			)
		}
		for _, p := range []string{relState, relState + "/", relTmp + "/lnk", filepath.Dir(relState)} {
			calls = append(calls,
				call{"snapshot_list_dir", root(snap, p), []string{`"` + tok + `"`, `/token"`}},
				call{"snapshot_grep", map[string]any{"dataset": "root", "snapshot": snap, "path": p, "regex": "TOKEN"}, nil},
				call{"snapshot_find_files", map[string]any{"dataset": "root", "snapshot": snap, "path": p, "pattern": "tok*"}, []string{"/token"}},
				call{"top_consumers", root(snap, p), []string{"/token"}},
				call{"size_breakdown", root(snap, p), []string{stateName + `"`}},
			)
		}
	}
	for _, p := range []string{tok, relState, relTmp + "/lnk/token"} {
		calls = append(calls,
			call{"file_diff", map[string]any{"dataset": "root", "a": day, "b": "@live", "path": p}, nil},
			call{"fetch_file", map[string]any{"dataset": "root", "snapshot": day, "path": p, "destination": filepath.Join(dest, "f")}, nil},
			call{"fetch_dir", map[string]any{"dataset": "root", "snapshot": day, "path": filepath.Dir(p), "destination": filepath.Join(dest, "d")}, nil},
		)
	}
	calls = append(calls,
		call{"snapshot_diff", map[string]any{"dataset": "root", "a": day, "b": "@live", "path": filepath.Dir(relState)}, []string{"/token"}},
		call{"find_deleted", map[string]any{"dataset": "root", "path": filepath.Dir(relState), "against_live": true}, []string{"/token"}},
		call{"fetch_dir", map[string]any{"dataset": "root", "snapshot": day, "path": filepath.Dir(relState), "destination": filepath.Join(dest, "p")}, nil},
	)
	// The copies of / inside /: the dated copies' directory is in the
	// live data too.
	relCopy := strings.TrimPrefix(rootSnaps, "/") + "/" + day + "/" + tok
	calls = append(calls,
		call{"snapshot_read_file", root("@live", relCopy), nil},
		call{"snapshot_grep", map[string]any{"dataset": "root", "snapshot": "@live", "path": strings.TrimPrefix(rootSnaps, "/"), "regex": "TOKEN"}, nil},
	)
	// warden's own process and its parent's through /proc.
	for _, p := range []string{"proc/self/environ", "proc/thread-self/environ", fmt.Sprintf("proc/%d/environ", pid),
		fmt.Sprintf("proc/%d/task/%d/environ", pid, pid), fmt.Sprintf("proc/%d/environ", os.Getpid()), "proc/self/task/../environ"} {
		calls = append(calls, call{"snapshot_read_file", root("@live", p), nil}, call{"checksum_file", root("@live", p), nil})
	}
	// The state dir's parent as the live data.
	for _, snap := range []string{"@live", day} {
		for _, p := range []string{stateName + "/token", "./" + stateName + "//token", stateName + "/approvals/pending.json"} {
			calls = append(calls, call{"snapshot_read_file", map[string]any{"dataset": "base", "snapshot": snap, "path": p}, nil})
		}
		calls = append(calls,
			call{"snapshot_grep", map[string]any{"dataset": "base", "snapshot": snap, "regex": "TOKEN"}, nil},
			call{"snapshot_list_dir", map[string]any{"dataset": "base", "snapshot": snap}, []string{`"` + stateName + `"`}},
			call{"snapshot_find_files", map[string]any{"dataset": "base", "snapshot": snap, "pattern": "*"}, []string{stateName + "/"}},
		)
	}
	calls = append(calls, call{"snapshot_find_files", map[string]any{"dataset": "base", "pattern": "token"}, []string{stateName + "/"}})
	// The config file in a snapper tree, live and in snapshot 1, and
	// snapshot 1's copy through the live data's .snapshots.
	for _, c := range []struct{ snap, p string }{
		{"@live", "etc/warden.yaml"}, {"@live", "etc//warden.yaml"}, {"@live", ".snapshots/1/snapshot/etc/warden.yaml"},
		{"@live", "./.snapshots/1/snapshot/./etc/warden.yaml"}, {"1", "etc/warden.yaml"}, {"1", "./etc/warden.yaml"},
	} {
		calls = append(calls, call{"snapshot_read_file", map[string]any{"dataset": "snapper", "snapshot": c.snap, "path": c.p}, nil})
	}
	for _, snap := range []string{"@live", "1"} {
		calls = append(calls,
			call{"snapshot_grep", map[string]any{"dataset": "snapper", "snapshot": snap, "regex": "CONF-"}, nil},
			call{"snapshot_find_files", map[string]any{"dataset": "snapper", "snapshot": snap, "pattern": "*.yaml"}, []string{"warden.yaml"}},
		)
	}
	calls = append(calls,
		call{"file_diff", map[string]any{"dataset": "snapper", "a": "1", "b": "@live", "path": "etc/warden.yaml"}, nil},
		call{"versions_of", map[string]any{"dataset": "snapper", "path": "etc/warden.yaml"}, nil},
		call{"snapshot_diff", map[string]any{"dataset": "snapper", "a": "1", "b": "@live"}, []string{"warden.yaml"}},
	)

	for i, c := range calls {
		t.Run(fmt.Sprintf("%03d-%s", i, c.tool), func(t *testing.T) {
			res, _ := callTool(t, s.cs, c.tool, c.args)
			b, _ := json.Marshal(res)
			for _, m := range append(append([]string(nil), secrets...), c.names...) {
				if strings.Contains(string(b), m) {
					t.Errorf("%s %v: the answer carries %q: %.600s", c.tool, c.args, m, b)
				}
			}
		})
	}
	// Nothing was copied out either.
	filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(p); strings.Contains(string(b), "TOKEN") {
				t.Errorf("fetch copied warden's token to %s", p)
			}
		}
		return nil
	})

	// Benign look-alikes beside them keep working.
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"snapshot_read_file", root("@live", relTmp+"/benign.txt")},
		{"snapshot_read_file", root("@live", "./"+relTmp+"//benign.txt")},
		{"snapshot_read_file", root(day, relTmp+"/benign.txt")},
		{"snapshot_read_file", map[string]any{"dataset": "base", "snapshot": day, "path": "other/benign.txt"}},
		{"snapshot_read_file", map[string]any{"dataset": "snapper", "snapshot": "@live", "path": "etc/app.conf"}},
		{"snapshot_read_file", map[string]any{"dataset": "snapper", "snapshot": "1", "path": "etc/app.conf"}},
		{"snapshot_read_file", map[string]any{"dataset": "snapper", "snapshot": "@live", "path": ".snapshots/1/snapshot/etc/app.conf"}},
		{"snapshot_grep", map[string]any{"dataset": "snapper", "snapshot": "@live", "regex": "BENIGN"}},
		{"snapshot_grep", map[string]any{"dataset": "base", "snapshot": day, "regex": "BENIGN"}},
	} {
		res, _ := callTool(t, s.cs, c.tool, c.args)
		if b, _ := json.Marshal(res); res.IsError || !strings.Contains(string(b), benign) {
			t.Errorf("benign %s %v: %.400s", c.tool, c.args, b)
		}
	}
}

// TestSnapshotToolsHideDeniedRemote: a dataset on an SSH host is read with
// that host's files path policy, as read_file there is: a path its
// files.deny names is hidden in the live data and in each dated copy,
// over SFTP, however it is spelled, and the files beside it still read.
func TestSnapshotToolsHideDeniedRemote(t *testing.T) {
	const secret, benign, day = "SECRET-remote-6c1d", "BENIGN-remote-2b7e", "daily-2026-01-01"
	srv := sshd.Start(t, sshd.Options{User: sshUser})
	home := t.TempDir()
	known := filepath.Join(home, "known_hosts")
	if err := sshd.WriteKnownHosts(known, srv); err != nil {
		t.Fatal(err)
	}
	root := userDir(t)
	live, snaps := filepath.Join(root, "live"), filepath.Join(root, "snaps")
	for _, dir := range []string{live, filepath.Join(snaps, day)} {
		mkfile(t, filepath.Join(dir, "app/creds/key.txt"), secret+"\n", time.Now())
		mkfile(t, filepath.Join(dir, "app/conf/app.conf"), benign+"\n", time.Now())
	}
	cfg := fmt.Sprintf(`mode: readonly
ssh:
  config: none
  known_hosts: %s
hosts:
  - name: nas
    address: 127.0.0.1
    port: %d
    user: %s
    identity_files: [%s]
    files_transport: sftp
    files:
      deny: [%s/app/creds]
snapshots:
  - name: b
    kind: dir
    host: nas
    path: %s
    pattern: "daily-*"
    time_format: "2006-01-02"
    live: %s
`, known, srv.Port, sshUser, srv.UserKey.Path, live, snaps, live)
	env, state := wardenEnv(t, "WARDEN_CONFIG="+writeFile(t, cfg))
	s := startStdio(t, env, state, nil)
	n := 0
	for _, snap := range []string{"@live", day} {
		for _, c := range []struct {
			tool string
			args map[string]any
		}{
			{"snapshot_read_file", map[string]any{"path": "app/creds/key.txt"}},
			{"snapshot_read_file", map[string]any{"path": "./app//creds/./key.txt"}},
			{"checksum_file", map[string]any{"path": "app/creds/key.txt"}},
			{"snapshot_list_dir", map[string]any{"path": "app/creds"}},
			{"snapshot_list_dir", map[string]any{"path": "app"}},
			{"snapshot_grep", map[string]any{"regex": "SECRET|BENIGN"}},
			{"snapshot_find_files", map[string]any{"pattern": "*.txt"}},
			{"top_consumers", map[string]any{}},
		} {
			c.args["dataset"], c.args["snapshot"] = "b", snap
			n++
			t.Run(fmt.Sprintf("%02d-%s", n, c.tool), func(t *testing.T) {
				res, _ := callTool(t, s.cs, c.tool, c.args)
				b, _ := json.Marshal(res)
				markers := []string{secret}
				if _, named := c.args["path"]; !named || c.tool == "snapshot_list_dir" && c.args["path"] == "app" {
					markers = append(markers, "key.txt", `"creds"`) // a listing: the names are hidden too
				}
				for _, m := range markers {
					if strings.Contains(string(b), m) {
						t.Errorf("%s %v: the answer carries %q: %.500s", c.tool, c.args, m, b)
					}
				}
			})
		}
		res, _ := callTool(t, s.cs, "snapshot_read_file", map[string]any{"dataset": "b", "snapshot": snap, "path": "app/conf/app.conf"})
		if b, _ := json.Marshal(res); res.IsError || !strings.Contains(string(b), benign) {
			t.Errorf("benign read in %s: %.400s", snap, b)
		}
	}
}
