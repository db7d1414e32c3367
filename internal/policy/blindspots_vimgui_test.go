package policy

import "testing"

// TestBlindSpotVimGUIStartup: vim's -U names the gvimrc, whose commands
// (:!cmd included) run when the GUI starts (gvim, evim, vim -g), as -u's
// vimrc does: a file a tier 1 call wrote is tier 3 to hand it, alone or
// clustered, as -u already was. Opening a file read-only keeps an
// editor's tier 2.
func TestBlindSpotVimGUIStartup(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, ed := range []string{"vim -g", "gvim", "evim", "view", "gview", "vim", "rvim", "vimdiff", "sudo gvim", "env vim -g"} {
		for _, o := range []string{"-U /tmp/x/rc", "-RU /tmp/x/rc", "-U /tmp/x/rc -R", "-fU /tmp/x/rc", "-U \"$rc\""} {
			cmds = append(cmds, ed+" "+o+" f")
		}
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"read-only", "vim -R notes.txt", TierMutate},
		{"gvim", "gvim -R f", TierMutate},
	})
}
