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

// TestBlindSpotEncodedCopies: a program the deny list names passed
// through any program that may hand its bytes on (an encoder and its
// decoder, a compressor, head -c, sed with no edits, a download of a file: URL, a
// move) into another name was tier 2 and only cat, pv, tee, dd and the
// copiers were read as copies. Programs that name, measure or digest
// files pass no bytes on, and a stage that digests its input ends the
// stream.
func TestBlindSpotEncodedCopies(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`base64 /sbin/reboot | base64 -d > /tmp/x`,
		`base64 /sbin/reboot > /tmp/enc`,
		`base64 < /sbin/reboot | base64 --decode | tee ~/bin/up`,
		`gzip -c /sbin/poweroff > /tmp/p.gz`,
		`xxd /sbin/reboot | xxd -r > /tmp/x`,
		`od -An -tx1 /sbin/halt | xxd -r -p > /tmp/h`,
		`head -c 99999999 /sbin/reboot > /tmp/x`,
		`tail -c +1 /usr/sbin/poweroff >> /tmp/x`,
		`sed '' /sbin/reboot > /tmp/x`,
		`awk 1 /sbin/reboot > /tmp/x`,
		`curl -o /tmp/x file:///sbin/reboot`,
		`curl --output=/tmp/x file:///sbin/reboot`,
		`wget -O /tmp/x file:///sbin/shutdown`,
		`openssl enc -base64 -in /sbin/reboot | openssl enc -d -base64 -out /tmp/x`,
		`dd if=/sbin/reboot | gzip -dc | cat > /tmp/x`,
		`zstd -c < /sbin/mkfs.ext4 > /tmp/f.zst`,
		`mv /sbin/reboot /tmp/x`,
		`mv /usr/sbin/poweroff /usr/local/bin/p`,
		`tar -C /sbin -c reboot | tar -xO > /tmp/x`,
		`tar --directory=/usr/sbin -cf - poweroff > /tmp/p.tar`,
		`base64 < /sbin/reboot > /tmp/e`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`base64 /bin/rm | base64 -d > /tmp/del`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`ls -l /sbin/reboot > /tmp/l`,
		`md5sum /sbin/reboot /sbin/poweroff > /tmp/sums`,
		`file /sbin/reboot > /tmp/kind`,
		`stat -c %s /sbin/reboot > /tmp/size`,
		`echo /sbin/reboot > /tmp/name`,
		`readelf -h /sbin/reboot > /tmp/h`,
		`base64 /sbin/reboot | sha256sum > /tmp/s`,
		`sha256sum < /sbin/reboot > /tmp/s`,
		`wc -c < /sbin/reboot > /tmp/n`,
		`cat /sbin/reboot | wc -c > /tmp/n`,
		`gzip -c /var/log/syslog > /tmp/log.gz`,
		`tar -C /etc -cf - hosts > /tmp/h.tar`,
		`curl -o /tmp/x https://example.org/`,
	))
}

// TestBlindSpotComputedTextRunsLater: what a filter computes and prints
// into a file a program runs later (a start-up file in a home, a cron
// table) was tier 3, so an approval could let reboot into ~/.bashrc;
// only literal text met the deny list. It now meets it as computed: a
// variable's one value, a decoding, a reversal, a translation.
func TestBlindSpotComputedTextRunsLater(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`x=reboot; echo $x >> ~/.bashrc`,
		`x=reb; echo "${x}oot" >> ~/.profile`,
		`echo reboot | cat >> ~/.bashrc`,
		`echo toober | rev >> ~/.bashrc`,
		`echo reboot | rev | rev >> ~/.bashrc`,
		`echo cmVib290Cg== | base64 -d >> ~/.bashrc`,
		`echo cmVib290Cg== | base64 -d > /etc/cron.d/x`,
		`tr a-z n-za-m <<< erobbg >> ~/.profile`,
		`printf '%s\n' '* * * * * root poweroff' | cat > /etc/cron.d/p`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`x=uptime; echo $x >> ~/.bashrc`,
		`echo ZGYgLWgK | base64 -d >> ~/.bashrc`,
	))
}
