package sessions

import (
	"strings"
	"testing"
)

// The session's locale was read at its start. Setting or unsetting the
// locale's variables for later lines, starting a shell with them, or
// switching users may change how bash reads non-ASCII text: in a C locale
// with meta conversion U+80000's bytes are Alt-R (revert-line) and three
// Alt-Ctrl-@, so "# <U+80000>touch x", a comment to warden, would run
// touch. After such a line non-ASCII text is refused; ASCII lines are
// followed as before.
func TestLocaleChangesStopNonASCII(t *testing.T) {
	t.Parallel()
	for _, c := range []string{
		"export LC_ALL=C", "export LANG=C", "LC_CTYPE=C", "export LC_CTYPE=POSIX", "declare -x LC_ALL=C",
		"typeset -x LC_ALL=C", "readonly LC_ALL=C", "local LC_ALL=C", "set -a; LC_ALL=C", "printf -v LC_ALL C",
		"read LC_ALL", "unset LANG LC_ALL", "unset LC_CTYPE", "export -n LC_ALL", "LC_ALL=C bash", "env LC_ALL=C bash",
		"exec env LC_ALL=C bash", "LANG=C sh", "LC_ALL=C bash -i", "sudo LC_ALL=C bash", "export LC_ALL=en_US.ISO-8859-1",
		"ls; LANG=C", "LC_ALL=$x", "export LC_ALL LANG=C",
	} {
		t.Run(c, func(t *testing.T) {
			if _, last := typeAll(tty, c, "# \U00080000touch /etc/x"); last.unseen == "" {
				t.Errorf("%q then a comment holding U+80000: seen", c)
			}
			if _, last := typeAll(tty, c, "\x03…", "", "ls -l"); last.unseen != "" && !strings.Contains(c, "bash") && !strings.Contains(c, "sh") {
				t.Errorf("%q then ASCII: %s", c, last.unseen)
			}
		})
	}
	for _, c := range []string{"ls", "echo hi", "cat /etc/hosts", "git status"} {
		if _, last := typeAll(tty, c, "echo é"); last.unseen != "" {
			t.Errorf("%q then echo é: %s", c, last.unseen)
		}
	}
}
