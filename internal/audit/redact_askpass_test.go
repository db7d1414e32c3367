package audit

import "testing"

// TestRedactAskpassPrograms: a program named by SUDO_ASKPASS, SSH_ASKPASS,
// GIT_ASKPASS or git's core.askPass prints the password, so what the
// command wrote into it is the secret; its path is no secret and stays.
// A login by another name (gem signin, … authenticate) reads one on its
// input as login does.
func TestRedactAskpassPrograms(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, write := range []string{
		"printf '#!/bin/sh\\necho %s\\n' " + pw + " > /tmp/ap",
		"echo 'echo " + pw + "' > /tmp/ap",
		"cat > /tmp/ap <<'EOF'\n#!/bin/sh\necho '" + pw + "'\nEOF",
		"tee /tmp/ap <<< 'printf " + pw + "' >/dev/null",
	} {
		for _, use := range []string{
			"SUDO_ASKPASS=/tmp/ap sudo -A systemctl restart app",
			"export SSH_ASKPASS=/tmp/ap SSH_ASKPASS_REQUIRE=force; ssh h uptime",
			"GIT_ASKPASS=/tmp/ap git clone https://bob@git.example.com/o/r.git",
			"git -c core.askPass=/tmp/ap pull",
		} {
			c := write + "\nchmod +x /tmp/ap\n" + use
			cases = append(cases, detourCase{"local", c, []string{"/tmp/ap"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"/tmp/ap"}})
		}
	}
	for _, c := range []string{
		"gem signin <<< $'bob@example.com\\n" + pw + "'",
		"printf 'bob@example.com\\n%s\\n' " + pw + " | gem signin",
		"echo " + pw + " | appctl authenticate --stdin",
	} {
		cases = append(cases, detourCase{"signin", c, nil}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
	}
	checkSubtests(t, pw, cases)

	// Kept: an askpass program's path, and a file written but given to
	// no askpass.
	checkSpellings(t, []spelling{
		{"SSH_ASKPASS=/usr/lib/ssh/x11-ssh-askpass ssh h", nil, []string{"SSH_ASKPASS=/usr/lib/ssh/x11-ssh-askpass"}},
		{"export GIT_ASKPASS=./askpass.sh", nil, []string{"GIT_ASKPASS=./askpass.sh"}},
		{"echo 'echo deploy notes' > /tmp/ap; SUDO_ASKPASS=/tmp/other sudo -A id", nil, []string{"deploy notes"}},
		{"grep signin /var/log/app.log <<< 'deploy notes'", nil, []string{"deploy notes"}},
		{"SUDO_ASKPASS=" + pw + " sudo -A id", []string{pw}, nil},
	})
}
