package audit

import "testing"

// TestRedactDuplicatedInput: a reader that takes its input from another
// descriptor (<&3, 0<&3, < /dev/fd/3) reads what was given to it: by
// exec earlier in the text, by the same command's redirection before the
// duplication, or by a redirection after a group whose reader takes it.
func TestRedactDuplicatedInput(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, rd := range []string{"chpasswd", "sudo -S id", "passwd --stdin bob", "docker login -u bob --password-stdin r.io", "kinit bob"} {
		for _, dup := range []string{"<&3", "0<&3", "< /dev/fd/3", "</proc/self/fd/3"} {
			for _, c := range []string{
				"exec 3<<<'bob:" + pw + "'; " + rd + " " + dup,
				"exec 3<<< bob:" + pw + "\n" + rd + " " + dup + "\nexec 3<&-",
				"exec 3< <(echo bob:" + pw + ")\n" + rd + " " + dup,
				"exec 3< <(printf 'bob:%s\\n' " + pw + "); " + rd + " " + dup,
				"exec 3<<EOF\nbob:" + pw + "\nEOF\n" + rd + " " + dup,
				"exec 5<<<x; exec 3<<<\"bob:" + pw + "\"; ls; " + rd + " " + dup,
				rd + " 3<<<'bob:" + pw + "' " + dup,
				"{ " + rd + " " + dup + "; } 3<<< bob:" + pw,
				"while read -r x; do " + rd + " " + dup + "; done 3<<EOF\nbob:" + pw + "\nEOF",
			} {
				cases = append(cases, detourCase{"local", c, []string{dup}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
			}
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: descriptors no reader takes its input from, and a reader
	// taking another one's.
	checkSpellings(t, []spelling{
		{"exec 3<<<'deploy notes'; cat <&3", nil, []string{"deploy notes"}},
		{"exec 3<<<'deploy notes'; chpasswd <&4", nil, []string{"deploy notes"}},
		{"exec 3< <(echo deploy notes); while read -r l <&3; do echo \"$l\"; done", nil, []string{"deploy notes"}},
		{"grep x 3<<<'deploy notes' <&3; chpasswd < /tmp/u", nil, []string{"deploy notes"}},
		{"cat 3<<EOF <&3\ndeploy notes\nEOF\nchpasswd <&3", nil, []string{"deploy notes"}},
	})
}
