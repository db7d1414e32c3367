package audit

import "testing"

// TestRedactScriptCalls: secrets a script passes to a call or sets by a
// bareword key. A call's look stops where its arguments end, so a call
// soon after another (ftp_connect("h"); ftp_login($f, "bob", …)) is read
// too; Perl's $ENV{NAME} and $h{password} set a secret as $ENV{'NAME'}
// does; more login and encoding calls take a password.
func TestRedactScriptCalls(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"next-call", `php -r '$f = ftp_connect("h"); ftp_login($f, "bob", "` + pw + `");'`, []string{`ftp_connect("h")`, `"bob", "`}},
		{"next-call", `php -r '$c = ssh2_connect("h", 22); ssh2_auth_password($c, "bob", "` + pw + `");'`, []string{`"bob", "`}},
		{"next-call", `python3 -c 'ftplib.FTP("h1", "bob", "x1"); ftplib.FTP("h2", "bob", "` + pw + `")'`, []string{`"h2", "bob", "`}},
		{"next-call", `python3 -c 'import bcrypt; h = bcrypt.hashpw(b"x", bcrypt.gensalt()); bcrypt.hashpw(b"` + pw + `", bcrypt.gensalt())'`, nil},
		{"next-call", `python3 -c 'a = crypt.crypt("x"); b = crypt.crypt("` + pw + `")'`, nil},
		{"next-call", "python3 - <<'EOF'\nc = ssh2_connect('h', 22)\nftplib.FTP('h', 'bob', '" + pw + "')\nEOF", []string{"'h', 'bob', '"}},
		{"login", `perl -MNet::SSH2 -e '$s=Net::SSH2->new; $s->connect("h"); $s->auth_password("bob","` + pw + `")'`, []string{`"bob","`}},
		{"login", `ruby -e 'Net::HTTP::Get.new(u).basic_auth("bob", "` + pw + `")'`, []string{`basic_auth("bob", "`}},
		{"login", `ruby -e 'req.digest_auth("bob", "` + pw + `")'`, nil},
		{"encode", `perl -MMIME::Base64 -e 'print encode_base64("bob:` + pw + `")'`, []string{"encode_base64("}},
		{"encode", `php -r 'echo base64_encode("bob:` + pw + `");'`, []string{"base64_encode("}},
		{"encode", `ruby -e 'Base64.urlsafe_encode64("bob:` + pw + `")'`, nil},
		{"bareword", `perl -e '$ENV{PGPASSWORD}="` + pw + `"; system("psql")'`, []string{`system("psql")`}},
		{"bareword", `perl -e '$ENV{PGPASSWORD} = "` + pw + `"'`, []string{"$ENV{PGPASSWORD} = "}},
		{"bareword", `perl -e 'local $ENV{MYSQL_PWD} = q{` + pw + `}; system "mysql"'`, []string{`system "mysql"`}},
		{"bareword", `perl -e '$ENV{PGPASSWORD} ||= "` + pw + `"'`, nil},
		{"bareword", `perl -e "\$ENV{AWS_SECRET_ACCESS_KEY} = '` + pw + `'"`, nil},
		{"bareword", `perl -e '$h{password} = "` + pw + `"'`, nil},
		{"bareword", `perl -e '$cfg->{password} = "` + pw + `"'`, nil},
		{"bareword", `perl -e '$cfg->{db}{password} = "` + pw + `"'`, nil},
		{"bareword", `ssh db1 'perl -e "\$ENV{PGPASSWORD} = q{` + pw + `}; exec q{psql}"'`, []string{"ssh db1"}},
		// Kept: a read, a comparison, a key that names no secret, a
		// call with no secret argument.
		{"kept", `perl -e 'print $ENV{PGPASSWORD}'`, []string{"print $ENV{PGPASSWORD}"}},
		{"kept", `perl -e 'if ($h{password} eq "x") { print 1 }'`, []string{`eq "x"`}},
		{"kept", `perl -e 'if ($h{password} == 1) { print 1 }'`, []string{"== 1"}},
		{"kept", `perl -e '$h{user} = "bob"'`, []string{`"bob"`}},
		{"kept", `php -r 'echo base64_encode("hello world");'`, []string{"hello world"}},
		{"kept", `ruby -e 'http.basic_auth(user, pass)'`, []string{"basic_auth(user, pass)"}},
		{"kept", `php -r '$f = ftp_connect("h"); ftp_pasv($f, true);'`, []string{"ftp_pasv($f, true)"}},
	})
}
