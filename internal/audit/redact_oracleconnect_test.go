package audit

import "testing"

// TestRedactOracleConnectStrings: an Oracle login string user/password@db
// given to a connect call (cx_Oracle, oracledb, DBD::Oracle's
// DBI->connect("dbi:Oracle:", "user/password@db", "")) loses its password,
// as sqlplus user/password@db does.
func TestRedactOracleConnectStrings(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"call", `python3 -c 'cx_Oracle.connect("bob/` + pw + `@h/orcl")'`, []string{`"bob/`, "@h/orcl"}},
		{"call", `python3 -c 'import oracledb; c = oracledb.connect("bob/` + pw + `@h:1521/svc")'`, []string{"@h:1521/svc"}},
		{"call", `python3 -c "cx_Oracle.connect('system/` + pw + `@db1/XE', encoding='UTF-8')"`, []string{"encoding='UTF-8'"}},
		{"call", `perl -MDBI -e 'DBI->connect("dbi:Oracle:", "bob/` + pw + `@h", "")'`, []string{`"dbi:Oracle:", "bob/`}},
		{"call", `perl -MDBI -e 'DBI->connect_cached("dbi:Oracle:", q{x}, "bob/` + pw + `@h")'`, nil},
		{"call", `ssh db1 "python3 -c 'cx_Oracle.connect(\"bob/` + pw + `@h/orcl\")'"`, []string{"ssh db1"}},
		// Kept: no login string.
		{"kept", `python3 -c 'c = sqlite3.connect("/tmp/a/b.db")'`, []string{"/tmp/a/b.db"}},
		{"kept", `node -e 'ws.connect("wss://h/x@y")'`, []string{"wss://h/x@y"}},
		{"kept", `python3 -c 'sock.connect(("h", 22))'`, []string{`("h", 22)`}},
	})
}
