package confine

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
)

// testUserNamespaces: below tier 2 no program makes a user namespace (in
// which it would hold every capability over the network namespace it
// makes next, nf_tables included) by unshare or clone. Approved, each works, so the refusals are the filter's.
func (f fixture) testUserNamespaces(t *testing.T) {
	scripts := map[string]string{
		"unshare":        "unshare -U true && echo made",
		"python unshare": `python3 -c 'import ctypes; l = ctypes.CDLL(None); print("made" if l.unshare(0x10000000) == 0 else "refused")'`,
		"clone": fmt.Sprintf(`python3 -c 'import ctypes, os
l = ctypes.CDLL(None)
r = l.syscall(%d, 0x10000000 | 17, 0, 0, 0, 0)
if r == 0: os._exit(0)
if r > 0: os.waitpid(r, 0); print("made")'`, unix.SYS_CLONE),
	}
	for name, script := range scripts {
		t.Run(name, func(t *testing.T) {
			if _, out := f.run(t, Full, script); !strings.Contains(out, "made") {
				t.Skipf("no user namespace even when approved: %s", out)
			}
			for _, level := range []Level{Read, Temp, Inspect} {
				if _, out := f.run(t, level, script); strings.Contains(out, "made") {
					t.Errorf("%s at %s: %s", name, level, out)
				}
			}
		})
	}
}
