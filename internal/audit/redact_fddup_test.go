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

// TestRedactNamedDescriptors: a descriptor bash allocates and names
// ({fd}) is read as a numbered one is, for a reader's input duplicated
// from it (<&$fd) and for a writer's output to a reader's process
// (exec {fd}> >(chpasswd); echo … >&"$fd").
func TestRedactNamedDescriptors(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, rd := range []string{"chpasswd", "sudo -S id", "passwd --stdin bob"} {
		for _, ref := range []string{"$fd", `"$fd"`, "${fd}", `"${fd}"`} {
			for _, c := range []string{
				"exec {fd}<<<'bob:" + pw + "'; " + rd + " <&" + ref,
				"exec {fd}< <(echo bob:" + pw + ")\n" + rd + " 0<&" + ref,
				"exec {fd}<<EOF\nbob:" + pw + "\nEOF\n" + rd + " <&" + ref + "\nexec {fd}<&-",
				"exec {fd}> >(" + rd + ")\necho bob:" + pw + " >&" + ref,
				"exec {out}>/dev/null {fd}> >(" + rd + "); printf 'bob:%s\\n' " + pw + " 1>&" + ref,
			} {
				cases = append(cases, detourCase{"local", c, []string{"{fd}"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
			}
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: named descriptors no reader takes or feeds.
	checkSpellings(t, []spelling{
		{"exec {fd}<<<'deploy notes'; cat <&$fd", nil, []string{"deploy notes"}},
		{"exec {fd}> >(logger -t app); echo 'deploy notes' >&$fd", nil, []string{"deploy notes"}},
		{"exec {fd}<<<'deploy notes' {g}> >(chpasswd); cat <&$fd", nil, []string{"deploy notes"}},
	})
}
