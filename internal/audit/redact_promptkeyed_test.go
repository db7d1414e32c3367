package audit

import "testing"

// TestRedactPromptKeyedAnswers: a map from prompt patterns to answers (pexpect's
// run(events=…), a Ruby hash, a JSON map) answers a password prompt with
// the value of the key whose pattern ends in assword, passphrase or the
// like, whatever the pattern's spelling; the other answers stay.
func TestRedactPromptKeyedAnswers(t *testing.T) {
	checkSpellings(t, []spelling{
		{"python3 -c 'import pexpect; pexpect.run(\"ssh h\", events={\"assword\": \"S3cr3tZ\\n\"})'", []string{"S3cr3tZ"}, []string{"events={\"assword\": "}},
		{"python3 -c 'pexpect.run(\"scp f h:\", events={\"(?i)password\": \"S3cr3tZ\\n\"})'", []string{"S3cr3tZ"}, []string{"(?i)password"}},
		{"python3 -c \"pexpect.run('ssh h', events={'Password: ': 'S3cr3tZ\\n'})\"", []string{"S3cr3tZ"}, []string{"'Password: '"}},
		{"python3 -c \"pexpect.run('ssh h', events={'(yes/no)': 'yes\\n', 'assword:': 'S3cr3tZ\\n'})\"", []string{"S3cr3tZ"}, []string{"'(yes/no)': 'yes\\n'"}},
		{"python3 -c 'pexpect.run(cmd, events={\"Enter passphrase\": \"S3cr3tZ\\r\"})'", []string{"S3cr3tZ"}, nil},
		{"python3 -c 'pexpect.run(cmd, events={\"assword.*\": \"S3cr3tZ\\n\"}, timeout=5)'", []string{"S3cr3tZ"}, []string{"timeout=5"}},
		{"python3 -c 'pexpect.run(cmd, events={\"New password\": \"S3cr3tZ\\n\", \"Retype new password\": \"Xy9pQ2w\\n\"})'", []string{"S3cr3tZ", "Xy9pQ2w"}, nil},
		{"ruby -e 'answers = {\"Password: \" => \"S3cr3tZ\"}'", []string{"S3cr3tZ"}, nil},
		{"echo '{\"passwd\": \"S3cr3tZ\"}' > a.json", []string{"S3cr3tZ"}, nil},
		// Benign: prompts without a password, a password prompt expected
		// alone.
		{"python3 -c 'pexpect.run(\"apt install x\", events={\"Y/n\": \"y\\n\"})'", nil, []string{"\"Y/n\": \"y\\n\""}},
		{"python3 -c 'c.expect(\"assword:\")'", nil, []string{"c.expect(\"assword:\")"}},
		{"echo 'Enter password: ' && read -s pw", nil, []string{"Enter password: "}},
	})
}
