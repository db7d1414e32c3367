package hosts_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/warden-mcp/warden/internal/audit"
	"github.com/warden-mcp/warden/internal/hostfs"
	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	snapshottools "github.com/warden-mcp/warden/internal/tools/snapshot"
)

// records keeps every audit record of a suite.
type records struct {
	mu   sync.Mutex
	list []audit.Record
}

func (r *records) Append(_ context.Context, rec audit.Record) (audit.Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.list = append(r.list, rec)
	return rec, nil
}

func (r *records) Healthy() (bool, string) { return true, "" }

func (r *records) last(tool string) audit.Record {
	r.mu.Lock()
	defer r.mu.Unlock()
	for i := len(r.list) - 1; i >= 0; i-- {
		if r.list[i].Tool == tool {
			return r.list[i]
		}
	}
	return audit.Record{}
}

// TestSnapshotCopiesConformance runs fetch_file, fetch_dir, restore_file
// and restore_dir against every host kind through the Set's one Resolve:
// this machine (openat2 here), the container shape (PID 1's tree under
// /proc/1/root), OpenSSH over SFTP, OpenSSH through the agent, and
// dropbear over the exec channel. Each kind writes on its own host, never
// follows a symlink in the snapshot or the destination, refuses special
// files and destinations outside the path policy or the restore
// allowlist, keeps the current version aside and audits both digests.
func TestSnapshotCopiesConformance(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("the suite's SSH logins and device nodes need root")
	}
	for _, k := range hostKinds {
		t.Run(k.name, func(t *testing.T) {
			hk := k.setup(t)
			copySuite(t, hk)
		})
	}
}

// copyFixture is one kind's tree as this machine reaches it (root is
// /proc/PID/root for the container shape, "" otherwise).
type copyFixture struct {
	k     kind
	root  string
	owner int
	fsys  hostfs.FS
}

// at is p as this machine's own calls reach it.
func (f copyFixture) at(p string) string { return filepath.Join(f.root, p) }

func (f copyFixture) must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// write makes a file owned by the host's login.
func (f copyFixture) write(t *testing.T, p, content string) {
	t.Helper()
	f.must(t, os.MkdirAll(filepath.Dir(f.at(p)), 0o755))
	f.must(t, os.WriteFile(f.at(p), []byte(content), 0o644))
	f.chown(t, filepath.Dir(p), p)
}

func (f copyFixture) chown(t *testing.T, ps ...string) {
	t.Helper()
	for _, p := range ps {
		f.must(t, os.Lchown(f.at(p), f.owner, -1))
	}
}

// read reads p through the host's own files, as the host sees it.
func (f copyFixture) read(t *testing.T, p string) (string, bool) {
	t.Helper()
	b, _, err := f.fsys.ReadAt(context.Background(), p, 0, 1<<20)
	if err != nil {
		return "", false
	}
	return string(b), true
}

func (f copyFixture) exists(p string) bool {
	_, err := f.fsys.Lstat(context.Background(), p)
	return err == nil
}

// refused calls a tool (re-issued with its approval token when it asks
// for one, so the refusal is the tool's own, not the approval's) and
// reports whether it answered with an error.
func refused(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (bool, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var text strings.Builder
		for _, c := range res.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				text.WriteString(tc.Text)
			}
		}
		got := map[string]any{}
		if res.StructuredContent != nil {
			b, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(b, &got)
		}
		if got["status"] == "approval_required" && args["approval_token"] == nil {
			args["approval_token"] = got["approval_token"]
			continue
		}
		return res.IsError, text.String()
	}
}

// approved calls a tier-3 tool, which open mode admits on the re-issue
// with the approval token it answered first.
func approved(t *testing.T, cs *mcp.ClientSession, name string, args map[string]any) (map[string]any, string) {
	t.Helper()
	got, text := call(t, cs, name, args)
	if got["status"] != "approval_required" {
		return got, text
	}
	args["approval_token"] = got["approval_token"]
	return call(t, cs, name, args)
}

