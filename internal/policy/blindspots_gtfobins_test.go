package policy

import "testing"

// The classes below were found by running every snippet of the GTFOBins
// catalogue (github.com/GTFOBins/GTFOBins.github.io at 7382261e,
// _gtfobins/*) through the classifier with its shell replaced by
// /sbin/reboot: each is a program the classifier knew that runs a command
// it did not see. The cases are our own spellings of each class.

// TestBlindSpotForeignPrograms: a program named by a path outside the
// system's program directories was classified by its name, so a
// repository's ./cat, /srv/app/tools/ls or ./command was a read, tier 0:
// on a plain SSH host whatever the file holds ran unasked. Such a file is
// an unknown program (tier 2) whatever its name; its name still meets the
// deny rules.
func TestBlindSpotForeignPrograms(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		`./ls`,
		`./ls -la`,
		`./cat README`,
		`./grep x y`,
		`bin/ls`,
		`tools/bin/uptime`,
		`/srv/repo/ls`,
		`/srv/app/tools/cat f`,
		`/home/u/project/ps aux`,
		`/root/ls`,
		`/opt/x/ls`,
		`./command`,
		`./true`,
		`/opt/x/command -v ls`,
		`/srv/x/eval`,
		`/srv/x/:`,
		`./echo hi`,
		`sudo /srv/x/ls`,
		`env ./cat f`,
		`xargs ./cat < f`,
		`find . -name x -exec ./cat {} \;`,
		`nice ./ls`,
		`timeout 5 ./ls`,
		`sh -c ./ls`,
		`bash -c '/srv/app/cat f'`,
		`pip show requests --python ./venv/bin/python`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`./reboot`,
		`/srv/repo/reboot`,
		`./rm -rf /`,
	))
	runExactHosts(t, p, tierCases(TierRead,
		`/usr/bin/ls`,
		`/bin/cat /etc/hosts`,
		`/usr/local/bin/ls`,
		`/usr/local/sbin/ls`,
		`/usr/bin/true`,
		`/usr/bin/env ls`,
		`/opt/x/bin/ls`,
		`/opt/bin/cat f`,
		`~/bin/ls`,
		`~/.local/bin/rg x`,
		`/home/u/.local/bin/rg x`,
		`/root/.cargo/bin/rg x`,
		`/usr/share/dotnet/dotnet --list-sdks`,
		`/nix/store/abc-coreutils/bin/ls`,
		`/etc/init.d/ssh status`,
		`command -v ls`,
	))
}

// TestBlindSpotServiceNamePaths: service, invoke-rc.d, rc-service and
// rcctl run the script their name joins to the init directory, so a name
// with a slash is any program: service ../../sbin/reboot reboots, and was
// tier 2 ("controls a service").
func TestBlindSpotServiceNamePaths(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`service ../../sbin/reboot`,
		`service ../../sbin/reboot start`,
		`service ../../sbin/poweroff status`,
		`service /sbin/reboot start`,
		`service ../../usr/sbin/halt stop`,
		`service -- ../../sbin/reboot start`,
		`invoke-rc.d ../../sbin/reboot start`,
		`rc-service ../../sbin/reboot start`,
		`rc-service /sbin/poweroff start`,
		`rcctl start ../../sbin/reboot`,
		`rcctl -f restart ../../sbin/reboot`,
		`sudo service ../../sbin/reboot start`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`service ../../tmp/x status`,
		`service ../../srv/x status`,
		`invoke-rc.d ./x start`,
		`rc-service /opt/x status`,
	))
	runExactHosts(t, p, []exactCase{
		{"status", `service nginx status`, TierRead},
		{"restart", `service nginx restart`, TierMutate},
		{"rcctl check", `rcctl check sshd`, TierRead},
	})
}

