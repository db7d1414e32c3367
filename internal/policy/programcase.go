package policy

import (
	"fmt"
	"strings"
)

// foldedProgram classifies a command whose name is no known program's as
// spelled but is one's in lower case (REBOOT, Git, /USR/BIN/RM): macOS's
// file systems ignore case by default, so on a Mac reached over SSH
// REBOOT runs reboot, and rm's deny rules must see RM -rf /. Elsewhere
// such a name is an unknown program. So it is classified as the program
// it names on a Mac, and at least as an unknown program, never lower:
// LS, which is ls on a Mac, may be any program on Linux. ok is false when
// the name has no upper-case letter or folds to no program the classifier
// knows (a table, a handler or a deny rule).
func (e *eval) foldedProgram(args []arg, ctx cctx) (Tier, string, bool) {
	w := args[0].val
	i := strings.LastIndexByte(w, '/') + 1
	base := w[i:]
	low := foldCase(base)
	if low == base || base == "" {
		return 0, "", false
	}
	if _, known := knownPrograms[low]; !known {
		if _, h := normalised(low); h == nil && denyCheck(low, argVals(args[1:])) == "" {
			return 0, "", false
		}
	}
	a0 := args[0]
	a0.val = foldCase(w[:i]) + low
	t, why := e.program(append([]arg{a0}, args[1:]...), ctx)
	if t < TierMutate {
		t, why = TierMutate, fmt.Sprintf("unknown program %q, or %s where file names ignore case (macOS)", truncate(base, 64), low)
	}
	return t, why, true
}
