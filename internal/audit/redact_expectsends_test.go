package audit

import "testing"

// TestRedactExpectSends: expect's send answered a password prompt only
// when the 160 bytes before it held "assword", "passphrase" or "pin", so
// a pattern spelled as a regular expression ((P|p)ass), a bare ":" after
// spawn sudo, passwd's "New"/"Retype", exp_send and send -i ID kept the
// password. The last pattern before the send is now read for a secret's
// cue in any spelling, and the first send to a spawned program that asks
// for one on its terminal is its answer whatever the pattern, after a
// login name's prompt too. Each form is checked as typed and as an ssh
// host's remote command.
func TestRedactExpectSends(t *testing.T) {
	checkLocalAndSSH(t, "Zq9vTr7mK", []string{
		`expect -c 'spawn ssh h; expect -re "(P|p)ass"; send "%s\r"'`,
		`expect -c 'spawn ssh h; expect -re "\[Pp\]ass"; send -- "%s\r"'`,
		`expect -c 'set timeout 5; spawn sudo -k id; expect ":"; send "%s\r"'`,
		`expect -c 'spawn -noecho ssh h; expect -re ".*: ?$"; send "%s\r"'`,
		`expect -c 'spawn env LC_ALL=C /usr/bin/ssh h; expect "*:*"; send "%s\r"'`,
		`expect -c 'spawn passwd; expect "New"; send "%s\r"'`,
		`expect -c 'spawn passwd; expect "Retype"; send "%s\r"'`,
		`expect -c 'spawn ssh h; expect "assword"; exp_send "%s\r"'`,
		`expect -c 'spawn ssh h; expect "assword"; send -i $spawn_id "%s\r"'`,
		`expect -c 'spawn ssh h; expect "PIN"; send "%s\r"'`,
		`expect -c 'spawn ssh h; expect "Verification code"; send "%s\r"'`,
		`expect -c 'spawn ftp h; expect "Name"; send "bob\r"; expect ":"; send "%s\r"'`,
		`expect -c 'spawn telnet h; expect "login:"; send "bob\r"; expect -re ".*:"; send "%s\r"'`,
		"expect <<EOF\nspawn ssh h\nexpect -re {.*: $}\nsend \"%s\\r\"\nEOF",
		"expect -f - <<< 'spawn su - root; expect \":\"; send \"%s\\r\"'",
	})
	checkSpellings(t, []spelling{
		// A login name, a host key question and later commands stay.
		{`expect -c 'spawn ftp h; expect "Name"; send "anonymous\r"; expect "assword"; send "Zq9vTr7mK\r"'`, []string{"Zq9vTr7mK"}, []string{`send "anonymous\r"`}},
		{`expect -c 'spawn ssh h; expect "assword"; send "Zq9vTr7mK\r"; expect "$ "; send "uptime\r"'`, []string{"Zq9vTr7mK"}, []string{`send "uptime\r"`}},
		{`expect -c 'spawn bash; expect "$ "; send "uptime\r"'`, nil, []string{`send "uptime\r"`}},
		{`git send-email --to x a.patch`, nil, []string{"git send-email --to x a.patch"}},
	})
}
