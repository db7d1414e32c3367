package audit

import "testing"

// TestRedactSecretsThroughVariables: a variable a secret's place expands
// loses the value read into it by mapfile or readarray, as by read, and
// the value of any variable it was assigned from whole (q=$p, along
// chains), however the expansion is spelled.
func TestRedactSecretsThroughVariables(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, use := range []string{`sshpass -p "$X" ssh h`, `mysql -uroot -p"$X" shop`, `curl -u "bob:$X" https://x`, `htpasswd -b /etc/h bob "$X"`} {
		for _, c := range []string{
			"mapfile -t arr <<< " + pw + "; X=${arr[0]}; " + use,
			"readarray -t arr <<< '" + pw + "'\nX=\"${arr[0]}\"\n" + use,
			"mapfile -d , -t arr <<< '" + pw + ",x'; X=${arr[0]}; " + use,
			"p=" + pw + "; X=$p; " + use,
			"p='" + pw + "'\nq=\"$p\"\nX=${q}\n" + use,
			"export p=" + pw + "; X=\"${p}\"; " + use,
			"p=" + pw + " && r=$p && s=$r && X=$s && " + use,
		} {
			cases = append(cases, detourCase{"local", c, []string{"X="}}, detourCase{"ssh", `ssh h "` + escapeDouble(c) + `"`, []string{"ssh h"}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: variables assigned from ones no secret's place expands, and
	// a value built from more than one.
	checkSpellings(t, []spelling{
		{"host=db.example.com; h=$host; ssh \"$h\" uptime", nil, []string{"host=db.example.com"}},
		{"mapfile -t hosts < /etc/hosts.list; p=S; sshpass -p \"$p\" ssh \"${hosts[0]}\"", nil, []string{"/etc/hosts.list"}},
		{"user=bob; pw=$(cat /run/pw); u=$user; curl -u \"$u:$pw\" https://x", nil, []string{"user=bob"}},
	})
}
