package policy

import "testing"

// TestBlindSpotEditsThatRunLater: an edit in place of a cron table or a
// program's start-up file in a home writes text root or the program runs
// later, as a redirection into it does, yet only the redirection's text
// met the deny list: sed -i '1i reboot' ~/.bashrc was tier 3, so an
// approval away from rebooting at the next login. What the edit adds
// meets the deny list: sed's inserted, appended and changed lines, its
// replacements (escapes and case conversions decoded, -e scripts joined
// as GNU sed joins them), the lines it uncomments, s///w into such a
// file, and the words of editor commands (ex, vim -c, normal-mode keys)
// given one, what an awk program prints into one, and a sed script file
// the script wrote (-f), read like -e's. Deleting or
// commenting out such a line stays an approval.
func TestBlindSpotEditsThatRunLater(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`sed -i '$a * * * * * root /sbin/reboot' /etc/crontab`,
		`sed -i '1i reboot' ~/.bashrc`,
		`sed -i 's/^$/reboot/' ~/.profile`,
		"sed -i -e '1i\\\nreboot' /root/.bashrc",
		`sed -i 's/x/\x72eboot/' /etc/cron.d/job`,
		`sed -i 's/x/\o162eboot/' /etc/cron.d/job`,
		`sed -i 's/x/\LREBOOT/' ~/.bashrc`,
		`sed -i -e 's/x/\U\lREBOOT/' ~/.bashrc`,
		`sed -i 's/x/re\1boot/' ~/.bashrc`,
		`sed -i 's/x/re&boot/' ~/.bashrc`,
		`sed -i -e '1a\' -e reboot ~/.bashrc`,
		`sed --in-place=.bak -e '$a reboot' ~/.bashrc`,
		`sed --in -e '$a reboot' ~/.bashrc`,
		`sed -Ei 's/$/\n\/sbin\/reboot/' /etc/crontab`,
		`sed -i 's|$|;reboot|' ~/.bashrc`,
		`sed -i '1s/^/poweroff\n/' ~/.profile`,
		`sed -i 'c\reboot' ~/.bashrc`,
		`sed -si '$!N;s/x/y/;a poweroff' ~/.bashrc /srv/x`,
		`sed -i -e '1i reboot' $HOME/.profile`,
		`sed -i -e '1i reboot' "${HOME}/.config/x/rc"`,
		`sed -i.bak '$a @reboot /sbin/poweroff' /var/spool/cron/crontabs/root`,
		`sed -i 's/^#\(.*reboot\)/\1/' /etc/crontab`,
		`sed -i '/^#.*reboot/s/^#//' /etc/crontab`,
		`sed -i '/poweroff/{s/^# *//}' /etc/crontab`,
		`sed -n 's/x/reboot/w /etc/cron.d/job' /srv/in`,
		`ex -sc '1i|reboot' -cx ~/.bashrc`,
		`vim -es -c '1i|reboot' -c wq ~/.bashrc`,
		`vim -Es +'0put =\"reboot\"' +wq /etc/crontab`,
		`vi -c 'normal Oreboot' -c wq ~/.bashrc`,
		`vim -c 'norm! ggOpoweroff' -c x ~/.profile`,
		`printf '1i reboot\n' > /tmp/s.sed; sed -i -f /tmp/s.sed ~/.bashrc`,
		`echo 's/x/\x72eboot/' > /tmp/s.sed; sed -i --file=/tmp/s.sed /etc/crontab`,
		`echo '$a poweroff' > /tmp/s.sed; sed -i -f/tmp/s.sed ~/.profile`,
		`echo '1e reboot' > /tmp/s.sed; sed -f /tmp/s.sed /srv/x`,
		`echo 's/x/\LREBOOT/' > /tmp/s.sed; sed -i -f /tmp/s.sed ~/.bashrc`,
		"sed -i '1a\\\n\\d114eboot' ~/.bashrc",
		`awk 'BEGIN{print "reboot" >> "/etc/cron.d/x"}'`,
		`awk 'BEGIN{print "reboot" > ENVIRON["HOME"]"/.bashrc"}'`,
		`gawk 'BEGIN{print "re" "boot" > "/root/.profile"}'`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`sed -i '/reboot/d' /etc/crontab`,
		`sed -i 's/.*reboot.*//' /etc/crontab`,
		`sed -i 's/^\(.*reboot\)/#\1/' /etc/crontab`,
		`sed -i 's/reboot/#reboot/' /etc/crontab`,
		`sed -i '/reboot/s/^/#/' /etc/crontab`,
		`sed -i 's/^#//' /etc/crontab`,
		`sed -i 's/foo/bar/' ~/.bashrc`,
		`sed -i '$a alias ll="ls -l"' ~/.bashrc`,
		`vim -c 'normal Oalias ll=ls' -c wq ~/.bashrc`,
		`awk 'BEGIN{print "alias x=y" >> "/root/.profile"}'`,
		`echo 's/a/b/' > /tmp/s.sed; sed -i -f /tmp/s.sed ~/.bashrc`,
		`sed -i -f /tmp/s.sed ~/.bashrc`,
	))
	runExactHosts(t, p, tierCases(TierMutate,
		`sed -i '1i reboot' /srv/notes.txt`,
		`sed -i 's/x/reboot/' /srv/x`,
	))
	runExactHosts(t, p, tierCases(TierRead,
		`sed '1i reboot' ~/.bashrc`,
		`sed -n '/reboot/p' /etc/crontab`,
	))
}

// TestBlindSpotExSilentClusters: ex's -s is silent mode, a flag, so -sc
// CMD is -s then -c CMD; read as -s's script name it hid the command, and
// ex -sc '!reboot' was an approval rather than denied.
func TestBlindSpotExSilentClusters(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`ex -sc '!reboot' -cq /srv/x`,
		`ex -sc'!reboot' /srv/x`,
		`vim -esc '!poweroff' /srv/x`,
		`vim -Esc 'call system("reboot")' /srv/x`,
	))
}

// TestBlindSpotSedCaseConversions: GNU sed's replacement case conversions
// (\L, \U, \l, \u until \E) apply before s///e runs the line, so
// s/.*/\LREBOOT/e runs reboot; read as the letters L and R they hid it.
func TestBlindSpotSedCaseConversions(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		`echo x | sed 's/.*/\LREBOOT/e'`,
		`echo x | sed 's/.*/\lR\LEBOOT/e'`,
		`echo x | sed 's/.*/\U\lREBOOT\E/e'`,
		`sed 's/x/\L\x52EBOOT/e' /srv/in`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		`echo x | sed 's/.*/\Udate/e'`,
	))
}
