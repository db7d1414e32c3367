package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// detourCase is a command, or JSON arguments when it starts with '{',
// whose secret must be gone from the record while the keep words stay.
type detourCase struct {
	class string
	in    string
	keep  []string
}

// checkDetours runs each case through Redact or RedactArgs, as the audit
// log writes them.
func checkDetours(t *testing.T, pw string, cases []detourCase) {
	t.Helper()
	for _, c := range cases {
		var got string
		if strings.HasPrefix(c.in, "{") {
			got = string(RedactArgs(json.RawMessage(c.in), 0))
		} else {
			got = Redact(c.in)
		}
		if strings.Contains(got, pw) {
			t.Errorf("%s: secret kept:\n in: %s\nout: %s", c.class, c.in, got)
		}
		for _, k := range c.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: %q lost:\n in: %s\nout: %s", c.class, k, c.in, got)
			}
		}
	}
}

// TestRedactBuiltCredentials: a Basic credential built in the pipeline
// (a literal fed to an encoder), and values written into a file whose
// name marks it secret by a command that is no echo (sed -i, dd, cp).
func TestRedactBuiltCredentials(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"encoder", "echo -n bob:" + pw + " | base64", []string{"| base64"}},
		{"encoder", "echo -n 'bob:" + pw + "' | base64", []string{"| base64"}},
		{"encoder", "printf '%s:%s' bob " + pw + " | base64", []string{"| base64"}},
		{"encoder", "printf bob:" + pw + " | base64 -w0", []string{"| base64 -w0"}},
		{"encoder", "base64 <<< bob:" + pw, []string{"base64 <<<"}},
		{"encoder", "base64 <<< 'bob:" + pw + "'", []string{"base64 <<<"}},
		{"encoder", "openssl base64 <<< 'bob:" + pw + "'", []string{"openssl base64"}},
		{"encoder", "echo -n bob:" + pw + " | openssl enc -base64", []string{"openssl enc -base64"}},
		{"encoder", "echo -n bob:" + pw + " | basenc --base64", []string{"basenc"}},
		{"encoder", "echo -n bob:" + pw + " | base32", []string{"base32"}},
		{"encoder", "echo -n " + pw + " | base64 | tr -d '\\n'", []string{"tr -d"}},
		{"encoder", "echo -n bob:" + pw + " | sudo base64", []string{"sudo base64"}},
		{"encoder", `curl -H "Authorization: Basic $(echo -n bob:` + pw + ` | base64)" https://h`, []string{"Authorization: Basic", "https://h"}},
		{"encoder", `curl -H "Authorization: Basic $(printf '%s:%s' bob ` + pw + ` | base64)" https://h`, []string{"https://h"}},
		{"encoder", `curl -H "Authorization: Basic $(base64 <<< bob:` + pw + `)" https://h`, []string{"https://h"}},
		{"encoder", "curl -H \"Authorization: Basic `echo -n bob:" + pw + " | base64`\" https://h", []string{"https://h"}},
		{"encoder", `A=$(echo -n "bob:` + pw + `" | base64 -w0); curl -H "Authorization: Basic $A" h`, []string{"curl -H"}},
		{"encoder", `ssh h "echo -n bob:` + pw + ` | base64"`, []string{"ssh h"}},
		{"encoder", `{"command":"echo -n bob:` + pw + ` | base64 -w0"}`, []string{"base64 -w0"}},
		// Written into a file named as a secret.
		{"file", `sed -i "s/changeme/` + pw + `/" /etc/app/secret.conf`, []string{"s/changeme/", "/etc/app/secret.conf"}},
		{"file", "sed -i 's/changeme/" + pw + "/g' /etc/app/db_password", []string{"s/changeme/", "/g'", "/etc/app/db_password"}},
		{"file", "sed -i -e 's|CHANGE_ME|" + pw + "|' ~/.pgpass", []string{"CHANGE_ME", "~/.pgpass"}},
		{"file", "sudo sed -i 's/x/" + pw + "/' /run/secrets/api_token", []string{"/run/secrets/api_token"}},
		{"file", "perl -pi -e 's/x/" + pw + "/' /etc/app/token", []string{"/etc/app/token"}},
		{"file", "echo " + pw + " | dd of=/etc/x/token", []string{"dd of=/etc/x/token"}},
		{"file", "echo " + pw + " | sudo dd of=/etc/x/token status=none", []string{"status=none"}},
		{"file", "dd of=/etc/app/db_password <<< " + pw, []string{"dd of=/etc/app/db_password"}},
		{"file", "cp /dev/stdin /etc/x/secret <<< " + pw, []string{"cp /dev/stdin /etc/x/secret"}},
		{"file", "printf " + pw + " | cp /dev/stdin ~/.pgpass", []string{"~/.pgpass"}},
		{"file", "install -m600 /dev/stdin /etc/x/token <<< " + pw, []string{"install -m600"}},
		{"file", "echo " + pw + " > /etc/app/db_password", []string{"/etc/app/db_password"}},
		{"file", "tee /run/secrets/x <<< " + pw, []string{"tee /run/secrets/x"}},
	})
}

