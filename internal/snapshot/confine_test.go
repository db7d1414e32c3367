package snapshot

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// confineFixture is one snapshot s1 holding every kind of escape attempt,
// next to a directory holding the secret and a look-alike sibling snapshot.
func confineFixture(t *testing.T, open OpenFSFunc) (*Engine, string) {
	t.Helper()
	dir := t.TempDir()
	outside := makeOutside(t, dir)
	snaps := filepath.Join(dir, "snaps")
	root := filepath.Join(snaps, "s1")
	writeFile(t, root, "etc/hosts", "127.0.0.1 localhost\n", time.Time{})
	writeFile(t, snaps+"/s1_evil", "secret.txt", secret+"\n", time.Time{})
	up := strings.Repeat("../", 12)
	links := map[string]string{
		"rel-out":        up + strings.TrimPrefix(outside, "/") + "/secret.txt",
		"abs-out":        filepath.Join(outside, "secret.txt"),
		"rel-dir":        up + strings.TrimPrefix(outside, "/"),
		"abs-dir":        outside,
		"lookalike":      "../s1_evil/secret.txt",
		"lookalike-dir":  "../s1_evil",
		"etc/deep-out":   "../../../outside/secret.txt",
		"etc/up-one":     "..",
		"etc/up-two":     "../..",
		"loop-a":         "loop-b",
		"loop-b":         "loop-a",
		"proc":           "/proc/self",
		"inside":         "etc",
		"chain":          "inside/../rel-dir",
		"dev-null":       "/dev/null",
		"etc/self-loops": "self-loops",
	}
	for at, target := range links {
		symlink(t, target, filepath.Join(root, at))
	}
	// A file name full of shell metacharacters is just a name.
	writeFile(t, root, "a b;$(id)`x`|&.txt", "meta\n", time.Time{})
	return newEngine(t, Config{OpenFS: open, Sources: []SourceConfig{{Name: "c", Kind: KindDir, Path: snaps, Pattern: "s1"}}}), root
}

// TestConfinement drives every path-taking tool with escape attempts, over
// LocalFS and over SFTP, and checks that none returns the secret, follows a
// final symlink, or fails with anything but a clear refusal.
func TestConfinement(t *testing.T) {
	t.Run("local", func(t *testing.T) {
		e, _ := confineFixture(t, nil)
		testConfinement(t, e)
	})
	t.Run("sftp", func(t *testing.T) {
		e, _ := confineFixture(t, SFTPOpener(sftpClient(t)))
		testConfinement(t, e)
	})
}

