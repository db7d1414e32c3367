package snapshot

import (
	"bytes"
	"context"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

// mutatingVerbs are zfs and btrfs verbs that change a pool. None may ever
// reach a runner from this package.
var mutatingVerbs = []string{"destroy", "rollback", "snapshot", "set", "send", "receive", "recv", "delete", "create",
	"clone", "promote", "rename", "inherit", "mount", "umount", "unmount", "property", "balance", "scrub", "resize",
	"upgrade", "allow", "unallow", "hold", "release", "program", "redact", "sync", "defrag", "filesystem", "device", "replace"}

func TestAllowedCommandsAreReadOnly(t *testing.T) {
	want := [][]string{{"zfs", "list"}, {"zfs", "get"}, {"zpool", "list"}, {"zpool", "status"}, {"btrfs", "subvolume", "show"}, {"btrfs", "subvolume", "list"}, {"btrfs", "filesystem", "usage"}, {"btrfs", "qgroup", "show"}}
	got := AllowedCommands()
	if len(got) != len(want) {
		t.Fatalf("AllowedCommands = %q, want %q", got, want)
	}
	for i := range want {
		if !slices.Equal(got[i], want[i]) {
			t.Errorf("AllowedCommands[%d] = %q, want %q", i, got[i], want[i])
		}
	}
	// The list cannot be widened through the returned slice.
	got[0][1] = "destroy"
	if AllowedCommands()[0][1] != "list" {
		t.Fatal("AllowedCommands shares its backing array")
	}
}

func TestRunRefusesUnlistedCommands(t *testing.T) {
	rr := &recordingRunner{answers: map[string]string{}}
	e := newEngine(t, Config{Runner: rr})
	for _, argv := range [][]string{
		{"zfs", "destroy", "tank/home@s1"},
		{"zfs", "rollback", "-r", "tank/home@s1"},
		{"zfs", "snapshot", "tank/home@x"},
		{"zfs", "set", "readonly=off", "tank/home"},
		{"zfs", "send", "tank/home@s1"},
		{"zfs", "receive", "tank/x"},
		{"btrfs", "subvolume", "delete", "/mnt/s1"},
		{"btrfs", "subvolume", "snapshot", "/a", "/b"},
		{"btrfs", "property", "set", "/mnt/s1", "ro", "false"},
		{"sh", "-c", "zfs list"},
		{"/sbin/zfs", "list"},
		{"zfs"},
		{"ZFS", "list"},
		{" zfs", "list"},
		{"zfs", "list;", "destroy"},
		{},
	} {
		if _, err := e.run(context.Background(), argv); err == nil {
			t.Errorf("run(%q) was allowed", argv)
		}
	}
	if seen := rr.seen(); len(seen) != 0 {
		t.Fatalf("runner received %q", seen)
	}
}

// TestNoMutationReachable drives every tool over sources that use the
// runner and checks every argv the engine built.
func TestNoMutationReachable(t *testing.T) {
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return []string{"s1", "s2", "s3"}[i] })
	zfsOut := "tank/home@s1\t1761966000\t0\t1\ntank/home@s2\t1762052400\t0\t1\ntank/home@s3\t1762138800\t0\t1\n"
	rr := &recordingRunner{answers: map[string]string{
		strings.Join(zfsListArgv("tank/home"), " "):                                zfsOut,
		strings.Join(zfsWrittenArgv("tank/home", "s1", Snapshot{Name: "s3"}), " "): "tank/home@s3\twritten@s1\t123456\n",
	}}
	for i := range 3 {
		name := []string{"s1", "s2", "s3"}[i]
		rr.answers["btrfs subvolume show "+filepath.Join(snapdir, name)] = "\tCreation time: \t\t2026-11-0" + strconv.Itoa(i+1) + " 03:00:00 +0000\n"
	}
	e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{
		{Name: "z", Kind: KindZFS, Path: mount, Dataset: "tank/home"},
		{Name: "b", Kind: KindBtrfs, Path: snapdir},
	}})
	for _, ds := range []string{"z", "b"} {
		t.Run(ds, func(t *testing.T) { runSuite(t, e, ds) })
		ctx := context.Background()
		_, _ = e.Stale(ctx, StaleArgs{Dataset: ds, OlderThan: "1d"})
		_, _ = e.FindDeleted(ctx, FindDeletedArgs{Dataset: ds, AgainstLive: true})
	}
	// size_delta on ZFS reads written@from of to through zfs get.
	res, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: "z", From: "s1", To: "s3"})
	if err != nil {
		t.Fatal(err)
	}
	if res.ZFS == nil || res.ZFS.Bytes != 123456 || res.ZFS.Property != "written@s1" || res.ZFS.Of != "tank/home@s3" || res.ZFS.Error != "" {
		t.Errorf("size_delta zfs = %+v, want written@s1 of tank/home@s3 = 123456", res.ZFS)
	}
	if res, err := e.SizeDelta(context.Background(), SizeDeltaArgs{Dataset: "z", From: "s2", To: "s3"}); err != nil || res.ZFS == nil || res.ZFS.Error == "" {
		t.Errorf("size_delta zfs with zfs get failing = %+v, %v; want the walk's answer and the error", res.ZFS, err)
	}
	seen := rr.seen()
	if len(seen) == 0 {
		t.Fatal("no command was run; the test proves nothing")
	}
	verbs := map[string]bool{}
	for _, argv := range seen {
		if !commandAllowed(argv) {
			t.Errorf("engine ran %q, which is not in AllowedCommands", argv)
		}
		for _, a := range argv {
			if slices.Contains(mutatingVerbs, a) && a != "snapshot" && a != "filesystem" && !(a == "allow" && len(argv) == 3) {
				t.Errorf("argv %q carries the mutating verb %q", argv, a)
			}
		}
		verbs[strings.Join(argv[:2], " ")] = true
	}
	if !verbs["zfs list"] || !verbs["zfs get"] || !verbs["btrfs subvolume"] {
		t.Errorf("commands seen %v; want both zfs list and btrfs subvolume show exercised", verbs)
	}
}

