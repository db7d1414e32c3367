package sessions

import "testing"

// A new interactive shell told to read a startup file warden has not seen
// may come up with "ls" aliased or bound to anything: after "bash
// --rcfile /tmp/rc" holding alias ls='touch x', the send "ls" runs touch.
func TestConfiguredShellsEndTheModel(t *testing.T) {
	for _, c := range []string{
		"bash --rcfile /tmp/rc", "bash --init-file /tmp/rc", "bash --rcfile=/tmp/rc", "bash -i --rcfile /tmp/rc",
		"/bin/bash --rcfile /tmp/rc", "exec bash --rcfile /tmp/rc", "env bash --init-file /tmp/rc",
		"sudo bash --rcfile /tmp/rc", "ENV=/tmp/rc sh", "ENV=/tmp/rc sh -i", "ENV=/tmp/rc dash", "ENV=/tmp/rc ksh",
		"ENV=/tmp/rc mksh", "ENV=/tmp/rc bash --posix", "env ENV=/tmp/rc sh", "env -u X ENV=/tmp/rc dash",
		"HOME=/tmp/h bash", "HOME=/tmp/h bash -l", "env HOME=/tmp/h bash", "cd /tmp/h; HOME=. bash",
		"HOME=/tmp/h sh -i", "INPUTRC=/tmp/i bash", "BASH_ENV=/tmp/rc bash -i", "ls; bash --rcfile /tmp/rc",
		"true && ENV=/tmp/rc sh", "busybox sh --rcfile /tmp/rc", "ENV=/tmp/rc busybox sh", "timeout 600 bash --rcfile r",
		"sh -c 'bash --rcfile /tmp/rc'", "bash -c \"ENV=/tmp/rc sh -i\"", "ENV=/tmp/rc sh -i -s", "HOME=/tmp/h bash --",
	} {
		t.Run(c, func(t *testing.T) {
			_, last := typeAll(tty, c, "ls")
			if last.unseen == "" {
				t.Errorf("ls after it is seen: %q", last.text)
			}
		})
	}
}

func TestPlainShellsStayFollowed(t *testing.T) {
	for _, c := range []string{
		"bash", "sh", "dash", "sh -i", "bash -l", "bash --login", "bash --norc", "bash -c 'echo hi'",
		"HOME=/tmp bash -c 'echo hi'", "ENV=/tmp/rc sh -c 'echo hi'",
		"echo bash --rcfile x", "grep -- --rcfile /etc/x", "man bash | grep -n rcfile",
	} {
		if _, last := typeAll(tty, c, "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
