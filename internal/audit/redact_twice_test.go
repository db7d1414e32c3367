package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactTwiceIsStable: a tool's note is redacted by Redact and then
// again with the call's secrets (Secrets.Redact runs Redact too: a
// session_send's typed lines); a value already [REDACTED] was read as a
// word or a list ending before its ']', and each pass added one
// (PGPASSWORD=[REDACTED]]). Redacting a redacted text changes nothing.
func TestRedactTwiceIsStable(t *testing.T) {
	const pw = "Zq9Secret77"
	forms := []string{
		"export PGPASSWORD=%s; psql -h db",
		"GITHUB_TOKEN=%s gh pr list",
		"env MYSQL_PWD=%s mysql",
		"docker run -e DB_PASSWORD=%s img",
		"tool --password=%s run",
		"tool --api-key %s run",
		"login password=%s user=bob",
		"declare -x API_TOKEN=%s",
		"kubectl create secret generic x --from-literal=password=%s",
		"mount -o username=bob,password=%s //h/s /m",
		"curl -d 'client_secret=%s&grant_type=x' https://example.invalid/",
		"[ \"$PGPASSWORD\" == \"%s\" ]",
	}
	for n, f := range forms {
		for _, in := range []string{strings.Replace(f, "%s", pw, 1), `ssh h "` + escapeDouble(strings.Replace(f, "%s", pw, 1)) + `"`} {
			t.Run(fmt.Sprint(n), func(t *testing.T) {
				once := Redact(in)
				if strings.Contains(once, pw) || !strings.Contains(once, Redacted) {
					t.Fatalf("Redact(%q) = %q", in, once)
				}
				if twice := Redact(once); twice != once {
					t.Errorf("Redact(%q) = %q, not the text redacted once", once, twice)
				}
				if again := (Secrets{pw}).Redact(once); again != once {
					t.Errorf("Secrets.Redact(%q) = %q", once, again)
				}
			})
		}
	}
}
