package audit

import "testing"

// TestRedactSQLBoundSecrets: a statement that sets or compares a secret
// column to a bound parameter carries the secret in the arguments after
// its string, by the parameter's place (?, %s counted; $N named); the
// other arguments and the placeholder itself stay.
func TestRedactSQLBoundSecrets(t *testing.T) {
	checkCases(t, []spelling{
		{`cur.execute("UPDATE users SET password=? WHERE id=?", ("S3cr3tZ", 1))`, []string{"S3cr3tZ"}, []string{"password=? WHERE id=?", `", 1))`}},
		{`cur.execute("UPDATE users SET password = %s WHERE id = %s", ("S3cr3tZ", 1))`, []string{"S3cr3tZ"}, []string{"password = %s WHERE"}},
		{`db.Exec("UPDATE users SET password=$1 WHERE id=$2", "S3cr3tZ", 1)`, []string{"S3cr3tZ"}, []string{`", 1)`}},
		{`db.Exec("UPDATE users SET name=$2, password=$1 WHERE id=$3", "S3cr3tZ", "bob", 1)`, []string{"S3cr3tZ"}, []string{`"bob", 1)`}},
		{`cur.execute("SELECT id FROM users WHERE name = ? AND password = ?", ("bob", "S3cr3tZ"))`, []string{"S3cr3tZ"}, []string{`("bob", "`}},
		{`cur.execute('UPDATE users SET name = ?, pwd = ? WHERE id = ?', ['bob', 'S3cr3tZ', 3])`, []string{"S3cr3tZ"}, []string{`['bob', '`, `', 3])`}},
		{`conn.execute("DELETE FROM sessions WHERE token=?", ("S3cr3tZ",))`, []string{"S3cr3tZ"}, []string{`WHERE token=?`}},
		{"db.query(`UPDATE users SET password_hash = $1 WHERE id = $2`, ['S3cr3tZ', 5])", []string{"S3cr3tZ"}, []string{"', 5])"}},
		{`python3 -c "c.execute(\"UPDATE users SET password=? WHERE id=?\", (\"S3cr3tZ\", 1))"`, []string{"S3cr3tZ"}, []string{`password=? WHERE`}},
		{`stmt.execute("UPDATE accounts SET secret = ? WHERE id = ?;", ("S3cr3tZ", 9))`, []string{"S3cr3tZ"}, []string{`", 9))`}},
		// Kept: parameters of other columns.
		{`cur.execute("UPDATE users SET name=? WHERE id=?", ("bob", 1))`, nil, []string{`cur.execute("UPDATE users SET name=? WHERE id=?", ("bob", 1))`}},
		{`cur.execute("SELECT * FROM users WHERE name=?", ("bob",))`, nil, []string{`("bob",))`}},
		{`cur.execute("SELECT * FROM t WHERE password != ?", ("x",))`, nil, []string{`("x",))`}},
	})
}
