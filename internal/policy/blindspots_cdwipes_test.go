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
