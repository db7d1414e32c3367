package audit

import "testing"

// TestRedactAbbreviatedOptions: curl before 8.6 (still what most
// distributions ship) took any prefix of a long option and any case, and
// MySQL's clients take a unique prefix, so --proxy-us, --USER and --pas=
// are the password options they shorten.
func TestRedactAbbreviatedOptions(t *testing.T) {
	const pw = "Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		"curl --proxy-us bob:%s https://h/",
		"curl --proxy-use=bob:%s https://h/",
		"curl --USER bob:%s https://h/",
		"curl --User=bob:%s https://h/",
		"curl --oauth2-bear %s https://h/",
		"curl --Oauth2-Bearer %s https://h/",
		"curl -s --proxy-cer c.pem:%s https://h/",
		"curl --socks5-host bob:%s@p:1080 https://h/",
		"curl --COOKIE sid=%s https://h/",
		"mysql --pas=%s -u root shop",
		"mysqldump --pas=%s shop",
		"mariadb --passwo='%s' shop",
		"mysqladmin -u root --passw=%s status",
		"sudo mysql --PASSWORD=%s shop",
	})
}

// TestRedactAbbreviatedOptionsKept: other options that share a prefix
// with none of the password options stay, with their values.
func TestRedactAbbreviatedOptionsKept(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"kept", "curl --proxy-us bob:" + pw + " https://h/", []string{"--proxy-us bob:", "https://h/"}},
		{"kept", "curl --user-agent my-agent --cert-type PEM https://h/", []string{"--user-agent my-agent --cert-type PEM https://h/"}},
		{"kept", "curl --compressed --proxy-insecure https://h/", []string{"--compressed --proxy-insecure https://h/"}},
		{"kept", "curl --proxy-header 'X-A: b' https://h/", []string{"--proxy-header 'X-A: b' https://h/"}},
		{"kept", "mysql --password -u root shop", []string{"--password -u root shop"}},
		{"kept", "mysql --pager=less --port 3307 shop", []string{"--pager=less --port 3307 shop"}},
	})
}
