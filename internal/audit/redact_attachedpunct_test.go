package audit

import "testing"

// TestRedactAttachedPunctuation: a password attached to its short option
// may begin with any byte bash keeps in the word (mysql -p!S3cret,
// -p#x, -p@dm1n, -p[x]y, sshpass -p%x, 7z -p{x}, curl -u{bob}:pw): the
// value was read only when it began with a word byte, a quote, $ or \,
// and the rest were kept whole. Each program is tried with every leading
// byte, alone and inside an ssh command.
func TestRedactAttachedPunctuation(t *testing.T) {
	const pw = "Zq9Secret77"
	progs := []struct{ before, after, keep string }{
		{"mysql -uroot -p", " shop", "mysql -uroot -p"},
		{"mariadb -Bp", " -e 'select 1'", "mariadb -Bp"},
		{"mysqldump -u root -p", " --all-databases", "--all-databases"},
		{"sshpass -p", " ssh db1 uptime", "ssh db1 uptime"},
		{"redis-cli -a", " ping", "ping"},
		{"ldapsearch -x -D cn=admin -w", " -b dc=x", "-b dc=x"},
		{"zip -P", " a.zip f", "a.zip f"},
		{"7z a -p", " a.7z f", "a.7z f"},
		{"unrar x -p", " a.rar", "a.rar"},
		{"sqlcmd -S db -U sa -P", " -Q 'select 1'", "sqlcmd -S db -U sa -P"},
		{"ipmitool -H h -U admin -P", " power status", "power status"},
		{"ssh-keygen -t ed25519 -N", " -f k", "-f k"},
		{"curl -sSu bob:", " https://example.invalid/", "https://example.invalid/"},
	}
	var cases []detourCase
	for _, p := range progs {
		for _, c := range "!#%@^~+,:/*?[]{}`" {
			v := string(c) + pw
			if c == '[' {
				v = "[x]" + pw
			}
			if c == '{' {
				v = "{x}" + pw
			}
			if c == '`' {
				v = "`x`" + pw
			}
			in := p.before + v + p.after
			cases = append(cases, detourCase{"local", in, []string{p.keep}}, detourCase{"ssh", `ssh h "` + escapeDouble(in) + `"`, []string{"ssh h", p.keep}})
		}
	}
	checkSubtests(t, pw, cases)

	// Kept: an option that ends its word at a blank or an operator asks
	// for the password, and options of other programs are no passwords.
	checkSpellings(t, []spelling{
		{"mysql -uroot -p; ls -l /srv", nil, []string{"mysql -uroot -p; ls -l /srv"}},
		{"mysql -uroot -p<dump.sql shop", nil, []string{"-p<dump.sql shop"}},
		{"mysql -uroot -p|tee log", nil, []string{"-p|tee log"}},
		{"mysql -h db -P3306 -uroot shop", nil, []string{"-P3306"}},
		{"ssh -p2222 bob@h uptime; ps -p1; mkdir -p/srv/a", nil, []string{"-p2222", "ps -p1", "mkdir -p/srv/a"}},
		{"tar -p --xattrs -xf a.tar; cp -p@x y", nil, []string{"tar -p --xattrs", "cp -p@x y"}},
		{"7z a -mx=9 -m0=lzma2 a.7z f", nil, []string{"-mx=9 -m0=lzma2"}},
	})
}
