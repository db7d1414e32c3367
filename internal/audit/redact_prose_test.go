package audit

import "testing"

// TestRedactProseAfterPasswordWord: a conf line's password or passphrase
// directive takes the one word that ends its line; the same word starting
// a sentence in an echo or a commit message is prose and stays. Conf lines
// still lose their value.
func TestRedactProseAfterPasswordWord(t *testing.T) {
	checkCases(t, []spelling{
		{`echo "password must be 12+ chars" >> README`, nil, []string{`"password must be 12+ chars"`}},
		{`git commit -m "password must be hashed"`, nil, []string{`"password must be hashed"`}},
		{`echo 'Passphrase should be long and random'`, nil, []string{"Passphrase should be long"}},
		{"cat > notes.txt <<EOF\npassword rotation is due monthly\nEOF", nil, []string{"password rotation is due"}},
		// Conf lines keep losing their value.
		{"cat > app.conf <<EOF\naccount default\npassword S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"\npassword "}},
		{"echo 'password S3cr3tZ' >> ~/.msmtprc", []string{"S3cr3tZ"}, []string{"echo 'password "}},
		{`printf 'password S3cr3tZ\n' >> ~/.msmtprc`, []string{"S3cr3tZ"}, []string{"printf 'password "}},
		{"cat > cntlm.conf <<EOF\nUsername bob\nPassword S3cr3tZ   # set\nEOF", []string{"S3cr3tZ"}, []string{"Password "}},
		{"echo \"passphrase 'S3cr3tZ'\" >> c.conf", []string{"S3cr3tZ"}, []string{"echo \"passphrase "}},
	})
}
