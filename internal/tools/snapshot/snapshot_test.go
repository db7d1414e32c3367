package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/warden-mcp/warden/internal/policy"
	"github.com/warden-mcp/warden/internal/relay"
	"github.com/warden-mcp/warden/internal/remotefs"
	"github.com/warden-mcp/warden/internal/runner"
	"github.com/warden-mcp/warden/internal/runner/local"
	sshrunner "github.com/warden-mcp/warden/internal/runner/ssh"
	engine "github.com/warden-mcp/warden/internal/snapshot"
	"github.com/warden-mcp/warden/internal/sshd"
	"github.com/warden-mcp/warden/internal/sshpool/sshpooltest"
)

// TestPinnedInputIsReadOnly checks that what the policy sees for each
// source kind is exactly a command from the engine's pinned list, and that
// the policy classifies it as tier 0 so readonly mode admits it.
func TestPinnedInputIsReadOnly(t *testing.T) {
	pol, err := policy.New(policy.Rules{})
	if err != nil {
		t.Fatal(err)
	}
	run := local.New(local.Options{})
	tests := []struct {
		name    string
		src     engine.SourceConfig
		run     runner.Runner
		wantCmd string
	}{
		{"zfs with dataset", engine.SourceConfig{Kind: engine.KindZFS, Path: "/tank", Dataset: "tank/data"}, run, "zfs list"},
		{"btrfs", engine.SourceConfig{Kind: engine.KindBtrfs, Path: "/home"}, run, "btrfs subvolume show"},
		{"zfs without dataset runs nothing", engine.SourceConfig{Kind: engine.KindZFS, Path: "/tank"}, run, ""},
		{"dir runs nothing", engine.SourceConfig{Kind: engine.KindDir, Path: "/srv"}, run, ""},
		{"no runner runs nothing", engine.SourceConfig{Kind: engine.KindZFS, Path: "/tank", Dataset: "tank"}, nil, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := pinnedInput(tc.src, tc.run)
			if tc.wantCmd == "" {
				if len(in.Argv) != 0 {
					t.Fatalf("argv = %q, want none", in.Argv)
				}
				return
			}
			if got := strings.Join(in.Argv, " "); !strings.HasPrefix(got, tc.wantCmd+" ") {
				t.Fatalf("argv = %q, want %s …", got, tc.wantCmd)
			}
			pinned := false
			for _, p := range engine.AllowedCommands() {
				if len(in.Argv) >= len(p) && slices.Equal(in.Argv[:len(p)], p) {
					pinned = true
				}
			}
			if !pinned {
				t.Errorf("argv %q is not in engine.AllowedCommands %q", in.Argv, engine.AllowedCommands())
			}
			v := pol.Evaluate(in)
			if v.Tier != policy.TierRead || v.Denied {
				t.Errorf("verdict = %+v, want tier 0 and not denied", v)
			}
			if d := policy.Admit(policy.Readonly, v); d != policy.Allow {
				t.Errorf("readonly mode decision = %s, want allow", d)
			}
		})
	}
}

