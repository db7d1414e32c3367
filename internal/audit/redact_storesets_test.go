package audit

import "testing"

// TestRedactStoreSetPairs: doppler secrets set takes NAME VALUE as two
// words besides NAME=VALUE, and vault write to a KV or cubbyhole mount
// stores every value; names, options and other mounts' settings stay.
func TestRedactStoreSetPairs(t *testing.T) {
	checkCases(t, []spelling{
		{"doppler secrets set FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"doppler secrets set FOO "}},
		{"doppler secrets set FOO 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"set FOO '"}},
		{"doppler secrets set FOO S3cr3tZ BAR S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{" BAR "}},
		{"doppler secrets set FOO S3cr3tZ --project p --config dev", []string{"S3cr3tZ"}, []string{"--project p --config dev"}},
		{"doppler secrets set --project p FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"--project p FOO "}},
		{"doppler -p p -c dev secrets set FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"set FOO "}},
		{"vault write secret/x value=S3cr3tZ", []string{"S3cr3tZ"}, []string{"secret/x value="}},
		{"vault write secret/data/app foo=S3cr3tZ bar=S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{" bar="}},
		{"vault write kv/app foo=S3cr3tZ", []string{"S3cr3tZ"}, []string{"kv/app foo="}},
		{"vault write -f secret/x foo=S3cr3tZ", []string{"S3cr3tZ"}, []string{"foo="}},
		{"vault write cubbyhole/t foo=S3cr3tZ", []string{"S3cr3tZ"}, []string{"foo="}},
		{"bao write secret/x value=S3cr3tZ", []string{"S3cr3tZ"}, []string{"value="}},
		// Kept: a name alone (doppler prompts), settings of other mounts.
		{"doppler secrets set FOO", nil, []string{"doppler secrets set FOO"}},
		{"doppler secrets set FOO --project p", nil, []string{"doppler secrets set FOO --project p"}},
		{"vault write pki/issue/web common_name=www.example.com ttl=24h", nil, []string{"common_name=www.example.com ttl=24h"}},
		{"vault write sys/policy/dev policy=@dev.hcl", nil, []string{"policy=@dev.hcl"}},
	})
}
