package audit

import "testing"

// TestRedactKeepsCredentialSettings: a name that starts with a credential
// word but ends in what describes one (how long it lives, where it is
// issued, who may use it) holds a setting, not a secret; and a status
// word after "auth" in prose or a log search is no password. The secrets
// beside them still go.
func TestRedactKeepsCredentialSettings(t *testing.T) {
	checkCases(t, []spelling{
		{"vault write auth/approle/role/app token_ttl=1h token_max_ttl=4h", nil, []string{"token_ttl=1h token_max_ttl=4h"}},
		{"vault write auth/approle/role/app secret_id_ttl=10m token_num_uses=10", nil, []string{"secret_id_ttl=10m token_num_uses=10"}},
		{"vault write auth/jwt/role/x token_policies=dev", nil, []string{"token_policies=dev"}},
		{"export TOKEN_TTL=3600", nil, []string{"TOKEN_TTL=3600"}},
		{"export AUTH_TIMEOUT=30", nil, []string{"AUTH_TIMEOUT=30"}},
		{"export TOKEN_ENDPOINT=https://auth.example.com/token", nil, []string{"https://auth.example.com/token"}},
		{"export AUTH_HOST=auth.example.com AUTH_PORT=8443", nil, []string{"AUTH_HOST=auth.example.com AUTH_PORT=8443"}},
		{"export SECRET_NAME=db-creds", nil, []string{"SECRET_NAME=db-creds"}},
		{"export AUTH_PROVIDER=oidc AUTH_SCOPE=openid", nil, []string{"AUTH_PROVIDER=oidc AUTH_SCOPE=openid"}},
		{"export JWT_ISSUER=https://issuer JWT_AUDIENCE=api", nil, []string{"JWT_ISSUER=https://issuer JWT_AUDIENCE=api"}},
		{`echo "auth ok"`, nil, []string{`echo "auth ok"`}},
		{`echo "auth failed"`, nil, []string{`echo "auth failed"`}},
		{"grep -c 'auth failure' /var/log/secure", nil, []string{"'auth failure'"}},
		// The secrets beside them still go.
		{"export TOKEN_TTL=3600 API_TOKEN=S3cr3tZ", []string{"S3cr3tZ"}, []string{"TOKEN_TTL=3600"}},
		{"vault write auth/approle/role/app token_ttl=1h secret_id=S3cr3tZ", []string{"S3cr3tZ"}, []string{"token_ttl=1h"}},
		{"echo 'auth S3cr3tZ' | redis-cli", []string{"S3cr3tZ"}, []string{"| redis-cli"}},
		{"export AUTH_TOKEN=S3cr3tZ", []string{"S3cr3tZ"}, []string{"AUTH_TOKEN="}},
	})
}
