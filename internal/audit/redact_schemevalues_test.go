package audit

import "testing"

// TestRedactSchemeValues: a secret-named key or header other than
// Authorization (Authentication:, X-Auth:, token:, api_key=) whose value
// is an auth scheme followed by its credentials loses the credentials,
// not just the scheme word; the scheme stays. A Kubernetes bearer token
// carried as a WebSocket subprotocol goes too. Tried locally and over ssh.
func TestRedactSchemeValues(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, scheme := range []string{"Bearer", "Basic", "Token", "token", "Bot", "SSWS", "Api-Key", "Digest", "OAuth"} {
		for _, c := range []detourCase{
			{"header", "curl -H 'Authentication: " + scheme + " " + pw + "' https://x", []string{"Authentication: " + scheme}},
			{"header", "curl -H 'X-Auth: " + scheme + " " + pw + "' https://x", []string{"X-Auth: " + scheme}},
			{"header", "wget --header='X-Authentication: " + scheme + " " + pw + "' https://x", []string{"X-Authentication: " + scheme}},
			{"header", "http https://x 'Auth:" + scheme + " " + pw + "'", []string{"https://x"}},
			{"yaml", "echo 'token: " + scheme + " " + pw + "' >> app.yml", []string{"token: " + scheme, ">> app.yml"}},
			{"equals", "echo 'api_key=" + scheme + " " + pw + "' >> .env", []string{">> .env"}},
		} {
			cases = append(cases, c, detourCase{c.class + "/ssh", `ssh h "` + escapeDouble(c.in) + `"`, []string{"ssh h"}})
		}
	}
	cases = append(cases,
		detourCase{"k8s", "websocat -H 'Sec-WebSocket-Protocol: base64url.bearer.authorization.k8s.io." + pw + "' wss://api:6443/x", []string{"wss://api:6443/x"}},
		// Kept: a scheme word with nothing after it, and values that
		// are no scheme.
		detourCase{"kept", "cat /etc/app.yml | grep 'auth_type: basic'", []string{"grep 'auth_type: basic'"}},
		detourCase{"kept", "curl -H 'Accept: application/json' -H 'X-Request-Id: abc def' https://x", []string{"Accept: application/json", "X-Request-Id: abc def"}},
		detourCase{"kept", "kubectl get secret x -o jsonpath='{.data.token}' | base64 -d", []string{"jsonpath='{.data.token}' | base64 -d"}},
	)
	checkSubtests(t, pw, cases)
}