// TestRedactStoreSetters: CLIs whose env, config, variable or secret set
// subcommands take NAME VALUE, by their own spellings (a ':'-joined
// subcommand, a subcommand that is also a program's name, npx before
// the program).
func TestRedactStoreSetters(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"store", "travis env set DB_PASSWORD " + pw, []string{"travis env set DB_PASSWORD"}},
		{"store", "travis env set DB_PASSWORD " + pw + " --private", []string{"--private"}},
		{"store", "netlify env:set DB_PASSWORD " + pw, []string{"netlify env:set DB_PASSWORD"}},
		{"store", `netlify env:set API_TOKEN "` + pw + `"`, []string{"API_TOKEN"}},
		{"store", "gh variable set NAME --body " + pw, []string{"gh variable set NAME --body"}},
		{"store", "gh variable set DB_PASSWORD -b " + pw, []string{"DB_PASSWORD"}},
		{"store", "gh secret set NAME -b " + pw, []string{"NAME"}},
		{"store", "bw create item " + pw + "eyJsb2dpbiI6e30=", []string{"bw create item"}},
		{"store", "firebase functions:secrets:set X <<< " + pw, []string{"functions:secrets:set X"}},
		{"store", "npx vercel env add X production <<< " + pw, []string{"npx vercel env add X production"}},
		{"store", "heroku config:set DB_PASSWORD=" + pw, []string{"DB_PASSWORD="}},
		{"store", "doppler secrets set DB_PASSWORD " + pw, []string{"DB_PASSWORD"}},
		// Kept: other subcommands and names.
		{"kept", "travis env list", []string{"travis env list"}},
		{"kept", "netlify env:set NODE_VERSION 20", []string{"NODE_VERSION 20"}},
		{"kept", "travis env set NODE_ENV production", []string{"NODE_ENV production"}},
	})
}

// TestRedactDetoursKept: what those rules must leave readable.
func TestRedactDetoursKept(t *testing.T) {
	for _, s := range []string{
		"echo aGVsbG8= | base64 -d",
		"base64 -d <<< aGVsbG8=",
		"echo aGVsbG8= | base64 --decode > out",
		"base64 file.bin",
		"cat f | base64 -w0",
		"openssl base64 -d -in f",
		"sed -i 's/foo/bar/' /etc/app/app.conf",
		"sed -i 's/foo/bar/' README.md",
		"echo hi | dd of=/tmp/out bs=1M",
		"cp /dev/stdin /tmp/out <<< hello",
	} {
		if got := Redact(s); got != s {
			t.Errorf("changed:\n in: %s\nout: %s", s, got)
		}
	}
}

