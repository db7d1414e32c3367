package audit

import "testing"

// TestRedactMoreSQLAndListSpellings: more spellings of classes read
// elsewhere: a select list's rows joined by UNION, a parameter that is a
// call's first argument (crypt(?, …)), parameters bound by name (:pw,
// %(pw)s, @pw), C++'s and C#'s add calls, and doppler's value read on
// its input.
func TestRedactMoreSQLAndListSpellings(t *testing.T) {
	checkCases(t, []spelling{
		{"INSERT INTO users(name,password) SELECT 'bob','S3cr3tZ' UNION SELECT 'al','S3cr3tY'", []string{"S3cr3tZ", "S3cr3tY"}, []string{"UNION SELECT 'al','"}},
		{"INSERT INTO users (name, password) SELECT 'bob', 'S3cr3tZ' UNION ALL SELECT 'al', 'S3cr3tY';", []string{"S3cr3tZ", "S3cr3tY"}, []string{"UNION ALL SELECT 'al', '"}},
		{`cursor.execute("UPDATE users SET password = crypt(%s, gen_salt('bf')) WHERE id = %s", ("S3cr3tZ", 1))`, []string{"S3cr3tZ"}, []string{"crypt(%s, gen_salt('bf'))"}},
		{`db.execute("SELECT * FROM users WHERE username = :u AND password = :p", {"u": "bob", "p": "S3cr3tZ"})`, []string{"S3cr3tZ"}, []string{"password = :p", `"u": "bob"`}},
		{`cur.execute("UPDATE users SET passwd = %(pw)s WHERE id = %(id)s", {"id": 1, "pw": "S3cr3tZ"})`, []string{"S3cr3tZ"}, []string{"passwd = %(pw)s", `"id": 1`}},
		{`conn.execute("UPDATE t SET api_key = @k WHERE id = @id", k="S3cr3tZ", id=3)`, []string{"S3cr3tZ"}, []string{"api_key = @k", "id=3"}},
		{`args.push_back("--password"); args.push_back("S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`args.push_back("`}},
		{"args.emplace_back(\"--password\");\nargs.emplace_back(\"S3cr3tZ\");", []string{"S3cr3tZ"}, []string{"args.emplace_back(\""}},
		{`cmd.push("--password").push("S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`.push("`}},
		{`psi.ArgumentList.Add("--password"); psi.ArgumentList.Add("S3cr3tZ");`, []string{"S3cr3tZ"}, []string{`psi.ArgumentList.Add("`}},
		{"echo S3cr3tZ | doppler secrets set FOO", []string{"S3cr3tZ"}, []string{"| doppler secrets set FOO"}},
		// Kept: a value that only looks like a named parameter.
		{"MYSQL_PWD=@S3cr3tZ mysql", []string{"S3cr3tZ"}, []string{"MYSQL_PWD="}},
		{`cur.execute("SELECT * FROM t WHERE name = :n", {"n": "bob"})`, nil, []string{`{"n": "bob"}`}},
	})
}
