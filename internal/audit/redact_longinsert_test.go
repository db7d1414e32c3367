package audit

import (
	"strings"
	"testing"
)

// TestRedactLongInsertValues: an INSERT's secret column keeps its value
// out of the log however long the values before it are (a blob or a
// long note of many kilobytes), in every row, named by the column list or
// by a credential table's name.
func TestRedactLongInsertValues(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{4100, 30000} {
		blob := strings.Repeat("QUJD", n/4)
		for _, stmt := range []string{
			"INSERT INTO users (name, avatar, password) VALUES ('bob', '" + blob + "', '" + pw + "')",
			"INSERT INTO users (name, avatar, password) VALUES ('al', 'x', 'p1'), ('bob', '" + blob + "', '" + pw + "')",
			"INSERT INTO accounts (login, note, api_token) VALUES ('bob', decode('" + blob + "', 'base64'), '" + pw + "')",
			"INSERT INTO users VALUES (7, 'bob', '" + blob + "', '" + pw + "')",
		} {
			cases = append(cases,
				detourCase{"psql", "psql -c \"" + stmt + "\"", []string{"psql -c \"INSERT INTO"}},
				detourCase{"heredoc", "psql <<'EOF'\n" + stmt + ";\nEOF", []string{"psql <<'EOF'\nINSERT INTO"}},
				detourCase{"ssh", "ssh db1 \"mysql -e \\\"" + stmt + "\\\"\"", []string{"ssh db1"}},
			)
		}
		// Kept: the other columns' values and another table's rows.
		cases = append(cases,
			detourCase{"kept", "psql -c \"INSERT INTO users (name, avatar, password) VALUES ('bob', '" + blob + "', '" + pw + "')\"", []string{"('bob', '" + blob + "', '"}},
			detourCase{"kept", "psql -c \"INSERT INTO posts (title, body) VALUES ('hi', '" + blob + "')\"", []string{"('hi', '" + blob + "')"}},
		)
	}
	checkSubtests(t, pw, cases)
}
