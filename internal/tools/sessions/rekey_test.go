package sessions

import (
	"strings"
	"testing"
)

// Commands that change how the session reads later keys make warden lose
// the line for good; the lines after them look harmless and are not.
func TestRekeys(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		// The terminal's special characters and modes.
		"stty kill '#'", "stty erase e", "stty werase x", "stty lnext q", "stty intr a",
		"stty -icanon", "stty -icrnl", "stty igncr", "stty eol ';'", "stty raw", "stty sane",
		"/bin/stty kill q", "s\\tty kill q", "st''ty kill q", `"stty" kill q`, "$'\\x73tty' kill q",
		"env stty kill q", "busybox stty kill q", "command stty kill q", "sudo stty kill q",
		"sh -c 'stty kill q'", "bash -c \"stty kill '#'\"", "su -c 'stty kill q'",
		"ls; stty kill q", "true && stty kill q", "( stty kill q )", "echo $(stty kill q)",
		"bash <<'EOF'\nstty kill q\nEOF", "sh <<< 'stty kill q'", "{stty,kill,q}",
		"stty -F /dev/tty kill q", "/usr/bin/st?y kill q", "/bin/s[t]ty kill q", "/usr/*/stty kill q",
		`b?nd '"#": unix-line-discard'`, "/usr/bin/z?h", "tset -k q", "reset -e q", "env reset",
		// readline's bindings and editing mode.
		`bind '"l": "touch /etc/x\n"'`, `bind '"x": unix-line-discard'`, "bind -f /tmp/inputrc",
		`bind 'set editing-mode vi'`, `bind -x '"\C-a": ls'`, `builtin bind '"a": yank'`,
		"set -o vi", "set -o emacs", "set +o emacs", "set -o vi; ls", "shopt -so vi", "bash -o vi",
		"echo kill q | xargs stty", "eval stty kill q", "eval 'stty kill q'", "f() { stty kill q; }",
		"perl -e 'system \"stty kill q\"'", "python3 -c 'import tty; tty.setraw(0)'",
		"python3 -c 'import termios'", "echo 'bind x' >> ~/.bashrc", "cp /tmp/x ~/.inputrc",
		"tput reset", "tput init", ". ~/.bashrc", "source /tmp/x", "command . /tmp/x",
		// History characters.
		"histchars='!l'", "histchars=%", "export histchars=x", "declare histchars=x",
		"read histchars", "printf -v histchars %s x", "unset histchars", ": ${histchars:=x}",
		"declare -n r=histchars", "mapfile -t histchars",
		// Prompt and mail hooks.
		"printf -v PS1 %s '$(touch /etc/x)'", "read -r PS1", "PS0='$(id)'", "export PS2",
		"declare -n p=PS1", "MAILPATH='/tmp/m?$(id)'", "PROMPT_COMMAND=ls", "INPUTRC=/tmp/x bash",
		"eval PS1=x", "sh -c 'read PS1'", "local -n q=histchars", "typeset PS1", "readonly PS2=x",
		"getopts ab histchars", "readarray PS1", "export -n LESSSECURE",
		// Shells whose language warden does not parse.
		"zsh", "zsh -f", "exec zsh", "/usr/bin/zsh -o interactivecomments", "env zsh", "sh -c zsh",
		"fish", "tcsh", "su -s /bin/zsh", "ls; zsh",
		// What keeps pagers from running commands.
		"unset LESSSECURE", "env -u LESSSECURE git log", "LESSSECURE= git log", "env -i git log",
		"env - git log", "env --ignore-environment git log", "exec -c bash", "env -iu X bash",
		// What keeps programs from starting a pager.
		"unset GIT_PAGER", "env -u PAGER git log", "SYSTEMD_PAGER= journalctl", "export -n MANPAGER",
		"unset -v DPKG_PAGER", "declare +x BAT_PAGER", "read GH_PAGER",
	} {
		if why := rekeys(s); why == "" {
			t.Errorf("%q: not seen to change how keys are read", s)
		}
	}
}

// Ordinary work, reading terminal settings and bindings included, keeps
// the line model.
func TestRekeysReads(t *testing.T) {
	t.Parallel()
	for _, s := range []string{
		"ls -la /var/log | grep x", "journalctl -u nginx", "git status", "git log --oneline -5",
		"cat /etc/hosts", "curl -s https://example.com", "stty", "stty -a", "stty size", "stty -g",
		"bind -p", "bind -P", "bind -l", "bind -v", "bind -psv", "set -o", "set +o", "set -e",
		"set -o pipefail", "echo $PS1", `echo "$histchars"`, "git reset --hard", "git reset HEAD~1",
		"grep MAIL /etc/login.defs", "echo 'PS1 is the prompt'", "man bash | grep -n PROMPT_COMMAND",
		"env", "env | grep PATH", "env FOO=1 ls", "echo 'stty -a'", "man stty",
		"grep -r binding .", "echo ${HOME:-/root}", "ls /usr/bin/stty", "tput cols", "tput lines",
		"git log -p", "systemctl status nginx", "zsh -c 'echo hi'", "zsh -fc ls", "bash", "sh", "exec bash -l",
		"man zsh", "which zsh", "vi -o a b", "ls -la .", "find . -name x",
	} {
		if why := rekeys(s); why != "" {
			t.Errorf("%q: %s", s, why)
		}
	}
}

// The send that types such a command is unseen, and so is every send after
// it, whatever it holds, even after Ctrl-C. A session without a terminal
// is held to it too: a shell of another language reads a pipe the same.
func TestRekeyedSession(t *testing.T) {
	t.Parallel()
	_, last := typeAll(tty, "stty kill '#'")
	if !strings.Contains(last.unseen, "stty") || last.next.rekeyed == "" {
		t.Fatalf("stty kill: unseen %q, rekeyed %q", last.unseen, last.next.rekeyed)
	}
	st := last.next
	for _, s := range []string{"ls #touch /etc/x\r", "ls\r", "\x03", "\x03\r", "\r"} {
		if got := st.feed(s, tty); got.unseen == "" || got.next.rekeyed == "" {
			t.Errorf("%q after stty kill: unseen %q, rekeyed %q", s, got.unseen, got.next.rekeyed)
		}
	}
	if sig := st.signalled(); sig.rekeyed == "" {
		t.Error("session_signal INT clears rekeyed")
	}
	// Typed but not entered: unseen, but not yet in effect.
	if got := (typing{}).feed("stty kill q", tty); got.unseen == "" || got.next.rekeyed != "" {
		t.Errorf("a partial stty: unseen %q, rekeyed %q", got.unseen, got.next.rekeyed)
	}
	// Assembled over sends and edits.
	if _, got := typeAll(tty, "st…", "ty kill q"); got.unseen == "" {
		t.Error("stty split over two sends is seen")
	}
	if _, got := typeAll(tty, "ls -l\x15stty kill q"); got.unseen == "" {
		t.Error("stty after Ctrl-U is seen")
	}
	if _, got := typeAll(pipes, "zsh", "ls *(e:'touch /etc/x':)"); got.unseen == "" {
		t.Error("pipes: a line typed into zsh is seen")
	}
	if _, got := typeAll(pipes, "ls -l", "cat /etc/hostname"); got.unseen != "" {
		t.Errorf("pipes: %s", got.unseen)
	}
	if _, got := typeAll(tty, "stty -a", "ls -l"); got.unseen != "" {
		t.Errorf("stty -a: %s", got.unseen)
	}
}