// TestBlindSpotProgramRunOptions: options that name a command a known
// program runs, in spellings the option tables missed: nano's -s speller
// (--speller was read), dnsmasq's lease and configuration scripts, gem
// open's editor, and the command lines fail2ban's server runs for an
// action. Each command meets the deny rules and the call is tier 3.
func TestBlindSpotProgramRunOptions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`nano -s reboot`,
		`nano -s /sbin/reboot f`,
		`nano -s '/sbin/reboot -p'`,
		`nano -Ls reboot`,
		`nano -s/sbin/reboot`,
		`pico -s reboot`,
		`dnsmasq --dhcp-script=/sbin/reboot`,
		`dnsmasq --dhcp-scr /sbin/reboot`,
		`dnsmasq -6 /sbin/reboot`,
		`dnsmasq -d6/sbin/reboot`,
		`dnsmasq --conf-script='/sbin/reboot 1>&2'`,
		`dnsmasq --test --conf-script=reboot`,
		`gem open -e '/sbin/reboot -s' debug`,
		`gem open --editor reboot debug`,
		`gem open -ereboot rails`,
		`fail2ban-client set x action x actionstart reboot`,
		`fail2ban-client set sshd action iptables actionban /sbin/reboot`,
		`fail2ban-client set sshd action a actionunban 'sh -c reboot'`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`nano -s aspell notes.txt`,
		`dnsmasq -C /etc/dnsmasq.conf -6 /usr/local/bin/lease-hook`,
		`dnsmasq --dhcp-luascript=/tmp/x.lua`,
		`gem open -e vim rails`,
		`fail2ban-client set sshd action iptables actionban 'iptables -I f2b -s <ip> -j DROP'`,
		`fail2ban-client set sshd addaction x /tmp/x.py '{}'`,
		`fail2ban-client -c /tmp/f2b -v restart`,
	))
	runExactHosts(t, p, []exactCase{
		{"dnsmasq test", `dnsmasq --test`, TierRead},
		{"dnsmasq test lease script", `dnsmasq --test --dhcp-script=/usr/local/bin/x`, TierMutate},
		{"gem list exact", `gem list -e rails`, TierRead},
		{"fail2ban status", `fail2ban-client status sshd`, TierRead},
		{"fail2ban ban", `fail2ban-client set sshd banip 1.2.3.4`, TierMutate},
	})
}

// TestBlindSpotCommandVariables: a variable whose name says it holds a
// command (CRASHPAGER, FOO_CMD, X_PROGRAM) was tier 3 by its name but its
// value never met the deny rules, and one no convention names
// (AUTOM4TE, which autoconf runs) was not read at all. A command-named
// variable's value is now classified as the command it is; any exported
// value that is a denied program's path in a bin directory is denied.
func TestBlindSpotCommandVariables(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`CRASHPAGER=/sbin/reboot crash -h`,
		`CRASHPAGER=reboot crash -h`,
		`FOO_CMD=reboot prog`,
		`FOO_PROGRAM='sh -c reboot' prog`,
		`TOOL_HOOK='systemctl poweroff' tool`,
		`AUTOM4TE=/sbin/reboot autoconf`,
		`AUTOM4TE=/usr/sbin/poweroff autoreconf -i`,
		`env AUTOM4TE=/sbin/reboot autoconf`,
		`sudo AUTOM4TE=/sbin/reboot autoconf`,
		`export AUTOM4TE=/usr/sbin/poweroff; autoconf`,
		`declare -x M4=/sbin/halt; autoconf`,
		`SHUTDOWN=/sbin/shutdown ./maintenance.sh`,
		`X=/usr/sbin/mkfs.ext4 ./x.sh`,
	))
	runExactHosts(t, p, []exactCase{
		{"plain assignment", `R=/sbin/reboot`, TierRead},
		{"listing", `R=/sbin/reboot; ls -l $R`, TierRead},
		{"log path", `LOG=/var/log/reboot cat /var/log/reboot`, TierRead},
		{"harmless command var", `FOO_CMD=ls prog`, TierDestructive},
		{"autom4te itself", `AUTOM4TE=/usr/bin/autom4te autoconf`, TierMutate},
	})
}