func sum(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// serveCopies registers the snapshot tools with the Set as their way to
// hosts, a restorable directory source on the kind's host, and a path
// policy allowing the fixture only.
func serveCopies(t *testing.T, k kind, live string, rec *records) *mcp.ClientSession {
	t.Helper()
	src := snapshottools.Source{Host: k.name,
		SourceConfig: engine.SourceConfig{Name: "tree", Kind: "dir", Path: filepath.Join(k.dir, "snaps"), Pattern: "daily.*", TimeFormat: "2006-01-02", Live: live},
		Restore:      snapshottools.Restore{Enabled: true, Allow: []string{filepath.Join(live, "etc")}}}
	return serveSource(t, k, src, rec)
}

// serveSource registers the snapshot tools for one source.
func serveSource(t *testing.T, k kind, src snapshottools.Source, rec *records) *mcp.ClientSession {
	t.Helper()
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "copies", Version: "1"}, nil)
	r := relay.New(srv, relay.Options{Policy: pol, Audit: rec, Mode: policy.Open})
	paths, err := policy.NewPathPolicy(policy.PathRules{Allow: []string{k.dir}})
	if err != nil {
		t.Fatal(err)
	}
	if err := snapshottools.Register(r, snapshottools.Deps{Sources: []snapshottools.Source{src}, Hosts: k.set.Snapshots,
		Resolve: k.set.Resolve, Paths: paths, HostPaths: func(string) *policy.PathPolicy { return paths }}); err != nil {
		t.Fatal(err)
	}
	st, ct := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "suite", Version: "1"}, nil).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func copySuite(t *testing.T, k kind) {
	ctx := context.Background()
	h, err := k.set.Resolve(ctx, k.name)
	if err != nil {
		t.Fatal(err)
	}
	fsys, err := h.FS(ctx)
	if err != nil {
		t.Fatal(err)
	}
	f := copyFixture{k: k, fsys: fsys}
	if l, ok := fsys.(hostfs.Local); ok {
		f.root = l.Root
	}
	var st syscall.Stat_t
	f.must(t, syscall.Stat(f.at(k.dir), &st))
	f.owner = int(st.Uid)

	// The newer snapshot holds a symlink out of the tree, a FIFO and a
	// device node beside its file; the live data has a current version.
	snap := filepath.Join(k.dir, "snaps", "daily.2026-11-02", "etc")
	f.must(t, os.Symlink("/etc/passwd", f.at(filepath.Join(snap, "passwd"))))
	f.must(t, syscall.Mkfifo(f.at(filepath.Join(snap, "fifo")), 0o644))
	f.must(t, syscall.Mknod(f.at(filepath.Join(snap, "null")), syscall.S_IFCHR|0o644, 1<<8|3))
	live := filepath.Join(k.dir, "live")
	f.write(t, filepath.Join(live, "etc", "motd"), "live now\n")
	f.write(t, filepath.Join(live, "etc", "keep.conf"), "kept\n")
	f.must(t, os.Mkdir(f.at(filepath.Join(k.dir, "out")), 0o755))
	f.chown(t, filepath.Join(k.dir, "out"))

	rec := &records{}
	cs := serveCopies(t, k, live, rec)
	out := filepath.Join(k.dir, "out")

	t.Run("fetch_file", func(t *testing.T) {
		got, text := call(t, cs, "fetch_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-01", "path": "etc/motd", "host": k.name, "destination": filepath.Join(out, "motd")})
		if c, _ := f.read(t, filepath.Join(out, "motd")); c != "first\n" || got["host"] != h.Name {
			t.Fatalf("fetch_file wrote %q on %v: %v %s", c, got["host"], got, text)
		}
		if m, _ := got["manifest"].([]any); len(m) != 1 || m[0].(map[string]any)["sha256"] != sum("first\n") {
			t.Errorf("manifest = %v, want the digest of what was written", got["manifest"])
		}
		if r := rec.last("fetch_file"); r.Tier != int(policy.TierMutate) || r.Host != h.Name {
			t.Errorf("audit: tier %d host %q, want tier 2 on %s", r.Tier, r.Host, h.Name)
		}
		// Never over an existing file unless asked.
		call(t, cs, "fetch_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc/motd", "host": k.name, "destination": filepath.Join(out, "motd")})
		if c, _ := f.read(t, filepath.Join(out, "motd")); c != "first\n" {
			t.Errorf("fetch without overwrite replaced the file: %q", c)
		}
	})
	t.Run("fetch refusals", func(t *testing.T) {
		for name, args := range map[string]map[string]any{
			// self is a symlink to "." in the fixture.
			"symlinked destination directory": {"path": "etc/motd", "destination": filepath.Join(k.dir, "self", "out", "via-link")},
			"symlink destination":             {"path": "etc/motd", "destination": filepath.Join(k.dir, "link"), "overwrite": true},
			"outside the path policy":         {"path": "etc/motd", "destination": "/var/tmp/warden-copy-suite"},
			"symlink in the snapshot":         {"path": "etc/passwd", "destination": filepath.Join(out, "passwd")},
			"FIFO in the snapshot":            {"path": "etc/fifo", "destination": filepath.Join(out, "fifo")},
			"device in the snapshot":          {"path": "etc/null", "destination": filepath.Join(out, "null")},
		} {
			args["dataset"], args["snapshot"], args["host"] = "tree", "daily.2026-11-02", k.name
			if no, text := refused(t, cs, "fetch_file", args); !no {
				t.Errorf("%s: fetched: %s", name, text)
			}
		}
		for _, p := range []string{filepath.Join(out, "via-link"), filepath.Join(out, "passwd"), filepath.Join(out, "fifo"), filepath.Join(out, "null")} {
			if f.exists(p) {
				t.Errorf("%s was created by a refused fetch", p)
			}
		}
		if c, _ := f.read(t, filepath.Join(k.dir, "marker")); c != k.marker+"\n" {
			t.Errorf("the symlink's target changed: %q", c)
		}
		if _, err := os.Lstat("/var/tmp/warden-copy-suite"); err == nil {
			t.Error("a destination outside the path policy was written")
		}
	})
	t.Run("fetch_dir", func(t *testing.T) {
		got, text := call(t, cs, "fetch_dir", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc", "host": k.name, "destination": filepath.Join(out, "etc")})
		if c, _ := f.read(t, filepath.Join(out, "etc", "motd")); c != "second "+k.marker+"\n" || got["files_written"] != float64(1) {
			t.Fatalf("fetch_dir: %q, %v %s", c, got, text)
		}
		if got["skipped_count"] != float64(3) {
			t.Errorf("skipped = %v, want the symlink, the FIFO and the device", got["skipped"])
		}
		for _, n := range []string{"passwd", "fifo", "null"} {
			if f.exists(filepath.Join(out, "etc", n)) {
				t.Errorf("fetch_dir created %s", n)
			}
		}
		// Bounded in bytes: a file over the bound is not written at all.
		got, text = call(t, cs, "fetch_dir", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc", "host": k.name, "destination": filepath.Join(out, "bounded"), "max_bytes": 3})
		if got["truncated"] != true || got["truncated_reason"] != "max_bytes" || got["files_written"] != float64(0) || f.exists(filepath.Join(out, "bounded", "motd")) {
			t.Errorf("fetch_dir over max_bytes: %v %s", got, text)
		}
	})
	t.Run("restore_file", func(t *testing.T) {
		got, text := approved(t, cs, "restore_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-01", "path": "etc/motd"})
		if c, _ := f.read(t, filepath.Join(live, "etc", "motd")); c != "first\n" {
			t.Fatalf("restore_file left %q: %v %s", c, got, text)
		}
		files, _ := got["files"].([]any)
		if len(files) != 1 {
			t.Fatalf("files = %v", got["files"])
		}
		rf := files[0].(map[string]any)
		aside, _ := rf["kept_aside"].(string)
		if c, _ := f.read(t, aside); c != "live now\n" || !strings.HasPrefix(aside, filepath.Join(live, "etc", "motd.warden-restore-")) {
			t.Errorf("kept aside %q holding %q, want the previous version", aside, c)
		}
		r := rec.last("restore_file")
		b, _ := json.Marshal(r.Extra)
		if r.Tier != int(policy.TierDestructive) || r.Host != h.Name || !strings.Contains(string(b), sum("live now\n")) || !strings.Contains(string(b), sum("first\n")) {
			t.Errorf("audit: tier %d host %q extra %s, want tier 3 on %s with both digests", r.Tier, r.Host, b, h.Name)
		}
	})
	t.Run("restore refusals", func(t *testing.T) {
		for name, args := range map[string]map[string]any{
			"outside the allowlist":   {"path": "etc/motd", "destination": filepath.Join(live, "motd")},
			"symlink in the snapshot": {"path": "etc/passwd"},
			"FIFO in the snapshot":    {"path": "etc/fifo"},
			"device in the snapshot":  {"path": "etc/null"},
		} {
			args["dataset"], args["snapshot"] = "tree", "daily.2026-11-02"
			if no, text := refused(t, cs, "restore_file", args); !no {
				t.Errorf("%s: restored: %s", name, text)
			}
		}
		for _, p := range []string{filepath.Join(live, "motd"), filepath.Join(live, "etc", "passwd"), filepath.Join(live, "etc", "fifo"), filepath.Join(live, "etc", "null")} {
			if f.exists(p) {
				t.Errorf("%s was created by a refused restore", p)
			}
		}
		// A destination swapped for a symlink is never written through.
		f.must(t, os.Remove(f.at(filepath.Join(live, "etc", "motd"))))
		f.must(t, os.Symlink(filepath.Join(k.dir, "marker"), f.at(filepath.Join(live, "etc", "motd"))))
		no, text := refused(t, cs, "restore_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc/motd"})
		if c, _ := f.read(t, filepath.Join(k.dir, "marker")); c != k.marker+"\n" || !no {
			t.Errorf("restore through a symlink destination: marker holds %q: %s", c, text)
		}
		// A directory swapped for a symlink stops the restore.
		f.must(t, os.Rename(f.at(filepath.Join(live, "etc")), f.at(filepath.Join(live, "etc.real"))))
		f.must(t, os.Symlink(filepath.Join(k.dir, "out"), f.at(filepath.Join(live, "etc"))))
		no, text = refused(t, cs, "restore_file", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc/motd"})
		if c, _ := f.read(t, filepath.Join(out, "motd")); c != "first\n" || !no {
			t.Errorf("restore through a symlinked directory: out/motd holds %q: %s", c, text)
		}
		f.must(t, os.Remove(f.at(filepath.Join(live, "etc"))))
		f.must(t, os.Rename(f.at(filepath.Join(live, "etc.real")), f.at(filepath.Join(live, "etc"))))
	})
	t.Run("restore_dir", func(t *testing.T) {
		f.must(t, os.Remove(f.at(filepath.Join(live, "etc", "motd"))))
		f.write(t, filepath.Join(live, "etc", "motd"), "live again\n")
		got, text := approved(t, cs, "restore_dir", map[string]any{"dataset": "tree", "snapshot": "daily.2026-11-02", "path": "etc"})
		if c, _ := f.read(t, filepath.Join(live, "etc", "motd")); c != "second "+k.marker+"\n" || got["files_written"] != float64(1) {
			t.Fatalf("restore_dir: motd holds %q: %v %s", c, got, text)
		}
		if got["skipped_count"] != float64(3) {
			t.Errorf("skipped = %v, want the symlink, the FIFO and the device", got["skipped"])
		}
		if c, _ := f.read(t, filepath.Join(live, "etc", "keep.conf")); c != "kept\n" {
			t.Errorf("a file absent from the snapshot changed: %q", c)
		}
		files, _ := got["files"].([]any)
		if len(files) == 1 {
			aside, _ := files[0].(map[string]any)["kept_aside"].(string)
			if c, _ := f.read(t, aside); c != "live again\n" {
				t.Errorf("kept aside %q holds %q, want the previous version", aside, c)
			}
		}
	})
}
