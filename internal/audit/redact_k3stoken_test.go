package audit

import "testing"

// TestRedactK3sJoinTokens: a K3s or RKE2 join token (K10, the CA's hash,
// "::", a user and its password) joins a node to the cluster wherever it
// stands: printed from the node-token file, in an install line, a
// variable or a config file. A word that only starts like one stays.
func TestRedactK3sJoinTokens(t *testing.T) {
	const hash = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
	tok := "K10" + hash + "::server:9f8e7d6c5b4a39281706f5e4d3c2b1a0"
	node := "K10" + hash + "::node:Zx9Pw_Secret.Value"
	checkCases(t, []spelling{
		{tok, []string{"9f8e7d6c5b4a39281706f5e4d3c2b1a0", hash}, nil},
		{"sudo cat /var/lib/rancher/k3s/server/node-token\n" + tok + "\n", []string{"9f8e7d6c5b4a39281706f5e4d3c2b1a0"}, []string{"node-token"}},
		{"curl -sfL https://get.k3s.io | K3S_URL=https://h:6443 K3S_TOKEN=" + tok + " sh -", []string{"9f8e7d6c5b4a39281706f5e4d3c2b1a0"}, []string{"K3S_URL=https://h:6443"}},
		{"token: " + node, []string{"Zx9Pw_Secret.Value"}, []string{"token: "}},
		{"echo " + node + " | ssh h 'cat > /etc/rancher/token'", []string{"Zx9Pw_Secret.Value"}, []string{"ssh h"}},
		{`{"join":"` + tok + `"}`, []string{"9f8e7d6c5b4a39281706f5e4d3c2b1a0"}, []string{`{"join":"`}},
		// Not a token: no hash of 64 hex digits followed by "::".
		{"K10 resistor, K100 board", nil, []string{"K10 resistor, K100 board"}},
		{"K10" + hash[:60] + "::x:y", nil, []string{"K10"}},
	})
}
