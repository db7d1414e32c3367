package audit

import "testing"

// TestRedactEscapedAttachedValues: a backslash right after a short option
// joins what follows to it (-p\ SECRET is -p " SECRET", -p\SECRET is
// -pSECRET, -p\⏎SECRET is -pSECRET), so the value is the option's as when
// quoted; the program and what follows stay.
func TestRedactEscapedAttachedValues(t *testing.T) {
	checkCases(t, []spelling{
		{`sshpass -p\ S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{"sshpass -p", " ssh h"}},
		{`sshpass -p\S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{" ssh h"}},
		{`mysql -p\ S3cr3tZ db`, []string{"S3cr3tZ"}, []string{" db"}},
		{`mysql -uroot -p\S3cr3tZ db`, []string{"S3cr3tZ"}, []string{"-uroot", " db"}},
		{"sshpass -p\\\nS3cr3tZ ssh h", []string{"S3cr3tZ"}, []string{" ssh h"}},
		{"mysql -u root -p\\\nS3cr3tZ", []string{"S3cr3tZ"}, []string{"-u root"}},
		{`curl -su\ bob:S3cr3tZ h`, []string{"S3cr3tZ"}, []string{" h"}},
		{`redis-cli -a\ S3cr3tZ ping`, []string{"S3cr3tZ"}, []string{" ping"}},
		{`ldapsearch -xw\ S3cr3tZ -b dc=x`, []string{"S3cr3tZ"}, []string{"-b dc=x"}},
		// Kept: another option's escaped value.
		{`mysql -h\ db -e 'select 1'`, nil, []string{`-h\ db`}},
	})
}

// TestRedactContinuedOptionNames: a line continuation inside an option's
// name (-\⏎u, --pass\⏎word=) is removed by bash before the program reads
// it, so the name is the joined one.
func TestRedactContinuedOptionNames(t *testing.T) {
	checkCases(t, []spelling{
		{"curl -\\\nu bob:S3cr3tZ h", []string{"S3cr3tZ"}, []string{"bob:", " h"}},
		{"sshpass -\\\np S3cr3tZ ssh h", []string{"S3cr3tZ"}, []string{" ssh h"}},
		{"curl --us\\\ner bob:S3cr3tZ h", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"ssh -\\\np 2222 h", nil, []string{"2222 h"}},
	})
}

// TestRedactExpectPromptsWithWords: a prompt with words before its key
// ("New password:", "Retype new password:") is a prompt, taking no value,
// so the send after it is what is redacted, not the text between; a key
// with a value inside a string still loses it.
func TestRedactExpectPromptsWithWords(t *testing.T) {
	checkCases(t, []spelling{
		{`expect -c 'spawn passwd bob; expect "New password:"; send "S3cr3tZ\r"; expect "Retype"; send "S3cr3tY\r"'`, []string{"S3cr3tZ", "S3cr3tY"}, []string{`expect "New password:"; send "`}},
		{"expect <<EOF\nspawn ssh-keygen -p -f k\nexpect \"Enter old passphrase:\"\nsend \"S3cr3tZ\\r\"\nEOF", []string{"S3cr3tZ"}, []string{`expect "Enter old passphrase:"`}},
		{`echo "my password: S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"my password: "}},
		{`read -p "Enter password: " pw`, nil, []string{`"Enter password: " pw`}},
	})
}
