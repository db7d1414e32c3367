package audit

import "testing"

// TestRedactExpectAnswersKept: a send inside an expect block's action
// answers that action's pattern, not every pattern of the block, and a
// yes-or-no question (ssh's host key: "continue connecting",
// "fingerprint"; "Do you want to continue?") takes no secret: the host
// key's "yes" and the commands sent after the login stay in the record,
// while the password, a send after the block's close and a send under a
// braced or nested pattern still go.
func TestRedactExpectAnswersKept(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"expect <<EOF\nspawn ssh -o StrictHostKeyChecking=no bob@h1\nexpect {\n  \"continue connecting\" {send \"yes\\r\"; exp_continue}\n  \"assword:\" {send \"S3cr3tZ\\r\"}\n}\nexpect \"$ \"\nsend \"uptime\\r\"\nexpect eof\nEOF",
			[]string{"S3cr3tZ"}, []string{`{send "yes\r"; exp_continue}`, `send "uptime\r"`}},
		{"expect -c 'spawn ssh bob@h1; expect { \"yes/no\" {send \"yes\\r\"; exp_continue} \"assword:\" {send \"S3cr3tZ\\r\"} }; expect \"\\\\$ \"; send \"df -h\\r\"'",
			[]string{"S3cr3tZ"}, []string{`send "df -h\r"`, `{send "yes\r"; exp_continue}`}},
		{"expect -c 'spawn scp f bob@h1:/tmp; expect \"fingerprint\" ; send \"yes\\n\"; expect \"Password:\"; send \"S3cr3tZ\\n\"; expect eof'",
			[]string{"S3cr3tZ"}, []string{`send "yes\n"`}},
		{"expect -c 'spawn sudo apt-get upgrade; expect \"Do you want to continue?\"; send \"Y\\r\"; expect eof'",
			nil, []string{`send "Y\r"`}},
		{"expect -c 'spawn ssh h1; expect \"authenticity of host\"; send \"yes\\r\"; expect \"assword\"; send -- \"S3cr3tZ\\r\"'",
			[]string{"S3cr3tZ"}, []string{`send "yes\r"`}},
		{"expect -c 'spawn ./setup; expect \"Proceed? \\[y/N\\]\"; send \"y\\r\"'", nil, []string{`send "y\r"`}},
		// Still secret.
		{"expect -c 'spawn ./deploy.sh; expect { timeout {exit 1} \"assword:\" }; send \"S3cr3tZ\\r\"'", []string{"S3cr3tZ"}, []string{"spawn ./deploy.sh"}},
		{"expect -c 'spawn ./deploy.sh; expect { -re {[Pp]assword:} { send \"S3cr3tZ\\r\" } }'", []string{"S3cr3tZ"}, []string{"spawn ./deploy.sh"}},
		{"expect -c 'spawn ./deploy.sh; expect { \"(yes/no)?\" {send \"yes\\r\"; exp_continue} -re {[Pp]ass} {sleep 1; send \"S3cr3tZ\\r\"} }'", []string{"S3cr3tZ"}, []string{`{send "yes\r"; exp_continue}`}},
		{"expect -c 'spawn ./deploy.sh; expect { \"yes/no\" { send \"yes\\r\" } \"Token:\" { send \"S3cr3tZ\\r\" } }'", []string{"S3cr3tZ"}, []string{`{ send "yes\r" }`}},
		{"expect -c 'spawn ./deploy.sh; expect \"assword:\" { if {1} { send \"S3cr3tZ\\r\" } }'", []string{"S3cr3tZ"}, []string{"spawn ./deploy.sh"}},
		{"expect -c 'spawn ./x; expect { \"Password:\" {} \"Login:\" {} }; send \"S3cr3tZ\\r\"'", []string{"S3cr3tZ"}, []string{"spawn ./x"}},
		{"expect -c 'spawn ssh bob@h1; expect \"continue\"; send \"yes\\r\"; expect \":\"; send \"S3cr3tZ\\r\"'", []string{"S3cr3tZ"}, []string{`send "yes\r"`}},
	})
}
