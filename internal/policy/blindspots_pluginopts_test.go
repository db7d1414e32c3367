package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotAnsiblePluginDirOptions: ansible-doc imports the plugins
// it lists from -M and --playbook-dir, ansible-inventory runs the vars
// plugins of --playbook-dir, and ansible-config -c reads a configuration
// naming the plugin paths. Tier 2 where the operator keeps them, they run
// what a tier 1 write left when the directory is a temporary one, relative
// to one, or known only at run time.
func TestBlindSpotAnsiblePluginDirOptions(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, d := range []string{"/tmp/x", "/var/tmp/p", "/dev/shm/q", "/tmp", "$d", "\"$(mktemp -d)\"", "/tmp/*", "/private/tmp/x", "../../../tmp/x"} {
		for _, f := range []string{"ansible-doc -M %s -l", "ansible-doc -M%s -l", "ansible-doc --module-path %s -l",
			"ansible-doc --module-path=%s -t filter -l", "ansible-doc --playbook-dir %s -l", "ansible-inventory --playbook-dir %s --list",
			"ansible-inventory --playbook-dir=%s --graph", "ansible-config dump -c %s/ansible.cfg", "ansible-config view --config=%s/a.cfg",
			"ansible-config list -c %s/a.cfg", "sudo ansible-doc -M %s -l", "ansible-doc -l -M %s"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", d))
		}
	}
	cmds = append(cmds, "cd /tmp/x && ansible-doc -M mods -l", "cd / && ansible-doc -M tmp/x -l", "cd /tmp/x && ansible-config dump -c a.cfg")
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"operator's plugins", "ansible-doc -M /srv/ansible/library -l", TierMutate},
		{"operator's playbook dir", "ansible-inventory --playbook-dir /srv/ansible --list", TierMutate},
		{"system configuration", "ansible-config dump -c /etc/ansible/ansible.cfg", TierMutate},
		{"plain list", "ansible-doc -l", TierRead},
	})
}
