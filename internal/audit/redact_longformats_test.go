package audit

import (
	"strings"
	"testing"
)

// TestRedactLongPrintfFormats: a printf format longer than the text a
// look reads whole (a config file printed in one printf) still marks the
// arguments its conversions put where a secret goes, wherever in the
// format they stand; the other arguments stay.
func TestRedactLongPrintfFormats(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{4100, 20000, 100000} {
		pad := strings.Repeat("# a comment line of the config\\n", n/31)
		for _, f := range []struct{ format, args string }{
			{"password=%s\\n" + pad, pw},
			{pad + "password=%s\\n", pw},
			{"user=%s\\n" + pad + "db_password = %s\\n", "bob " + pw},
			{pad + "[db]\\nhost=%s\\ntoken: %s\\n", "h1 " + pw},
			{"{\\\"user\\\":\\\"%s\\\",\\\"api_key\\\":\\\"%s\\\"}" + pad, "bob " + pw},
			{pad + "%s=%s\\n", "DB_PASSWORD " + pw},
			{pad + "Authorization: Bearer %s\\n", pw},
		} {
			for _, cmd := range []string{
				"printf '" + f.format + "' " + f.args + " > /etc/app.conf",
				"printf '" + f.format + "' " + f.args + " | sudo tee /etc/app.conf",
				"ssh h \"printf '" + strings.ReplaceAll(f.format, `\"`, `\\\"`) + "' " + f.args + " > /etc/app.conf\"",
			} {
				cases = append(cases, detourCase{"long", cmd, []string{"/etc/app.conf"}})
			}
		}
		// Kept: arguments at no secret's place.
		cases = append(cases,
			detourCase{"kept", "printf 'host=%s\\nport=%s\\n" + pad + "' db1 5432 > /etc/app.conf", []string{"' db1 5432 >"}},
			detourCase{"kept", "printf '" + pad + "user=%s\\n' alice > /etc/app.conf", []string{"' alice >"}},
		)
	}
	checkSubtests(t, pw, cases)
}
