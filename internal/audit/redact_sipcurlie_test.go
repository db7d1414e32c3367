package audit

import "testing"

// TestRedactSIPAndCurlie: a SIP URI (sip:, sips:) carries its password in
// its user info with no "//" after the scheme, and curlie takes curl's
// options (-u user:password, --oauth2-bearer, -x with user info). Tried
// locally and over ssh.
func TestRedactSIPAndCurlie(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, c := range []detourCase{
		{"sip", "baresip -e '/uanew <sip:bob:" + pw + "@pbx.example.com;transport=tls>'", []string{"<sip:bob:", "@pbx.example.com;transport=tls>"}},
		{"sip", "linphonec -c 'register sips:alice:" + pw + "@h'", []string{"register sips:alice:"}},
		{"sip", "echo 'sip:100:" + pw + "@10.0.0.1:5060' >> accounts", []string{"@10.0.0.1:5060"}},
		{"sip", "pjsua --id sip:bob@h --registrar sip:h 'SIP:bob:" + pw + "@h'", []string{"--registrar sip:h"}},
		{"curlie", "curlie -u bob:" + pw + " https://x", []string{"curlie -u bob:", "https://x"}},
		{"curlie", "curlie --user=bob:" + pw + " post https://x a=b", []string{"a=b"}},
		{"curlie", "curlie --oauth2-bearer " + pw + " https://x", []string{"https://x"}},
		{"curlie", "curlie -x http://bob:" + pw + "@proxy:3128 https://x", []string{"@proxy:3128"}},
		{"curlie", "curlie -su bob:" + pw + " https://x", []string{"https://x"}},
	} {
		cases = append(cases, c, detourCase{c.class + "/ssh", `ssh h "` + escapeDouble(c.in) + `"`, []string{"ssh h"}})
	}
	cases = append(cases,
		// Kept: SIP URIs with no password, and words that end in sip.
		detourCase{"kept", "echo sip:bob@h:5060 and sip:100@pbx", []string{"sip:bob@h:5060 and sip:100@pbx"}},
		detourCase{"kept", "echo gossip:x:y@z", []string{"gossip:x:y@z"}},
		detourCase{"kept", "curlie -v https://x a==b", []string{"curlie -v https://x a==b"}},
	)
	checkSubtests(t, pw, cases)
}
