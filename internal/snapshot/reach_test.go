package snapshot

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestParseZFSAllow reads `zfs allow` output as an operator's report
// recorded it (testdata/README.md says where), and a hand-written form
// with TABs, several scopes and a grant to everyone.
func TestParseZFSAllow(t *testing.T) {
	got := parseZFSAllow([]byte(readTestdata(t, "zfs-allow.transcribed.txt")))
	want := []Delegation{
		{Dataset: "zfs-hdd", Scope: "Local+Descendent", Who: "user off1operator", Perms: []string{"hold", "send"}},
		{Dataset: "zfs-hdd", Scope: "Local+Descendent", Who: "user ovh3operator", Perms: []string{"hold", "send"}},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("transcribed = %+v, want %+v", got, want)
	}
	hand := "---- Permissions on tank/home ---------------------------------------\nLocal permissions:\n\tuser warden snapshot\nDescendent permissions:\n\teveryone destroy,rollback\n---- Permissions on tank --------------------------------------------\nLocal+Descendent permissions:\n\tgroup ops diff\n"
	got = parseZFSAllow([]byte(hand))
	if len(got) != 3 || got[0].Scope != "Local" || got[1].Who != "everyone" || !slices.Equal(got[1].Perms, []string{"destroy", "rollback"}) || got[2].Dataset != "tank" || got[2].Who != "group ops" {
		t.Errorf("hand-written = %+v", got)
	}
}

// TestReachZFS reports what a ZFS source can serve: zpool list failing
// makes snapshot_pools unavailable; zfs allow's grants are listed and the
// ones that change data flagged as more than warden needs.
func TestReachZFS(t *testing.T) {
	dir := t.TempDir()
	mount := filepath.Join(dir, "mnt")
	snapdir := filepath.Join(mount, ".zfs", "snapshot")
	buildCopies(t, dir, snapdir, func(i int) string { return fmt.Sprintf("s%d", i+1) })
	allow := "---- Permissions on tank/home ---------------------------------------\nLocal+Descendent permissions:\n\tuser warden hold,send\n\teveryone destroy,rollback\n"
	rr := &recordingRunner{answers: map[string]string{
		strings.Join(zfsListArgv("tank/home"), " "):              "tank/home@s1\t1761966000\t0\t1\ntank/home@s2\t1762052400\t0\t1\ntank/home@s3\t1762138800\t0\t1\n",
		"zfs get -H -p -o name,property,value written tank/home": "tank/home\twritten\t0\n",
		"zfs allow tank/home":                                    allow,
	}}
	e := newEngine(t, Config{Runner: rr, Sources: []SourceConfig{{Name: "z", Kind: KindZFS, Path: mount, Dataset: "tank/home"}}})
	r, err := e.Reach(context.Background(), "z")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Tools) != 1 || r.Tools[0].Tool != "snapshot_pools" || r.Tools[0].Reach != ReachUnavailable {
		t.Errorf("tools = %+v, want only snapshot_pools unavailable", r.Tools)
	}
	if !slices.Equal(r.Excess, []string{"destroy", "rollback"}) || len(r.Delegations) != 2 {
		t.Errorf("delegations %+v excess %v", r.Delegations, r.Excess)
	}
	for _, argv := range rr.seen() {
		if !commandAllowed(argv) {
			t.Errorf("ran %q", argv)
		}
	}
	// Without zfs list (no /dev/zfs access), listing falls back to
	// .zfs/snapshot and only the space figures go.
	e = newEngine(t, Config{Runner: &recordingRunner{answers: map[string]string{}}, Sources: []SourceConfig{{Name: "z", Kind: KindZFS, Path: mount, Dataset: "tank/home"}}})
	r, err = e.Reach(context.Background(), "z")
	if err != nil {
		t.Fatal(err)
	}
	reach := map[string]string{}
	for _, tr := range r.Tools {
		reach[tr.Tool] = tr.Reach
	}
	if reach["snapshot_list"] != ReachPartial || reach["snapshot_read_file"] != "" || reach["snapshot_pools"] != ReachUnavailable {
		t.Errorf("without zfs commands: %+v", r.Tools)
	}
	// A snapshot directory that cannot be read leaves the content tools
	// unavailable.
	e = newEngine(t, Config{Sources: []SourceConfig{{Name: "gone", Kind: KindDir, Path: filepath.Join(dir, "missing")}}})
	r, err = e.Reach(context.Background(), "gone")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Probes) == 0 || r.Probes[0].OK || len(r.Tools) < len(readTools) {
		t.Errorf("unreadable source: %+v", r)
	}
}