func TestLookup(t *testing.T) {
	dir := t.TempDir()
	remoteCalls := map[string]int{}
	remote := func(host string) (runner.Runner, engine.OpenFSFunc, error) {
		remoteCalls[host]++
		if host == "ghost" {
			return nil, nil, errors.New("host not in inventory")
		}
		return nil, func(_ context.Context, root string) (engine.FS, error) { return engine.OpenLocalFS(root) }, nil
	}
	src := func(name, host string) Source {
		return Source{Host: host, SourceConfig: engine.SourceConfig{Name: name, Kind: engine.KindDir, Path: dir}}
	}

	empty, err := newCatalog(Deps{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := empty.lookup("tank"); !errors.Is(err, errNoSources) {
		t.Errorf("lookup with no sources: %v, want errNoSources", err)
	}

	c, err := newCatalog(Deps{Sources: []Source{src("a", ""), src("b", "local"), src("c", "nas"), src("d", "nas")}, Remote: remote})
	if err != nil {
		t.Fatal(err)
	}
	if remoteCalls["nas"] != 1 {
		t.Errorf("Remote called %d times for nas, want once per host", remoteCalls["nas"])
	}
	if c.byName["a"].engine != c.byName["b"].engine || c.byName["c"].engine != c.byName["d"].engine || c.byName["a"].engine == c.byName["c"].engine {
		t.Error("want one engine per host")
	}
	for _, tc := range []struct{ name, want string }{
		{"", "dataset is required; configured datasets: a, b, c, d"},
		{"zz", `unknown dataset "zz"`},
		{"pool;id", "invalid argument"},
		{"-o", "invalid argument"},
	} {
		if _, err := c.lookup(tc.name); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("lookup(%q) = %v, want an error containing %q", tc.name, err, tc.want)
		}
	}
	if d, err := c.lookup("c"); err != nil || d.host != "nas" {
		t.Errorf("lookup(c) = %+v, %v; want host nas", d, err)
	}

	for _, tc := range []struct {
		name string
		d    Deps
		want string
	}{
		{"remote without inventory", Deps{Sources: []Source{src("a", "nas")}}, `dataset "a" is on host "nas"`},
		{"unresolvable host", Deps{Sources: []Source{src("a", "ghost")}, Remote: remote}, "host not in inventory"},
		{"duplicate", Deps{Sources: []Source{src("a", ""), src("a", "nas")}, Remote: remote}, "configured twice"},
		{"invalid source", Deps{Sources: []Source{{SourceConfig: engine.SourceConfig{Name: "a", Kind: "lvm", Path: dir}}}}, "lvm"},
	} {
		if _, err := newCatalog(tc.d); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestFailure(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want relay.Status
	}{
		{"invalid", fmt.Errorf("read: %w: path escapes", engine.ErrInvalidArgument), relay.StatusInvalid},
		{"not found", fmt.Errorf("%w: no snapshot", engine.ErrNotFound), relay.StatusInvalid},
		{"deadline", fmt.Errorf("walk: %w", context.DeadlineExceeded), relay.StatusTimeout},
		{"other", errors.New("permission denied"), relay.StatusError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out := outcome("snapshot_list", slog.New(slog.DiscardHandler), engine.ListResult{}, tc.err)
			if out.Status != tc.want {
				t.Errorf("status = %s, want %s (%s)", out.Status, tc.want, out.Reason)
			}
		})
	}
	ok := outcome("snapshot_list", slog.New(slog.DiscardHandler), engine.ListResult{Dataset: "a"}, nil)
	if ok.Status != "" || !strings.Contains(string(ok.Output), `"dataset":"a"`) {
		t.Errorf("success outcome = %+v, want the result's JSON as audited output", ok)
	}
}

// TestSSHRemote serves a dataset through real SSH servers: the snapshots
// are listed and read on a pooled connection, not from the local
// filesystem — over SFTP from OpenSSH, and over the exec channel from a
// router (dropbear with BusyBox, no SFTP server), which the picker finds
// out by itself.
func TestSSHRemote(t *testing.T) {
	for name, start := range map[string]func(t *testing.T) *sshd.Server{
		"openssh": func(t *testing.T) *sshd.Server { return sshd.Start(t, sshd.Options{}) },
		"dropbear": func(t *testing.T) *sshd.Server {
			return sshd.StartDropbear(t, sshd.DropbearOptions{User: "wardentest"})
		},
	} {
		t.Run(name, func(t *testing.T) { testSSHRemote(t, start(t), name == "dropbear") })
	}
}

func testSSHRemote(t *testing.T, srv *sshd.Server, router bool) {
	// The router's login is not root: Server lets it into the test's
	// directories, this one included.
	pool, inv, _ := sshpooltest.Server(t, srv, "box")
	dir := t.TempDir()
	files := remotefs.NewPicker(pool, nil, nil)

	backups := filepath.Join(dir, "backups")
	for i, content := range []string{"one\n", "two\n"} {
		p := filepath.Join(backups, fmt.Sprintf("snap-%d", i), "etc/motd")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		mt := time.Date(2026, 1, 1+i, 0, 0, 0, 0, time.UTC)
		if err := os.Chtimes(filepath.Dir(filepath.Dir(p)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	c, err := newCatalog(Deps{
		Sources: []Source{{Host: "box", SourceConfig: engine.SourceConfig{Name: "backups", Kind: engine.KindDir, Path: backups}}},
		Remote:  SSHRemote(pool, inv, files, sshrunner.Options{}),
	})
	if err != nil {
		t.Fatal(err)
	}
	if st := pool.Stats(); st.Open != 0 {
		t.Fatalf("registering dialled %d connections, want none", st.Open)
	}
	ds, err := c.lookup("backups")
	if err != nil {
		t.Fatal(err)
	}
	v, err := ds.engine.VersionsOf(t.Context(), engine.VersionsArgs{Dataset: "backups", Path: "etc/motd"})
	if err != nil {
		t.Fatal(err)
	}
	if len(v.Versions) != 2 || v.Versions[0].Snapshots[0] != "snap-0" {
		t.Errorf("versions = %+v, want snap-0 then snap-1", v.Versions)
	}
	r, err := ds.engine.ReadFile(t.Context(), engine.ReadFileArgs{Dataset: "backups", Snapshot: "snap-1", Path: "etc/motd"})
	if err != nil || r.Content != "two\n" {
		t.Errorf("read snap-1 etc/motd = %+v, %v", r, err)
	}
	if _, err := ds.engine.ReadFile(t.Context(), engine.ReadFileArgs{Dataset: "backups", Snapshot: "snap-0", Path: "../../known_hosts"}); !errors.Is(err, engine.ErrInvalidArgument) {
		t.Errorf("escape: err = %v, want ErrInvalidArgument", err)
	}
	// On OpenSSH the calls share one connection; on a dropbear older than
	// 2024.86 the pool opens one session per connection (mkj/dropbear#321),
	// so concurrent reads may spread over a few.
	if st := pool.Stats(); st.Open != 1 && !router || st.Open < 1 || st.Open > 4 {
		t.Errorf("pool stats = %+v, want the one connection the calls used (a few on a router)", st)
	}
	// fetch_file and fetch_dir read over SSH and write here (after the
	// connection count above: a router's lost sessions may add a dial).
	out := t.TempDir()
	x, err := ds.engine.OpenExport(t.Context(), "backups", "snap-0", "etc/motd")
	if err != nil {
		t.Fatal(err)
	}
	fr, err := fetchFile(t.Context(), x, localOpen, filepath.Join(out, "motd"), false, 1<<20)
	x.Close()
	if b, _ := os.ReadFile(filepath.Join(out, "motd")); err != nil || string(b) != "one\n" || len(fr.Manifest) != 1 || fr.Manifest[0].SHA256 != hexSHA("one\n") {
		t.Errorf("fetch_file over SSH: %+v, %v, wrote %q", fr, err, b)
	}
	x, err = ds.engine.OpenExport(t.Context(), "backups", "snap-1", "etc")
	if err != nil {
		t.Fatal(err)
	}
	fr, err = fetchDir(t.Context(), x, localOpen, filepath.Join(out, "etc"), false, 1<<20, 10)
	x.Close()
	if b, _ := os.ReadFile(filepath.Join(out, "etc/motd")); err != nil || string(b) != "two\n" || fr.FilesWritten != 1 {
		t.Errorf("fetch_dir over SSH: %+v, %v, wrote %q", fr, err, b)
	}
	want := remotefs.SFTP
	if router {
		want = remotefs.ExecTransport
	}
	if got := files.Chosen("box"); got != want {
		t.Errorf("files reached over %s, want %s", got, want)
	}
	if _, _, err := SSHRemote(pool, inv, nil, sshrunner.Options{})("nowhere-such-host.invalid"); err == nil {
		t.Error("an unknown inventory host resolved")
	}
}

func hexSHA(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}
