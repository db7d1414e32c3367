package snapshot

import (
	"context"
	"errors"
	"path"
	"strings"
	"testing"
	"time"
	"unicode"
)

func TestNames(t *testing.T) {
	hostile := map[string]string{
		"shell separator":   "pool;id",
		"option":            "-o x",
		"option glued":      "-ox",
		"space":             "a b",
		"traversal":         "../x",
		"dotdot":            "..",
		"dot":               ".",
		"empty":             "",
		"slash":             "a/b",
		"subst":             "$(id)",
		"backtick":          "`id`",
		"newline":           "a\nb",
		"carriage return":   "a\rb",
		"nul":               "a\x00b",
		"tab":               "a\tb",
		"pipe":              "a|b",
		"glob":              "a*",
		"unicode lookalike": "ａ",
		"over-long":         strings.Repeat("a", 300),
	}
	for name, s := range hostile {
		if err := ValidateSnapshotName(s); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("snapshot %s %q: err = %v, want invalid argument", name, s, err)
		}
		if err := ValidateDatasetName(s); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("dataset %s %q: err = %v, want invalid argument", name, s, err)
		}
	}
	for _, ok := range []string{"autosnap_2026-11-20_00:00:01_daily", "zfs-auto-snap_hourly-2026-11-20-0317", "daily.0", "42", "2026-11-20T0300", "backup-2026-11-20", "s1", "@live", "a+b@c"} {
		if err := ValidateSnapshotName(ok); err != nil {
			t.Errorf("snapshot %q: %v", ok, err)
		}
	}
	if err := ValidateDatasetName(strings.Repeat("a", 65)); err == nil || !strings.Contains(err.Error(), "64") {
		t.Errorf("long dataset: %v", err)
	}
}

// TestHostileNamesThroughTools shows tools refuse bad names before any
// lookup, with the reason in the error.
func TestHostileNamesThroughTools(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir+"/s1", "f", "x", time.Time{})
	e := newEngine(t, Config{Sources: []SourceConfig{{Name: "d", Kind: KindDir, Path: dir}}})
	ctx := context.Background()
	for _, bad := range []string{"pool;id", "-o x", "a b", "../x", "", strings.Repeat("x", 256)} {
		if _, err := e.List(ctx, ListArgs{Dataset: bad}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("List(dataset %q): %v", bad, err)
		}
		if _, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: bad, Path: "f"}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("ReadFile(snapshot %q): %v", bad, err)
		}
		if _, err := e.Diff(ctx, DiffArgs{Dataset: "d", A: "s1", B: bad}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Diff(b %q): %v", bad, err)
		}
	}
	if _, err := e.List(ctx, ListArgs{Dataset: "nope"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown dataset: %v", err)
	}
	if _, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: "s2", Path: "f"}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown snapshot: %v", err)
	}
	if _, err := e.ReadFile(ctx, ReadFileArgs{Dataset: "d", Snapshot: LiveSnapshot, Path: "f"}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("@live without a live path: %v", err)
	}
	for _, bad := range []ListArgs{{Dataset: "d", After: "yesterday"}, {Dataset: "d", After: "2026-11-20", Before: "2026-11-01"}} {
		if _, err := e.List(ctx, bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("List(%+v): %v", bad, err)
		}
	}
	for _, bad := range []string{"", "30", "-1d", "1y", "d", "1e9d"} {
		if _, err := e.Stale(ctx, StaleArgs{Dataset: "d", OlderThan: bad}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Stale(%q): %v", bad, err)
		}
	}
	for _, bad := range []BisectArgs{
		{Dataset: "d", Path: "f", Predicate: "rm"},
		{Dataset: "d", Path: "f", Predicate: PredSHA256Equals, Value: "abc"},
		{Dataset: "d", Path: "f", Predicate: PredSizeAtLeast, Value: "-1"},
		{Dataset: "d", Path: "f", Predicate: PredContains},
	} {
		if _, err := e.Bisect(ctx, bad); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("Bisect(%+v): %v", bad, err)
		}
	}
	if _, err := e.Grep(ctx, GrepArgs{Dataset: "d", Snapshot: "s1", Regex: "(("}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bad regex: %v", err)
	}
	if _, err := e.FindFiles(ctx, FindFilesArgs{Dataset: "d", Pattern: "a/b"}); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("glob with slash: %v", err)
	}
}

