package audit

import "testing"

// TestRedactFunctionInput: a function whose body reads a secret on its
// input reads it when called, whatever feeds the call: a here-string, a
// here-document, a pipe; defined as f() { …; }, f () ( … ), function f
// { …; } or function f() { …; }, one function calling another.
func TestRedactFunctionInput(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, body := range []string{"chpasswd", "sudo -S \"$@\"", "passwd --stdin bob", "docker login -u bob --password-stdin r.io", "local u=$1\n  chpasswd -e"} {
		for _, def := range []string{
			"setpw() { " + body + "; }",
			"setpw () {\n  " + body + "\n}",
			"setpw() ( " + body + " )",
			"function setpw { " + body + "; }",
			"function setpw() {\n  " + body + "\n}",
			"inner() { " + body + "; }; setpw() { inner \"$@\"; }",
		} {
			for _, call := range []string{
				"setpw id <<< 'bob:" + pw + "'",
				"setpw id <<EOF\nbob:" + pw + "\nEOF",
				"echo bob:" + pw + " | setpw id",
				"printf 'bob:%s\\n' " + pw + " | setpw",
				"setpw id 2>&1 <<< bob:" + pw,
			} {
				c := def + "\n" + call
				cases = append(cases, detourCase{"local", c, []string{"setpw"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
			}
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: functions whose bodies read no secret, another function's
	// input, and a reader's name that is no function.
	checkSpellings(t, []spelling{
		{"f() { cat; }; f <<< 'deploy notes'", nil, []string{"deploy notes"}},
		{"log() { logger -t app; }; log <<< 'deploy started'", nil, []string{"deploy started"}},
		{"setpw() { chpasswd; }; other() { cat; }; other <<< 'deploy notes'", nil, []string{"deploy notes"}},
		{"f() { echo hi; }\nf <<EOF\ndeploy notes\nEOF", nil, []string{"deploy notes"}},
		{"echo 'f() { chpasswd; }'; f <<< 'deploy notes'", nil, []string{"deploy notes"}},
	})
}
