package audit

import "testing"

// TestRedactSQLInsertUnnamed: an INSERT with no column list into a table
// that holds logins or credentials loses its string literals, but the
// first one shaped like a user name, e-mail addresses and dates; other
// tables' rows stay.
func TestRedactSQLInsertUnnamed(t *testing.T) {
	checkCases(t, []spelling{
		{"INSERT INTO users VALUES (1, 'bob', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"(1, 'bob', '"}},
		{"insert into users values (1, 'bob', 'S3cr3tZ');", []string{"S3cr3tZ"}, []string{"(1, 'bob', '"}},
		{`mysql -e "INSERT INTO accounts VALUES (NULL, 'bob', 'bob@x.org', 'S3cr3tZ', NOW())"`, []string{"S3cr3tZ"}, []string{"'bob', 'bob@x.org', '", "', NOW())"}},
		{"INSERT INTO app.users VALUES (2, 'alice', 'S3cr3tZ'), (3, 'carol', 'S3cr3tY')", []string{"S3cr3tZ", "S3cr3tY"}, []string{"(3, 'carol', '"}},
		{"INSERT INTO `user` VALUES ('bob', crypt('S3cr3tZ', gen_salt('bf')))", []string{"S3cr3tZ"}, []string{"('bob', "}},
		{"INSERT INTO api_keys VALUES (1, 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"(1, '"}},
		{"INSERT INTO tokens VALUES ('S3cr3tZ', 7, '2026-01-01 10:00:00')", []string{"S3cr3tZ"}, []string{"'2026-01-01 10:00:00'"}},
		{"INSERT INTO credentials VALUE (1, \"svc\", \"S3cr3tZ\")", []string{"S3cr3tZ"}, []string{"VALUE (1, "}},
		{"INSERT IGNORE INTO members VALUES (5, 'dave', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"'dave'"}},
		{"REPLACE INTO logins VALUES ('eve', 'S3cr3tZ')", []string{"S3cr3tZ"}, []string{"('eve', '"}},
		{`psql -c "INSERT INTO auth_user VALUES (1, 'pbkdf2_sha256\$S3cr3tZ', 'admin')"`, []string{"S3cr3tZ"}, []string{"(1, '"}},
		{"cat <<EOF | sqlite3 app.db\nINSERT INTO users VALUES (1, 'bob', 'S3cr3tZ');\nEOF", []string{"S3cr3tZ"}, []string{"'bob', '"}},
		// Other tables' rows and placeholders stay.
		{"INSERT INTO logs VALUES (1, 'started', NOW())", nil, []string{"(1, 'started', NOW())"}},
		{"INSERT INTO orders VALUES (7, 'widget', 'blue')", nil, []string{"(7, 'widget', 'blue')"}},
		{"INSERT INTO users VALUES (?, ?, ?)", nil, []string{"(?, ?, ?)"}},
		{"INSERT INTO users VALUES (1, 'alice', 'alice@example.com')", nil, []string{"'alice', 'alice@example.com'"}},
	})
}

// TestRedactSQLInsertSelect: an INSERT that takes its row from a select
// list loses the items at its secret columns' places, the items whose
// alias names a secret, and, with no column list, a credential table's
// literals as a VALUES row would.
func TestRedactSQLInsertSelect(t *testing.T) {
	checkCases(t, []spelling{
		{"INSERT INTO users (name, password) SELECT 'bob', 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"SELECT 'bob', '"}},
		{"INSERT INTO users (id, name, password) SELECT 1, 'bob', 'S3cr3tZ' FROM dual", []string{"S3cr3tZ"}, []string{"1, 'bob', '", "' FROM dual"}},
		{`mysql -e "INSERT INTO users (name,password) SELECT 'bob','S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"SELECT 'bob','"}},
		{"insert into users (name, pass) select 'bob', crypt('S3cr3tZ', gen_salt('bf'));", []string{"S3cr3tZ"}, []string{"select 'bob', "}},
		{"INSERT INTO t (owner, api_key)\nSELECT\n  'ops',\n  'S3cr3tZ'\nWHERE NOT EXISTS (SELECT 1 FROM t)", []string{"S3cr3tZ"}, []string{"'ops',", "WHERE NOT EXISTS"}},
		{"INSERT INTO accounts SELECT 'bob' AS name, 'S3cr3tZ' AS password", []string{"S3cr3tZ"}, []string{"'bob' AS name, '", "' AS password"}},
		{"INSERT INTO t SELECT 1, 'S3cr3tZ' AS secret_token", []string{"S3cr3tZ"}, []string{"SELECT 1, '"}},
		{"INSERT INTO users SELECT 1, 'bob', 'S3cr3tZ'", []string{"S3cr3tZ"}, []string{"1, 'bob', '"}},
		{`sqlite3 a.db "INSERT INTO users (name, password) SELECT 'o''brien', 'S3cr3tZ';"`, []string{"S3cr3tZ"}, []string{"'o''brien', '"}},
		// Kept: columns naming no secret, reads, other tables.
		{"INSERT INTO users (name, email) SELECT name, email FROM staging", nil, []string{"SELECT name, email FROM staging"}},
		{"INSERT INTO t (a, b) SELECT 'x', 'y'", nil, []string{"SELECT 'x', 'y'"}},
		{"INSERT INTO users (name, password) SELECT name, password FROM old_users", nil, []string{"SELECT name, password FROM old_users"}},
		{"SELECT 'a', 'b' FROM users", nil, []string{"SELECT 'a', 'b' FROM users"}},
		{"WITH x AS (SELECT password FROM u) SELECT 'a', 'b'", nil, []string{"SELECT 'a', 'b'"}},
		{"INSERT INTO logs SELECT 1, 'started'", nil, []string{"SELECT 1, 'started'"}},
	})
}
