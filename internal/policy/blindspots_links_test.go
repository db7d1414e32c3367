package policy

import "testing"

// linkPolicy protects a state directory under /var/lib, as a packaged
// warden has it, and the usual files in it.
func linkPolicy(t *testing.T) *Policy {
	t.Helper()
	return protectedPolicy(t, "/var/lib/warden", "/var/lib/warden/token", "/var/lib/warden/audit.jsonl",
		"/var/lib/warden/recordings")
}

// TestBlindSpotLinkSpellings: a link, copy or mount the input makes of a
// directory above warden's state is followed in every spelling of its
// source and of the later word: a symbolic link's relative target read
// from the link's directory, ~user, /proc/PID/root and /proc/PID/cwd, a
// glob, a chain through an earlier link, a relative link name used by its
// absolute one, and a later glob or /proc/self/root spelling of the name.
func TestBlindSpotLinkSpellings(t *testing.T) {
	p := linkPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		// Relative targets are read from the link's directory.
		"ln -s ../var/lib /tmp/t; cat /tmp/t/warden/token",
		"ln -s ../../var/lib /tmp/a/t; cat /tmp/a/t/warden/token",
		"cd /tmp; ln -s ../var/lib t; cat t/warden/token",
		"ln -s ../var/lib /tmp/; cat /tmp/lib/warden/token",
		"ln -st /tmp ../var/lib; cat /tmp/lib/warden/token",
		"ln -sfT ../var/lib /tmp/t; cat /tmp/t/warden/token",
		"ln -s -- ../var/lib /tmp/t; cat /tmp/t/warden/token",
		"ln --symbolic ../var/lib /tmp/t; cat /tmp/t/warden/token",
		"sudo ln -s ../var/lib /tmp/t; cat /tmp/t/warden/token",
		"d=../var/lib; ln -s $d /tmp/t; cat /tmp/t/warden/token",
		"ln -s ../../../../../../var/lib l; cat l/warden/token",
		"ln -s ../.. r; cat r/var/lib/warden/token",
		"cd /tmp; ln -s .. r; cat r/var/lib/warden/token",
		// Other relative sources are read from the working directory.
		"cd /var; mount --bind lib /mnt; cat /mnt/warden/token",
		"cd /; cp -a var/lib /tmp/x; cat /tmp/x/warden/token",
		// Homes and process links.
		"ln -s ~root/.local /tmp/h; cat /tmp/h/state/warden/token",
		"ln -s ~root /tmp/h; cat /tmp/h/.local/state/warden/audit.jsonl",
		"ln -s /proc/1/root/var /tmp/v; cat /tmp/v/lib/warden/token",
		"ln -s /proc/self/root /tmp/r; cat /tmp/r/var/lib/warden/token",
		"ln -s /proc/self/cwd /tmp/l; cd /var/lib; cat /tmp/l/warden/token",
		"cd /var/lib; ln -s /proc/self/cwd /tmp/l; cat /tmp/l/warden/token",
		"ln -s /proc/self/cwd/warden /tmp/l; cd /var/lib; cat /tmp/l/token",
		// A glob source, and a chain through an earlier link.
		"ln -s /var/l?b /tmp/l; cat /tmp/l/warden/token",
		"ln -s /v*/lib /tmp/l; cat /tmp/l/warden/token",
		"ln -s /var/li? /tmp/l; cat /tmp/l/warden/token",
		"ln -s /v?r /tmp/l; cat /tmp/l/lib/warden/token",
		"ln -s /var /tmp/a; ln -s /tmp/a/lib /tmp/b; cat /tmp/b/warden/token",
		"ln -s /var /tmp/a; ln -s a/lib /tmp/b; cat /tmp/b/warden/token",
		"ln -s /var /tmp/a && cd /tmp && ln -s a/lib b && cat b/warden/token",
		// A relative link name used by its absolute name.
		"cd /tmp; ln -s /var/lib l; cat /tmp/l/warden/token",
		"cd /tmp; ln -s /var/lib; cat /tmp/lib/warden/token",
		// The later word as a glob or through /proc/PID/root.
		"ln -s /var/lib /tmp/l; cat /tmp/?/warden/token",
		"ln -s /var/lib /tmp/l; cat /tmp/*/warden/token",
		"ln -s /var/lib /tmp/l; cat /tmp/[l]/warden/token",
		"ln -s /var/lib /tmp/l; cat /tmp/*/*/token",
		"ln -s /var/lib /tmp/l; cat /t*/l/w*/t*",
		"ln -s /var/lib /tmp/l; cat /proc/self/root/tmp/l/warden/token",
		"ln -s /var/lib /tmp/l; cat /proc/1/root/tmp/l/warden/token",
		"ln -s /var/lib /tmp/l; find /tmp/l/ -name token",
	))
	// Reading every file under the new name reads warden's state.
	runBlind(t, p, sameCases(TierDestructive, false,
		"ln -s /var/lib /tmp/l; grep -r x /tmp/l/",
		"ln -s /var/lib /tmp/l; tar c /tmp/l/",
		"ln -s /var/lib /tmp/l; rg x /tmp/l/",
		"ln -s /var/lib /tmp/l; cp -r /tmp/l/ /tmp/y",
		"ln -s /var/lib /tmp/l; tar c -C /tmp l/",
		"ln -s /proc/self/cwd /tmp/l; cd /var/lib; grep -r x /tmp/l/",
	))
	// Links that do not reach warden's state stay what they were.
	runExact(t, p, []exactCase{
		{"target beside the link", "cd /var; ln -s lib /tmp/l; cat /tmp/l/warden/token", TierMutate},
		{"link to the parent", "cd /tmp; ln -s .. up; ls up/", TierMutate},
		{"other file under the link", "ln -s /var/lib /tmp/l; cat /tmp/l/dpkg/status", TierMutate},
		{"glob beside the link", "ln -s /var/lib /tmp/l; cat /tmp/*/dpkg/status", TierMutate},
		{"relative link elsewhere", "ln -s ../etc/ssl /tmp/s; cat /tmp/s/openssl.cnf", TierMutate},
	})
}
