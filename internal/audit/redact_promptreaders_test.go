package audit

import "testing"

// TestRedactPromptReaders: programs that ask for a password and read the
// answer on their input when it is no terminal, fed by a here-string,
// here-document or pipe: the database's secure installation, keytool,
// ssh-keygen -p (old and new passphrase), realm join -U admin; and the
// same under sudo, where the program-specific rules (Samba's -U, a -c
// that is no shell command) now apply too.
func TestRedactPromptReaders(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"reader", "mysql_secure_installation <<EOF\n\ny\n" + pw + "\n" + pw + "\ny\nEOF", []string{"mysql_secure_installation <<EOF"}},
		{"reader", "sudo mariadb-secure-installation <<< $'\\nn\\ny\\n" + pw + "\\n" + pw + "\\n'", nil},
		{"reader", "keytool -genkeypair -alias a -keystore k.jks <<< $'" + pw + "\\n" + pw + "\\n'", []string{"-keystore k.jks"}},
		{"reader", "printf '%s\\n%s\\n' " + pw + " " + pw + " | keytool -importcert -file c.pem -keystore t.jks", []string{"-keystore t.jks"}},
		{"reader", "ssh-keygen -p -f ~/.ssh/id_ed25519 <<< $'old\\n" + pw + "\\n" + pw + "'", []string{"-f ~/.ssh/id_ed25519"}},
		{"reader", "ssh-keygen -pf k <<< $'old\\n" + pw + "\\n" + pw + "'", nil},
		{"reader", "realm join -U admin example.com <<< " + pw, []string{"-U admin example.com"}},
		{"reader", "echo " + pw + " | realm join -U admin example.com", []string{"realm join"}},
		{"reader", "ssh dc1 'echo " + pw + " | sudo realm join -U admin example.com'", []string{"ssh dc1"}},
		{"sudo", "echo " + pw + " | sudo realm join -U admin x", nil},
		{"sudo", "sudo smbclient //nas/share -U bob <<< " + pw, []string{"sudo smbclient"}},
		{"sudo", "sudo kinit -c '/tmp/cc' bob <<< " + pw, []string{"'/tmp/cc'"}},
		{"sudo", "sudo -u bob ssh-keygen -p -f k <<< $'a\n" + pw + "\n" + pw + "'", nil},
		// Kept: no prompt answered.
		{"kept", "ssh-keygen -lf k.pub", []string{"-lf k.pub"}},
		{"kept", "ssh-keygen -R host", []string{"-R host"}},
		{"kept", "realm list", []string{"realm list"}},
		{"kept", "realm discover example.com", []string{"example.com"}},
		{"kept", "mysql_secure_installation --help", []string{"--help"}},
	})
}