func TestSourceConfigValidate(t *testing.T) {
	ok := SourceConfig{Name: "home", Kind: KindZFS, Path: "/tank/home", Dataset: "tank/home"}
	if err := ok.Validate(); err != nil {
		t.Fatal(err)
	}
	for name, mut := range map[string]func(*SourceConfig){
		"bad name":          func(s *SourceConfig) { s.Name = "a;b" },
		"bad kind":          func(s *SourceConfig) { s.Kind = "lvm" },
		"relative path":     func(s *SourceConfig) { s.Path = "tank/home" },
		"unclean path":      func(s *SourceConfig) { s.Path = "/tank/../etc" },
		"dataset option":    func(s *SourceConfig) { s.Dataset = "-o" },
		"dataset snapshot":  func(s *SourceConfig) { s.Dataset = "tank/home@x" },
		"dataset dotdot":    func(s *SourceConfig) { s.Dataset = "tank/../x" },
		"dataset space":     func(s *SourceConfig) { s.Dataset = "tank/a b" },
		"pattern on zfs":    func(s *SourceConfig) { s.Pattern = "*" },
		"timeformat on zfs": func(s *SourceConfig) { s.TimeFormat = "2006" },
	} {
		s := ok
		mut(&s)
		if err := s.Validate(); err == nil {
			t.Errorf("%s: %+v accepted", name, s)
		}
	}
	if _, err := New(Config{Sources: []SourceConfig{ok, ok}}); err == nil {
		t.Error("duplicate dataset accepted")
	}
}

func FuzzCleanRel(f *testing.F) {
	for _, s := range []string{"", ".", "a/b", "../x", "/etc", "a//b/./c", "a/../b", "a\x00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := cleanRel(p)
		if err != nil {
			return
		}
		if strings.HasPrefix(rel, "/") || rel == "" || path.Clean(rel) != rel || strings.ContainsRune(rel, 0) {
			t.Fatalf("cleanRel(%q) = %q", p, rel)
		}
		for _, c := range strings.Split(rel, "/") {
			if c == ".." {
				t.Fatalf("cleanRel(%q) = %q keeps ..", p, rel)
			}
		}
	})
}

func FuzzValidateSnapshotName(f *testing.F) {
	for _, s := range []string{"s1", "-o", "a b", "..", "@live", "x@y"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if ValidateSnapshotName(s) != nil || s == LiveSnapshot {
			return
		}
		if s == "" || strings.ContainsAny(s, "/\\;$`|&<>*?") || strings.HasPrefix(s, "-") || strings.HasPrefix(s, ".") || strings.Contains(s, "..") {
			t.Fatalf("accepted %q", s)
		}
		for _, r := range s {
			if unicode.IsSpace(r) || r > unicode.MaxASCII {
				t.Fatalf("accepted %q", s)
			}
		}
	})
}

// FuzzResolve checks that resolution never yields a path outside the root
// for arbitrary agent paths over a tree full of hostile links.
func FuzzResolve(f *testing.F) {
	dir := f.TempDir()
	root := dir + "/root"
	writeFile(f, root, "etc/hosts", "x", time.Time{})
	symlink(f, "../..", root+"/etc/up")
	symlink(f, "/", root+"/abs")
	symlink(f, "etc", root+"/in")
	fsys, err := OpenLocalFS(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { fsys.Close() })
	for _, s := range []string{"etc/up/x", "abs/etc", "in/hosts", "in/up/in", "etc/hosts"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := cleanRel(p)
		if err != nil {
			return
		}
		got, _, err := resolve(fsys, rel)
		if err != nil {
			return
		}
		if strings.HasPrefix(got, "/") || strings.HasPrefix(got, "..") || path.Clean(got) != got {
			t.Fatalf("resolve(%q) = %q", rel, got)
		}
	})
}
