package confine

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// testCores checks that a program below tier 2 starts with a core limit
// of 1 (no pipe dump: the crash handler would write for it, outside every
// confinement), cannot raise it by either call, can still read it, and
// leaves no core when it crashes; an approved program may raise it.
func (f fixture) testCores(t *testing.T) {
	if !f.c.seccomp {
		t.Skip("needs seccomp")
	}
	show := `; python3 -c 'import resource; print("limit", resource.getrlimit(resource.RLIMIT_CORE)[0])'`
	raise := map[string]string{
		// bash's ulimit: glibc's setrlimit, made with prlimit64.
		"ulimit": `ulimit -c unlimited 2>/dev/null` + show,
		// The setrlimit call itself, as static and older programs make it.
		"setrlimit": `python3 -c 'import ctypes, os, resource; nr = {"x86_64": 160, "aarch64": 164}[os.uname().machine]; l = (ctypes.c_ulong * 2)(4096, 4096); ctypes.CDLL(None).syscall(nr, 4, l); print("limit", resource.getrlimit(resource.RLIMIT_CORE)[0])'`,
	}
	for _, level := range []Level{Read, Temp, Full} {
		for call, script := range raise {
			t.Run(string(level)+" "+call, func(t *testing.T) {
				_, out := f.run(t, level, script)
				if !strings.Contains(out, "limit ") {
					t.Fatalf("no limit shown: %s", out)
				}
				raised := !strings.Contains(out, "limit 1\n")
				if raised != (level == Full) {
					t.Errorf("core limit after raising it: %q (raised %v)", out, raised)
				}
			})
		}
	}
	// Reading it, as prlimit(1) does for every limit, stays.
	if _, out := f.run(t, Read, `python3 -c 'import resource; print("core", resource.prlimit(0, resource.RLIMIT_CORE)[0])'`); !strings.Contains(out, "core 1") {
		t.Errorf("a read cannot read its core limit: %s", out)
	}
	// A benign program crashing in a directory it may write leaves no
	// core there, whatever the core pattern's file name.
	dir, err := os.MkdirTemp("/tmp", "warden-cores-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	os.Chmod(dir, 0o777)
	f.run(t, Temp, "cd "+dir+" && ulimit -c unlimited; sh -c 'kill -SEGV $$'; true")
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("a crashing benign program left %s", filepath.Join(dir, entries[0].Name()))
	}
}
