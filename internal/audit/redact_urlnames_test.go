package audit

import "testing"

// TestRedactURLInName: a URL that is part of a dotted name (git's
// url.<base>.insteadOf) has its own scheme after the '.', so a token
// given as its user name is read as in a bare URL.
func TestRedactURLInName(t *testing.T) {
	const pw = "Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		"git config --global url.https://%s@github.com/.insteadOf https://github.com/",
		"git config --global url.https://ghp_%sxx@github.com/.pushInsteadOf https://github.com/",
		"git -c url.https://%s@git.example.com/.insteadOf=https://git.example.com/ clone https://git.example.com/o/r",
		"git config url.redis://%s@cache/.insteadOf redis://cache/",
		"git config --file .gitconfig url.https://%s@h.example/.insteadOf git@h.example:",
	})
}

// TestRedactURLInNameKept: a plain user name stays, as do the URLs the
// rewrite maps from.
func TestRedactURLInNameKept(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"kept", "git config --global url.https://git@github.com/.insteadOf https://github.com/", []string{"url.https://git@github.com/.insteadOf https://github.com/"}},
		{"kept", "git config --global url.https://" + pw + "@github.com/.insteadOf https://github.com/", []string{"@github.com/.insteadOf https://github.com/"}},
		{"kept", "git config url.git@github.com:.insteadOf https://github.com/", []string{"url.git@github.com:.insteadOf https://github.com/"}},
	})
}
