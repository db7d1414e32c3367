package audit

import "testing"

// TestRedactSecretStoreSetters: what a secret store or a platform's
// config setter is given to store is a secret whatever its name, as
// NAME=VALUE pairs, a positional or an option; names, apps and paths are
// kept, and the same programs' reads keep everything.
func TestRedactSecretStoreSetters(t *testing.T) {
	checkCases(t, []spelling{
		{"fly secrets set FOO=S3cr3tZ BAR=S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"FOO=", "BAR="}},
		{"flyctl secrets set -a app FOO='S3cr3tZ'", []string{"S3cr3tZ"}, []string{"-a app FOO="}},
		{"doppler secrets set FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"FOO="}},
		{"supabase secrets set FOO=S3cr3tZ --project-ref p", []string{"S3cr3tZ"}, []string{"--project-ref p"}},
		{"infisical secrets set FOO=S3cr3tZ --env=prod", []string{"S3cr3tZ"}, []string{"FOO="}},
		{`railway variables --set "FOO=S3cr3tZ"`, []string{"S3cr3tZ"}, []string{`--set "FOO=`}},
		{"railway variables set FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"FOO="}},
		{"heroku config:set FOO=S3cr3tZ -a app", []string{"S3cr3tZ"}, []string{"FOO=", "-a app"}},
		{"heroku config:add URL=postgres://x:S3cr3tZ@h/db", []string{"S3cr3tZ"}, []string{"URL="}},
		{"dokku config:set --no-restart app FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"app FOO="}},
		{"netlify env:set FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"env:set FOO"}},
		{"eb setenv FOO=S3cr3tZ BAR=S3cr3tY", []string{"S3cr3tZ", "S3cr3tY"}, []string{"eb setenv FOO="}},
		{"firebase functions:config:set svc.foo=S3cr3tZ", []string{"S3cr3tZ"}, []string{"svc.foo="}},
		{"nomad var put secret/app FOO=S3cr3tZ", []string{"S3cr3tZ"}, []string{"secret/app FOO="}},
		{"chamber write svc foo S3cr3tZ", []string{"S3cr3tZ"}, []string{"svc foo"}},
		{`sops set s.yaml '["foo"]' '"S3cr3tZ"'`, []string{"S3cr3tZ"}, []string{`'["foo"]'`}},
		{"akeyless create-secret --name x --value S3cr3tZ", []string{"S3cr3tZ"}, []string{"--name x"}},
		{"conjur variable set -i prod/db -v S3cr3tZ", []string{"S3cr3tZ"}, []string{"-i prod/db"}},
		{"berglas create proj/sec S3cr3tZ --key k", []string{"S3cr3tZ"}, []string{"proj/sec", "--key k"}},
		{"dotenvx set FOO S3cr3tZ", []string{"S3cr3tZ"}, []string{"set FOO"}},
		// Kept: reads, unsets and a csh setenv of no secret.
		{"heroku config:get FOO -a app; fly secrets list; dokku config:unset app FOO", nil, []string{"config:get FOO -a app", "config:unset app FOO"}},
		{"nomad var get secret/app; chamber read svc foo; dotenvx get FOO", nil, []string{"var get secret/app", "read svc foo", "get FOO"}},
		{"setenv EDITOR vim", nil, []string{"setenv EDITOR vim"}},
	})
}
