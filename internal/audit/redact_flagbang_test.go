package audit

import (
	"testing"
)

// TestRedactFlagValueBang: a --flag's value is a shell word, in which '!'
// and '&' (outside an operator) are bytes like others; the YAML rule that
// skips an anchor or tag before a key's value (password: !!str …) skipped
// a --flag's value that began with '!', and redacted the word after it.
func TestRedactFlagValueBang(t *testing.T) {
	const pw = "Zq9Secret77"
	forms := []string{
		"gpg --batch --passphrase !%s -c f",
		"gpg --batch --passphrase !!%s -c f",
		"app --api-key !%s run",
		"tool --token !%s --verbose",
		"rclone copy a b --sftp-pass !%s",
		"wget --password !%s https://example.invalid/",
		"kubectl config set-credentials bob --token !%s",
		"az login -u bob --password !%s",
		"restic --password !%s snapshots",
		"svn co https://example.invalid/r --password !%s",
	}
	checkLocalAndSSH(t, pw, forms)

	// Kept: YAML's anchors and tags before a secret key's value, and the
	// words after a flag's value.
	checkSpellings(t, []spelling{
		{"password: !!str " + pw, []string{pw}, []string{"password: !!str "}},
		{"password: &pw " + pw, []string{pw}, []string{"password: &pw "}},
		{"gpg --batch --passphrase !" + pw + " -c notes.txt", []string{pw}, []string{"-c notes.txt"}},
	})
}
