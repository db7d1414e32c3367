package audit

import "testing"

// TestRedactSecretStoreSetters: what a secret store is given to store is
// a secret whatever its name, as NAME=VALUE pairs, a positional or an
// option; names, apps and paths are kept, and so is everything in the
// same programs' reads and in platforms' plain settings.
func TestRedactSecretStoreSetters(t *testing.T) {
	checkCases(t, []spelling{
		{"fly secrets set FOO=S3cr3tZ BAR=S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"FOO=", "BAR="}},
		{"flyctl secrets set -a app FOO='S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-a app FOO="}},
		{"doppler secrets set FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"FOO="}},
		{"supabase secrets set FOO=S3cr3tZ --project-ref p", []string{"S3cr3tZ"}, []string{"--project-ref p"}},
		{"infisical secrets set FOO=S3cr3tZ --env=prod", []string{"S3cr3tZ"}, []string{"FOO="}},
		{"nomad var put secret/app FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"secret/app FOO="}},
		{"chamber write svc foo S3cr3tZ", []string{"S3cr3tZ"}, []string{"svc foo"}},
		{`sops set s.yaml '["foo"]' '"S3cr3tZ"'`, []string{"S3cr3tZ"}, []string{`'["foo"]'`}},
		{"akeyless create-secret --name x --value S3cr3tZ", []string{"S3cr3tZ"}, []string{"--name x"}},
		{"conjur variable set -i prod/db -v S3cr3tZ", []string{"S3cr3tZ"}, []string{"-i prod/db"}},
		{"berglas create proj/sec S3cr3tZ --key k", []string{"S3cr3tZ"}, []string{"proj/sec", "--key k"}},
		{"dotenvx set FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"set FOO"}},
		{"dotnet user-secrets set \"Db:Password\" \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"user-secrets set"}},
		{"dotnet user-secrets set Stripe:Key S3cr3tZ --project app", []string{"S3cr3tZ"}, []string{"--project app"}},
		{"wp config set DB_PASSWORD S3cr3tZ", []string{"S3cr3tZ"}, []string{"wp config set DB_PASSWORD"}},
		{"wp config set AUTH_KEY 'S3cr3tZ' --type=constant", []string{"S3cr3tZ"}, []string{"--type=constant"}},
		// Kept: reads, unsets, and platforms' settings.
		{"fly secrets list; fly secrets unset FOO; doppler secrets get FOO", nil, []string{"secrets unset FOO", "secrets get FOO"}},
		{"heroku config:set NODE_ENV=production; netlify env:set NODE_VERSION 20", nil, []string{"NODE_ENV=production", "NODE_VERSION 20"}},
		{"nomad var get secret/app; chamber read svc foo; dotenvx get FOO", nil, []string{"var get secret/app", "read svc foo", "get FOO"}},
		{"setenv EDITOR vim", nil, []string{"setenv EDITOR vim"}},
	})
}