// TestRedactPromptedSecrets: Redis ACL passwords however bash reads them
// (>pw unquoted is a redirection whose target is the password), #sha256
// rules, ACL lines fed or written to users.acl; remote desktop, disk and
// archive tools that read a password on their input only with an option;
// SonarQube's sonar.login token.
func TestRedactPromptedSecrets(t *testing.T) {
	const pw = "Zq9Secret77"
	const hash = "8d969eef6ecad3c29a3a629280e686cf0c3f5d5a86aff3ca12020c923adc6c92"
	checkDetours(t, pw, []detourCase{
		{"acl", "redis-cli ACL SETUSER bob on >" + pw, []string{"ACL SETUSER bob on >"}},
		{"acl", "redis-cli acl setuser bob on >" + pw + " ~* +@all", []string{"~* +@all"}},
		{"acl", "redis-cli -h h ACL SETUSER bob resetpass >" + pw, []string{"resetpass"}},
		{"acl", "redis-cli ACL SETUSER bob on <" + pw, []string{"bob on <"}},
		{"acl", "redis-cli ACL SETUSER bob on > " + pw + " ~*", []string{"~*"}},
		{"acl", "redis-cli ACL SETUSER bob on >" + pw + " >" + pw + "2", []string{"bob on"}},
		{"acl", "valkey-cli ACL SETUSER bob on >" + pw, []string{"bob on"}},
		{"acl", "redis-cli ACL SETUSER bob on '>" + pw + "' '~*'", []string{"'~*'"}},
		{"acl", "echo \"ACL SETUSER bob on >" + pw + "\" | redis-cli", []string{"| redis-cli"}},
		{"acl", `{"command":"redis-cli","stdin":"ACL SETUSER bob on >` + pw + `\n"}`, []string{"ACL SETUSER bob on"}},
		{"acl", "echo 'user bob on >" + pw + " ~* +@all' >> /etc/redis/users.acl", []string{"/etc/redis/users.acl"}},
		{"acl", `{"path":"/etc/redis/users.acl","content":"user default on nopass ~* +@all\nuser bob on >` + pw + ` ~* +@all\n"}`, []string{"user default on nopass", "user bob on >"}},
		{"acl", "redis-cli AUTH bob " + pw, []string{"redis-cli AUTH"}},
		// A password's SHA-256 is as good as the password offline.
		{"acl-hash", "redis-cli ACL SETUSER bob on #" + hash, []string{"bob on"}},
		{"acl-hash", "redis-cli ACL SETUSER bob on '#" + hash + "' ~*", []string{"~*"}},
		// Remote desktops.
		{"rdp", "rdesktop -u bob -p - host <<< " + pw, []string{"-u bob -p - host"}},
		{"rdp", "echo " + pw + " | rdesktop -u bob -p - host", []string{"rdesktop -u bob"}},
		{"rdp", "xfreerdp /v:h /u:bob /from-stdin <<< " + pw, []string{"/u:bob /from-stdin"}},
		{"rdp", "echo " + pw + " | xfreerdp3 /v:h /u:bob +from-stdin", []string{"/u:bob"}},
		{"rdp", "xfreerdp /u:bob /p:" + pw + " /v:host", []string{"/u:bob", "/v:host"}},
		// Disks, file systems and archives.
		{"disk", "mount -t davfs https://h/dav /mnt <<< $'bob\\n" + pw + "'", []string{"https://h/dav /mnt"}},
		{"disk", "printf 'bob\\n" + pw + "\\n' | mount -t davfs https://h/dav /mnt", []string{"mount -t davfs"}},
		{"disk", "echo -e \"bob\\n" + pw + "\" | sudo mount -t davfs u /mnt", []string{"sudo mount -t davfs"}},
		{"disk", "mount.davfs u /mnt <<< $'bob\\n" + pw + "'", []string{"mount.davfs u /mnt"}},
		{"disk", "echo " + pw + " | encfs -S /a /b", []string{"encfs -S /a /b"}},
		{"disk", "encfs --stdinpass /a /b <<< " + pw, []string{"encfs --stdinpass"}},
		{"disk", "tcplay -m x -d /dev/sdb <<< " + pw, []string{"tcplay -m x"}},
		{"disk", "scrypt enc f <<< " + pw, []string{"scrypt enc f"}},
		{"disk", "zip -e a.zip f <<< $'" + pw + "\\n" + pw + "'", []string{"zip -e a.zip f"}},
		// Java system properties.
		{"java", "mvn deploy -Dsonar.login=" + pw, []string{"-Dsonar.login="}},
		{"java", "mvn sonar:sonar -Dsonar.login=" + pw + " -Dsonar.host.url=h", []string{"-Dsonar.host.url=h"}},
		{"java", "mvn -Dgpg.passphrase=" + pw + " deploy", []string{"deploy"}},
		{"java", `JAVA_TOOL_OPTIONS="-Dx.password=` + pw + `" java -jar a.jar`, []string{"java -jar a.jar"}},
	})
	for _, s := range []string{
		"mount -t nfs h:/x /mnt",
		"mount /dev/sdb1 /mnt",
		"zip -r a.zip dir",
		"redis-cli ACL SETUSER bob on nopass ~* +@all",
		"redis-cli ACL LIST > acl.txt",
		"mvn -Dsonar.host.url=h sonar:sonar",
	} {
		if got := Redact(s); got != s {
			t.Errorf("changed:\n in: %s\nout: %s", s, got)
		}
	}
}

