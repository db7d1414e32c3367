package main

import "testing"

// TestRunLaterClassesEndToEnd drives the real binary in open mode with
// the ways a denied program is kept for later that were approvals or
// tier 2: an edit in place of a start-up file, a setting that names the
// program, and a copy of it under a new name (which a later call would
// run as an unknown program, tier 2, unasked in this mode). Each call
// must come back denied, nothing may reach the marker (sed and git are
// shims that log to it), and the copies must not exist.
func TestRunLaterClassesEndToEnd(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	dir := t.TempDir()
	tests := []struct {
		name, command string
		writes        string // a file the command would create
	}{
		{"sed inserts into a start-up file", "sed -i '1i reboot' ~/.bashrc", ""},
		{"sed substitutes into a cron table", `sed -i 's/^$/\x72eboot/' /etc/crontab`, ""},
		{"sed uncomments a cron line", `sed -i '/^#.*poweroff/s/^#//' /etc/crontab`, ""},
		{"git pager setting", "git config --global core.pager reboot", ""},
		{"git alias command", "git config alias.up '!f() { poweroff; }; f'", ""},
		{"copy under a new name", "cp " + shims + "/reboot " + dir + "/x", dir + "/x"},
		{"copy found by name", "cp \"$(command -v poweroff)\" " + dir + "/p", dir + "/p"},
		{"link under a new name", "ln -s " + shims + "/reboot " + dir + "/l", dir + "/l"},
		{"stream under a new name", "cat " + shims + "/halt > " + dir + "/h", dir + "/h"},
		{"dd under a new name", "dd if=" + shims + "/shutdown of=" + dir + "/s", dir + "/s"},
		{"pipe under a new name", "cat " + shims + "/poweroff | tee " + dir + "/t", dir + "/t"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			refusedCleanly(t, s.cs, tc.command, "denied", marker, tc.writes)
		})
	}
}
