package audit

import (
	"strings"
	"testing"
)

// TestRedactPreparedParams: a statement that sets or compares a secret
// column by a bound parameter, prepared in one call and run by a later
// execute, bound after Perl's attribute argument, or set by a keyword
// (IDENTIFIED BY ?, PASSWORD $1) rather than by a column's '='. The
// placeholders and the other values stay.
func TestRedactPreparedParams(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"prepare", `perl -MDBI -e '$s=$d->prepare("UPDATE users SET password=? WHERE id=1"); $s->execute("` + pw + `")'`, []string{"password=?", "$s->execute("}},
		{"prepare", `perl -MDBI -e '$s=$d->prepare("INSERT INTO users (name, password) VALUES (?, ?)"); $s->execute("bob", "` + pw + `")'`, []string{`execute("bob", "`}},
		{"prepare", `perl -MDBI -e 'my $sql = "UPDATE users SET password = ? WHERE name = ?"; my $sth = $dbh->prepare($sql); $sth->execute("` + pw + `", "bob");'`, []string{`", "bob")`}},
		{"prepare", `perl -MDBI -e 'my $sth = $dbh->prepare(q{UPDATE users SET password = ? WHERE name = ?}); $sth->execute("` + pw + `", "bob")'`, []string{`", "bob")`}},
		{"prepare", "perl -MDBI -e '$sth = $dbh->prepare(qq{UPDATE users SET pass = ? WHERE id = ?});\n$sth->execute(\"" + pw + "\", 7);'", []string{", 7)"}},
		{"prepare", `perl -MDBI -e '$s = $d->prepare("SELECT id FROM users WHERE name = ? AND password = ?"); $s->execute($u, "` + pw + `")'`, []string{"execute($u, "}},
		{"prepare", `ruby -e 'stmt = c.prepare("UPDATE users SET password=? WHERE id=?"); stmt.execute("` + pw + `", 1)'`, []string{", 1)"}},
		{"prepare", `ruby -e 'stmt = c.prepare("UPDATE users SET password=? WHERE id=?"); stmt.execute "` + pw + `", 1'`, []string{", 1"}},
		{"prepare", `php -r '$s = $p->prepare("UPDATE users SET password = ? WHERE id = ?"); $s->execute(["` + pw + `", 1]);'`, []string{", 1]"}},
		{"prepare", `php -r '$s = $p->prepare("INSERT INTO users (name, password) VALUES (?, ?)"); $s->execute(array("bob", "` + pw + `"));'`, []string{`array("bob", "`}},
		{"prepare", "python3 - <<'EOF'\nsql = \"UPDATE accounts SET api_token = %s WHERE id = %s\"\ncur.execute(sql, (\"" + pw + "\", 3))\nEOF", nil},
		{"attr", `perl -MDBI -e '$d->do("UPDATE users SET pw = ? WHERE id = ?", undef, "` + pw + `", 1)'`, []string{"undef, ", ", 1)"}},
		{"attr", `perl -MDBI -e '$d->do("UPDATE users SET pw = ? WHERE id = ?", {}, "` + pw + `", 1)'`, []string{"{}, "}},
		{"attr", `perl -MDBI -e '$d->do(q{UPDATE users SET password = ? WHERE name = ?}, undef, "` + pw + `", "bob")'`, []string{`, "bob")`}},
		{"attr", `perl -MDBI -e '@r = $d->selectrow_array("SELECT id FROM users WHERE login = ? AND passwd = ?", undef, "bob", "` + pw + `")'`, []string{`undef, "bob", "`}},
		{"keyword", `perl -MDBI -e '$d->do("ALTER USER bob IDENTIFIED BY ?", undef, "` + pw + `")'`, []string{"IDENTIFIED BY ?"}},
		{"keyword", `perl -MDBI -e '$d->do("CREATE USER ? IDENTIFIED WITH caching_sha2_password BY ?", undef, "bob", "` + pw + `")'`, []string{`undef, "bob", "`}},
		{"keyword", `ruby -e 'c.exec_params("ALTER USER bob PASSWORD $1", ["` + pw + `"])'`, []string{"PASSWORD $1"}},
		{"keyword", `ruby -e 'c.exec_params("ALTER ROLE bob WITH LOGIN PASSWORD $2 VALID UNTIL $1", ["2030-01-01", "` + pw + `"])'`, []string{`"2030-01-01"`}},
		{"keyword", `python3 -c 'cur.execute("ALTER USER bob WITH PASSWORD %s", ("` + pw + `",))'`, []string{"PASSWORD %s"}},
		{"keyword", `python3 -c 'cur.execute("CREATE USER bob IDENTIFIED BY %s", ("` + pw + `",))'`, nil},
		{"keyword", `python3 -c 'cur.execute("create role app login encrypted password %s", ["` + pw + `"])'`, nil},
		{"keyword", `node -e 'await c.query("ALTER ROLE app PASSWORD $1", ["` + pw + `"])'`, nil},
		// Kept: nothing bound is a secret.
		{"kept", `perl -MDBI -e '$s=$d->prepare("SELECT id FROM users WHERE name = ?"); $s->execute("bob")'`, []string{`execute("bob")`}},
		{"kept", `perl -MDBI -e '$d->do("UPDATE hosts SET state = ? WHERE id = ?", undef, "down", 4)'`, []string{`undef, "down", 4)`}},
		{"kept", `ruby -e 'c.exec_params("ALTER TABLE t RENAME TO x"); c.exec_params("SELECT $1", ["ok"])'`, []string{`["ok"]`}},
		{"kept", `python3 -c 'cur.execute("CREATE TABLE users (id int, password text)"); cur.execute("SELECT 1")'`, []string{`"SELECT 1"`}},
		{"kept", `php -r '$s = $p->prepare("DELETE FROM sessions WHERE user = ?"); $s->execute(["bob"]);'`, []string{`["bob"]`}},
	})
}

