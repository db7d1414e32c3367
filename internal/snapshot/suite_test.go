package snapshot

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func paths(es []Entry) []string {
	out := []string{}
	for _, e := range es {
		out = append(out, e.Path)
	}
	return out
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// runSuite runs every tool against a dataset built from newScenario, as
// snapshots s1, s2, s3 (oldest first). Every source kind must pass it.
func runSuite(t *testing.T, e *Engine, ds string, names ...string) {
	ctx := context.Background()
	if len(names) == 0 {
		names = []string{"s1", "s2", "s3"}
	}
	s1, s2, s3 := names[0], names[1], names[2]

	t.Run("snapshot_list", func(t *testing.T) {
		res, err := e.List(ctx, ListArgs{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, s := range res.Snapshots {
			got = append(got, s.Name)
		}
		if want := []string{s1, s2, s3}; !slices.Equal(got, want) {
			t.Fatalf("snapshots = %v, want %v", got, want)
		}
		// A range that starts after the first snapshot drops it.
		after := res.Snapshots[1].Time.Format("2006-01-02T15:04:05.999999999Z07:00")
		res, err = e.List(ctx, ListArgs{Dataset: ds, After: after})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Snapshots) != 2 || res.Snapshots[0].Name != s2 {
			t.Fatalf("after %s: got %+v, want s2, s3", after, res.Snapshots)
		}
	})

	t.Run("snapshot_list_dir", func(t *testing.T) {
		res, err := e.ListDir(ctx, ListDirArgs{Dataset: ds, Snapshot: s2})
		if err != nil {
			t.Fatal(err)
		}
		byPath := map[string]Entry{}
		for _, en := range res.Entries {
			byPath[en.Path] = en
		}
		for _, want := range []string{"etc", "docs", "new.txt", "escape", "abslink", "pdir", "inner"} {
			if _, ok := byPath[want]; !ok {
				t.Errorf("root of s2 lacks %s: %v", want, paths(res.Entries))
			}
		}
		if got := byPath["escape"]; got.Type != TypeSymlink || !strings.HasSuffix(got.LinkTarget, "outside/secret.txt") {
			t.Errorf("escape = %+v, want a symlink listed with its target", got)
		}
		if got := byPath["inner"]; got.Type != TypeSymlink {
			t.Errorf("inner = %+v, want symlink (not followed into etc)", got)
		}
		res, err = e.ListDir(ctx, ListDirArgs{Dataset: ds, Snapshot: s1, Path: "keep/deep"})
		if err != nil {
			t.Fatal(err)
		}
		if got := paths(res.Entries); !slices.Equal(got, []string{"keep/deep/file.txt"}) {
			t.Errorf("keep/deep = %v", got)
		}
	})

	t.Run("snapshot_read_file", func(t *testing.T) {
		res, err := e.ReadFile(ctx, ReadFileArgs{Dataset: ds, Snapshot: s1, Path: "etc/app.conf"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "port=80\nmode=prod\n" || res.Truncated {
			t.Errorf("s1 etc/app.conf = %q truncated=%v", res.Content, res.Truncated)
		}
		res, err = e.ReadFile(ctx, ReadFileArgs{Dataset: ds, Snapshot: s3, Path: "etc/app.conf", Offset: 5, MaxBytes: 4})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "8081" || !res.Truncated {
			t.Errorf("s3 etc/app.conf [5:9] = %q truncated=%v, want 8081 true", res.Content, res.Truncated)
		}
		// A symlinked parent inside the snapshot is followed.
		res, err = e.ReadFile(ctx, ReadFileArgs{Dataset: ds, Snapshot: s2, Path: "inner/hosts"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Content != "127.0.0.1 localhost\n" {
			t.Errorf("inner/hosts = %q", res.Content)
		}
	})

	t.Run("checksum_file", func(t *testing.T) {
		res, err := e.Checksum(ctx, ChecksumArgs{Dataset: ds, Snapshot: s1, Path: "etc/app.conf"})
		if err != nil {
			t.Fatal(err)
		}
		if want := sha("port=80\nmode=prod\n"); res.Digest != want {
			t.Errorf("digest = %s, want %s", res.Digest, want)
		}
		if _, err := e.Checksum(ctx, ChecksumArgs{Dataset: ds, Snapshot: s1, Path: "etc/app.conf", Algorithm: "md5"}); !errors.Is(err, ErrInvalidArgument) {
			t.Errorf("md5: err = %v, want invalid argument", err)
		}
	})

	t.Run("snapshot_find_files", func(t *testing.T) {
		res, err := e.FindFiles(ctx, FindFilesArgs{Dataset: ds, Pattern: "*.conf"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, f := range res.Files {
			got = append(got, f.Snapshot+":"+f.Path)
		}
		want := []string{s3 + ":etc/app.conf", s3 + ":etc/new.conf", s2 + ":etc/app.conf", s1 + ":etc/app.conf"}
		if !slices.Equal(got, want) {
			t.Errorf("find *.conf = %v, want %v", got, want)
		}
		res, err = e.FindFiles(ctx, FindFilesArgs{Dataset: ds, Snapshot: s3, Pattern: "*", MaxResults: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 2 || !res.Truncated {
			t.Errorf("max_results 2: %d files truncated=%v", len(res.Files), res.Truncated)
		}
	})

	t.Run("snapshot_grep", func(t *testing.T) {
		res, err := e.Grep(ctx, GrepArgs{Dataset: ds, Snapshot: s3, Regex: `^port=\d+`})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || res.Matches[0].Path != "etc/app.conf" || res.Matches[0].Line != 1 || res.Matches[0].Text != "port=8081" {
			t.Errorf("grep port = %+v", res.Matches)
		}
		res, err = e.Grep(ctx, GrepArgs{Dataset: ds, Snapshot: s1, Path: "etc/app.conf", Regex: `MODE`, CaseInsensitive: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || res.Matches[0].Line != 2 {
			t.Errorf("grep -i mode = %+v", res.Matches)
		}
	})

	t.Run("snapshot_diff", func(t *testing.T) {
		res, err := e.Diff(ctx, DiffArgs{Dataset: ds, A: s1, B: s3})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := paths(res.Added), []string{"abslink", "escape", "etc/new.conf", "inner", "new.txt", "pdir", "pabs"}; !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("added = %v, want %v", got, want)
		}
		if got := paths(res.Removed); !slices.Equal(got, []string{"old.txt"}) {
			t.Errorf("removed = %v, want [old.txt]", got)
		}
		if len(res.Renamed) != 1 || res.Renamed[0].From != "docs/readme.md" || res.Renamed[0].To != "docs/README.md" {
			t.Errorf("renamed = %+v, want docs/readme.md -> docs/README.md", res.Renamed)
		}
		if len(res.Modified) != 1 || res.Modified[0].Path != "etc/app.conf" || res.Modified[0].Reason != "size" {
			t.Errorf("modified = %+v, want etc/app.conf (size)", res.Modified)
		}
		// Metadata first: only etc/hosts (same size, new mtime) and the
		// rename pair (same size on both sides) are read.
		if res.FilesRead != 3 {
			t.Errorf("files read = %d, want 3", res.FilesRead)
		}
		// s2 -> s3: same size, new mtime; hosts only touched.
		res, err = e.Diff(ctx, DiffArgs{Dataset: ds, A: s2, B: s3, Path: "etc"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Modified) != 1 || res.Modified[0].Path != "etc/app.conf" || res.Modified[0].Reason != "content" {
			t.Errorf("s2->s3 modified = %+v, want only etc/app.conf (content)", res.Modified)
		}
		if res.FilesRead != 2 {
			t.Errorf("files read = %d, want 2 (app.conf and hosts: same size, new mtime)", res.FilesRead)
		}
		if got := paths(res.Added); !slices.Equal(got, []string{"etc/new.conf"}) {
			t.Errorf("s2->s3 etc added = %v", got)
		}
	})

	t.Run("file_diff", func(t *testing.T) {
		res, err := e.FileDiff(ctx, FileDiffArgs{Dataset: ds, A: s1, B: s3, Path: "etc/app.conf"})
		if err != nil {
			t.Fatal(err)
		}
		want := "--- a/etc/app.conf\t" + s1 + "\n+++ b/etc/app.conf\t" + s3 + "\n@@ -1,2 +1,2 @@\n-port=80\n+port=8081\n mode=prod\n"
		if res.Diff != want {
			t.Errorf("diff =\n%s\nwant\n%s", res.Diff, want)
		}
		res, err = e.FileDiff(ctx, FileDiffArgs{Dataset: ds, A: s1, B: s3, Path: "etc/hosts"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Identical || res.Diff != "" {
			t.Errorf("hosts: identical=%v diff=%q", res.Identical, res.Diff)
		}
	})

	t.Run("versions_of", func(t *testing.T) {
		res, err := e.VersionsOf(ctx, VersionsArgs{Dataset: ds, Path: "etc/app.conf"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Versions) != 3 || res.Versions[0].SHA256 != sha("port=80\nmode=prod\n") {
			t.Errorf("app.conf versions = %+v", res.Versions)
		}
		res, err = e.VersionsOf(ctx, VersionsArgs{Dataset: ds, Path: "etc/hosts"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Versions) != 1 || !slices.Equal(res.Versions[0].Snapshots, []string{s1, s2, s3}) {
			t.Errorf("hosts versions = %+v", res.Versions)
		}
		res, err = e.VersionsOf(ctx, VersionsArgs{Dataset: ds, Path: "new.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.AbsentIn, []string{s1}) || len(res.Versions) != 1 {
			t.Errorf("new.txt: absent %v versions %+v", res.AbsentIn, res.Versions)
		}
	})

	t.Run("file_history", func(t *testing.T) {
		res, err := e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: "etc/app.conf"})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, r := range res.Revisions {
			got = append(got, r.Snapshot+":"+r.Change)
		}
		if want := []string{s1 + ":first", s2 + ":modified", s3 + ":modified"}; !slices.Equal(got, want) {
			t.Errorf("app.conf history = %v, want %v", got, want)
		}
		if len(res.Revisions) == 3 && (res.Revisions[0].SHA256 != sha("port=80\nmode=prod\n") || res.Revisions[0].Size != 18 || !res.Revisions[0].ModTime.Equal(t0)) {
			t.Errorf("app.conf in %s = %+v", s1, res.Revisions[0])
		}
		if res.Changes != 2 || res.Truncated {
			t.Errorf("changes = %d truncated = %v, want 2 false", res.Changes, res.Truncated)
		}
		res, err = e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: "etc/hosts"})
		if err != nil {
			t.Fatal(err)
		}
		got = nil
		for _, r := range res.Revisions {
			got = append(got, r.Change)
		}
		if want := []string{"first", "unchanged", "metadata"}; !slices.Equal(got, want) {
			t.Errorf("hosts history = %v, want %v", got, want)
		}
		res, err = e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: "new.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(res.AbsentIn, []string{s1}) || len(res.Revisions) != 2 || res.Revisions[0].Change != ChangeAppeared || res.Revisions[1].Change != ChangeUnchanged {
			t.Errorf("new.txt history = %+v absent %v", res.Revisions, res.AbsentIn)
		}
		res, err = e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: "etc/app.conf", MaxResults: 1})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Revisions) != 1 || !res.Truncated || res.TruncatedReason != reasonResults {
			t.Errorf("max_results 1: %d revisions truncated=%v (%s)", len(res.Revisions), res.Truncated, res.TruncatedReason)
		}
		// A symlink is described by its target text, never followed.
		res, err = e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: "abslink"})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Revisions) != 2 || res.Revisions[0].Type != TypeSymlink || res.Revisions[0].SHA256 != sha(res.Revisions[0].LinkTarget) {
			t.Errorf("abslink history = %+v", res.Revisions)
		}
		for _, p := range []string{"../outside/secret.txt", "/etc/passwd", "pdir/secret.txt", "pabs/secret.txt"} {
			if res, err := e.FileHistory(ctx, FileHistoryArgs{Dataset: ds, Path: p}); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("file_history %s: %+v, %v; want invalid argument", p, res, err)
			}
		}
	})

	t.Run("snapshots_containing", func(t *testing.T) {
		names := func(res ContainingResult) []string {
			var out []string
			for _, c := range res.Snapshots {
				out = append(out, c.Snapshot)
			}
			return out
		}
		res, err := e.SnapshotsContaining(ctx, ContainingArgs{Dataset: ds, Path: "etc/app.conf", SHA256: sha("port=8080\nmode=prod\n")})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !slices.Equal(got, []string{s2}) || res.Match != "sha256" {
			t.Errorf("sha256 of the 8080 version in %v (%s), want [%s]", got, res.Match, s2)
		}
		size := int64(20)
		res, err = e.SnapshotsContaining(ctx, ContainingArgs{Dataset: ds, Path: "etc/app.conf", Size: &size})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !slices.Equal(got, []string{s2, s3}) {
			t.Errorf("size 20 in %v, want [%s %s]", got, s2, s3)
		}
		res, err = e.SnapshotsContaining(ctx, ContainingArgs{Dataset: ds, Path: "old.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if got := names(res); !slices.Equal(got, []string{s1}) || res.Checked != 3 {
			t.Errorf("old.txt exists in %v (checked %d), want [%s]", got, res.Checked, s1)
		}
		for _, bad := range []ContainingArgs{
			{Dataset: ds, Path: "etc/app.conf", SHA256: "ABC"},
			{Dataset: ds, Path: "etc/app.conf", SHA256: sha("x"), Size: &size},
			{Dataset: ds, Path: "../x"},
		} {
			if _, err := e.SnapshotsContaining(ctx, bad); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("%+v: err = %v, want invalid argument", bad, err)
			}
		}
	})

	t.Run("snapshot_cadence", func(t *testing.T) {
		res, err := e.Cadence(ctx, CadenceArgs{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		if res.Snapshots != 3 || len(res.Schemes) != 1 || res.Schemes[0].Count != 3 || res.Schemes[0].Newest != s3 || res.Schemes[0].Oldest != s1 || res.Verdict == "" {
			t.Errorf("cadence = %+v", res)
		}
	})

	t.Run("size_delta", func(t *testing.T) {
		res, err := e.SizeDelta(ctx, SizeDeltaArgs{Dataset: ds, From: s1, To: s3, Path: "etc"})
		if err != nil {
			t.Fatal(err)
		}
		if res.FromBytes != 38 || res.ToBytes != 44 || res.Delta != 6 || res.AddedBytes != 4 || res.GrownBytes != 2 || res.RemovedBytes != 0 || res.FromFiles != 2 || res.ToFiles != 3 {
			t.Errorf("etc s1->s3 = %+v", res)
		}
		var got []string
		for _, c := range res.Files {
			got = append(got, fmt.Sprintf("%s:%s:%d", c.Path, c.Change, c.Delta))
		}
		if want := []string{"etc/new.conf:added:4", "etc/app.conf:grown:2"}; !slices.Equal(got, want) {
			t.Errorf("contributors = %v, want %v", got, want)
		}
		res, err = e.SizeDelta(ctx, SizeDeltaArgs{Dataset: ds, From: s1, To: s3, N: 50})
		if err != nil {
			t.Fatal(err)
		}
		tops := map[string]Contributor{}
		for _, c := range res.Dirs {
			tops[c.Path] = c
		}
		if c := tops["old.txt"]; c.Change != "removed" || c.Delta != -14 {
			t.Errorf("old.txt = %+v in %+v", c, res.Dirs)
		}
		if c, ok := tops["docs"]; ok {
			t.Errorf("docs only renamed a file, yet is a contributor: %+v", c)
		}
		if c := tops["etc"]; c.Delta != 6 || c.FromBytes != 38 {
			t.Errorf("etc = %+v", c)
		}
		if res.Delta != res.ToBytes-res.FromBytes || res.FromBytes < 100000 || res.Truncated {
			t.Errorf("root s1->s3 = %+v", res)
		}
		for _, bad := range []SizeDeltaArgs{
			{Dataset: ds, From: s1, To: s3, Path: "../x"},
			{Dataset: ds, From: s1, To: s3, Path: "pdir"},
			{Dataset: ds, From: s1, To: s3, Path: "etc/app.conf"},
			{Dataset: ds, From: LiveSnapshot, To: s3},
			{Dataset: ds, From: s1},
		} {
			if _, err := e.SizeDelta(ctx, bad); !errors.Is(err, ErrInvalidArgument) {
				t.Errorf("%+v: err = %v, want invalid argument", bad, err)
			}
		}
	})

	t.Run("snapshot_pools", func(t *testing.T) {
		res, err := e.Pools(ctx, PoolsArgs{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		// Every source answers: a listing where it has one, or the reason.
		if res.Available == (res.Reason != "" && len(res.Pools) == 0) || res.Dataset != ds {
			t.Errorf("pools = %+v", res)
		}
	})

	t.Run("first_last_appearance", func(t *testing.T) {
		res, err := e.FirstAppearance(ctx, AppearanceArgs{Dataset: ds, Path: "new.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Found || res.Snapshot != s2 || res.Neighbor != s1 {
			t.Errorf("first new.txt = %+v", res)
		}
		res, err = e.LastAppearance(ctx, AppearanceArgs{Dataset: ds, Path: "old.txt"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Found || res.Snapshot != s1 || res.Neighbor != s2 {
			t.Errorf("last old.txt = %+v", res)
		}
		res, err = e.LastAppearance(ctx, AppearanceArgs{Dataset: ds, Path: "never/was"})
		if err != nil {
			t.Fatal(err)
		}
		if res.Found {
			t.Errorf("never/was found: %+v", res)
		}
	})

	t.Run("find_deleted", func(t *testing.T) {
		res, err := e.FindDeleted(ctx, FindDeletedArgs{Dataset: ds})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Deleted) != 1 || res.Deleted[0].Path != "old.txt" || res.Deleted[0].LastSeen != s1 || res.Deleted[0].GoneIn != s2 {
			t.Errorf("deleted = %+v, want old.txt last seen s1, gone in s2", res.Deleted)
		}
		if len(res.Moved) != 1 || res.Moved[0].To != "docs/README.md" {
			t.Errorf("moved = %+v", res.Moved)
		}
	})

	t.Run("bisect_change", func(t *testing.T) {
		res, err := e.Bisect(ctx, BisectArgs{Dataset: ds, Path: "etc/app.conf", Predicate: PredContains, Value: "8081"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Flipped || res.First != s3 || res.Last != s2 || res.Initial {
			t.Errorf("contains 8081 = %+v", res)
		}
		res, err = e.Bisect(ctx, BisectArgs{Dataset: ds, Path: "old.txt", Predicate: PredExists})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Flipped || res.First != s2 || !res.Initial {
			t.Errorf("exists old.txt = %+v", res)
		}
		res, err = e.Bisect(ctx, BisectArgs{Dataset: ds, Path: "etc/app.conf", Predicate: PredSHA256Equals, Value: sha("port=80\nmode=prod\n")})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Flipped || res.First != s2 {
			t.Errorf("sha256_equals = %+v", res)
		}
		res, err = e.Bisect(ctx, BisectArgs{Dataset: ds, Path: "etc/app.conf", Predicate: PredSizeAtLeast, Value: "20"})
		if err != nil {
			t.Fatal(err)
		}
		if !res.Flipped || res.First != s2 {
			t.Errorf("size_at_least 20 = %+v", res)
		}
	})

	t.Run("size_breakdown", func(t *testing.T) {
		res, err := e.SizeBreakdown(ctx, SizeArgs{Dataset: ds, Snapshot: s1, Depth: 1})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]int64{}
		for _, d := range res.Dirs {
			got[d.Path] = d.Bytes
		}
		if got["etc"] != int64(len("port=80\nmode=prod\n")+len("127.0.0.1 localhost\n")) || got["keep"] != 5 {
			t.Errorf("size_breakdown = %+v", res.Dirs)
		}
		if _, deep := got["keep/deep"]; deep {
			t.Errorf("depth 1 reported keep/deep")
		}
		if got["."] < 100000 {
			t.Errorf("root total %d < 100000", got["."])
		}
	})

	t.Run("top_consumers", func(t *testing.T) {
		res, err := e.TopConsumers(ctx, TopArgs{Dataset: ds, Snapshot: s1, N: 2})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Files) != 2 || res.Files[0].Path != "big.bin" || res.Files[0].Bytes != 100000 {
			t.Errorf("top files = %+v", res.Files)
		}
		if len(res.Dirs) != 2 || res.Dirs[0].Path != "docs" {
			t.Errorf("top dirs = %+v", res.Dirs)
		}
	})

	t.Run("results_marshal", func(t *testing.T) {
		res, err := e.Diff(ctx, DiffArgs{Dataset: ds, A: s1, B: s2})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(res)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(b), secret) {
			t.Fatal("diff result carries the secret")
		}
	})
}

func sorted(s []string) []string {
	s = slices.Clone(s)
	slices.Sort(s)
	return s
}
