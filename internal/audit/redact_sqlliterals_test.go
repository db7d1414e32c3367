package audit

import (
	"strings"
	"testing"
)

// TestRedactSQLLiteralSpellings: a password literal is read to its end as
// SQL reads it, however the statement spells the literal and what stands
// between the keyword and it: a quote written twice or an escaped one
// (E'pw\'x', MySQL's 'pw\'x') is part of the body, U&'…' is a literal as
// N'…' is, line ends and comments may stand before it, and a shell quote
// may close just before it (psql -c '… PASSWORD '"'pw'"). Each statement
// is tried in psql -c "…", in a here-document, and over ssh.
func TestRedactSQLLiteralSpellings(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, lit := range []string{
		"'" + pw + "''x'", "'x''" + pw + "'", "E'x\\'" + pw + "'", "e'" + pw + "\\\\'", "U&'" + pw + "'", "u&'x" + pw + "'",
		"'" + pw + "'", "N'" + pw + "'", "$$" + pw + "$$", "$t$" + pw + "$t$",
	} {
		for _, stmt := range []string{
			"ALTER ROLE \"Bob\" WITH PASSWORD %s",
			"ALTER ROLE bob WITH LOGIN PASSWORD\n  %s",
			"ALTER ROLE bob PASSWORD -- the new one\n%s",
			"ALTER ROLE bob /* rotate */ PASSWORD /* here */ %s",
			"CREATE USER bob IDENTIFIED BY\n%s",
		} {
			sql := strings.Replace(stmt, "%s", lit, 1)
			cases = append(cases,
				detourCase{"heredoc", "psql <<'EOF'\n" + sql + ";\nEOF", []string{"psql <<'EOF'"}},
				detourCase{"ssh", "ssh db1 <<'EOF'\npsql <<'SQL'\n" + sql + ";\nSQL\nEOF", []string{"ssh db1"}},
			)
			if !strings.Contains(lit, "$") && !strings.Contains(lit, "\\") {
				cases = append(cases, detourCase{"-c", "psql -c \"" + sql + "\"", []string{"psql -c"}})
			}
		}
	}
	cases = append(cases,
		detourCase{"mysql", `mysql -e "ALTER USER 'bob'@'%' IDENTIFIED BY 'x\'` + pw + `'"`, []string{"ALTER USER 'bob'@'%'"}},
		detourCase{"joined", `psql -c 'ALTER ROLE "bob;x" WITH PASSWORD '"'` + pw + `'"`, []string{`ALTER ROLE "bob;x"`}},
		detourCase{"joined", `ssh db1 psql -c \''ALTER ROLE bob PASSWORD '"'` + pw + `'"\'`, []string{"ssh db1"}},
		// Kept: the words around the literal, other literals, and a
		// password word that no literal follows.
		detourCase{"kept", "psql -c \"ALTER ROLE bob PASSWORD 'x''y' VALID UNTIL 'infinity'\"", []string{"VALID UNTIL 'infinity'"}},
		detourCase{"kept", "psql <<'EOF'\nALTER ROLE bob PASSWORD NULL;\nSELECT 'it''s fine';\nEOF", []string{"SELECT 'it''s fine'"}},
		detourCase{"kept", "echo 'reset your password -- then log in'; echo 'done'", []string{"echo 'done'"}},
		detourCase{"kept", "grep -n password /etc/app.conf\necho 'checked'", []string{"echo 'checked'"}},
		detourCase{"kept", "psql -c \"SELECT rolname FROM pg_roles WHERE rolpassword IS NULL AND rolname = 'bob'\"", []string{"rolname = 'bob'"}},
	)
	checkSubtests(t, pw, cases)
}
