package audit

import (
	"strings"
	"testing"
)

// TestRedactParenlessLoginCalls: Ruby and Perl call a method without
// parentheses (req.basic_auth 'u', 'pw'; $ftp->login "u", "pw"), and
// python-ldap's bind_s takes the password second, as the login calls
// already read do. Each is tried in a script
// run by its interpreter, and inside ssh.
func TestRedactParenlessLoginCalls(t *testing.T) {
	const pw = "Zq9Secret77"
	calls := []string{
		`ruby -e 'req = Net::HTTP::Get.new(u); req.basic_auth "bob", "%s"'`,
		`ruby -e 'Net::FTP.open("h") { |f| f.login "bob", "%s" }'`,
		`ruby -e 'smtp.start("h"); smtp.auth_password "bob", "%s"'`,
		`ruby -e 'x.digest_auth "bob", "%s"'`,
		`ruby -e 'x.proxy_auth "bob", "%s"'`,
		`perl -MNet::FTP -e '$f = Net::FTP->new("h"); $f->login "bob", "%s";'`,
		`perl -e '$ldap->auth "cn=admin", "%s"'`,
		`python3 -c 'import ldap; l = ldap.initialize("ldap://h"); l.bind_s("cn=admin", "%s")'`,
	}
	var cases []detourCase
	for _, c := range calls {
		in := strings.Replace(c, "%s", pw, 1)
		cases = append(cases, detourCase{"local", in, []string{`"`}}, detourCase{"ssh", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h"}})
	}
	checkSubtests(t, pw, cases)

	// Kept: a shell's login and auth commands, and arguments that are
	// no literals.
	checkSpellings(t, []spelling{
		{"echo 'please login', 'then run' | logger", nil, []string{"'please login', 'then run'"}},
		{"gh auth login --hostname h; az login 'x'", nil, []string{"az login 'x'"}},
		{`ruby -e 'req.basic_auth "bob", ENV["PW"]'`, nil, []string{`"bob", ENV["PW"]`}},
		{`python3 -c 'c.authenticate(user, password)'`, nil, []string{"authenticate(user, password)"}},
	})
}
