package audit

import (
	"strings"
	"testing"
)

// TestRedactURLPasswordsPastAuthority: a URL password holding '/', '?',
// '#' or (quoted) a blank is read to the '@' that ends the userinfo, as
// SQLAlchemy and libpq read it; ports, IPv6 hosts and an '@' in a path
// after a port keep the URL whole.
func TestRedactURLPasswordsPastAuthority(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, p := range []string{
		"ab/Zq9Secret77", "Zq9Secret77/", "/Zq9Secret77", "a?Zq9Secret77", "x#Zq9Secret77", "#Zq9Secret77",
		"a/b?c#Zq9Secret77", "a:b/Zq9Secret77", "a//Zq9Secret77", "a%2FZq9Secret77/x",
	} {
		for _, c := range []string{
			"curl https://bob:" + p + "@api.example.com/v1",
			"git clone https://bob:" + p + "@git.example.com/o/r.git",
			"psql 'postgresql://bob:" + p + "@db:5432/app'",
			"mysql --uri=\"mysql://bob:" + p + "@db/app\"",
			"DATABASE_URL=postgres://bob:" + p + "@db/app ./migrate",
			"echo '{\"url\": \"amqp://bob:" + p + "@mq:5672/vh\"}' > /tmp/c.json",
			"wget -q ftp://bob:" + p + "@files.example.com/x.tgz && ls",
			"curl //bob:" + p + "@api.example.com/v1",
			// JSON's escaped slashes, in the password too.
			`echo '{"url": "https:\/\/bob:` + strings.ReplaceAll(p, "/", `\/`) + `@db.example.com\/app"}' > c.json`,
		} {
			cases = append(cases, detourCase{"local", c, []string{"bob:"}})
			if !strings.Contains(c, `:\/\/`) {
				// JSON's escaped URL one shell down (https:\\/\\/) is
				// no URL the pass reads, however its password reads.
				cases = append(cases, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h", "bob:"}})
			}
		}
	}
	for _, p := range []string{"a Zq9Secret77", "pass Zq9Secret77 word", "a\tZq9Secret77"} {
		for _, c := range []string{
			"curl 'https://bob:" + p + "@api.example.com/v1'",
			"curl \"https://bob:" + p + "@api.example.com/v1\" -o x",
			"psql \"postgresql://bob:" + p + "@db/app\"",
		} {
			cases = append(cases, detourCase{"quoted-blank", c, []string{"bob:"}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h", "bob:"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: a port or a variable's port before a path with an '@', an
	// IPv6 host, a blank ending an unquoted word, prose after a colon.
	checkSpellings(t, []spelling{
		{"curl http://localhost:8080/api/users/bob@example.com", nil, []string{"localhost:8080/api/users/bob@example.com"}},
		{"curl 'https://api.example.com:443/v1/members/alice@corp.io?x=1#top'", nil, []string{"api.example.com:443/v1/members/alice@corp.io?x=1#top"}},
		{"curl http://host:$PORT/u/bob@x.com", nil, []string{"host:$PORT/u/bob@x.com"}},
		{"curl http://[::1]:8080/u/bob@x.com", nil, []string{"[::1]:8080/u/bob@x.com"}},
		{"curl https://host:8443/x && mail bob@example.com", nil, []string{"host:8443/x && mail bob@example.com"}},
		{"curl https://host:abc/x && mail bob@example.com", nil, []string{"https://host:abc/x && mail bob@example.com"}},
		{"echo \"see http://wiki: ask root@db\"", nil, []string{"http://wiki: ask root@db"}},
		{"echo \"see http://wiki:8080 and ask root@db\"", nil, []string{"http://wiki:8080 and ask root@db"}},
		{"docker pull registry.local:5000/app@sha256:0123abcd", nil, []string{"registry.local:5000/app@sha256:0123abcd"}},
		{"skopeo copy docker://registry.local:5000/app@sha256:0123abcd dir:/tmp/x", nil, []string{"docker://registry.local:5000/app@sha256:0123abcd"}},
		{"curl 'http://h:x/a?next=https://y@z'", nil, []string{"https://y@z"}},
	})
	if got := Redact("curl https://bob:" + pw + "/x@h/ https://bob:" + pw + "#y@h/"); strings.Count(got, Redacted) != 2 {
		t.Errorf("two URLs: %q", got)
	}
}
