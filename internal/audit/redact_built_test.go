package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactBuiltSecrets: secrets a third red-team pass found kept, by
// class: a value whose name stands elsewhere (a printf format, a sed
// pattern, a name field before a value field), Windows' tools, stored
// PostgreSQL passwords, short names starting a YAML line and vendors' API
// key headers. Commands go through Redact, tool arguments through
// RedactArgs; the secret must be gone and the named words kept.
func TestRedactBuiltSecrets(t *testing.T) {
	const pw = "Zq9Secret77"
	for _, c := range []struct {
		class string
		in    string // a command, or JSON arguments when it starts with '{'
		keep  []string
	}{
		// printf: the format names what its arguments are.
		{"printf", "printf 'password=%s' " + pw + " > /tmp/x", []string{"printf 'password=", "> /tmp/x"}},
		{"printf", "printf 'password=%s\\n' '" + pw + "'", []string{"printf"}},
		{"printf", "printf 'user=%s password=%s' bob " + pw, []string{"bob"}},
		{"printf", "printf 'password=%s&user=%s' " + pw + " bob", []string{"bob"}},
		{"printf", `printf "user=bob\npassword=%s\n" "` + pw + `" > /etc/app.conf`, []string{"/etc/app.conf"}},
		{"printf", "printf 'token: %s\\n' " + pw, nil},
		{"printf", "printf -- '--password=%s' " + pw, nil},
		{"printf", `printf '{"password":"%s"}' ` + pw + ` > c.json`, []string{"c.json"}},
		{"printf", "printf 'Authorization: Bearer %s' " + pw, []string{"Authorization: Bearer"}},
		{"printf", `curl -H "$(printf 'X-Api-Key: %s' ` + pw + `)" https://x`, []string{"https://x"}},
		{"printf", "printf '%5s|api_key=%-10s\\n' a " + pw + " b c", []string{"a ", " b "}},
		{"printf", `{"script":"printf 'secret: %s' ` + pw + `"}`, nil},
		{"printf", "printf '%s=%s\\n' DB_PASSWORD " + pw + " >> .env", []string{"DB_PASSWORD", ">> .env"}},
		{"printf", "printf '%s: %s\\n' api_key '" + pw + "' > c.yml", []string{"api_key"}},
		{"printf", "printf 'password=%s' supersecret1", nil},
		// sed: a pattern that names a secret makes the replacement one.
		{"sed", "sed -i 's/requirepass .*/requirepass " + pw + "/' /etc/redis.conf", []string{"s/requirepass .*/requirepass ", "/etc/redis.conf"}},
		{"sed", "sed -e 's/__PASSWORD__/" + pw + "/g' tpl > out", []string{"s/__PASSWORD__/", "/g' tpl > out"}},
		{"sed", `sed -i "s/\(password *= *\).*/\1` + pw + `/" f`, []string{`\1`, `/" f`}},
		{"sed", "sed -i 's/password: .*/password: " + pw + "/' c.yaml", []string{"c.yaml"}},
		{"sed", "sed -i 's#DB_PASSWORD=.*#DB_PASSWORD=" + pw + "#' .env", []string{"s#DB_PASSWORD=.*#DB_PASSWORD=", ".env"}},
		{"sed", "sed 's|{{db_password}}|" + pw + "|' t > c", []string{"{{db_password}}"}},
		{"sed", "perl -pi -e 's/PASSWORD/" + pw + "/' f", []string{"perl -pi -e", "f"}},
		// A name field before the value field.
		{"named", `{"path":"c.yml","content":"env:\n  - name: DB_PASSWORD\n    value: ` + pw + `\n  - name: HOST\n    value: db\n"}`, []string{"value: db"}},
		{"named", `{"path":"c.yml","content":"- name: API_TOKEN\n  value: \"` + pw + `\"\n"}`, []string{"API_TOKEN"}},
		{"named", `echo '[{"name":"DB_PASSWORD","value":"` + pw + `"},{"name":"PORT","value":"5432"}]' > td.json`, []string{`"value":"5432"`}},
		{"named", "aws cloudformation create-stack --parameters ParameterKey=DbPassword,ParameterValue=" + pw + " ParameterKey=Env,ParameterValue=prod", []string{"ParameterValue=prod"}},
		{"named", `{"path":"web.config","content":"<add key=\"Password\" value=\"` + pw + `\"/>"}`, nil},
		{"named", `{"script":"props.put(\"password\", \"` + pw + `\");"}`, []string{"props.put("}},
		{"named", `{"script":"config.set('db', 'password', '` + pw + `')"}`, []string{"'db'"}},
		// Scripts' logins the rules missed by a spelling.
		{"script", `{"script":"$pdo = new PDO($dsn, 'root', '` + pw + `');"}`, []string{"'root'"}},
		{"script", `{"script":"auth = ('bob', '` + pw + `')\nr = get(u, auth=auth)"}`, []string{"'bob'", "get(u"}},
		{"store", "doppler secrets set DB_PASSWORD " + pw, []string{"DB_PASSWORD"}},
		// A command held in an option's or variable's value.
		{"command", "scp -o 'ProxyCommand=sshpass -p " + pw + " ssh -W %h:%p j' f h:", []string{"ProxyCommand=sshpass -p", "ssh -W %h:%p j", "f h:"}},
		{"command", `git -c core.sshCommand="sshpass -p ` + pw + ` ssh" clone h:r`, []string{"clone h:r"}},
		{"command", "GIT_SSH_COMMAND='sshpass -p " + pw + " ssh' git pull", []string{"git pull"}},
		{"command", "rsync --rsh='sshpass -p " + pw + " ssh -l bob' a h:b", []string{"a h:b"}},
		// A template's expression as the value.
		{"template", `ansible all -m user -a 'name=bob password={{ "` + pw + `" | password_hash("sha512") }}'`, []string{"name=bob"}},
		{"bmc", "idracadm7 -r h -u root -p " + pw + " getsysinfo", []string{"-u root", "getsysinfo"}},
		{"bmc", "ilorest login h -u admin -p " + pw, []string{"-u admin"}},
		{"store", "hdbsql -u SYSTEM -p " + pw + " -n h", []string{"-u SYSTEM", "-n h"}},
		// Windows' tools.
		{"windows", "net user bob " + pw + " /add", []string{"net user bob", "/add"}},
		{"windows", "net user /add bob " + pw + " /domain", []string{"bob", "/domain"}},
		{"windows", `net user administrator "` + pw + `"`, []string{"administrator"}},
		{"windows", `net use Z: \\srv\share ` + pw + ` /user:dom\bob`, []string{`\\srv\share`, "/user:dom"}},
		{"windows", `net use \\srv\share /user:bob ` + pw + ` /persistent:no`, []string{"/user:bob", "/persistent:no"}},
		{"windows", `PsExec.exe \\h -u bob -p ` + pw + ` cmd`, []string{"-u bob", "cmd"}},
		{"windows", "schtasks /create /tn x /tr y /ru bob /rp " + pw, []string{"/ru bob"}},
		{"windows", "SCHTASKS /Create /S h /U bob /P " + pw + " /TN x", []string{"/U bob", "/TN x"}},
		{"windows", "netdom join pc /domain:x /userd:bob /passwordd:" + pw, []string{"/userd:bob"}},
		{"windows", "dsquery user -u bob -p " + pw, []string{"-u bob"}},
		{"windows", "vmrun -T ws -gu bob -gp " + pw + " runProgramInGuest x", []string{"-gu bob", "runProgramInGuest"}},
		// Stored PostgreSQL passwords, and pgbouncer's userlist.
		{"pgbouncer", `echo '"bob" "md5` + "0123456789abcdef0123456789abcdef" + `"' >> /etc/pgbouncer/userlist.txt`, []string{"/etc/pgbouncer/userlist.txt"}},
		{"pgbouncer", `echo '"bob" "` + pw + `"' >> /etc/pgbouncer/userlist.txt`, []string{"/etc/pgbouncer/userlist.txt"}},
		{"pgbouncer", `{"path":"/etc/pgbouncer/userlist.txt","content":"\"bob\" \"` + pw + `\"\n"}`, nil},
		{"pgbouncer", `psql -c "ALTER ROLE x PASSWORD 'SCRAM-SHA-256$4096:` + pw + `abcdefghij$abcdefghijklmnop:qrstuvwxyz012'"`, nil},
		// Short names starting a YAML line.
		{"yaml", `{"path":"c.yaml","content":"db:\n  pwd: ` + pw + `\n  user: bob\n"}`, []string{"user: bob"}},
		{"yaml", "cat > c.yaml <<EOF\ndb:\n  pw: " + pw + "\n  host: h\nEOF", []string{"host: h"}},
		{"yaml", "echo 'pwd: " + pw + "' >> c.yaml", []string{"c.yaml"}},
		// Vendors' API key headers.
		{"header", "curl -H 'X-JFrog-Art-Api: " + pw + "' https://art/x", []string{"X-JFrog-Art-Api:", "https://art/x"}},
		{"header", `curl -H "X-JFrog-Art-Api:` + pw + `" https://art/x`, []string{"https://art/x"}},
		{"header", `curl -H "X-Honeycomb-Team: ` + pw + `" https://api.honeycomb.io`, []string{"X-Honeycomb-Team:"}},
	} {
		var got string
		if strings.HasPrefix(c.in, "{") {
			if !json.Valid([]byte(c.in)) {
				t.Fatalf("%s: invalid JSON %s", c.class, c.in)
			}
			got = string(RedactArgs(json.RawMessage(c.in), 4096))
		} else {
			got = Redact(c.in)
		}
		if strings.Contains(got, pw) || strings.Contains(got, "0123456789abcdef0123456789abcdef") || strings.Contains(got, "supersecret1") {
			t.Errorf("%s: %q kept the secret: %q", c.class, c.in, got)
		}
		for _, k := range c.keep {
			esc, _ := json.Marshal(k)
			if !strings.Contains(got, k) && !strings.Contains(got, strings.Trim(string(esc), `"`)) {
				t.Errorf("%s: %q lost %q: %q", c.class, c.in, k, got)
			}
		}
	}
}

