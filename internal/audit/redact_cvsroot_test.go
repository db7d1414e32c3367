package audit

import (
	"strings"
	"testing"
)

// TestRedactCVSRootPassword: CVS's pserver root carries the password as
// a URL's user information does, without the "//": cvs -d
// :pserver:bob:pw@host:/repo and CVSROOT= kept it.
func TestRedactCVSRootPassword(t *testing.T) {
	for _, c := range []string{
		"cvs -d :pserver:bob:Cv5Secret1@cvs.example.org:/cvsroot co mod",
		"cvs -d:pserver:bob:Cv5Secret1@cvs.example.org:2401/cvsroot login",
		"CVSROOT=:pserver:bob:Cv5Secret1@h:/r cvs update",
		"export CVSROOT=':pserver:bob:Cv5Secret1@h:/r'",
		`sh -c "cvs -d :pserver:anon:Cv5Secret1@h:/r co x"`,
	} {
		got := Redact(c)
		if strings.Contains(got, "Cv5Secret1") {
			t.Errorf("Redact(%q) = %q keeps the password", c, got)
		}
		if !strings.Contains(got, ":pserver:") || !strings.Contains(got, "@") {
			t.Errorf("Redact(%q) = %q lost the root's shape", c, got)
		}
	}
	for _, c := range []string{"cvs -d :pserver:bob@h:/r co x", "cvs -d /srv/cvs co x"} {
		if got := Redact(c); got != c {
			t.Errorf("Redact(%q) = %q; there is no password", c, got)
		}
	}
}
