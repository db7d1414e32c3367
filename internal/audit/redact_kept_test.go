package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactMoreSpellings: secrets a red-team pass found kept, by class.
// Each call's arguments go through RedactArgs, as the audit log writes
// them; the secret must be gone and the named words kept.
func TestRedactMoreSpellings(t *testing.T) {
	const pw = "Zq9Secret77"
	for _, c := range []struct {
		class string
		args  map[string]any
		keep  []string
	}{
		// An option's value attached in quotes or with a backslash,
		// when the password holds a credential word: the word is no
		// option name whose value is the next word.
		{"attached", map[string]any{"command": "mysql -u root -p'" + pw + "' db"}, []string{"mysql -u root", "db"}},
		{"attached", map[string]any{"command": "mysql -u root -p'MyPassword1' db"}, []string{"db"}},
		{"attached", map[string]any{"command": `sshpass -p"` + pw + `" ssh bob@h`}, []string{"ssh bob@h"}},
		{"attached", map[string]any{"command": "docker login -pZq9Se'cret77' r"}, []string{"docker login"}},
		{"attached", map[string]any{"command": `mysql -uroot -pZq9Se\cret77 db`}, []string{"db"}},
		{"attached", map[string]any{"command": "7z a -p'" + pw + "' o.7z f"}, []string{"o.7z f"}},
		{"attached", map[string]any{"command": "mysqldump -uroot -p'token" + pw + "' db"}, []string{"db"}},
		// Programs and options.
		{"program", map[string]any{"command": "htpasswd2 -b f bob " + pw}, []string{"htpasswd2 -b f bob"}},
		{"program", map[string]any{"command": "vsql -w " + pw + " -U dbadmin"}, []string{"-U dbadmin"}},
		{"program", map[string]any{"command": "beeline -u jdbc:hive2://h -n bob -p " + pw}, []string{"-n bob"}},
		{"program", map[string]any{"command": "influx user create -n bob -p " + pw + " -o org"}, []string{"-o org"}},
		{"program", map[string]any{"command": "rpk acl user create bob -p " + pw}, []string{"rpk acl user create bob"}},
		{"program", map[string]any{"command": "p4 -u bob -P " + pw + " info"}, []string{"info"}},
		{"program", map[string]any{"command": "poetry publish -u bob -p " + pw}, []string{"-u bob"}},
		{"program", map[string]any{"command": "az vm user update -u bob -p " + pw + " -n vm"}, []string{"-n vm"}},
		{"program", map[string]any{"command": "security unlock-keychain -p " + pw + " login.keychain"}, []string{"login.keychain"}},
		{"program", map[string]any{"command": "govc about -u 'bob:" + pw + "@vc'"}, []string{"govc about"}},
		{"program", map[string]any{"command": "crudini --set my.cnf client password " + pw}, []string{"my.cnf client"}},
		{"program", map[string]any{"command": "jq --arg password " + pw + " '.x = $password' c.json"}, []string{"c.json"}},
		{"program", map[string]any{"command": "./app --pwd " + pw}, []string{"./app"}},
		{"program", map[string]any{"command": "snyk auth " + pw}, []string{"snyk auth"}},
		{"program", map[string]any{"command": "salt '*' user.chpass bob " + pw}, []string{"user.chpass bob"}},
		{"program", map[string]any{"command": "raspi-config nonint do_wifi_ssid_passphrase home " + pw}, []string{"home"}},
		{"program", map[string]any{"command": "kibana-keystore add x --stdin <<< " + pw}, []string{"kibana-keystore add x"}},
		{"program", map[string]any{"command": "hcloud context create x <<< " + pw}, []string{"hcloud context create x"}},
		// URLs and logins written as no URL is.
		{"url", map[string]any{"command": "redis-cli -u redis://" + pw + "@h"}, []string{"@h"}},
		{"url", map[string]any{"command": "redis-cli -u rediss://" + pw + "@h:6380/0"}, []string{"@h:6380/0"}},
		{"url", map[string]any{"command": "git clone https://" + pw + "@github.com/o/r.git"}, []string{"github.com/o/r.git"}},
		{"url", map[string]any{"command": "pip install git+https://" + pw + "@github.com/o/r.git"}, []string{"github.com/o/r.git"}},
		{"url", map[string]any{"command": "./app 'bob:" + pw + "@tcp(h:3306)/db'"}, []string{"bob:", "@tcp(h:3306)/db"}},
		{"url", map[string]any{"command": "./app 'jdbc:oracle:thin:bob/" + pw + "@h:1521:orcl'"}, []string{"jdbc:oracle:thin:bob/"}},
		{"url", map[string]any{"command": `curl "https://h/cb?code=` + pw + `&state=xyz"`}, []string{"state=xyz"}},
		{"url", map[string]any{"command": `curl "https://h/x?a=1&session=` + pw + `"`}, []string{"a=1"}},
		{"url", map[string]any{"command": `curl -d x "https://outlook.office.com/webhook/a@b/IncomingWebhook/` + pw + `abcdef/c"`}, []string{"/IncomingWebhook/"}},
		// Token formats.
		{"token", map[string]any{"command": "echo whsec_" + pw + "abcdefghijklmnop"}, nil},
		{"token", map[string]any{"command": "echo ya29." + pw + "abcdefghijklmnop"}, nil},
		{"token", map[string]any{"command": "echo glrt-" + pw + "abcdefghij"}, nil},
		{"token", map[string]any{"command": "echo GR1348941" + pw + "abcdefghij"}, nil},
		{"token", map[string]any{"command": "echo xoxe.xoxp-1-" + pw + "abcdefghijklmnop"}, nil},
		{"token", map[string]any{"command": "echo SG." + pw + "abcdefghij.abcdefghijklmnopqrstuvwxyz0123456789abcdefg"}, nil},
		{"token", map[string]any{"command": "echo shpat_" + pw + "abcdefghijklmnopqrstu"}, nil},
		{"token", map[string]any{"command": "echo dapi" + pw + "abcdefghijklmnopqrstu"}, nil},
		{"token", map[string]any{"command": "echo ATATT3xFfGF0" + pw + "abcdefghijklmnopqrstuv"}, nil},
		{"token", map[string]any{"command": "echo key-" + pw + "abcdefghijklmnopqrstu"}, nil},
		{"token", map[string]any{"command": "echo rubygems_" + pw + "abcdefghijklmnopqrstuvwxyz0123456789abcdefgh"}, nil},
		{"token", map[string]any{"command": "echo s." + pw + "abcdefghijklmn"}, nil},
		// SQL.
		{"sql", map[string]any{"command": `mysql -e "SET PASSWORD = PASSWORD('` + pw + `')"`}, []string{"SET PASSWORD = PASSWORD("}},
		{"sql", map[string]any{"command": `mysql -e "SET PASSWORD = '` + pw + `'"`}, []string{"SET PASSWORD ="}},
		// Daemons' configuration text.
		{"config", map[string]any{"command": "echo 'requirepass " + pw + "' >> /etc/redis/redis.conf"}, []string{"requirepass", "/etc/redis/redis.conf"}},
		{"config", map[string]any{"command": `echo "masterauth ` + pw + `" | sudo tee -a /etc/redis/redis.conf`}, []string{"masterauth"}},
		{"config", map[string]any{"command": "echo 'rootpw " + pw + "' >> /etc/openldap/slapd.conf"}, []string{"rootpw"}},
		{"config", map[string]any{"command": "redis-cli CONFIG SET requirepass " + pw}, []string{"CONFIG SET requirepass"}},
		{"config", map[string]any{"command": "redis-cli", "stdin": "CONFIG SET requirepass " + pw + "\n"}, []string{"CONFIG SET requirepass"}},
		{"config", map[string]any{"command": "echo '<password>" + pw + "</password>' >> settings.xml"}, []string{"<password>", "</password>"}},
		{"config", map[string]any{"path": "/etc/redis/redis.conf", "content": "port 6379\nrequirepass " + pw + "\n"}, []string{"port 6379"}},
		{"config", map[string]any{"path": "/etc/ldap.conf", "content": "base dc=x\nbindpw " + pw + "\n"}, []string{"base dc=x"}},
		{"config", map[string]any{"path": "settings.xml", "content": "<server>\n  <id>r</id>\n  <password>" + pw + "</password>\n</server>\n"}, []string{"<id>r</id>"}},
		{"config", map[string]any{"path": "Dockerfile", "content": "FROM x\nENV DB_PASSWORD " + pw + "\n"}, []string{"ENV DB_PASSWORD"}},
		{"config", map[string]any{"path": "/etc/app/app.conf", "content": "user bob\npassword " + pw + "\n"}, []string{"user bob"}},
		{"config", map[string]any{"path": "values.yaml", "content": "db:\n  password:\n    " + pw + "\n  user: bob\n"}, []string{"user: bob"}},
		{"config", map[string]any{"path": "values.yaml", "content": "password: |\n  " + pw + "\nuser: bob\n"}, []string{"user: bob"}},
		{"config", map[string]any{"path": "values.yaml", "content": "password: >-\n  " + pw + "\n  more\nuser: bob\n"}, []string{"user: bob"}},
		{"config", map[string]any{"path": "/etc/sssd/sssd.conf", "content": "ldap_default_authtok=" + pw + "\n"}, []string{"ldap_default_authtok="}},
		{"config", map[string]any{"path": "kube.yaml", "content": "users:\n- user:\n    client-key-data: " + pw + "\n"}, []string{"client-key-data:"}},
		// Scripts' login calls and key files.
		{"script", map[string]any{"script": "DriverManager.getConnection(url, \"sa\", \"" + pw + "\");"}, []string{"DriverManager.getConnection(url"}},
		{"script", map[string]any{"script": "keyring.set_password('svc', 'bob', '" + pw + "')"}, []string{"'svc', 'bob'"}},
		{"script", map[string]any{"script": "mysqli_connect('h', 'root', '" + pw + "', 'db');"}, []string{"'root'"}},
		{"script", map[string]any{"script": "$db = new mysqli('h', 'root', '" + pw + "', 'db');"}, []string{"'root'"}},
		{"script", map[string]any{"script": "ldap_conn.simple_bind_s('cn=admin', '" + pw + "')"}, []string{"cn=admin"}},
		{"script", map[string]any{"path": "k.ppk", "content": "PuTTY-User-Key-File-3: ssh-rsa\nPublic-Lines: 1\nAAAA\nPrivate-Lines: 2\n" + pw + "\n" + pw + "b\nPrivate-MAC: abc\n"}, []string{"Public-Lines: 1", "Private-MAC: abc"}},
		// A command that prints a secret, given in the env map.
		{"env", map[string]any{"command": "borg create ::x /srv", "env": map[string]any{"BORG_PASSCOMMAND": "echo " + pw}}, []string{"echo", "borg create"}},
		{"env", map[string]any{"command": "restic backup /srv", "env": map[string]any{"RESTIC_PASSWORD_COMMAND": "  printf " + pw}}, nil},
	} {
		raw, err := json.Marshal(c.args)
		if err != nil {
			t.Fatal(err)
		}
		got := string(RedactArgs(raw, 4096))
		if strings.Contains(got, pw) || strings.Contains(got, "MyPassword1") {
			t.Errorf("%s: %s kept the secret: %s", c.class, raw, got)
		}
		for _, k := range c.keep {
			esc, _ := json.Marshal(k) // a line end as JSON writes it
			if !strings.Contains(got, k) && !strings.Contains(got, strings.Trim(string(esc), `"`)) {
				t.Errorf("%s: %s lost %q: %s", c.class, raw, k, got)
			}
		}
	}
	// Words like these stay.
	for _, in := range []string{
		"grep requirepass /etc/redis/redis.conf", "https://bob@example.com/x", "https://git@github.com/o/r",
		"redis-cli -u redis://h:6379/0", "mysql -e \"SET PASSWORD FOR bob = PASSWORD(x)\" db", "echo pk_live_abc123",
		"sed -n '/password/p' f", "ls -l /srv/pwd", "curl 'https://h/x?page=2&code_style=x'",
	} {
		if got := Redact(in); strings.Contains(got, Redacted) && !strings.Contains(in, "SET PASSWORD") {
			t.Errorf("Redact(%q) = %q: nothing there is a secret", in, got)
		}
	}
}
