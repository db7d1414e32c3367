package policy

import "testing"

// TestBlindSpotGitSubcommandPrograms: filter-branch's filters, instaweb's
// httpd and browser, daemon's access hook and send-email's SMTP server
// given as a path are programs git runs, through a shell for the first
// ones: what they run meets the deny rules, in the "=value", next-word and
// abbreviated spellings git's option parser takes.
func TestBlindSpotGitSubcommandPrograms(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierDestructive, true,
		"git filter-branch --tree-filter reboot", "git filter-branch --tree-filter 'rm -rf /' HEAD",
		"git filter-branch --index-filter='reboot' HEAD", `git filter-branch --msg-filter "sed s/a/b/; reboot"`,
		"git filter-branch --tree-f reboot", "git filter-branch --env-filter 'reboot' -- --all",
		`git filter-branch --commit-filter 'git commit-tree "$@"; reboot'`, "git filter-branch --parent-filter reboot",
		"git filter-branch --tag-name-filter 'cat; reboot' -- --all", "git -C /srv/repo filter-branch -f --tree-filter reboot",
		"git instaweb --httpd=reboot", "git instaweb -d reboot", "git instaweb --browser reboot", "git instaweb -b reboot",
		"git daemon --access-hook=reboot", "git daemon --access-hook reboot --base-path=/srv",
		"git send-email --smtp-server=/sbin/reboot x.patch", "git send-email --smtp-server /sbin/reboot x.patch",
	))
	runExactHosts(t, p, []exactCase{
		{"filter with sed", "git filter-branch --tree-filter 'sed -i s/a/b/ f' HEAD", TierDestructive},
		{"subdirectory filter", "git filter-branch --subdirectory-filter sub HEAD", TierDestructive},
		{"smtp host", "git send-email --smtp-server smtp.example.com x.patch", TierDestructive},
	})
}
