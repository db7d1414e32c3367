package audit

import (
	"strings"
	"testing"
)

// TestRedactStdinBootstrapTokens: nomad and consul acl bootstrap - read
// the bootstrap token on their input, also under sudo or env; a gossip
// key is given to keyring install, use and remove, and to -encrypt with
// one dash or two (Go's flag package). A job or a KV value fed to them
// stays.
func TestRedactStdinBootstrapTokens(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"nomad acl bootstrap - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"nomad acl bootstrap - <<<"}},
		{"nomad acl bootstrap - <<EOF\nS3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"nomad acl bootstrap - <<EOF"}},
		{"echo S3cr3tZ | nomad acl bootstrap -address=https://n1:4646 -", []string{"S3cr3tZ"}, []string{"-address=https://n1:4646"}},
		{"printf %s \"S3cr3tZ\" | consul acl bootstrap -", []string{"S3cr3tZ"}, []string{"consul acl bootstrap -"}},
		{"ssh n1 'nomad acl bootstrap - <<< S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ssh n1 'nomad acl bootstrap"}},
		{"sudo nomad acl bootstrap - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"sudo nomad acl bootstrap"}},
		{"sudo -u nomad nomad acl bootstrap - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"sudo -u nomad nomad acl bootstrap"}},
		{"env NOMAD_ADDR=https://n1 nomad acl bootstrap - <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"NOMAD_ADDR=https://n1"}},
		{"nomad operator gossip keyring install S3cr3tZ", []string{"S3cr3tZ"}, []string{"keyring install"}},
		{"nomad operator keyring use -address=https://n1 S3cr3tZ", []string{"S3cr3tZ"}, []string{"-address=https://n1"}},
		{"consul keyring -install=S3cr3tZ", []string{"S3cr3tZ"}, []string{"consul keyring -install="}},
		{"consul keyring -use S3cr3tZ", []string{"S3cr3tZ"}, []string{"consul keyring -use"}},
		{"consul keyring --remove=S3cr3tZ", []string{"S3cr3tZ"}, []string{"consul keyring --remove="}},
		{"nomad agent -encrypt=S3cr3tZ -server", []string{"S3cr3tZ"}, []string{"-server"}},
		{"nomad agent --encrypt S3cr3tZ -server", []string{"S3cr3tZ"}, []string{"-server"}},
		{"consul agent --encrypt=S3cr3tZ", []string{"S3cr3tZ"}, []string{"consul agent --encrypt="}},
		// Stays.
		{"nomad job run - <<EOF\njob \"web\" { datacenters = [\"dc1\"] }\nEOF", nil, []string{"job \"web\" { datacenters = [\"dc1\"] }"}},
		{"sudo nomad job run - <<< 'job \"web\" {}'", nil, []string{"job \"web\" {}"}},
		{"nomad operator gossip keyring list", nil, []string{"nomad operator gossip keyring list"}},
		{"consul members -status=alive", nil, []string{"consul members -status=alive"}},
	})
	if !strings.Contains(Redact("nomad acl bootstrap"), "bootstrap") {
		t.Error("nomad acl bootstrap lost its words")
	}
}
