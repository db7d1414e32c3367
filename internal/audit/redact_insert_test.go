package audit

import "testing"

// TestRedactSQLInsertColumns: an INSERT's column list names the secret
// and its tuples hold it by position, in any quoting, case and layout;
// the other columns and a statement naming no secret are kept.
func TestRedactSQLInsertColumns(t *testing.T) {
	checkCases(t, []spelling{
		{"INSERT INTO users (name, password) VALUES ('alice','S3cr3tZ')", []string{"S3cr3tZ"}, []string{"VALUES ('alice','"}},
		{`mysql -e "INSERT INTO users (name, password) VALUES ('a','S3cr3tZ')"`, []string{"S3cr3tZ"}, []string{"('a','"}},
		{`sqlite3 app.db "INSERT INTO users(name,password) VALUES('a','S3cr3tZ');"`, []string{"S3cr3tZ"}, []string{"VALUES('a','", "');"}},
		{"insert into users (name, pass, email) values ('a', 'S3cr3tZ', 'a@x.org')", []string{"S3cr3tZ"}, []string{"'a@x.org'"}},
		{"INSERT INTO api_keys (owner, api_key) VALUES ('a', 'S3cr3tZ'), ('b', 'S3cr3tY')", []string{"S3cr3tZ", "S3cr3tY"}, []string{"('b', '"}},
		{"INSERT INTO users (name, password)\nVALUES\n  ('a', 'S3cr3tZ'),\n  ('b', 'S3cr3tY');", []string{"S3cr3tZ", "S3cr3tY"}, []string{"('b', '"}},
		{"INSERT INTO `users` (`name`, `password_hash`) VALUES ('a', '$2y$10$S3cr3tZabcdefghijklmnopqrstuv')", []string{"S3cr3tZ"}, []string{"('a', '"}},
		{`INSERT INTO "users" ("name", "passwd") VALUES ('a', 'S3cr3tZ')`, []string{"S3cr3tZ"}, []string{`("name", "passwd")`}},
		{"INSERT INTO [dbo].[Users] ([Name], [Password]) VALUES (N'a', N'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"(N'a', N'"}},
		{"INSERT INTO users (id, name, pwd) VALUES (1, 'a', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"(1, 'a', '"}},
		{"INSERT INTO users (name, password) VALUES ('o''brien', 'S3''cr3tZ')", []string{"cr3tZ"}, []string{"('o''brien', '"}},
		{"INSERT INTO users (name, password) VALUES ('a', crypt('S3cr3tZ', gen_salt('bf')))", []string{"S3cr3tZ"}, []string{"('a', "}},
		{"INSERT INTO users (name, password) VALUES ('a', PASSWORD('S3cr3tZ'))", []string{"S3cr3tZ"}, []string{"('a', "}},
		{`mysql -e "INSERT INTO users (name, password) VALUES (\"a\", \"S3cr3tZ\")"`, []string{"S3cr3tZ"}, []string{`(\"a\", \"`}},
		{"INSERT INTO tokens (user_id, auth_token, created) VALUES (7, 'S3cr3tZ', now())", []string{"S3cr3tZ"}, []string{"now())"}},
		{"INSERT INTO users (name, secret) VALUES ('a', 'S3cr3tZ') ON CONFLICT (name) DO UPDATE SET secret = EXCLUDED.secret", []string{"S3cr3tZ"}, []string{"ON CONFLICT (name)"}},
		{"cat <<EOF | psql\nINSERT INTO users (name, password) VALUES ('a', 'S3cr3tZ');\nEOF", []string{"S3cr3tZ"}, []string{"('a', '"}},
		{"INSERT INTO users (name, password) VALUE ('a', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"VALUE ('a', '"}},
		{`psql -c 'INSERT INTO users (name, password) VALUES ('\''a'\'', '\''S3cr3tZ'\'')'`, []string{"S3cr3tZ"}, []string{"psql -c"}},
		// Bound parameters: the literals given after the statement.
		{`cur.execute("INSERT INTO users (name, password) VALUES (%s, %s)", ("bob", "S3cr3tZ"))`, []string{"S3cr3tZ"}, []string{`("bob", "`}},
		{`db.query('INSERT INTO users (name, password) VALUES ($1, $2)', ['bob', 'S3cr3tZ'])`, []string{"S3cr3tZ"}, []string{`['bob', '`}},
		{`db.Exec("INSERT INTO users (name, pass) VALUES (?, ?)", "bob", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"bob", "`}},
		{`conn.execute("INSERT INTO users (password, name) VALUES (?, ?);", ("S3cr3tZ", "bob"))`, []string{"S3cr3tZ"}, []string{`"bob"))`}},
		{`db.query('INSERT INTO t (name, password) VALUES ($2, $1)', ['S3cr3tZ', 'bob'])`, []string{"S3cr3tZ"}, []string{`'bob'])`}},
		{`cur.execute("INSERT INTO logs (level, msg) VALUES (%s, %s)", ("info", "keep"))`, nil, []string{`("info", "keep")`}},
		// Kept: columns naming no secret, placeholders, no column list.
		{"INSERT INTO users (name, email) VALUES ('alice', 'a@x.org')", nil, []string{"('alice', 'a@x.org')"}},
		{"INSERT INTO users (name, password) VALUES ($1, $2)", nil, []string{"($1, $2)"}},
		{"INSERT INTO users (name, password) VALUES (?, ?), (:n, :pw), (%s, %s), (@n, NULL)", nil, []string{"(?, ?), (:n, :pw), (%s, %s), (@n, NULL)"}},
		{"INSERT INTO t (a, b) SELECT x, y FROM u; SELECT count(*) FROM t WHERE v IN (1, 2)", nil, []string{"IN (1, 2)"}},
		{"INSERT INTO logs (level, message) VALUES ('info', 'login failed')", nil, []string{"'login failed'"}},
	})
}