// TestRedactScriptPositionals: scripts' calls whose password is a
// positional argument, hashers given the password, and Ruby's ||=.
func TestRedactScriptPositionals(t *testing.T) {
	const pw = "Zq9Secret77"
	script := func(s string) string {
		b, _ := json.Marshal(map[string]string{"script": s})
		return string(b)
	}
	checkDetours(t, pw, []detourCase{
		{"call", script("import paramiko\nc=paramiko.SSHClient()\nc.connect(h, 22, 'bob', '" + pw + "')"), []string{"c.connect(h, 22, 'bob', '"}},
		{"call", script("c.connect('h', 22, 'bob', '" + pw + "')"), []string{"'bob'"}},
		{"call", script("f = ftplib.FTP(h, 'bob', '" + pw + "')"), []string{"ftplib.FTP(h, 'bob'"}},
		{"call", script("f = FTP_TLS('h', 'bob', '" + pw + "')"), []string{"'bob'"}},
		{"call", script("conn = pymysql.connect(host, 'bob', '" + pw + "', db)"), []string{"'bob'", ", db)"}},
		{"call", script("conn = pymysql.connect('h', 'bob', '" + pw + "', 'db')"), []string{"'db'"}},
		{"call", script("conn = MySQLdb.connect('h', 'bob', '" + pw + "', 'db')"), []string{"'bob'"}},
		{"call", script("pymssql.connect('h', 'bob', '" + pw + "', 'db')"), []string{"'bob'"}},
		{"call", script("cx_Oracle.connect('bob', '" + pw + "', 'h/orcl')"), []string{"'h/orcl'"}},
		{"call", script("mgr.add_password(None, u, 'bob', '" + pw + "')"), []string{"'bob'"}},
		{"call", script("pika.PlainCredentials('bob', '" + pw + "')"), []string{"'bob'"}},
		{"call", script("smb = SMBConnection('bob', '" + pw + "', 'me', 'srv')"), []string{"'me', 'srv'"}},
		{"call", script("Net::FTP.open('h', 'bob', '" + pw + "')"), []string{"'bob'"}},
		{"call", script("pop.pass_('" + pw + "')"), []string{"pop.pass_("}},
		{"call", script("$ftp = ftp_login($conn, 'bob', '" + pw + "');"), []string{"'bob'"}},
		{"call", script("ssh2_auth_password($c, 'bob', '" + pw + "');"), []string{"'bob'"}},
		{"call", script("ldap_bind($c, 'cn=admin', '" + pw + "');"), []string{"'cn=admin'"}},
		{"call", script(`cfg := &ssh.ClientConfig{Auth: []ssh.AuthMethod{ssh.Password("` + pw + `")}}`), []string{"ssh.Password("}},
		{"call", script(`Authenticator.setDefault(new PasswordAuthentication("bob", "` + pw + `".toCharArray()))`), []string{"PasswordAuthentication("}},
		{"call", script("s = smtplib.SMTP('h', 587); s.login('bob','" + pw + "')"), []string{"'bob'"}},
		{"call", script("r = requests.get(u, auth=('bob','" + pw + "'))"), []string{"requests.get(u"}},
		{"call", script("HTTPBasicAuth('bob','" + pw + "')"), []string{"'bob'"}},
		// Hashers given the password.
		{"hash", "python3 -c 'import crypt; print(crypt.crypt(\"" + pw + "\"))'", []string{"crypt.crypt("}},
		{"hash", "php -r 'echo password_hash(\"" + pw + "\", PASSWORD_DEFAULT);'", []string{"PASSWORD_DEFAULT"}},
		{"hash", "node -e 'console.log(bcrypt.hashSync(\"" + pw + "\", 10))'", []string{"bcrypt.hashSync("}},
		{"hash", "python3 -c 'import bcrypt; print(bcrypt.hashpw(b\"" + pw + "\", bcrypt.gensalt()))'", []string{"bcrypt.gensalt()"}},
		{"hash", "python3 -c 'from passlib.hash import sha512_crypt; print(sha512_crypt.hash(\"" + pw + "\"))'", []string{"sha512_crypt.hash("}},
		{"hash", "python3 -c 'from werkzeug.security import generate_password_hash as g; print(generate_password_hash(\"" + pw + "\"))'", nil},
		{"hash", "ruby -e 'puts BCrypt::Password.create(\"" + pw + "\")'", []string{"BCrypt::Password.create("}},
		{"hash", "echo -n " + pw + " | argon2 somesalt -id", []string{"argon2 somesalt -id"}},
		{"hash", "openssl passwd -6 " + pw, []string{"openssl passwd -6"}},
		{"hash", "htpasswd -nb bob " + pw, []string{"htpasswd -nb bob"}},
		// ||= assigns too.
		{"assign", script("DB_PASSWORD ||= '" + pw + "'"), []string{"DB_PASSWORD ||="}},
		{"assign", script("ENV['DB_PASSWORD'] ||= '" + pw + "'"), []string{"ENV['DB_PASSWORD']"}},
		{"assign", script(`@password ||= "` + pw + `"`), []string{"@password"}},
		{"assign", script("process.env.API_TOKEN ??= '" + pw + "'"), []string{"API_TOKEN"}},
	})
	for _, s := range []string{
		"s = socket.connect((h, 22))",
		"db = sqlite3.connect('app.db')",
		"ws.connect('wss://h', 'proto', 'x')",
		"c.connect(h, 22, username='bob')",
		"print(crypt.crypt(pw))",
		"f = open('a.txt', 'w')",
		"x ||= []",
	} {
		if got := Redact(s); got != s {
			t.Errorf("changed:\n in: %s\nout: %s", s, got)
		}
	}
}
