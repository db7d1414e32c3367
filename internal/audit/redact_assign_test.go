package audit

import "testing"

// TestRedactAfterAssignments: variables assigned before a command
// (LC_ALL=C sudo -S …, IFS= read -rs …) are not its name, so the rules
// for what a program reads on its input still know the program: its
// here-string and the echo piped into it stay secret. An assignment's
// value, even one holding a command substitution, names no command.
func TestRedactAfterAssignments(t *testing.T) {
	checkSpellings(t, []spelling{
		{"FOO=1 sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"FOO=1 sudo -S id <<< "}},
		{"echo S3cr3tZ | LC_ALL=C sudo -S apt-get update", []string{"S3cr3tZ"}, []string{"| LC_ALL=C sudo -S apt-get update"}},
		{"X=1 Y=2 passwd --stdin bob <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"X=1 Y=2 passwd --stdin bob"}},
		{`IFS= read -rs PASSWORD <<< "S3cr3tZ"`, []string{"S3cr3tZ"}, []string{"IFS= read -rs PASSWORD <<< "}},
		{"X=\"a b\" sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"X=\"a b\" sudo -S id"}},
		{"X=$(cat f) sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"X=$(cat f) sudo -S id"}},
		{"X=`date` sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"X=`date` sudo -S id"}},
		{"PATH+=:/opt/bin sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"PATH+=:/opt/bin sudo -S id"}},
		{"sh -c 'X=1 sudo -S id <<< S3cr3tZ'", []string{"S3cr3tZ"}, []string{"sh -c 'X=1 sudo -S id <<< "}},
		{"ssh h 'LANG=C passwd --stdin bob <<< S3cr3tZ'", []string{"S3cr3tZ"}, []string{"LANG=C passwd --stdin bob"}},
		{"echo ok > out.txt; X=1 sudo -S id <<< S3cr3tZ", []string{"S3cr3tZ"}, []string{"echo ok > out.txt; X=1 sudo -S id"}},
		// Must stay: assignments before commands that read no secret.
		{"LANG=C sort <<< readable", nil, []string{"LANG=C sort <<< readable"}},
		{"IFS=: read -r a b <<< 'x:readable'", nil, []string{"<<< 'x:readable'"}},
		{"a=1 b=2; echo readable | wc -c", nil, []string{"a=1 b=2; echo readable | wc -c"}},
		{"X=$(echo readable) cat <<< plain", nil, []string{"X=$(echo readable) cat <<< plain"}},
	})
}