// TestRedactBuiltKeepsCommands: what the rules above read stays when it
// holds no secret.
func TestRedactBuiltKeepsCommands(t *testing.T) {
	for _, in := range []string{
		"printf '%s\\n' hello world",
		"printf 'user=%s host=%s\\n' bob db", "printf '%s=%s\\n' HOST db",
		"printf 'PermitRootLogin %s\\n' no >> sshd_config",
		"sed -i 's/PasswordAuthentication yes/PasswordAuthentication no/' /etc/ssh/sshd_config",
		"sed -i 's/#PermitEmptyPasswords no/PermitEmptyPasswords no/' /etc/ssh/sshd_config",
		"sed -i 's/^listen_addresses.*/listen_addresses = '*'/' postgresql.conf",
		"sed -n 's/^user=//p' f",
		"kubectl set env deploy/x - name: HOST value: db",
		`echo '[{"name":"HOST","value":"db"}]'`,
		"net user bob", "net user add bob", "net use Z: \\\\srv\\share /persistent:yes", "net user bob /delete",
		"schtasks /query /tn x", "echo md5sum",
		"pwd: /home/bob", "cat PsExec.exe", "curl -H 'X-Api-Version: 2' https://x",
		"curl -H 'X-GitHub-Api-Version: 2022-11-28' https://x",
		"ssh -o ProxyCommand='ssh -W %h:%p jump' h", "GIT_SSH_COMMAND='ssh -i k' git pull",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q: nothing there is a secret", in, got)
		}
	}
}
