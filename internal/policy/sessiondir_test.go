package policy

import "testing"

// TestMovesDir: every way a send can leave a session's shell elsewhere is
// a move, so later sends are classified in a directory known only at run
// time; text that only reads is not.
func TestMovesDir(t *testing.T) {
	for _, c := range []string{"cd /tmp/x", "cd", "cd ~", "cd -", "cd -P -- /tmp", "pushd /tmp", "pushd +1", "popd", "popd -n",
		"builtin cd /tmp", "command cd /tmp", `\cd /tmp`, `"cd" /tmp`, `c\d /tmp`, "eval cd /tmp", "eval \"$x\"",
		"(cd /tmp && ls)", "ls && cd /tmp", "true || cd /tmp", "if true; then cd /tmp; fi", "for d in a b; do cd $d; done",
		"cd \"$d\"", "cd $(mktemp -d)", "f() { cd /tmp; }", "OLDPWD=/tmp/x", "source f", ". ./f", "$c /tmp",
		"trap 'cd /tmp' DEBUG", "alias c='cd /tmp'", "echo x; cd /tmp\necho y", "x=$(cd /tmp; pwd)"} {
		if !MovesDir(c) {
			t.Errorf("MovesDir(%q) = false, want true", c)
		}
	}
	for _, c := range []string{"", "ls", "echo cd /tmp", "git status", "cat /etc/hostname", "ls /tmp | wc -l", "x=1; echo $x",
		"grep -C 3 cd f", "pwd"} {
		if MovesDir(c) {
			t.Errorf("MovesDir(%q) = true, want false", c)
		}
	}
}
