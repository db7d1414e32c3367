package audit

import (
	"testing"
)

// TestRedactComparedLiterals: a secret-named variable compared with a
// literal gives the literal away as an assignment does; name = "…" was
// redacted, ==, ===, != and !== were not. Shell tests, scripts'
// conditions and NAME==word (an assignment of "=word") are tried alone
// and inside an ssh command.
func TestRedactComparedLiterals(t *testing.T) {
	const pw = "Zq9Secret77"
	forms := []string{
		`[ "$PGPASSWORD" == "%s" ] && echo ok`,
		`[ "$PGPASSWORD" != "%s" ] && exit 1`,
		`[[ $DB_PASSWORD == %s ]] && echo ok`,
		`[[ $DB_PASSWORD != %s ]] || echo ok`,
		`[[ "$API_TOKEN" == '%s' ]]`,
		`[[ $MYSQL_PWD == "%s" ]]`,
		`test "$REDISCLI_AUTH" == '%s'`,
		`if [ "${VAULT_TOKEN}" == "%s" ]; then echo same; fi`,
		`python3 -c 'import os; print(os.environ["DB_PASS"] == "%s")'`,
		`python3 -c "password = input(); print(password == '%s')"`,
		`node -e 'if (process.env.GITHUB_TOKEN === "%s") console.log(1)'`,
		`node -e 'if (apiKey !== "%s") process.exit(1)'`,
		`ruby -e 'exit 1 unless secret_key == "%s"'`,
		`PGPASSWORD==%s psql -h db`,
		`export DB_PASSWORD==%s`,
	}
	checkLocalAndSSH(t, pw, forms)

	// Kept: names compared with names, empty strings and nulls, and
	// variables that hold no secret.
	checkSpellings(t, []spelling{
		{`[ "$PWD" == "/srv" ] && [ "$OLDPWD" != "/tmp" ]`, nil, []string{`"/srv"`, `"/tmp"`}},
		{`[[ -z $PASSWORD || $PASSWORD == "" ]] && exit 1`, nil, []string{`$PASSWORD == ""`}},
		{`if password == confirm_password and token != None: pass`, nil, []string{"== confirm_password", "!= None"}},
		{`if (token === undefined || apiKey == null) {}`, nil, []string{"=== undefined", "== null"}},
		{`[[ $PASSWORD == $EXPECTED ]] && echo same`, nil, []string{"== $EXPECTED"}},
		{`[ "$STATUS" == "ok" ] && [ "$USER" != "root" ]`, nil, []string{`"ok"`, `"root"`}},
		{`[ "$DB_PASSWORD_FILE" == "/run/secrets/db" ]`, nil, []string{"/run/secrets/db"}},
	})
}
