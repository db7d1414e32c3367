package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactCasePatterns: a case statement on a secret-named variable
// tries its patterns against the secret, so each literal pattern gives the
// secret away as a comparison's literal does; they were kept. Every clause
// is read, in any spelling bash takes, alone and inside an ssh command.
func TestRedactCasePatterns(t *testing.T) {
	const pw = "Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		`case "$PGPASSWORD" in %s) echo same;; esac`,
		`case $DB_PASSWORD in %s|old) echo same;; esac`,
		`case $DB_PASSWORD in old|%s) echo same;; esac`,
		`case "${API_TOKEN}" in "%s") echo same;; *) echo other;; esac`,
		`case ${MYSQL_PWD:-} in '%s') exit 0;; esac`,
		`case "$VAULT_TOKEN" in (%s) echo same;; esac`,
		`case "$REDISCLI_AUTH" in x) :;; %s) echo same;; esac`,
		`case "$REDISCLI_AUTH" in x) :;& %s) echo same;;& y) :;; esac`,
		"case \"$GITHUB_TOKEN\" in\n  abc)\n    echo a\n    ;;\n  %s)\n    echo same\n    ;;\nesac",
		`if true; then case "$SSHPASS" in %s) echo same;; esac; fi`,
		`sh -c 'case "$PGPASSWORD" in %s) echo same;; esac'`,
		`case "$PGPASSWORD" in 'x;;y') :;; %s) echo same;; esac`,
	})

	// Kept: patterns of variables that hold no secret, globs and
	// expansions.
	checkSpellings(t, []spelling{
		{`case "$1" in start) run;; stop) halt;; esac`, nil, []string{"start)", "stop)"}},
		{`case "$MODE" in prod|staging) deploy;; esac`, nil, []string{"prod|staging)"}},
		{`case "$PASSWORD" in "") echo empty;; *) echo set;; esac`, nil, []string{`"")`, "*)"}},
		{`case "$PASSWORD" in "$CONFIRM") echo same;; esac`, nil, []string{`"$CONFIRM")`}},
		{`case "$PASSWORD_FILE" in /run/*) cat "$PASSWORD_FILE";; esac`, nil, []string{"/run/*)"}},
	})
}

// TestRedactCasePatternsBounded: a case statement is read for its first
// maxCaseClauses clauses; a pattern past them is not looked at.
func TestRedactCasePatternsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString(`case "$PGPASSWORD" in `)
	for i := 0; i < maxCaseClauses-1; i++ {
		fmt.Fprintf(&b, "p%d) :;; ", i)
	}
	b.WriteString("Last64Pw) :;; Past64Pw) :;; esac")
	out := Redact(b.String())
	if strings.Contains(out, "Last64Pw") || !strings.Contains(out, "Past64Pw") || strings.Contains(out, "p0)") {
		t.Errorf("clauses up to %d redacted, the next kept: %s", maxCaseClauses, out[len(out)-80:])
	}
}
