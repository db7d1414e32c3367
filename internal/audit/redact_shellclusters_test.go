package audit

import "testing"

// TestRedactShellFlagClusters: a shell's -c last in a cluster of flags
// (sh -ec, bash -xc, bash -euxc, script -qc) takes the command string as
// -c alone does, and so do builtin eval and salt's cmd.run: an echo piped
// to a reader inside is fed to it.
func TestRedactShellFlagClusters(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, feed := range []string{"echo bob:" + pw + " | chpasswd", "printf '%s\\n' " + pw + " | sudo -S id", "echo " + pw + " | passwd --stdin bob"} {
		for _, w := range []string{"sh -ec", "bash -xc", "bash -euxc", "sudo bash -ec", "dash -ec", "zsh -fc", "script -qc"} {
			c := w + ` "` + escapeDouble(feed) + `"`
			if w == "script -qc" {
				c += " /dev/null"
			}
			cases = append(cases, detourCase{"local", c, []string{w}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
		for _, c := range []string{"builtin eval \"" + escapeDouble(feed) + "\"", "salt '*' cmd.run \"" + escapeDouble(feed) + "\"", "salt -G os:Debian cmd.shell \"" + escapeDouble(feed) + "\""} {
			cases = append(cases, detourCase{"local", c, nil}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: what those scripts pipe to programs that read no secret, and
	// a cluster ending in c of a program that is no shell.
	checkSpellings(t, []spelling{
		{"sh -ec 'echo deploy notes | logger -t app'", nil, []string{"echo deploy notes | logger -t app"}},
		{"grep -ic 'deploy | notes' /var/log/app.log", nil, []string{"'deploy | notes'"}},
		{"salt '*' cmd.run 'uptime'", nil, []string{"cmd.run 'uptime'"}},
	})
}
