package policy

import (
	"strings"
	"testing"
)

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

// TestDirsAfter: the directories a session's shell may be in after a send
// are every one a cd in it can reach, and every one it may have been in;
// a move known only at run time loses them all.
func TestDirsAfter(t *testing.T) {
	for _, tt := range []struct {
		text string
		dirs []string
		want []string // nil: known only at run time
	}{
		{"ls", nil, []string{}},
		{"ls", []string{"/srv"}, []string{"/srv"}},
		{"cd /srv/app", nil, []string{"", "/srv/app"}},
		{"cd /srv/app", []string{"/home/u"}, []string{"/home/u", "/srv/app"}},
		{"cd sub", []string{"/srv"}, []string{"/srv", "/srv/sub", "/srv/sub/sub"}}, // each cd may follow any other
		{"cd ../tmp/x", []string{"/srv"}, []string{"/srv", "/tmp/x", "/tmp/tmp/x"}},
		{"cd /srv || cd /tmp/x", nil, []string{"", "/srv", "/tmp/x"}},
		{"(cd /tmp/x && ls)", []string{"/srv"}, []string{"/srv", "/tmp/x"}},
		{"cd sub", nil, nil},
		{"cd ..", nil, nil},
		{"cd", []string{"/srv"}, nil},
		{"cd ~/x", []string{"/srv"}, nil},
		{"cd -", []string{"/srv"}, nil},
		{"popd", []string{"/srv"}, nil},
		{"cd \"$d\"", []string{"/srv"}, nil},
		{"eval \"$x\"", []string{"/srv"}, nil},
		{"ls", []string{"."}, nil},
		{"cd /srv", []string{"."}, nil},
	} {
		got, ok := DirsAfter(tt.text, tt.dirs)
		if tt.want == nil {
			if ok {
				t.Errorf("DirsAfter(%q, %q) = %q, want known only at run time", tt.text, tt.dirs, got)
			}
			continue
		}
		if !ok || strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("DirsAfter(%q, %q) = %q, %v; want %q", tt.text, tt.dirs, got, ok, tt.want)
		}
	}
}
