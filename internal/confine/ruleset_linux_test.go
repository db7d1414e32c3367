package confine

import (
	"os"
	"path/filepath"
	"testing"

	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// TestRulesetEntryReplaced: the walk takes an entry's type from its
// directory's listing rather than asking the entry (a mount point whose
// server does not answer would never answer). An entry listed as a
// directory and replaced by a file before its rule is added gets what a
// file gets, instead of failing every start of a program at that level.
func TestRulesetEntryReplaced(t *testing.T) {
	abi, err := ll.LandlockGetABIVersion()
	if err != nil || abi < 1 {
		t.Skip("no Landlock here")
	}
	dir := t.TempDir()
	rs, err := newRuleset(abi, []string{filepath.Join(dir, "protected")}, false, true)
	if err != nil {
		t.Fatal(err)
	}
	defer rs.close()
	file := filepath.Join(dir, "was-a-directory")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := rs.add(file, readRights, kindDir); err != nil {
		t.Errorf("a directory since replaced by a file: %v", err)
	}
	if err := rs.add(dir, readRights, kindDir); err != nil {
		t.Errorf("a directory: %v", err)
	}
}
