package audit

import (
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// matchAny reports whether p matches one of patterns component by
// component, as a path policy compares them.
func matchAny(patterns []string, p string) bool {
	for _, pat := range patterns {
		pp, ps := strings.Split(pat, "/"), strings.Split(p, "/")
		if len(pp) != len(ps) {
			continue
		}
		ok := true
		for i := range pp {
			if m, _ := path.Match(pp[i], ps[i]); !m {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestOwnPatterns checks OwnPatterns against the files a rotating log
// really leaves beside it, whatever its name, and that it names nothing
// else in the directory.
func TestOwnPatterns(t *testing.T) {
	for _, name := range []string{"audit.jsonl", "warden", "log.v2.jsonl", "a[1]*?.jsonl", `back\slash.log`} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, name)
			l := openTest(t, Options{Path: p, RotateBytes: 2000})
			appendN(t, l, 40)
			l.Close()
			pats := OwnPatterns(p)
			entries, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			rotated := 0
			for _, e := range entries {
				if !matchAny(pats, filepath.Join(dir, e.Name())) {
					t.Errorf("%s, which the log wrote, is not named by %q", e.Name(), pats)
				}
				if e.Name() != name && strings.Contains(e.Name(), "Z") {
					rotated++
				}
			}
			if rotated < 2 {
				t.Fatalf("the log rotated %d times; the test needs at least 2", rotated)
			}
			for _, other := range []string{"other.jsonl", name + ".bak", "x" + name, "audit", "README"} {
				if other != name && matchAny(pats, filepath.Join(dir, other)) {
					t.Errorf("%q names %s, which is not the log's", pats, other)
				}
			}
		})
	}
}
