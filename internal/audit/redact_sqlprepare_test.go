package audit

import "testing"

// TestRedactServerPreparedStatements: a statement the server prepares by
// name (PostgreSQL's PREPARE p AS …, MySQL's PREPARE s FROM '…') marks its
// secret parameters, and the EXECUTE after it binds them: by place in
// EXECUTE p('…'), or through the variables of EXECUTE s USING @a, set by
// SET @a = '…'. The placeholders and the other values stay.
func TestRedactServerPreparedStatements(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, sql := range []string{
		"PREPARE p AS UPDATE users SET password = $1 WHERE id = $2; EXECUTE p('" + pw + "', 7);",
		"PREPARE setpw (text, int) AS UPDATE users SET password = $1 WHERE id = $2; EXECUTE setpw('" + pw + "', 7);",
		"prepare p as update users set api_token = $2 where name = $1; execute p('bob', '" + pw + "');",
		"PREPARE p AS ALTER ROLE bob PASSWORD $1; EXECUTE p(E'" + pw + "');",
		"PREPARE s FROM 'UPDATE users SET password = ? WHERE id = ?'; SET @a = '" + pw + "'; SET @b = 7; EXECUTE s USING @a, @b;",
		"PREPARE s FROM 'SELECT id FROM users WHERE name = ? AND password = ?'; SET @u = 'bob', @p = '" + pw + "'; EXECUTE s USING @u, @p;",
		"PREPARE s FROM \"UPDATE users SET pass = ? WHERE id = 1\"; SELECT @x := '" + pw + "'; EXECUTE s USING @x;",
	} {
		cases = append(cases,
			detourCase{"heredoc", "psql <<'EOF'\n" + sql + "\nEOF", []string{sql[:12]}},
			detourCase{"heredoc", "mysql db <<'EOF'\n" + sql + "\nEOF", []string{sql[:12]}},
			detourCase{"ssh", "ssh db1 <<'EOF'\nmysql <<'SQL'\n" + sql + "\nSQL\nEOF", []string{"ssh db1"}},
		)
	}
	cases = append(cases,
		detourCase{"-c", `psql -c "PREPARE p AS UPDATE users SET password = \$1 WHERE id = 1; EXECUTE p('` + pw + `')"`, []string{`password = \$1`}},
		detourCase{"-e", `mysql -e "PREPARE s FROM 'UPDATE users SET password = ? WHERE id = 1'; SET @p = '` + pw + `'; EXECUTE s USING @p"`, []string{"EXECUTE s USING @p"}},
		// Kept: statements with no secret parameter keep their values.
		detourCase{"kept", "psql <<'EOF'\nPREPARE p AS UPDATE users SET name = $1 WHERE id = $2; EXECUTE p('Bob Smith', 7);\nEOF", []string{"EXECUTE p('Bob Smith', 7)"}},
		detourCase{"kept", "mysql <<'EOF'\nPREPARE s FROM 'SELECT * FROM t WHERE id = ?'; SET @a = 42; EXECUTE s USING @a;\nEOF", []string{"SET @a = 42"}},
	)
	checkSubtests(t, pw, cases)
}
