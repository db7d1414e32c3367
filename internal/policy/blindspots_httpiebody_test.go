package policy

import "testing"

// TestBlindSpotHTTPieBody: HTTPie and xh send a body, and so a POST,
// without a METHOD or key=value item saying so: a file field (name@FILE,
// @FILE), --raw DATA, or their standard input whenever it is not a
// terminal and holds anything; --ignore-stdin (-I) keeps the input out.
func TestBlindSpotHTTPieBody(t *testing.T) {
	p := testPolicy(t)
	runBlindHosts(t, p, sameCases(TierMutate, false,
		"http https://example.com/api @/etc/hosts",
		"http https://example.com/api a@/etc/hosts",
		"http https://example.com/api 'file@/tmp/report.csv;type=text/csv'",
		"http GET https://example.com/api doc@/tmp/x",
		"http --form https://example.com/api doc@/tmp/x",
		"https example.com/api a@/tmp/x",
		"xh https://example.com/api @/tmp/x",
		"xh example.com/api a@/tmp/x",
		"http --raw '{}' https://example.com/api",
		"http --raw=x https://example.com/api",
		"xh --raw '{\"a\":1}' https://example.com/api",
		"echo '{}' | http https://example.com/api",
		"cat /tmp/body.json | xh https://example.com/api",
		"http https://example.com/api < /tmp/body.json",
		"http https://example.com/api <<< '{\"a\":1}'",
		"xh https://example.com/api <<< x",
		"http https://example.com/api <<EOF\n{\"a\":1}\nEOF",
		"sudo http https://example.com/api < /tmp/x",
		"sh -c 'http https://example.com/api a@/tmp/x'",
		"timeout 5 xh https://example.com/api @/tmp/x",
	))
	runExactHosts(t, p, []exactCase{
		{"http URL", "http https://example.com/api", TierBenign},
		{"http GET header query", "http GET https://example.com/api X-Api-Key:k", TierBenign},
		{"http header with @", "http https://example.com/api From:ops@example.com", TierBenign},
		{"http --ignore-stdin", "http --ignore-stdin https://example.com/api < /tmp/x", TierBenign},
		{"xh -I", "xh -I https://example.com/api <<< x", TierBenign},
		{"xh URL", "xh https://example.com/api", TierBenign},
		{"http empty input", "echo | http https://example.com/api", TierBenign},
		{"http user@ URL", "http https://bob@example.com/api", TierBenign},
	})
}
