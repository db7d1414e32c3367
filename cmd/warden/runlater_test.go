package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

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
		{"encoded under a new name", "base64 " + shims + "/halt | base64 -d > " + dir + "/b", dir + "/b"},
		{"moved under a new name", "mv " + shims + "/shutdown " + dir + "/m", dir + "/m"},
		{"decoded into a start-up file", "echo cmVib290Cg== | base64 -d >> ~/.bashrc", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			refusedCleanly(t, s.cs, tc.command, "denied", marker, tc.writes)
		})
	}
}

// TestLaterCallRunsWhatTheFileHolds drives the real binary in open mode:
// one call writes a file by means the classifier cannot follow (a power
// program's file joined from pieces, a script printed into place), which
// is admitted; the later call that runs it must be denied for what the file
// holds, and nothing may reach the marker. A harmless script is asked for.
func TestLaterCallRunsWhatTheFileHolds(t *testing.T) {
	env, state, marker, shims := shimmed(t, "open", "")
	// A stand-in of its own content: the shims are one text.
	standIn := "#!/bin/sh\n# power stand-in\necho ran power >> " + marker + "\n"
	if err := os.WriteFile(filepath.Join(shims, "reboot"), []byte(standIn), 0o755); err != nil {
		t.Fatal(err)
	}
	s := startStdio(t, env, state, nil)
	dir := t.TempDir()
	// The program's file in two pieces, which a call joins: no copy of
	// it the classifier could see.
	half := len(standIn) / 2
	for i, piece := range []string{standIn[:half], standIn[half:]} {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprint("piece", i)), []byte(piece), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, write := range []string{
		"cat " + dir + "/piece0 " + dir + "/piece1 > " + dir + "/x && /bin/chmod +x " + dir + "/x",
		"printf '#!/bin/sh\\nx=pow; ${x}eroff\\n' > " + dir + "/job && /bin/chmod +x " + dir + "/job",
		"printf 'echo fine\\n' > " + dir + "/ok.sh",
	} {
		if res, got := callTool(t, s.cs, "run_command", map[string]any{"command": write}); res.IsError {
			t.Fatalf("writing the file was refused (%v): %s", got["status"], text(res))
		}
	}
	for _, run := range []string{
		dir + "/x", "cd " + dir + " && ./x now", dir + "/job", "sh " + dir + "/job", ". " + dir + "/job",
		// text that reaches a shell unseen, from a file the call names
		"exec 3<" + dir + "/job; sh <&3", "eval \"$(cat " + dir + "/job)\"", "head -5 " + dir + "/job | sh",
	} {
		t.Run(run, func(t *testing.T) { refusedCleanly(t, s.cs, run, "denied", marker, "") })
	}
	// A script the classifier cannot hold to its text is tier 3 in any
	// mode: asked for, not denied.
	if _, got := callTool(t, s.cs, "run_command", map[string]any{"command": "sh " + dir + "/ok.sh"}); got["status"] != "approval_required" {
		t.Errorf("a harmless script: %v, want approval_required", got)
	}
}

// TestLaterCallRunsItsProjectCode drives the real binary in open mode on
// repositories whose files changed after warden started (a clone, an
// unpacked archive): git runs the program the config's core.fsmonitor
// names on status, and a pre-commit hook on commit. The call must be
// denied for what those files run — the real git would run the power
// stand-ins — and nothing may reach the marker.
func TestLaterCallRunsItsProjectCode(t *testing.T) {
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed") // scripts/test installs it
	}
	env, state, marker, _ := shimmed(t, "open", "")
	s := startStdio(t, env, state, nil)
	repo := func(name string) string {
		dir := filepath.Join(t.TempDir(), name)
		if out, err := exec.Command(git, "init", "-q", dir).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v: %s", err, out)
		}
		return dir
	}
	monitored, hooked := repo("monitored"), repo("hooked")
	f, err := os.OpenFile(filepath.Join(monitored, ".git", "config"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(f, "[core]\n\tfsmonitor = reboot\n")
	f.Close()
	if err := os.WriteFile(filepath.Join(hooked, ".git", "hooks", "pre-commit"), []byte("#!/bin/sh\nsystemctl poweroff\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{
		git + " -C " + monitored + " status", "cd " + monitored + " && " + git + " diff",
		"cd " + hooked + " && " + git + " -c user.name=a -c user.email=a@b commit -q --allow-empty -m x",
	} {
		t.Run(run, func(t *testing.T) { refusedCleanly(t, s.cs, run, "denied", marker, "") })
	}
}
