package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotPlaybookListingFromAgentFiles: ansible-playbook's listing
// modes template the plays (hosts: "{{ lookup('pipe', CMD) }}" runs CMD
// here for --list-hosts) and load the plugins beside the playbook
// (filter_plugins, vars_plugins), so a playbook under a temporary
// directory, known only at run time, or reached by a climb to one, is
// code: tier 3 as running it is. The operator's playbook keeps tier 2.
func TestBlindSpotPlaybookListingFromAgentFiles(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp", "/dev/shm/q", "/tmp/x/../y", "/TMP/x", "../../../../tmp/x"} {
		for _, f := range []string{"ansible-playbook --syntax-check %s/p.yml", "ansible-playbook --list-tasks %s/p.yml",
			"ansible-playbook --list-hosts %s/p.yml", "ansible-playbook --list-tags %s/site.yml",
			"ansible-playbook -e env=prod --syntax-check %s/p.yml", "ansible-playbook --syntax-check -l web %s/p.yml",
			"ansible-playbook --list-tasks /srv/ops/a.yml %s/b.yml", "sudo ansible-playbook --syntax-check %s/p.yml",
			"timeout 30 ansible-playbook --list-tasks %s/p.yml"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, `ansible-playbook --syntax-check "$p"`, "ansible-playbook --list-tasks $(ls /tmp/*.yml)")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's playbook", "ansible-playbook --syntax-check /srv/ops/site.yml", TierMutate},
		{"relative", "ansible-playbook --list-tasks site.yml", TierMutate},
		{"extra var naming /tmp", "ansible-playbook --syntax-check -e out=/tmp/y site.yml", TierMutate},
		{"limit", "ansible-playbook --list-hosts -l /tmp/x site.yml", TierMutate},
		{"version", "ansible-playbook --version", TierRead},
	})
}
