package audit

import "testing"

// TestRedactDBIAndExpectCalls: DBI's connect with variables or Perl's
// q{…} literals before the password (DBI->connect($dsn, $u, "…"),
// connect_cached, q{…}), and a send call answering the password prompt a
// script expected last (pexpect's c.expect("assword"); c.sendline("…"),
// Ruby's PTY writer).
func TestRedactDBIAndExpectCalls(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"dbi", `perl -MDBI -e 'DBI->connect($dsn, $u, "` + pw + `", {AutoCommit => 0})'`, []string{"{AutoCommit => 0}"}},
		{"dbi", `perl -MDBI -e 'my $dbh = DBI->connect_cached("dbi:mysql:d", "bob", "` + pw + `")'`, []string{`"bob", "`}},
		{"dbi", `perl -e 'use DBI; $dbh = DBI->connect(qq{dbi:mysql:d}, q{bob}, q{` + pw + `})'`, []string{"q{bob}"}},
		{"dbi", `perl -MDBI -e 'DBI->connect($dsn, $user, q{` + pw + `}) or die'`, []string{"or die"}},
		{"dbi", `php -r '$db = new PDO($dsn, $user, "` + pw + `");'`, []string{"$user, "}},
		{"dbi", `php -r 'mysqli_connect($host, $user, "` + pw + `", "d");'`, []string{`"d")`}},
		{"dbi", `ssh db1 "perl -MDBI -e 'DBI->connect(\$dsn, \$u, q{` + pw + `})'"`, []string{"ssh db1"}},
		{"expect", `python3 -c 'c = pexpect.spawn("ssh h"); c.expect("assword"); c.sendline("` + pw + `")'`, []string{`c.expect("assword")`}},
		{"expect", "python3 -c 'import pexpect\nc = pexpect.spawn(\"sudo -v\")\nc.expect(\"[Pp]assword\")\nc.sendline(\"" + pw + "\")\nc.expect(pexpect.EOF)'", []string{"pexpect.EOF"}},
		{"expect", `python3 -c 'c = pexpect.spawn("ssh-add k"); c.expect("passphrase"); c.send("` + pw + `\n")'`, nil},
		{"expect", `ruby -rpty -rexpect -e 'PTY.spawn("su -") { |r, w, pid| r.expect(/Password:/); w.puts("` + pw + `") }'`, nil},
		{"expect", "python3 - <<'EOF'\nc = pexpect.spawn('mysql -u root -p')\nc.expect('Enter password:')\nc.sendline('" + pw + "')\nEOF", nil},
		// Kept: the call answers no password prompt.
		{"kept", `python3 -c 'c = pexpect.spawn("ftp h"); c.expect("Password:"); c.sendline("x"); c.expect("ftp>"); c.sendline("ls")'`, []string{`c.sendline("ls")`}},
		{"kept", `python3 -c 'c = pexpect.spawn("top"); c.expect("load"); c.sendline("q")'`, []string{`c.sendline("q")`}},
		{"kept", `python3 -c 'f.write("hello"); print("x")'`, []string{`f.write("hello")`}},
		{"kept", `perl -MDBI -e 'DBI->connect($dsn, $u, $p)'`, []string{"$u, $p)"}},
		{"kept", `perl -e 'print q{hello}, q{world}'`, []string{"q{hello}, q{world}"}},
	})
}
