package policy

import "testing"

// TestRenamedCoversNormaliseName: a name renamed reports false for is its
// own normalised name, so the callers that skip normaliseName for it
// (listedDirs) read what they would have read.
func TestRenamedCoversNormaliseName(t *testing.T) {
	var names []string
	for _, set := range []map[string]bool{listReaders, posixShells, interpreters, toolchainPrograms, variantSuffixes} {
		for n := range set {
			names = append(names, n)
		}
	}
	for _, n := range append(names[:len(names):len(names)], "ld-linux-x86-64.so.2", "ld-musl-x86_64.so.1", "python3.12", "tar", "x") {
		for _, v := range []string{n, n + "3", n + "5.36", n + ".openbsd", n + ".traditional", n + "-1", n + "_", "g" + n} {
			if !renamed(v) && normaliseName(v) != v {
				t.Errorf("renamed(%q) = false, but normaliseName gives %q", v, normaliseName(v))
			}
		}
	}
	for _, n := range []string{"python3.12", "nc.openbsd", "bash5", "ld-linux-x86-64.so.2"} {
		if !renamed(n) || normaliseName(n) == n {
			t.Errorf("%q: renamed %v, normaliseName %q; want it renamed", n, renamed(n), normaliseName(n))
		}
	}
}
