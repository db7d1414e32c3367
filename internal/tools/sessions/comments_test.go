package sessions

import "testing"

// With interactive comments off, '#' is an ordinary character: after
// "shopt -u interactive_comments", "ls # ; touch x" runs touch where the
// model reads a comment.
func TestInteractiveCommentsOffEndsTheModel(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"shopt -u interactive_comments", "shopt -uo interactive-comments", "shopt -qu interactive_comments",
		"set +o interactive-comments", "set -e +o interactive-comments", "builtin shopt -u interactive_comments",
		"ls; shopt -u interactive_comments", "eval 'set +o interactive-comments'", "eval \"shopt -u interactive_comments\"",
		"shopt -u INTERACTIVE_COMMENTS",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "ls # ; touch /etc/x"); last.unseen == "" {
				t.Errorf("a '#' after it is read as a comment: %q", last.text)
			}
		})
	}
	for _, c := range []string{"shopt -s interactive_comments", "shopt interactive_comments", "shopt -p", "set -o"} {
		if _, last := typeAll(tty, c, "ls # ; touch /etc/x"); last.unseen != "" {
			t.Errorf("%q: %s", c, last.unseen)
		}
	}
}
