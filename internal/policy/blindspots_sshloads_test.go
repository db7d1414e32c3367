package policy

import (
	"strings"
	"testing"
)

// TestBlindSpotSSHOptionsThatLoad: XAuthLocation is the xauth program ssh
// runs when it forwards X11 (which the operator's ssh_config may turn on
// for a host), so naming one is tier 3 as ProxyCommand and PKCS11Provider
// are, in every client that takes ssh's -o; sshfs hands its -o ssh
// options (PKCS11Provider among them) to the ssh it starts.
func TestBlindSpotSSHOptionsThatLoad(t *testing.T) {
	p := protectedPolicy(t)
	var cmds []string
	for _, o := range []string{"-o XAuthLocation=/tmp/x/xa", "-oXAuthLocation=/tmp/x/xa", "-o xauthlocation=/tmp/x/xa",
		"-o 'XAuthLocation /tmp/x/xa'", "-o XAuthLocation=/usr/bin/xauth -X", "-o XAUTHLOCATION=$x"} {
		for _, f := range []string{"ssh %s h uptime", "ssh h %s", "scp %s h:f /tmp/y", "sftp %s h", "autossh -M 0 %s h",
			"sudo ssh %s h", "git -c core.sshCommand='ssh %s' ls-remote h:r"} {
			cmds = append(cmds, strings.ReplaceAll(f, "%s", o))
		}
	}
	for _, o := range []string{"PKCS11Provider=/tmp/x/p.so", "pkcs11provider=/usr/lib/x.so", "SecurityKeyProvider=/tmp/x/s.so",
		"XAuthLocation=/tmp/x/xa", "reconnect,PKCS11Provider=/tmp/x/p.so"} {
		cmds = append(cmds, "sshfs -o "+o+" h: /mnt", "sshfs h:/srv /mnt -o "+o)
	}
	runBlindHosts(t, p, sameCases(TierDestructive, false, cmds...))
	runExactHosts(t, p, []exactCase{
		{"ssh", "ssh -o ConnectTimeout=5 h uptime", TierBenign},
		{"identity agent", "ssh -o IdentityAgent=none h uptime", TierBenign},
		{"sshfs", "sshfs -o reconnect,ServerAliveInterval=15 h:/srv /mnt", TierMutate},
	})
}
