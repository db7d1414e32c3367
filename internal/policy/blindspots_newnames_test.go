package policy

import "testing"

// TestBlindSpotDisguisedDeniedPrograms: the deny list knows a program by
// its name, so cp /sbin/reboot /tmp/x was tier 2 and a later call's
// /tmp/x an unknown program, tier 2 as well: in open mode both ran unasked
// and the machine rebooted. A copy, link, install, rsync or dd that gives
// a program the deny list names another name, or cat, pv or tee streaming
// it into one (through a pipe too), is denied when the program is denied whatever its
// arguments, and tier 3 for the rest (a copy of rm or systemctl runs
// rm -rf / or systemctl reboot unrecognised). Copies
// into a directory, or under the program's own name, keep the name the
// deny list reads.
func TestBlindSpotDisguisedDeniedPrograms(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`cp /sbin/reboot /tmp/x`,
		`cp -p /usr/sbin/reboot ./r`,
		`cp -- /sbin/poweroff /tmp/p`,
		`ln /sbin/reboot /tmp/x`,
		`ln -s /sbin/reboot /tmp/x`,
		`ln -sf reboot ~/bin/ls`,
		`ln -s /usr/sbin/shutdown /usr/local/bin/ls`,
		`cp "$(which reboot)" /tmp/x`,
		`cp $(command -v poweroff) /tmp/x`,
		"cp `which halt` /tmp/h",
		`install -m755 /sbin/poweroff /usr/local/bin/p`,
		`install -D /sbin/reboot ~/.local/bin/up`,
		`rsync -a /sbin/reboot /tmp/x`,
		`dd if=/sbin/reboot of=/tmp/x`,
		`cp /sbin/mkfs.ext4 /tmp/fmt`,
		`cp /sbin/wipefs /tmp/w`,
		`cp /sbin/reboot /tmp/reboot.bak`,
		`cat /sbin/reboot > /tmp/x`,
		`cat < /sbin/reboot > /tmp/x`,
		`pv -q /usr/sbin/poweroff >> ~/bin/p`,
		`tee /tmp/x < /sbin/reboot`,
		`cat "$(which reboot)" > /tmp/x`,
		`cat /sbin/reboot | tee /tmp/x`,
		`pv /sbin/poweroff | dd of=/tmp/p`,
		`cat < /sbin/reboot | sponge ~/bin/r`,
		`cat /sbin/reboot | cat > /tmp/x`,
		`cat /sbin/reboot &> /tmp/x`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`cp /bin/rm /tmp/del`,
		`ln -s /bin/systemctl /tmp/sc`,
		`cp /usr/bin/dd /tmp/copy`,
		`install /bin/kill /usr/local/bin/k`,
		`cat /bin/rm > /tmp/del`,
		`cat /bin/rm | tee /tmp/del`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`cp /bin/ls /tmp/x`,
		`ln -s /bin/ls /tmp/x`,
		`cp /sbin/reboot /tmp/`,
		`cp /sbin/reboot /srv/backup/reboot`,
		`cp -t /srv/backup /sbin/reboot /sbin/poweroff`,
		`cp /sbin/reboot /sbin/poweroff /srv/backup`,
		`strings /sbin/reboot > /tmp/s`,
		`sha256sum /sbin/reboot > /tmp/s`,
		`cat /sbin/reboot > /tmp/reboot`,
		`cat reboot > /tmp/x`,
		`cat /sbin/reboot | strings | tee /tmp/s`,
		`cat /sbin/reboot | tee /tmp/reboot`,
		// Only the standard streams copy the file.
		`cat /sbin/reboot 2> /tmp/err`,
		`cat /sbin/reboot | cat 2>/tmp/err`,
		`cat 3< /sbin/reboot > /tmp/x`,
	))
}

// TestBlindSpotCommandsConfiguredToRunLater: a setting that names a
// program run later (git's core.pager, core.sshCommand, an alias's
// !command) meets the deny list as a cron table's text does; and text
// copied from standard input (cp /dev/stdin FILE <<< TEXT) or from a
// process substitution (cp <(echo TEXT) FILE, cat <(…) > FILE) into a
// file run later meets it as a redirection's does.
func TestBlindSpotCommandsConfiguredToRunLater(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`git config --global core.pager reboot`,
		`git config --global alias.st '!reboot'`,
		`git config alias.st '!f() { /sbin/poweroff; }; f'`,
		`git config --global core.sshCommand "sh -c /sbin/reboot"`,
		`git config --system core.fsmonitor /sbin/reboot`,
		`install -D /dev/stdin ~/.profile <<< reboot`,
		`cp /dev/stdin ~/.bashrc <<< reboot`,
		"cp /dev/fd/0 /etc/cron.d/x <<EOF\n* * * * * root /sbin/poweroff\nEOF",
		`cp <(echo reboot) ~/.bashrc`,
		`install -m 644 <(printf '@reboot /sbin/reboot\n') /etc/cron.d/x`,
		`cat <(echo reboot) > ~/.bashrc`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`git config --global core.pager 'less -R'`,
		`git config alias.st status`,
		`cp /dev/stdin ~/.bashrc <<< 'alias ll=ls'`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`cp <(echo reboot) /srv/notes`,
		`cat <(echo reboot) > /srv/notes`,
	))
}