// TestRedactBoundByCalls: a prepared statement's secret parameter bound
// by a bind call (DBI's bind_param(1, "…"), PDO's bindValue(1, …) and
// bindValue(":pw", …)) or run by another runner (DBI's do($sql, undef,
// …) with the statement in a variable, prepare_cached, selectall_*,
// better-sqlite3's .run(…), executemany's first row).
func TestRedactBoundByCalls(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"bind", `perl -MDBI -e '$s=$d->prepare("UPDATE users SET password=? WHERE id=1"); $s->bind_param(1, "` + pw + `"); $s->execute'`, []string{"bind_param(1, "}},
		{"bind", `perl -MDBI -e '$s=$d->prepare("UPDATE users SET password=? WHERE login=?"); $s->bind_param(2, "bob"); $s->bind_param(1, "` + pw + `"); $s->execute'`, []string{`bind_param(2, "bob")`}},
		{"bind", `php -r '$s = $p->prepare("UPDATE users SET password = ? WHERE id = 1"); $s->bindValue(1, "` + pw + `");'`, nil},
		{"bind", `php -r '$s = $p->prepare("UPDATE users SET password = :pw WHERE id = 1"); $s->bindValue(":pw", "` + pw + `"); $s->execute();'`, []string{`bindValue(":pw", "`}},
		{"bind", `php -r '$s = $p->prepare("SELECT id FROM users WHERE login = :u AND passwd = :p"); $s->bindParam(":u", $u); $s->bindValue(":p", "` + pw + `");'`, []string{`bindParam(":u", $u)`}},
		{"runner", `perl -MDBI -e 'my $sql = "UPDATE users SET password = ?"; $d->do($sql, undef, "` + pw + `")'`, []string{"$d->do($sql, undef, "}},
		{"runner", `perl -MDBI -e '$s=$d->prepare_cached("UPDATE users SET password=? WHERE id=?"); $s->execute("` + pw + `", 1)'`, nil},
		{"runner", `perl -MDBI -e 'my $q = "SELECT id FROM users WHERE password = ?"; $d->selectall_arrayref($q, {}, "` + pw + `")'`, nil},
		{"runner", `node -e 'db.prepare("UPDATE users SET password = ? WHERE id = ?").run("` + pw + `", 1)'`, []string{".run("}},
		{"runner", `python3 -c 'cur.executemany("INSERT INTO users (name, password) VALUES (?, ?)", [("bob", "` + pw + `")])'`, []string{`[("bob", "`}},
		{"runner", "ssh db1 \"perl -MDBI -e '\\$s=\\$d->prepare(q{UPDATE users SET password=? WHERE id=1}); \\$s->bind_param(1, q{" + pw + "})'\"", nil},
		// Kept: what is bound is no secret.
		{"kept", `perl -MDBI -e '$s=$d->prepare("UPDATE users SET password=? WHERE login=?"); $s->bind_param(2, "bob")'`, []string{`bind_param(2, "bob")`}},
		{"kept", `php -r '$s = $p->prepare("SELECT * FROM t WHERE id = :id"); $s->bindValue(":id", 5);'`, []string{`":id", 5`}},
		{"kept", `node -e 'db.prepare("SELECT * FROM t WHERE id = ?").run(5)'`, []string{".run(5)"}},
		{"kept", `perl -MDBI -e 'my $sql = "SELECT * FROM t WHERE id = ?"; $d->do($sql, undef, 5)'`, []string{"undef, 5)"}},
	})
}

