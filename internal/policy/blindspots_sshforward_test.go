package policy

import "testing"

// TestBlindSpotSSHStdioForwardAndDelegation: ssh -W makes standard input
// and output a connection from the remote host to another address, as -L
// forwards one, and -o GSSAPIDelegateCredentials hands the caller's
// Kerberos tickets to the remote host, as -A hands its agent: each takes
// approval (tier 2), on this machine and on an SSH host, in every spelling
// of the option; a plain connection, or the option turned off, stays tier 1.
func TestBlindSpotSSHStdioForwardAndDelegation(t *testing.T) {
	p := protectedPolicy(t)
	for _, host := range []string{"", "db1"} {
		for _, c := range []string{
			`ssh -W h2:22 host`,
			`ssh -Wh2:22 host`,
			`ssh -NW '[::1]:22' host`,
			`ssh -W h2:22 -J jump host true`,
			`ssh -o GSSAPIDelegateCredentials=yes host`,
			`ssh -oGSSAPIDelegateCredentials=YES host`,
			`ssh -o 'gssapidelegatecredentials yes' host`,
			`ssh -o "GSSAPIDelegateCredentials yes" host uptime`,
			`scp -o GSSAPIDelegateCredentials=yes f host:`,
		} {
			if v := p.Evaluate(Input{Command: c, Host: host}); v.Tier < TierMutate {
				t.Errorf("host %q: %q: tier %d (%s), want at least 2", host, c, v.Tier, v.Reason)
			}
		}
		for _, c := range []string{
			`ssh host`,
			`ssh -J jump host`,
			`ssh -o GSSAPIDelegateCredentials=no host`,
		} {
			if v := p.Evaluate(Input{Command: c, Host: host}); v.Tier != TierBenign {
				t.Errorf("host %q: %q: tier %d (%s), want 1", host, c, v.Tier, v.Reason)
			}
		}
	}
}