// TestBlindSpotWrittenThenGiven: GTFOBins' commonest shape writes a file and
// then hands it to a program that runs what it says, in a grammar of its
// own (runscript, cobc -j, arch-nspawn ., npm's preinstall in a
// package.json, a Gemfile, AUTOM4TE=/tmp/x autoconf). The literal text the
// script wrote now meets the deny list wherever such a program is given
// the file, the directory it is in, or a variable naming it, and a
// project program meets what the script wrote to its project files
// whatever directory it runs in.
func TestBlindSpotWrittenThenGiven(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"echo '! exec /sbin/reboot' >/tmp/tf; runscript /tmp/tf",
		"echo 'CALL \"SYSTEM\" USING \"/sbin/reboot\".' >/tmp/tf\ncobc -xFj /tmp/tf",
		"printf 'x: reboot\\n' > /srv/job.conf; jobrunner --conf=/srv/job.conf",
		"mkdir -p etc; echo 'CARCH=true;/sbin/reboot' > etc/makepkg.conf; arch-nspawn .",
		"echo poweroff > /tmp/d/sub/hook; tool /tmp/d",
		`echo '{"scripts": {"preinstall": "/sbin/reboot"}}' > package.json; npm i`,
		`echo '{"scripts": {"x": "reboot"}}' > package.json && npm run x`,
		`echo 'system("/sbin/reboot")' > Gemfile; bundle install`,
		"echo '/sbin/reboot' > /tmp/tf; chmod +x /tmp/tf; AUTOM4TE=/tmp/tf autoconf",
		"echo -e 'all:\\n\\treboot' > Makefile; make",
	))
	runExactHosts(t, p, tierCases(TierMutate,
		"echo 'reboot now' > notes.txt; foo other.txt",
		"echo 'hello' > /tmp/in.txt; foo /tmp/in.txt",
	))
	runExactHosts(t, p, tierCases(TierMutate,
		"echo 'reboot now' > notes.txt; wc -l notes.txt",
	))
}

// TestBlindSpotCommandLinesComputedInPart: an unknown program's argument
// holding a command line with a computed part ("reboot $X", GTFOBins'
// check_by_ssh -o "ProxyCommand /sbin/reboot <$(tty)") was skipped by the
// check of what it may run, and an ssh-style NAME=VALUE setting naming a
// command (ProxyCommand=reboot) was not read as one.
func TestBlindSpotCommandLinesComputedInPart(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`check_by_ssh -o "ProxyCommand /sbin/reboot -i <$(tty) |& tee $(tty)" -H localhost -C x`,
		`foo "reboot $X"`,
		`foo "/sbin/poweroff $(tty)"`,
		`foo -o ProxyCommand=reboot`,
		`foo -o "ProxyCommand=reboot $X"`,
		`foo LocalCommand=/sbin/halt`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`foo "hello $X"`,
		`foo -o Port=22`,
	))
}

// TestBlindSpotStartupFilesInHome: a program reads its start-up file in a
// home and runs what it names (GTFOBins' ~/.rtorrent.rc execute=,
// ~/.config/procps/toprc's pipe). What the script writes there, by
// redirection, tee or dd, in any echo spelling, or writes elsewhere and
// copies there, meets the deny list as a cron table's text does, and so
// does a cron table's written by dd or copied into place.
func TestBlindSpotStartupFilesInHome(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`echo 'execute = reboot' > ~/.rtorrent.rc`,
		"echo -e 'pipe\\tx\\texec /sbin/reboot' >> ~/.config/procps/toprc",
		"printf 'pipe\\tx\\texec /sbin/poweroff\\n' >> $HOME/.config/procps/toprc",
		"cat > /root/.foorc <<EOF\nhook = reboot\nEOF",
		`echo 'execute = reboot' | tee ~/.rtorrent.rc`,
		`tee -a /home/u/.config/x/y.conf <<< 'cmd=/sbin/reboot'`,
		`echo -e '* * * * * root /sbin/re\x62oot' > /etc/cron.d/x`,
		`dd of=/etc/cron.d/x <<< '* * * * * root reboot'`,
		`echo 'execute = reboot' | dd of=/root/.rtorrent.rc`,
		`echo 'execute = reboot' > /tmp/x; cp /tmp/x ~/.rtorrent.rc`,
		`echo '* * * * * root reboot' > /tmp/x; install -m644 /tmp/x /etc/cron.d/x`,
		`echo '* * * * * root reboot' > /tmp/x; mv /tmp/x /etc/cron.d/`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`echo 'execute = reboot' > ~/notes.txt`,
		`echo 'color = blue' > ~/.config/x/y.conf`,
		`echo 'reboot' > /tmp/x; cp /tmp/x /srv/x`,
	))
}
