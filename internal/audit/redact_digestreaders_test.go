package audit

import "testing"

// TestRedactDigestReaders: htdigest, pure-pw, kadmin.local and kdb5_util
// read the password (or the master key) on their input when it is no
// terminal, but no rule named them and no word of theirs cues a secret,
// so what a here-string, a here-document or an echo fed them stayed in
// the record. Each form is checked as typed and as an ssh host's remote
// command; the realm, user and file stay.
func TestRedactDigestReaders(t *testing.T) {
	checkLocalAndSSH(t, "Zq9vTr7mK", []string{
		"htdigest -c /etc/apache2/.htdigest realm bob <<< %s",
		"echo %s | htdigest /etc/apache2/.htdigest realm bob",
		"printf '%s\\n' | sudo htdigest f realm bob",
		"htdigest f realm bob <<EOF\n%s\n%s\nEOF",
		"/usr/bin/htdigest f realm bob <<< '%s'",
		"printf '%s\\n%s\\n' | pure-pw useradd bob -u ftp -d /srv/ftp",
		"kadmin.local -q 'addprinc bob' <<< $'%s\\n%s'",
		"kdb5_util create -s <<< $'%s\\n%s'",
	})
	checkSpellings(t, []spelling{
		{"echo Zq9vTr7mK | htdigest /etc/apache2/.htdigest realm bob", []string{"Zq9vTr7mK"}, []string{"htdigest /etc/apache2/.htdigest realm bob"}},
		{"htdigest -c f realm bob", nil, []string{"htdigest -c f realm bob"}},
	})
}