// TestSourceCannotMutate reads this package's own source: it must not
// import os/exec (the runner is the only way out), and no string literal
// may be a mutating zfs/btrfs verb.
// exemptLiterals are mutating verbs that may appear as string literals in
// the named file ("" for any), for the reasons given in
// TestSourceCannotMutate.
var exemptLiterals = map[string]string{"snapshot": "", "filesystem": "", "allow": "", "send": "reach.go", "hold": "reach.go"}

func TestSourceCannotMutate(t *testing.T) {
	fset := token.NewFileSet()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		n++
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if p, _ := strconv.Unquote(imp.Path.Value); p == "os/exec" || p == "syscall" && name != "fs.go" {
				t.Errorf("%s imports %s", name, p)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if _, imp := n.(*ast.ImportSpec); imp {
				return false
			}
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, _ := strconv.Unquote(lit.Value)
			// Exempt, and why: "snapshot" is a path element (snapper) and
			// a zfs list type; "filesystem" is a zfs list type and the
			// btrfs filesystem usage prefix; "allow" is only ever run as
			// `zfs allow <dataset>`, which displays
			// (TestZFSAllowDisplayOnly); "send" and "hold" name delegated
			// permissions reach.go counts as changing nothing.
			if where, ok := exemptLiterals[s]; ok && (where == "" || where == name) {
				return true
			}
			if slices.Contains(mutatingVerbs, s) {
				t.Errorf("%s: string literal %q is a mutating verb", fset.Position(lit.Pos()), s)
			}
			return true
		})
	}
	if n < 10 {
		t.Fatalf("only %d source files checked", n)
	}
}

// zfsListFixtures are the zfs list outputs under testdata/ that
// TestParseZFSListGolden parses, each with its golden file (see
// testdata/README.md for where each came from).
var zfsListFixtures = []struct {
	input, golden string
	// datasets are the datasets parsed for, each in turn, as warden would
	// with `-d 1 <dataset>`; the golden file has a section for each.
	datasets []string
	// fields > 0 keeps only the first fields TAB-separated fields of each
	// line before parsing (see firstFields).
	fields int
}{
	// Real OpenZFS 2.4.1 output, recorded by a third party with
	// -o name,creation,used,referenced,guid,defer_destroy and no dataset
	// operand: the first four columns are warden's, in warden's order.
	{"zfs-list-snapshots.captured.txt", "zfs-list-snapshots.captured.golden.txt",
		[]string{"rpool/ROOT/debian", "tank/data", "tank/data/customer", "tank/home"}, 4},
	// Hand-written in warden's exact format: non-zero used, distinct times.
	{"zfs-list-snapshots.captured-format.txt", "zfs-list-snapshots.captured-format.golden.txt",
		[]string{"tank/home"}, 0},
}

