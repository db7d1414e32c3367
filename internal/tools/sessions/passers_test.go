package sessions

import "testing"

// ssh gives its remote command the terminal's lines, and openssl's
// s_client and its PEM readers without -in read them: after "ssh -o
// BatchMode=yes host head -n 1" (which asks nothing) the line "echo \"
// goes to the remote head, and "touch x" runs here.
func TestInputPassersTakeTheNextLine(t *testing.T) {
	t.Parallel()
	leavesNextLinesUnseen(t, []string{
		"ssh -o BatchMode=yes host cat", "ssh -oBatchMode=yes host head -n 1", "ssh -o BatchMode=yes -p 22 host 'read x'",
		"ssh -o BatchMode=yes -i key host sh", "ssh -o BatchMode=yes host ls", "slogin -o BatchMode=yes h cat",
		"ssh -T -o BatchMode=yes host tee /dev/null",
		"openssl s_client -connect h:443", "openssl s_client -quiet -connect h:443", "openssl s_server -accept 4433",
		"openssl x509 -noout -text", "openssl req -noout -text", "openssl base64 -d", "openssl enc -d -a",
		"openssl dgst -sha256", "openssl sha256", "openssl asn1parse", "openssl pkey -pubin -noout",
		"openssl verify -CAfile ca.pem", "env openssl x509 -noout", "openssl req -new -key k.pem -out r.csr", "timeout 5 openssl s_client -connect h:443",
	})
}

func TestInputPassersThatReadNothingTyped(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"ssh -n -o BatchMode=yes host cat", "ssh -o BatchMode=yes host cat < /dev/null",
		"echo x | ssh -o BatchMode=yes host cat", "openssl x509 -in c.pem -noout -text", "openssl dgst -sha256 f",
		"openssl sha256 f", "openssl verify -CAfile ca.pem c.pem", "openssl s_client -connect h:443 < /dev/null",
		"openssl version", "openssl rand -hex 8", "openssl req -in r.csr -noout -text", "echo x | openssl base64",
	} {
		if _, last := typeAll(tty, c, "echo \\", "ls"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
