package policy

import "testing"

// TestBlindSpotWipesAfterCd: after a cd into a system directory, what
// names the working directory's every entry ("." or no start for find,
// no operand for ls, *) removes that directory's contents, as rm -rf *
// there does: find . -delete, find -exec rm, ls | xargs rm -r. After a cd
// into a program, library or configuration directory, removing its every
// file without -r is denied as rm -f /etc/* is (rm -f *, ls | xargs rm);
// and listing such a directory into xargs rm is too (ls /etc | xargs rm
// -f, ls -d /usr/bin/* | xargs rm). The same in an ordinary directory
// keeps tier 3.
func TestBlindSpotWipesAfterCd(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"cd /etc && find . -delete",
		"cd /etc && find -delete",
		"cd /etc; find ./ -depth -delete",
		"cd /usr && find . -exec rm -rf {} +",
		"cd /usr && find * -delete",
		"cd /etc && find . | xargs rm -rf",
		"cd /etc && find | xargs rm",
		"cd /usr && ls | xargs rm -rf",
		"cd / && ls | xargs rm -rf",
		"cd /etc && ls -A | xargs rm -r",
		"cd /etc && ls . | parallel rm -rf",
		"cd ~ && find . -delete",
		"cd /etc && rm -f *",
		"cd /usr/bin && rm -f *",
		"cd /usr/lib; rm -- *",
		"cd /etc && rm -f .* *",
		"cd /boot && rm ./*",
		"cd /etc && ls | xargs rm -f",
		"pushd /etc && find . -delete",
		"ls /etc | xargs rm -f",
		"ls -d /etc/* | xargs rm -f",
		"ls /usr/bin | xargs rm",
		"ls -A /usr/lib/ | xargs -n1 rm -f",
		"ls /etc | tail -n +2 | xargs rm",
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cd /srv/app && find . -delete",
		"cd /srv/app && ls | xargs rm -f",
		"cd /srv/app && rm -f *",
		"ls /srv/app | xargs rm -f",
		"ls /var/log/*.gz | xargs rm -f",
		"cd /etc && find . -name '*.bak' -delete",
		"cd /tmp && find . -delete",
		"find . -delete",
		"ls | xargs rm -f",
	))
	runExactHosts(t, p, []exactCase{
		{"reading after cd", "cd /usr/share/doc && ls | xargs -I{} ls -l {}", TierRead},
		{"listing after cd", "cd /usr/bin && ls", TierRead},
	})
}

// TestBlindSpotRelativeTreesAfterCd: a relative tree rm -r removes is
// read against every directory a cd in the input can make current, as a
// relative file a command changes is: cd /tmp; rm -rf ../usr and cd /;
// rm -rf etc remove /usr and /etc. The directory before the last cd
// ($OLDPWD, ~-) is one of them. A relative tree elsewhere keeps tier 3.
func TestBlindSpotRelativeTreesAfterCd(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"cd /tmp; rm -rf ../usr",
		"cd /etc; rm -rf ../etc",
		"cd /srv/app; rm -rf ../../usr",
		"cd /; rm -rf usr",
		"cd / && rm -r -f etc boot",
		"cd /usr && rm -rf lib bin",
		"cd /var/tmp && rm -rf ../lib",
		"cd /etc; echo x > aliases; cd /; rm -rf usr",
		"cd /; cd /tmp; rm -rf $OLDPWD",
		`cd /usr && cd /tmp && rm -rf "$OLDPWD"`,
		"cd /etc; cd /tmp; rm -rf ~-",
		`pushd /usr >/dev/null; rm -rf share`,
	))
	runBlindHosts(t, p, sameCases(TierDestructive, false,
		"cd /srv; rm -rf app",
		"cd /tmp; rm -rf build",
		"rm -rf build dist",
		`cd /tmp/a; cd /tmp/b; rm -rf "$OLDPWD"`,
		"cd /srv/app && rm -rf ../old-release",
	))
}