func testConfinement(t *testing.T, e *Engine) {
	ctx := context.Background()
	hostile := []string{
		"../outside/secret.txt", "../../outside/secret.txt", "..", "../", "etc/../../outside/secret.txt",
		"/etc/passwd", "/", "//etc/passwd", filepath.Join(os.TempDir(), "x"),
		"rel-out", "abs-out", "rel-dir/secret.txt", "abs-dir/secret.txt", "lookalike", "lookalike-dir/secret.txt",
		"etc/deep-out", "etc/up-one/../outside/secret.txt", "etc/up-two/outside/secret.txt", "etc/up-two/s1_evil/secret.txt",
		"loop-a", "loop-a/x", "proc/environ", "chain/secret.txt", "dev-null", "etc/self-loops/x",
		"a\x00b", "etc/hosts\x00../../x", strings.Repeat("a/", MaxPathLen),
	}
	for _, p := range hostile {
		calls := map[string]func() (any, error){
			"snapshot_list_dir":  func() (any, error) { return e.ListDir(ctx, ListDirArgs{Dataset: "c", Snapshot: "s1", Path: p}) },
			"snapshot_read_file": func() (any, error) { return e.ReadFile(ctx, ReadFileArgs{Dataset: "c", Snapshot: "s1", Path: p}) },
			"checksum_file":      func() (any, error) { return e.Checksum(ctx, ChecksumArgs{Dataset: "c", Snapshot: "s1", Path: p}) },
			"snapshot_grep": func() (any, error) {
				return e.Grep(ctx, GrepArgs{Dataset: "c", Snapshot: "s1", Path: p, Regex: "TOPSECRET"})
			},
			"snapshot_find_files": func() (any, error) {
				return e.FindFiles(ctx, FindFilesArgs{Dataset: "c", Snapshot: "s1", Path: p, Pattern: "*"})
			},
			"file_diff":     func() (any, error) { return e.FileDiff(ctx, FileDiffArgs{Dataset: "c", A: "s1", B: "s1", Path: p}) },
			"snapshot_diff": func() (any, error) { return e.Diff(ctx, DiffArgs{Dataset: "c", A: "s1", B: "s1", Path: p}) },
			"versions_of":   func() (any, error) { return e.VersionsOf(ctx, VersionsArgs{Dataset: "c", Path: p}) },
			"bisect_change": func() (any, error) {
				return e.Bisect(ctx, BisectArgs{Dataset: "c", Path: p, Predicate: PredContains, Value: "TOPSECRET"})
			},
			"size_breakdown": func() (any, error) { return e.SizeBreakdown(ctx, SizeArgs{Dataset: "c", Snapshot: "s1", Path: p}) },
			"top_consumers":  func() (any, error) { return e.TopConsumers(ctx, TopArgs{Dataset: "c", Snapshot: "s1", Path: p}) },
			"first_appearance": func() (any, error) {
				return e.FirstAppearance(ctx, AppearanceArgs{Dataset: "c", Path: p})
			},
		}
		for tool, call := range calls {
			res, err := call()
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), secret) || (err != nil && strings.Contains(err.Error(), secret)) {
				t.Errorf("%s(%q) leaked the secret: %s %v", tool, p, b, err)
			}
			if err != nil && !errors.Is(err, ErrInvalidArgument) && !errors.Is(err, ErrNotFound) {
				t.Errorf("%s(%q): err = %v, want invalid argument or not found", tool, p, err)
			}
			if r, ok := res.(BisectResult); ok && err == nil && (r.Initial || r.Flipped) {
				t.Errorf("bisect contains TOPSECRET on %q held: %+v", p, r)
			}
			if r, ok := res.(AppearanceResult); ok && err == nil && r.Found && strings.Contains(p, "secret") {
				t.Errorf("first_appearance(%q) found it", p)
			}
		}
	}

	t.Run("final_symlink_is_described_not_followed", func(t *testing.T) {
		for _, p := range []string{"rel-out", "abs-out", "lookalike", "etc/deep-out", "dev-null", "inside"} {
			res, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "c", Snapshot: "s1", Path: p})
			if err != nil {
				t.Fatalf("read %s: %v", p, err)
			}
			if res.Type != TypeSymlink || res.LinkTarget == "" || res.Content != "" {
				t.Errorf("read %s = %+v, want a symlink description without content", p, res)
			}
		}
	})

	t.Run("escapes_are_refused_clearly", func(t *testing.T) {
		cases := map[string]string{
			"../outside/secret.txt":    "contains ..",
			"/etc/passwd":              "is absolute",
			"abs-dir/secret.txt":       "absolute symlink",
			"rel-dir/secret.txt":       "outside the snapshot root",
			"lookalike-dir/secret.txt": "outside the snapshot root",
			"a\x00b":                   "NUL",
		}
		for p, want := range cases {
			_, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "c", Snapshot: "s1", Path: p})
			if !errors.Is(err, ErrInvalidArgument) || !strings.Contains(err.Error(), want) {
				t.Errorf("read %q: err = %v, want invalid argument mentioning %q", p, err, want)
			}
		}
	})

	t.Run("inner_symlinked_parent_is_followed", func(t *testing.T) {
		res, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "c", Snapshot: "s1", Path: "inside/hosts"})
		if err != nil || res.Content != "127.0.0.1 localhost\n" {
			t.Errorf("inside/hosts = %+v, %v", res, err)
		}
	})

	t.Run("walks_never_follow_links", func(t *testing.T) {
		g, err := e.Grep(ctx, GrepArgs{Dataset: "c", Snapshot: "s1", Regex: "TOPSECRET|localhost|meta"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, m := range g.Matches {
			got = append(got, m.Path)
		}
		if strings.Join(got, ",") != "a b;$(id)`x`|&.txt,etc/hosts" {
			t.Errorf("grep matched %v", got)
		}
	})
}

// TestLocalFSConfines calls LocalFS directly, without the engine's own
// resolution, to show the kernel-level backstop holds by itself.
func TestLocalFSConfines(t *testing.T) {
	_, root := confineFixture(t, nil)
	fsys, err := OpenLocalFS(root)
	if err != nil {
		t.Fatal(err)
	}
	defer fsys.Close()
	for _, p := range []string{"rel-out", "abs-out", "rel-dir/secret.txt", "abs-dir/secret.txt", "lookalike", "../outside/secret.txt", "/etc/passwd", "etc/deep-out", "inside"} {
		if f, err := fsys.Open(p); err == nil {
			f.Close()
			t.Errorf("LocalFS.Open(%q) succeeded", p)
		}
	}
	for _, p := range []string{"rel-dir", "abs-dir", "lookalike-dir", "etc/up-two", "inside"} {
		if _, err := fsys.ReadDir(p); err == nil {
			t.Errorf("LocalFS.ReadDir(%q) followed a symlink", p)
		}
	}
	fi, err := fsys.Lstat("rel-out")
	if err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("Lstat(rel-out) = %v, %v; want the link itself", fi, err)
	}
	if _, _, err := resolve(fsys, "rel-dir/secret.txt"); err == nil {
		t.Error("resolve followed rel-dir out")
	}
}
