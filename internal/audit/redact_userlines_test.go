package audit

import "testing"

// TestRedactUserLinesKeepNames: what chpasswd, chgpasswd and newusers
// read are name:password lines; each keeps its name in the record (whose
// password was set) and loses the rest, however it is fed (here-string,
// here-document, echo, behind sudo or ssh). A line that starts with no
// plain name, text behind sudo -S (its own password comes first) and
// escaped line ends go whole.
func TestRedactUserLinesKeepNames(t *testing.T) {
	runSpellingCases(t, []spelling{
		{"chpasswd <<< 'bob:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"chpasswd <<< 'bob:"}},
		{"echo 'bob:S3cr3tZ' | chpasswd", []string{"S3cr3tZ"}, []string{"echo 'bob:"}},
		{"chpasswd <<EOF\nalice:S3cr3tZ\nbob:S3cr3tY\nEOF", []string{"S3cr3tZ", "S3cr3tY"}, []string{"\nalice:", "\nbob:"}},
		{"cat <<EOF | chpasswd\nbob:S3cr3tZ\nEOF", []string{"S3cr3tZ"}, []string{"\nbob:"}},
		{"echo 'bob:S3cr3tZ' | sudo chpasswd -c SHA512", []string{"S3cr3tZ"}, []string{"echo 'bob:", "-c SHA512"}},
		{"echo bob:S3cr3tZ | /usr/sbin/chpasswd", []string{"S3cr3tZ"}, []string{"echo bob:"}},
		{"echo \"bob:S3cr3tZ with blanks\" | chpasswd", []string{"S3cr3tZ", "blanks"}, []string{"echo \"bob:"}},
		{"echo 'bob:S3cr3tZ' 'alice:S3cr3tY' | chpasswd", []string{"S3cr3tZ", "S3cr3tY"}, []string{"echo 'bob:"}},
		{"ssh h1 \"echo 'bob:S3cr3tZ' | sudo chpasswd\"", []string{"S3cr3tZ"}, []string{"echo 'bob:"}},
		{"ssh h1 'chpasswd <<< bob:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"<<< bob:"}},
		{"chpasswd -e <<< 'bob:$6$salt$S3cr3tZ'", []string{"S3cr3tZ", "salt"}, []string{"<<< 'bob:"}},
		{"chpasswd <<< bob:S3cr3tZ'x'y", []string{"S3cr3tZ"}, []string{"<<< bob:"}},
		{"chgpasswd <<< 'admins:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"<<< 'admins:"}},
		{"newusers <<EOF\nbob:S3cr3tZ:1001:1001:Bob:/home/bob:/bin/bash\nEOF", []string{"S3cr3tZ"}, []string{"\nbob:"}},
		{"chpasswd <<< \"bob:$PW\"", []string{"$PW"}, []string{"<<< \"bob:"}},
		// Whole.
		{"echo $'bob:S3cr3tZ\\nalice:S3cr3tY' | chpasswd", []string{"S3cr3tZ", "S3cr3tY", "alice"}, []string{"| chpasswd"}},
		{"echo -e 'bob:S3cr3tZ\\nalice:S3cr3tY' | chpasswd", []string{"S3cr3tZ", "S3cr3tY"}, []string{"| chpasswd"}},
		{"printf '%s\\n' 'alice:S3cr3tZ' | sudo chpasswd", []string{"S3cr3tZ"}, []string{"| sudo chpasswd"}},
		{"echo bob:S3cr3tZ | sudo -S chpasswd", []string{"S3cr3tZ", "bob"}, []string{"| sudo -S chpasswd"}},
		{"chpasswd <<< \"$USER:S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"chpasswd <<<"}},
		{"chpasswd <<< ' bob:S3cr3tZ'", []string{"S3cr3tZ"}, []string{"chpasswd <<<"}},
		{"echo bob:S3cr3tZ | passwd --stdin bob", []string{"S3cr3tZ"}, []string{"passwd --stdin bob"}},
		{"echo S3cr3tZ | kinit bob@EX.COM", []string{"S3cr3tZ"}, []string{"kinit bob@EX.COM"}},
	})
}
