package sessions

import "testing"

// A new interactive shell told to read a startup file warden has not seen
// may come up with "ls" aliased or bound to anything: after "bash
// --rcfile /tmp/rc" holding alias ls='touch x', the send "ls" runs touch.
func TestConfiguredShellsEndTheModel(t *testing.T) {
	t.Parallel()
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
	t.Parallel()
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

// A variable given to a new interactive shell stays set for every line
// typed into it, as if the session had set it: after "TMOUT=1 bash" and
// "echo \", the shell times out at its continuation prompt and exits, and
// the next line, "touch x", runs in the shell before it.
func TestVariablesForANewShellEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"TMOUT=1 bash", "env TMOUT=1 bash", "TMOUT=1 sh -i", "PROMPT_COMMAND='touch x' bash", "PS1='$(touch x)' bash",
		"histchars='!l' bash", "LESSSECURE=0 bash", "PAGER=less bash", "PATH=/tmp/b:$PATH bash", "LD_PRELOAD=/tmp/x.so bash",
		"GIT_INDEX_FILE=/etc/x bash", "sudo TMOUT=1 bash", "env -u X PROMPT_COMMAND=ls dash",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen == "" {
				t.Errorf("a line after it is seen: %q", last.text)
			}
		})
	}
	for _, c := range []string{"LANG=C bash", "TERM=xterm bash", "LC_ALL=C.UTF-8 sh -i", "TMOUT=1 bash -c 'echo hi'"} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}

// A host's shell is configured freely; one whose language or line
// editing warden does not follow ends the model from the start.
func TestSessionShellsWardenFollows(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"/usr/bin/ksh", "/bin/mksh", "/usr/bin/rc", "/usr/bin/ion", "/usr/bin/tclsh",
		"/usr/bin/python3", "/usr/local/bin/osh", "/usr/bin/yash", "/usr/bin/es", "/bin/busybox", "/usr/bin/zsh",
		"/usr/bin/fish", "/bin/csh", "/opt/x/shell"} {
		t.Run(sh, func(t *testing.T) {
			if why := startRekeys(&StartArgs{}, sh); why == "" {
				t.Errorf("a session of %s is followed as sh", sh)
			}
		})
	}
	for _, sh := range []string{"/bin/sh", "/bin/bash", "/usr/bin/bash", "/bin/dash", "/bin/ash", "/bin/rbash", "/usr/local/bin/bash"} {
		if why := startRekeys(&StartArgs{}, sh); why != "" {
			t.Errorf("%s: %s", sh, why)
		}
	}
}

// A shell of another language, or of the ksh family with a line editor
// of its own, typed in the session ends the model as zsh does: it
// outlives Ctrl-C.
func TestOtherShellsTypedEndTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{"ksh", "mksh", "ksh93 -i", "oksh", "rc", "es", "ion", "osh", "ysh", "murex",
		"powershell", "sudo ksh", "exec mksh", "/usr/bin/ion", "env ion"} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen == "" {
				t.Errorf("a line after it and Ctrl-C is read as sh: %q", last.text)
			}
		})
	}
	for _, c := range []string{"ksh -c 'echo hi'", "mksh -c ls", "echo rc", "grep ion f"} {
		if _, last := typeAll(tty, c, "\x03…", "", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
