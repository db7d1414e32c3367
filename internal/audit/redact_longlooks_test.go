package audit

import (
	"fmt"
	"strings"
	"testing"
)

// TestRedactLooksWithoutBounds: a printf of more than 64 conversions
// still matches each argument to its conversion, and a secret key's map
// or list is held whole however long it is: no fixed look-ahead lets
// padding carry a secret past the rule that would find it.
func TestRedactLooksWithoutBounds(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{64, 65, 100, 700} {
		fill := strings.Repeat("%s ", n)
		args := ""
		for k := range n {
			args += fmt.Sprintf(" a%d", k)
		}
		for _, c := range []string{
			"printf '" + fill + "password=%s\\n'" + args + " " + pw + " > /etc/app.conf",
			"printf '" + fill + "\\nPGPASSWORD=%s\\n'" + args + " '" + pw + "' >> .env",
			"printf \"" + fill + "Authorization: Bearer %s\"" + args + " " + pw + "xxxxxx | curl -H @- https://x",
		} {
			cases = append(cases, detourCase{fmt.Sprintf("printf-%d", n), c, []string{"printf"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	for _, n := range []int{100, 5000, 50000} {
		pad := strings.Repeat("x", n)
		for _, c := range []string{
			`curl -d '{"credentials": {"a": "` + pad + `", "b": "` + pw + `"}}' https://x`,
			`curl -d '{"secrets": ["` + pad + `", "` + pw + `"]}' https://x`,
			`curl -d '{"password": {"old": "` + pad + `", "new": "` + pw + `"}}' https://x`,
			"echo 'api_keys: [" + pad + ", " + pw + "]' > c.yaml",
			`{"auth": {"tokens": [{"n": "` + pad + `"}, "` + pw + `"]}}`,
		} {
			cases = append(cases, detourCase{fmt.Sprintf("bracket-%d", n), c, nil}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: a long printf's arguments at no secret's place, and a long
	// map under no secret key.
	many := strings.Repeat("%s ", 200)
	checkSpellings(t, []spelling{
		{"printf '" + many + "user=%s\\n'" + strings.Repeat(" host", 200) + " bob > x", nil, []string{" host host", " bob > x"}},
		{`curl -d '{"settings": {"a": "` + strings.Repeat("y", 6000) + `", "b": "visible"}}' https://x`, nil, []string{`"b": "visible"`}},
	})
}

// TestRedactLongLooksScale: a printf whose conversions grow with the text
// and a secret key's map that grows with it stay linear.
func TestRedactLongLooksScale(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing")
	}
	build := map[string]func(n int) string{
		"printf-convs": func(n int) string {
			return "printf '" + strings.Repeat("%s password=%s ", n/16) + "' " + strings.Repeat("a ", n/4)
		},
		"secret-map": func(n int) string {
			return `{"password": {` + strings.Repeat(`"a": [1, "b"], `, n/15) + `}}`
		},
		"prepared": func(n int) string {
			return "PREPARE p AS UPDATE t SET password = $1; " + strings.Repeat("EXECUTE p('a'); EXECUTE q( ", n/26)
		},
		"prepared-using": func(n int) string {
			return "PREPARE s FROM 'UPDATE t SET password = ?'; " + strings.Repeat("SET @a = 'b'; EXECUTE s USING @a; ", n/35)
		},
		"qemu-lists": func(n int) string {
			return "-object secret," + strings.Repeat("id=secret,", n/10)
		},
		"qemu-json": func(n int) string {
			return strings.Repeat(`{"qom-type":"secret","a":"secret" `, n/34)
		},
		"hcl-blocks": func(n int) string {
			return "variable \"db_password\" {\n" + strings.Repeat("  a = \"b\"\n", n/10) + "}\n"
		},
		"hcl-open": func(n int) string {
			return strings.Repeat("variable \"a_token\" { a = \"", n/24)
		},
		"insert-columns": func(n int) string {
			return "INSERT INTO t (" + strings.Repeat("a, ", n/3) + "password) VALUES ('x')"
		},
		"insert-select-open": func(n int) string {
			return strings.Repeat("INSERT INTO t (password) SELECT '", n/33)
		},
		"assign-values": func(n int) string {
			return strings.Repeat("A=\"a b\" B=$(C=$(D=x)) ", n/24)
		},
		"case-patterns": func(n int) string {
			return `case "$PGPASSWORD" in ` + strings.Repeat("a|", n/2) + "b) :;; esac"
		},
		"case-open": func(n int) string {
			return strings.Repeat(`case "$API_TOKEN" in a) echo ';;' `, n/37)
		},
		"secret-maps-open": func(n int) string {
			return strings.Repeat(`"token": {"a": "b", `, n/20)
		},
	}
	for name, f := range build {
		wantLinear(t, name, f(400<<10), f(4<<20))
	}
}

// TestRedactFarExecutesAndProperties: a statement the server prepared is
// bound by its EXECUTE however far after it comes, and a QEMU secret
// object's data is found however many properties come before it.
func TestRedactFarExecutesAndProperties(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{10, 5000, 40000} {
		pad := "SELECT '" + strings.Repeat("x", n) + "';"
		for _, c := range []string{
			"psql -c \"PREPARE p(text) AS UPDATE users SET password = $1 WHERE id = 1; " + pad + " EXECUTE p('" + pw + "')\"",
			"psql <<'SQL'\nPREPARE setpw (text, int) AS UPDATE accounts SET pwd = $1 WHERE id = $2;\n" + pad + "\nEXECUTE setpw('" + pw + "', 7);\nSQL",
			"mysql -e \"PREPARE s FROM 'UPDATE users SET password = ? WHERE id = 1'; " + pad + " SET @a = '" + pw + "'; EXECUTE s USING @a\"",
			"mysql -e \"PREPARE s FROM 'UPDATE users SET password = ? WHERE id = ?'; SET @a = '" + pw + "'; " + pad + " SET @b = 1; EXECUTE s USING @a, @b\"",
		} {
			cases = append(cases, detourCase{fmt.Sprintf("prepare-%d", n), c, []string{"PREPARE"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
		props := strings.Repeat("p=v,", n/4)
		for _, c := range []string{
			"qemu-system-x86_64 -object secret,id=sec0,format=raw," + props + "data=" + pw + " -drive x",
			"qemu-img convert --object secret,id=s0," + props + "data=" + pw + ",format=raw a b",
			`qemu-system-x86_64 -object '{"qom-type":"secret","id":"s0","keyid":"` + strings.Repeat("k", n) + `","data":"` + pw + `"}'`,
			`echo '{"execute":"object-add","arguments":{"data":"` + pw + `","note":"` + strings.Repeat("k", n) + `","qom-type":"secret","id":"s0"}}' | socat - UNIX:/tmp/qmp`,
		} {
			cases = append(cases, detourCase{fmt.Sprintf("qemu-%d", n), c, []string{"secret"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: an EXECUTE of a statement that binds no secret, another
	// statement's EXECUTE, and a QEMU object other than a secret.
	checkSpellings(t, []spelling{
		{"psql -c \"PREPARE p(int) AS SELECT * FROM t WHERE id = $1; EXECUTE p(42)\"", nil, []string{"EXECUTE p(42)"}},
		{"psql -c \"PREPARE p(text) AS UPDATE users SET password = $1; EXECUTE q('visible')\"", nil, []string{"EXECUTE q('visible')"}},
		{"qemu-system-x86_64 -object memory-backend-ram,id=m0," + strings.Repeat("p=v,", 2000) + "size=1G", nil, []string{"size=1G"}},
	})
}

// TestRedactLongBlocksAndLists: a Terraform variable's block, an INSERT's
// column list and select list, and an assignment's value before a
// command are read to their ends however long, so kilobytes of padding
// carry no secret past them.
func TestRedactLongBlocksAndLists(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{10, 5000, 40000} {
		pad := strings.Repeat("x", n)
		cols, vals := strings.Repeat("c, ", n/6), strings.Repeat("'x', ", n/6)
		for _, c := range []string{
			"variable \"db_password\" {\n  description = \"" + pad + "\"\n  default = \"" + pw + "\"\n}",
			"cat > vars.tf <<'EOF'\nvariable \"token\" {\n  type = string\n  # " + pad + "\n  default = \"" + pw + "\"\n}\nEOF",
			"psql -c \"INSERT INTO users (name, " + cols + "password) VALUES ('bob', " + vals + "'" + pw + "')\"",
			"mysql -e \"INSERT INTO users (name, password) SELECT '" + pad + "', '" + pw + "'\"",
			"mysql -e \"INSERT INTO users (name, " + cols + "password) SELECT 'bob', " + vals + "'" + pw + "'\"",
			"NOTE=\"" + strings.Repeat("a ", n/2) + "\" sudo -S id <<< " + pw,
			"X='" + pad + "' chpasswd <<EOF\nbob:" + pw + "\nEOF",
			"OPTS=\"" + pad + "\" LC_ALL=C docker login -u bob --password-stdin r.io <<< " + pw,
		} {
			cases = append(cases, detourCase{fmt.Sprintf("long-%d", n), c, nil})
			if !strings.Contains(c, "variable \"") {
				// A variable block one shell down (\"db_password\") is
				// no block the rule reads, however short.
				cases = append(cases, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
			}
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: long blocks and lists with no secret, and a long assignment
	// before a command that reads none.
	checkSpellings(t, []spelling{
		{"variable \"region\" {\n  description = \"" + strings.Repeat("y", 6000) + "\"\n  default = \"eu-west-1\"\n}", nil, []string{`default = "eu-west-1"`}},
		{"psql -c \"INSERT INTO notes (" + strings.Repeat("c, ", 2000) + "body) VALUES (" + strings.Repeat("'x', ", 2000) + "'visible')\"", nil, []string{"'visible'"}},
		{"NOTE=\"" + strings.Repeat("a ", 3000) + "\" cat <<< 'deploy notes'", nil, []string{"deploy notes"}},
	})
}

// TestRedactFarClientExecutes: a statement a client prepared is bound by
// the call that runs or binds it however far after the prepare it comes.
func TestRedactFarClientExecutes(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, n := range []int{10, 5000, 40000} {
		pad := strings.Repeat("x();", n/4)
		for _, c := range []string{
			"$sth = $dbh->prepare('UPDATE users SET password = ? WHERE id = ?'); " + pad + " $sth->execute('" + pw + "', 7);",
			"$st = $pdo->prepare(\"UPDATE users SET password = :pw WHERE id = 1\");\n" + pad + "\n$st->bindValue(':pw', '" + pw + "');\n$st->execute();",
		} {
			cases = append(cases, detourCase{fmt.Sprintf("client-%d", n), c, []string{"prepare"}})
		}
	}
	checkSubtests(t, pw, cases)
}
