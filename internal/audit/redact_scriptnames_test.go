package audit

import (
	"testing"
)

// TestRedactScriptNamesAtSecretPlaces: a script that assigns the secret
// to a plain name first and then gives the name where a secret goes — a
// secret-named key's value, a setter of a secret variable, a login
// call's password — shows the secret only in the assignment; the name
// was redacted and the literal kept. It was done for argv lists alone
// (exec.Command("sshpass", "-p", p)); each place is tried in the
// languages run_script runs, alone and inside ssh, whose double quotes
// escape the script's (os.environ[\"PGPASSWORD\"] = \"…\" kept its
// literal even written out).
func TestRedactScriptNamesAtSecretPlaces(t *testing.T) {
	const pw = "Zq9Secret77"
	scripts := []string{
		`python3 -c 'x = "%s"; os.environ["PGPASSWORD"] = x'`,
		`python3 -c 'os.environ["PGPASSWORD"] = "%s"'`,
		`python3 -c 'os.environ.setdefault("API_TOKEN", "%s")'`,
		`python3 -c 'x = "%s"; os.putenv("PGPASSWORD", x)'`,
		`python3 -c 'x = "%s"; ftp.login("bob", x)'`,
		`python3 -c 'x = "%s"; conn = psycopg2.connect(host="db", password=x)'`,
		`python3 -c 'x = "%s"; cfg = {"password": x}'`,
		`python3 -c 'secret_value = "%s"; client = Client(api_key=secret_value)'`,
		`node -e 'const x = "%s"; process.env.DB_PASSWORD = x'`,
		`node -e 'let x = "%s"; const opts = {password: x}'`,
		`ruby -e 'x = "%s"; ENV["DB_PASSWORD"] = x'`,
		`ruby -e 'x = "%s"; smtp.auth_password "bob", x'`,
		`perl -e 'my $x = "%s"; $ENV{PGPASSWORD} = $x'`,
		`go run - <<< 'package main; func main() { x := "%s"; os.Setenv("DB_PASSWORD", x) }'`,
	}
	checkLocalAndSSH(t, pw, scripts)

	// Kept: what other names hold, and names given no literal.
	checkSpellings(t, []spelling{
		{`python3 -c 'user = "bob"; x = "` + pw + `"; ftp.login(user, x)'`, []string{pw}, []string{`user = "bob"`}},
		{`python3 -c 'greeting = "hello"; password = get_password(); print(greeting)'`, nil, []string{`greeting = "hello"`, "get_password()"}},
		{`python3 -c 'host = "db1"; pw = input(); conn = connect(host=host, password=pw)'`, nil, []string{`host = "db1"`}},
	})
}
