package sessions

import "testing"

// TestShellNamedAsAnArgument: a shell of another language named as an
// argument of a program that runs none (a package to install) starts no
// shell; named where a wrapper may run it, it still ends the model.
func TestShellNamedAsAnArgument(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"sudo apt install -s zsh", "apt install -s zsh", "sudo apt-get install --simulate zsh", "apt-get -s install zsh fish",
		"sudo apt install -y zsh", "sudo apt remove --purge fish", "dnf install -y zsh", "sudo dnf -y install tcsh",
		"pip install -U xonsh", "sudo pacman -S --noconfirm fish", "echo -n zsh", "printf '%s\\n' -- zsh",
		"type -p zsh", "man -k zsh", "ls -l zsh", "sudo ls -l zsh", "env LANG=C apt install -s zsh",
		"sudo -u root apt install -s zsh", "nice -n 5 apt-get -s install ksh",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c); last.next.rekeyed != "" {
				t.Errorf("%s", last.next.rekeyed)
			}
		})
	}
	// Run, the shell reads the lines typed next: for good, or, after an
	// option's value, until Ctrl-C finds a followed shell (unknown.go).
	leavesNextLinesUnseen(t, []string{
		"zsh", "sudo zsh", "sudo -u bob zsh", "sudo --user man zsh", "sudo -nu man zsh", "sudo --user=man zsh",
		"env -i zsh", "env -u man zsh", "flock man zsh", "sudo flock man zsh", "sg man zsh", "chroot / zsh",
		"nice -n 5 zsh", "exec -a man zsh", "timeout 5 zsh", "timeout man zsh", "command zsh", "sudo -- zsh",
		"sudo -E zsh", "find . -exec zsh \\;", "xargs -o zsh", "env man=1 zsh", "sudo -g man fish", "doas -u man ksh",
		"nice -n 5 -- zsh", "stdbuf -o L zsh", "sudo -C 3 zsh", "setsid -w zsh", "systemd-run --pty -u man zsh",
		"sudo -n apt remove --purge fish",
	})
}

// TestProgramBehindAWrappersValue: a program a wrapper runs may stand
// behind an option's value or the wrapper's own operand that names a
// program warden knows to be quiet (a user or a lock file named man):
// that word is not the program. A root other than / holds programs of its
// own.
func TestProgramBehindAWrappersValue(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"exec -a man ./tool", "exec -a ls ./tool", "flock man ./tool", "flock -n man ./tool", "sg man ./tool",
		"chroot man ./tool", "chroot /srv/x ls", "sudo chroot /srv/x /bin/ls", "faketime man ./tool",
		"env --unset man ./tool", "env --chdir ls ./tool", "setpriv --reuid man ./tool", "runuser --user man ./tool",
		"systemd-run --uid man ./tool", "unshare --wd ls ./tool", "sudo -nu man ./tool", "sudo --user man ./tool",
		"env -iu man ./tool", "exec -a man head -n 1", "flock man head -n 1", "stdbuf --output ls ./tool",
	})
	// The wrapper's operand is no program: what it runs decides.
	for _, c := range []string{
		"flock /tmp/l ls", "flock -n /tmp/l uptime", "chroot / ls", "exec -a x ls", "env --unset X ls -l",
		"taskset 1 ls", "chrt 1 ls", "faketime '2020-01-01' date", "nice --adjustment 5 ls",
	} {
		t.Run("quiet/"+c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
				t.Errorf("%s", last.unseen)
			}
		})
	}
}
