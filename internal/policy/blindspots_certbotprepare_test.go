package policy

import "testing"

// TestBlindSpotCertbotPluginsPrepare: certbot plugins --prepare prepares
// every installer as a run would: the nginx and apache plugins write their
// TLS options (and nginx its DH parameters) into /etc/letsencrypt, lock the
// web server's configuration directory, and apache's rolls back what an
// interrupted run left. Listing the plugins, initialised or not, reads.
func TestBlindSpotCertbotPluginsPrepare(t *testing.T) {
	p := protectedPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"certbot plugins --prepare",
		"certbot plugins --init --prepare",
		"certbot plugins --prep",
		"certbot plugins --prepa --installers",
		"certbot --prepare plugins",
		"certbot -v plugins --prepare",
		"certbot plugins --authenticators --prepare",
		"sudo certbot plugins --prepare",
		"/usr/bin/certbot plugins --prepare",
		"snap run certbot plugins --prepare",
	))
	runExactHosts(t, p, []exactCase{
		{"plugins", "certbot plugins", TierRead},
		{"plugins init", "certbot plugins --init", TierRead},
		{"installers", "certbot plugins --installers", TierRead},
		{"authenticators init", "certbot plugins --authenticators --init", TierRead},
		{"certificates", "certbot certificates", TierRead},
	})
}