// firstFields keeps the first n TAB-separated fields of every line of b and
// changes nothing else: lines (split at LF) keep their order and their LF,
// the TABs between kept fields stay, and lines of n fields or fewer are left
// as they are. zfs list prints the
// -o columns in the order asked for, so this is what the capture's zfs
// would have printed for a -o list made of its first n columns.
func firstFields(b []byte, n int) []byte {
	var out []byte
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		body, nl := bytes.CutSuffix(line, []byte("\n"))
		f := bytes.Split(body, []byte("\t"))
		if len(f) > n {
			f = f[:n]
		}
		out = append(out, bytes.Join(f, []byte("\t"))...)
		if nl {
			out = append(out, '\n')
		}
	}
	return out
}

func readZFSListFixture(t testing.TB, name string, fields int) []byte {
	t.Helper()
	in, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	if fields > 0 {
		in = firstFields(in, fields)
	}
	return in
}

func TestParseZFSListGolden(t *testing.T) {
	for _, fx := range zfsListFixtures {
		t.Run(fx.input, func(t *testing.T) {
			in := readZFSListFixture(t, fx.input, fx.fields)
			var b strings.Builder
			for _, ds := range fx.datasets {
				snaps, err := parseZFSList(in, ds)
				if err != nil {
					t.Fatalf("dataset %s: %v", ds, err)
				}
				b.WriteString("# dataset " + ds + "\n")
				for _, s := range snaps {
					b.WriteString(s.Name + "\t" + s.Time.Format(time.RFC3339) + "\tused=" + strconv.FormatInt(s.Used, 10) + "\treferenced=" + strconv.FormatInt(s.Referenced, 10) + "\n")
				}
			}
			golden := filepath.Join("testdata", fx.golden)
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if b.String() != string(want) {
				t.Errorf("parsed =\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}

// TestParseZFSListCaptured checks the real capture by hand, independently of
// its golden file.
func TestParseZFSListCaptured(t *testing.T) {
	raw, err := os.ReadFile("testdata/zfs-list-snapshots.captured.txt")
	if err != nil {
		t.Fatal(err)
	}
	// The file is the capture as recorded: six columns, TABs, LF.
	for i, line := range strings.Split(strings.TrimSuffix(string(raw), "\n"), "\n") {
		if n := len(strings.Split(line, "\t")); n != 6 || strings.ContainsAny(line, " \r") {
			t.Fatalf("line %d: %d fields in %q, want the raw 6-column capture", i+1, n, line)
		}
	}
	// As recorded, it has two columns more than warden asks for.
	if _, err := parseZFSList(raw, "tank/data"); err == nil {
		t.Error("parsed 6-column lines")
	}
	in := firstFields(raw, 4)
	if want := "tank/data/customer@ono-b91c-20260909T194501Z\t1788985942\t0\t8420352\n"; !strings.HasSuffix(string(in), want) {
		t.Fatalf("reduced capture ends %q, want %q", in[bytes.LastIndexByte(in[:len(in)-1], '\n')+1:], want)
	}
	created := time.Date(2026, 9, 9, 20, 32, 22, 0, time.UTC) // 1788985942
	for _, tc := range []struct {
		dataset string
		want    []Snapshot
	}{
		{"rpool/ROOT/debian", []Snapshot{
			{Name: "ono-a82f-20260909T194500Z", Time: created, Used: 0, Referenced: 24576},
			{Name: "later-1", Time: created, Used: 0, Referenced: 24576},
		}},
		// The child's snapshot of the same recursive `zfs snapshot -r` is
		// not the parent's.
		{"tank/data", []Snapshot{{Name: "ono-b91c-20260909T194501Z", Time: created, Used: 0, Referenced: 24576}}},
		{"tank/data/customer", []Snapshot{{Name: "ono-b91c-20260909T194501Z", Time: created, Used: 0, Referenced: 8420352}}},
		{"tank/home", nil},
	} {
		got, err := parseZFSList(in, tc.dataset)
		if err != nil {
			t.Fatalf("%s: %v", tc.dataset, err)
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: parsed %+v, want %+v", tc.dataset, got, tc.want)
		}
	}
}

// TestParseZFSListHandWritten spot-checks the hand-written fixture.
func TestParseZFSListHandWritten(t *testing.T) {
	snaps, err := parseZFSList(readZFSListFixture(t, "zfs-list-snapshots.captured-format.txt", 0), "tank/home")
	if err != nil {
		t.Fatal(err)
	}
	if len(snaps) != 6 || snaps[0].Time != time.Date(2026, 11, 18, 0, 0, 1, 0, time.UTC) || snaps[3].Used != 52428800 || snaps[2].Used != 0 {
		t.Errorf("spot check failed: %+v", snaps)
	}
}

func TestFirstFields(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"a\tb\tc\td\te\tf\n":  "a\tb\tc\td\n",
		"a\tb\tc\td\te\n":     "a\tb\tc\td\n",
		"a\tb\n":              "a\tb\n",
		"a\tb\tc\td\te":       "a\tb\tc\td",
		"a\t\tc\td\te\n\nx\n": "a\t\tc\td\n\nx\n",
	} {
		if got := string(firstFields([]byte(in), 4)); got != want {
			t.Errorf("firstFields(%q, 4) = %q, want %q", in, got, want)
		}
	}
}

func TestParseZFSListRejects(t *testing.T) {
	for name, in := range map[string]string{
		"three fields":  "tank/home@a\t1\t2\n",
		"no snapshot":   "tank/home\t1\t2\t3\n",
		"bad creation":  "tank/home@a\tFri Nov 20 3:00 2026\t2\t3\n",
		"hostile name":  "tank/home@-o x\t1\t2\t3\n",
		"dotdot name":   "tank/home@..\t1\t2\t3\n",
		"human sizes":   "tank/home@a\t1\t1.5M\t3\n",
		"space padding": "tank/home@a  1  2  3\n",
	} {
		if _, err := parseZFSList([]byte(in), "tank/home"); err == nil {
			t.Errorf("%s: parsed %q", name, in)
		}
	}
	// Other datasets' snapshots (as zfs list -r would print) are ignored.
	snaps, err := parseZFSList([]byte("tank/home/alice@a\t1\t2\t3\ntank/home@b\t4\t5\t6\n"), "tank/home")
	if err != nil || len(snaps) != 1 || snaps[0].Name != "b" {
		t.Errorf("child dataset filter: %+v, %v", snaps, err)
	}
}

func TestParseBtrfsCreation(t *testing.T) {
	out := "snap1\n\tName: \t\t\tsnap1\n\tUUID: \t\t\t3ba2525a-411c-fb4c-a818-18ecbf662721\n\tCreation time: \t\t2026-11-22 00:26:15 +0100\n\tFlags: \t\t\treadonly\n"
	got, ok := parseBtrfsCreation([]byte(out))
	if want := time.Date(2026, 11, 21, 23, 26, 15, 0, time.UTC); !ok || !got.Equal(want) {
		t.Errorf("creation = %v %v, want %v", got, ok, want)
	}
	if _, ok := parseBtrfsCreation([]byte("Creation time: -\n")); ok {
		t.Error("parsed a missing creation time")
	}
}

func FuzzParseZFSList(f *testing.F) {
	for _, fx := range zfsListFixtures {
		f.Add(readZFSListFixture(f, fx.input, fx.fields))
	}
	f.Add([]byte("tank/home@a\t1\t-\t3\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		snaps, err := parseZFSList(b, "tank/home")
		if err != nil {
			return
		}
		for _, s := range snaps {
			if ValidateSnapshotName(s.Name) != nil || s.Name == LiveSnapshot {
				t.Fatalf("accepted snapshot name %q", s.Name)
			}
		}
	})
}

// TestZFSAllowDisplayOnly: zfs allow with one dataset argument displays
// delegations; every other form grants or changes them and is refused
// before a runner is reached.
func TestZFSAllowDisplayOnly(t *testing.T) {
	rr := &recordingRunner{answers: map[string]string{}}
	e := newEngine(t, Config{Runner: rr})
	if !commandAllowed([]string{"zfs", "allow", "tank/home"}) {
		t.Fatal("zfs allow tank/home refused")
	}
	for _, argv := range [][]string{
		{"zfs", "allow", "alice", "destroy", "tank/home"},
		{"zfs", "allow", "-u", "alice", "snapshot", "tank/home"},
		{"zfs", "allow", "-e", "destroy", "tank/home"},
		{"zfs", "allow", "-s", "@set", "destroy", "tank/home"},
		{"zfs", "allow", "everyone,alice"},
		{"zfs", "allow", "-c"},
		{"zfs", "allow", "tank home"},
		{"zfs", "allow"},
		{"zfs", "unallow", "tank/home"},
	} {
		if _, err := e.run(context.Background(), argv); err == nil {
			t.Errorf("run(%q) was allowed", argv)
		}
	}
	if seen := rr.seen(); len(seen) != 0 {
		t.Fatalf("runner received %q", seen)
	}
}
