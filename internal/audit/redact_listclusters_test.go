package audit

import "testing"

// TestRedactListClusters: a script's argv item holding a cluster of
// short options with the secret attached (["ldapsearch", "-xwS3cret",
// "-D", …]) was read as an option taking the next item and skipped, so
// the option rule never saw the value when another item followed; only
// the last item of a list held. Each form is checked as typed and as an
// ssh host's remote command; the items after it stay.
func TestRedactListClusters(t *testing.T) {
	checkLocalAndSSH(t, "Zq9vTr7mK", []string{
		`x(["ldapsearch", "-xw%s", "-D", "cn=admin"])`,
		`x(['ldapsearch', '-xw%s', '-H', 'ldap://h'])`,
		`subprocess.run(["ldapmodify", "-xw%s", "-f", "a.ldif"])`,
		`spawn("sshpass", ["-vp%s", "ssh", "h"])`,
		`exec.Command("ipmitool", "-vP%s", "-H", "h", "power", "status")`,
		`x(['smbclient', '-NUbob%%s', '//h/s'])`,
		`x(["ssh-keygen", "-qN%s", "-f", "k"])`,
		`x(["zip", "-rP%s", "a.zip", "d"])`,
		`Command::new("sshpass").arg("-vp%s").arg("ssh")`,
		`cmd.add("ldapsearch"); cmd.add("-xw%s"); cmd.add("-D")`,
	})
	checkSpellings(t, []spelling{
		// The items after the cluster stay.
		{`x(["ldapsearch", "-xwZq9vTr7mK", "-D", "cn=admin"])`, []string{"Zq9vTr7mK"}, []string{`"-D", "cn=admin"])`}},
		// A cluster of flags only takes nothing: the next item is kept.
		{`x(["ldapsearch", "-xv", "-b", "dc=example"])`, nil, []string{`"-b", "dc=example"`}},
		{`x(["mysql", "-Bp", "shop"])`, nil, []string{`"shop"`}},
	})
}

// TestRedactListItemsInScriptQuotes: an argv item holding its value,
// quoted inside a script's own quotes (python3 -c '…["-pS3cret", "-D",
// "db"]…'), lost the rest of the script with the value: the shell's
// reading of the word runs to the script's closing quote. The value now
// ends at the item's own quote, and the items after it stay.
func TestRedactListItemsInScriptQuotes(t *testing.T) {
	for _, c := range []spelling{
		{`python3 -c 'subprocess.run(["ldapsearch", "-xwZq9vTr7mK", "-D", "cn=admin"])'`, []string{"Zq9vTr7mK"}, []string{`"-xw[REDACTED]", "-D", "cn=admin"])'`}},
		{`python3 -c 'subprocess.run(["mysql", "-pZq9vTr7mK", "-D", "shop"])'`, []string{"Zq9vTr7mK"}, []string{`"-p[REDACTED]", "-D", "shop"])'`}},
		{`python3 -c "subprocess.run(['mysql', '-pZq9vTr7mK', '-D', 'shop'])"`, []string{"Zq9vTr7mK"}, []string{`'-p[REDACTED]', '-D', 'shop'])"`}},
		{`node -e 'execFileSync("sshpass", ["-vpZq9vTr7mK", "ssh", "h"])'`, []string{"Zq9vTr7mK"}, []string{`"-vp[REDACTED]", "ssh", "h"])'`}},
	} {
		t.Run(c.in, func(t *testing.T) { checkSpellings(t, []spelling{c}) })
	}
}
