package audit

import "testing"

// TestRedactInlineScriptFeeds: a one-line script piped to a reader writes
// its secret as an echo does: awk's program, perl's, ruby's, node's -e,
// php's -r, python's -c, however many ';' or '|' its quotes hold.
func TestRedactInlineScriptFeeds(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, code := range []string{
		`awk 'BEGIN{print "bob:` + pw + `"}'`,
		`gawk -v u=bob 'BEGIN{print u ":` + pw + `"}'`,
		`perl -e 'print "bob:` + pw + `\n"'`,
		`perl -le 'print "bob:` + pw + `"'`,
		`python3 -c 'print("bob:` + pw + `")'`,
		`python3 -c 'import sys; sys.stdout.write("bob:` + pw + `|x\n")'`,
		`ruby -e 'puts "bob:` + pw + `"'`,
		`node -e 'console.log("bob:` + pw + `")'`,
		`php -r 'echo "bob:` + pw + `\n";'`,
	} {
		for _, rd := range []string{"chpasswd", "sudo chpasswd", "passwd --stdin bob", "sudo -S id"} {
			if code == `perl -le 'print "bob:`+pw+`"'` && rd != "chpasswd" {
				continue
			}
			c := code + " | " + rd
			cases = append(cases, detourCase{"local", c, []string{"| " + rd}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: scripts piped to programs that read no secret, and script
	// files.
	checkSpellings(t, []spelling{
		{`awk -F: '{print $1}' /etc/passwd | sort`, nil, []string{`awk -F: '{print $1}' /etc/passwd | sort`}},
		{`python3 -c 'print("deploy notes")' | logger -t app`, nil, []string{"deploy notes"}},
		{`perl -ne 'print if /x/' notes.txt | wc -l; chpasswd < /tmp/u`, nil, []string{"print if /x/"}},
		{`python3 gen.py | chpasswd`, nil, []string{"python3 gen.py | chpasswd"}},
		{`awk -f gen.awk users.txt | chpasswd`, nil, []string{"awk -f gen.awk users.txt | chpasswd"}},
	})
}