// TestRedactHeredocStatements: a statement written as the body of a
// here-document (Perl's and Ruby's prepare(<<SQL), PHP's <<<SQL) or of a
// Python triple-quoted string marks its secret parameters as a quoted
// one does; the values are bound by the calls after the opening, on its
// line or past the body.
func TestRedactHeredocStatements(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, open := range []string{"<<SQL", `<<"SQL"`, "<<'SQL'", "<<~SQL", "<< SQL"} {
		for _, stmt := range []string{"UPDATE users SET password = ? WHERE id = ?", "ALTER ROLE bob WITH PASSWORD ?", "ALTER USER bob IDENTIFIED BY ?", "  SELECT id FROM users WHERE name = ? AND passwd = ?"} {
			body := "\n" + stmt + "\nSQL\n"
			vals := `"` + pw + `", 7`
			if strings.Count(stmt, "?") == 2 && strings.HasPrefix(strings.TrimSpace(stmt), "SELECT") {
				vals = `"bob", "` + pw + `"`
			}
			cases = append(cases,
				detourCase{"same line", "perl -MDBI -e '$s=$d->prepare(" + open + "); $s->execute(" + vals + ");" + body + "'", []string{stmt}},
				detourCase{"after body", "perl -MDBI -e '$s=$d->prepare(" + open + ");" + body + "$s->execute(" + vals + ");'", []string{stmt}},
				detourCase{"script", "perl <<'EOF'\nmy $s = $dbh->prepare(" + open + ");" + body + "$s->execute(" + vals + ");\nEOF", []string{stmt}},
				detourCase{"attr", "perl -MDBI -e '$d->do(" + open + ", undef, " + vals + ");" + body + "'", []string{stmt}},
				detourCase{"variable", "perl -MDBI -e 'my $sql = " + open + ";" + body + "my $s = $d->prepare($sql); $s->execute(" + vals + ");'", []string{stmt}},
				detourCase{"ruby", "ruby -e 'st = db.prepare(" + open + "); st.execute(" + vals + ")" + body + "'", []string{stmt}},
			)
		}
	}
	cases = append(cases,
		detourCase{"bind", "perl -e '$s=$d->prepare(<<SQL); $s->bind_param(1, \"" + pw + "\"); $s->execute;\nALTER ROLE bob PASSWORD ?\nSQL\n'", []string{"bind_param(1, "}},
		detourCase{"php", "php -r '$s=$pdo->prepare(<<<SQL\nUPDATE users SET password = :pw WHERE id = 1\nSQL\n); $s->execute([\":pw\" => \"" + pw + "\"]);'", []string{"password = :pw"}},
		detourCase{"python", "python3 -c 'cur.execute(\"\"\"UPDATE users SET password = %s WHERE id = 1\"\"\", (\"" + pw + "\",))'", []string{"password = %s"}},
		detourCase{"python", "python3 - <<'EOF'\ncur.execute(\"\"\"\n  UPDATE users SET password = %s\n  WHERE id = %s\n\"\"\", (\"" + pw + "\", 3))\nEOF", []string{"WHERE id = %s"}},
		detourCase{"python", "python3 - <<'EOF'\ncur.execute('''UPDATE users SET api_token = %s WHERE id = 1''', ('" + pw + "',))\nEOF", []string{"api_token = %s"}},
		detourCase{"ssh", "ssh db1 <<'EOF'\nperl -MDBI -e '$s=$d->prepare(<<SQL); $s->execute(\"" + pw + "\", 1);\nUPDATE users SET password = ? WHERE id = ?\nSQL\n'\nEOF", []string{"ssh db1"}},
		// Kept: statements with no secret parameter keep their values,
		// and a here-document whose body is no statement binds nothing.
		detourCase{"kept", "perl -e '$s=$d->prepare(<<SQL); $s->execute(\"Bob Smith\", 7);\nUPDATE users SET name = ? WHERE id = ?\nSQL\n'", []string{`"Bob Smith", 7`}},
		detourCase{"kept", "cat <<EOF\nUPDATE users SET note = ? WHERE id = 1\nEOF\nx.execute(\"keep me\")", []string{"keep me"}},
		detourCase{"kept", "python3 -c 'cur.execute(\"\"\"UPDATE users SET name = %s WHERE id = 1\"\"\", (\"Bob Smith\",))'", []string{"Bob Smith"}},
	)
	checkSubtests(t, pw, cases)
}
