package audit

import (
	"encoding/json"
	"testing"
)

// TestRedactKeepsReferences: values that name a secret without showing
// it (a variable, a template's or format's field), keys qualified as
// identifiers (Sonar's projectKey, a primary key) and names about a
// secret rather than of one (password_encryption) stay readable, so the
// audit log says what ran.
func TestRedactKeepsReferences(t *testing.T) {
	for _, in := range []string{
		"mvn sonar:sonar -Dsonar.projectKey=myproj -Dsonar.host.url=h",
		"aws dynamodb query --table-name t --key-condition-expression x --partitionKey=pk1",
		"echo primaryKey=id sortKey=ts routingKey=orders.new",
		"echo keyName=prod keyId=abc123 keyAlias=alias/x keyPath=/etc/k.pem publicKey=ssh-ed25519",
		"mysql -e x --password=$pw", "echo password=${PW}", `echo "password=%(pw)s"`,
		"echo 'password={{ pw }}'", `echo "password={{ vars.db_pw }}"`, "echo api_token=${{ secrets.TOKEN }}",
		`cmd /c "set password=%PW%"`,
		"echo password_encryption = scram-sha-256",
		`echo "password_encryption = 'scram-sha-256'" >> postgresql.conf`,
		"echo PASSWORD_MIN_LENGTH=12 >> /etc/app.env",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q: nothing there is a secret", in, got)
		}
	}
	b, _ := json.Marshal(map[string]string{"path": "app.ini", "content": "[db]\npassword = ${DB_PASSWORD}\nhost = db\n"})
	if got := string(RedactArgs(b, 0)); got != string(b) {
		t.Errorf("RedactArgs(%s) = %s: a reference is no secret", b, got)
	}
}

// TestRedactReferenceLookalikes: what only starts like a reference, and
// keys that end in a secret's key, are still secrets; a variable a
// secret's place expands still loses the value it is set to.
func TestRedactReferenceLookalikes(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"ref", "echo password=$pw-" + pw, nil},
		{"ref", "echo password=$pw'" + pw + "'", nil},
		{"ref", `echo password=$pw"` + pw + `"`, nil},
		{"ref", "echo password=${pw:-" + pw + "}", nil},
		{"ref", "echo password=${pw}" + pw, nil},
		{"ref", `echo 'password={{ "` + pw + `" }}'`, nil},
		{"ref", "x=" + pw + "; mysql --password=$x", []string{"--password=$x"}},
		{"key", "mvn x -Dapi.key=" + pw, []string{"-Dapi.key="}},
		{"key", "echo encryptionKey=" + pw, nil},
		{"key", "echo sshKey=" + pw + " masterKey=" + pw, nil},
		{"key", "echo license_key=" + pw, nil},
		{"key", "echo PASSWORD_HASH='" + pw + "'", nil},
	})
}

// TestRedactPasswordFiles: a literal echo or printf writes into a file
// whose name says nothing, which a later word of the same command gives
// a program to read its password from.
func TestRedactPasswordFiles(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"sshpass", "echo " + pw + " > /tmp/p; sshpass -f /tmp/p ssh h", []string{"> /tmp/p; sshpass -f /tmp/p ssh h"}},
		{"sshpass", "echo '" + pw + "' >/tmp/p && sshpass -f/tmp/p ssh bob@h", []string{"sshpass -f/tmp/p ssh bob@h"}},
		{"sshpass", `printf "%s" "` + pw + `" > "/tmp/p"; sshpass -f "/tmp/p" scp f h:`, []string{"scp f h:"}},
		{"sshpass", "echo " + pw + " > ./p; sshpass -f p ssh h", []string{"sshpass -f p ssh h"}},
		{"rsync", "echo " + pw + " > /tmp/p; chmod 600 /tmp/p; rsync --password-file=/tmp/p a rsync://bob@h/m", []string{"chmod 600 /tmp/p", "rsync://bob@h/m"}},
		{"cryptsetup", "echo -n " + pw + " > /tmp/k; cryptsetup open --key-file=/tmp/k /dev/sdb x", []string{"/dev/sdb x"}},
		{"cryptsetup", "printf " + pw + " > /tmp/k\ncryptsetup luksOpen /dev/sdb x --key-file /tmp/k", []string{"luksOpen /dev/sdb x"}},
		{"openssl", "echo " + pw + " > /tmp/p; openssl rsa -in k.pem -passin file:/tmp/p -out k2", []string{"-passin file:/tmp/p", "-out k2"}},
		{"openssl", "echo " + pw + " > /tmp/p; openssl enc -aes-256-cbc -pass file:/tmp/p -in a", []string{"-in a"}},
		{"openssl", "echo " + pw + " > /tmp/k; openssl enc -d -kfile /tmp/k -in a", []string{"-in a"}},
		{"ansible", "echo " + pw + " > ~/.vp; ansible-vault decrypt --vault-password-file ~/.vp secrets.yml", []string{"secrets.yml"}},
		{"ansible", "echo " + pw + " > /tmp/v; ansible-playbook site.yml --vault-password-file=/tmp/v", []string{"site.yml"}},
		{"generic", "echo " + pw + " > /tmp/v; borgmatic --passphrase-file /tmp/v", nil},
		{"generic", "echo " + pw + " > /tmp/v; pg_x -passfile /tmp/v", nil},
		{"env", "echo " + pw + " > /tmp/rp; RESTIC_PASSWORD_FILE=/tmp/rp restic backup /srv", []string{"restic backup /srv"}},
		{"env", "echo " + pw + " > /tmp/rp; export RESTIC_PASSWORD_FILE=/tmp/rp; restic snapshots", []string{"restic snapshots"}},
		{"cat", "echo " + pw + " > /tmp/p; mysql -u bob -p\"$(cat /tmp/p)\" db", []string{"-u bob", " db"}},
		{"cat", "echo " + pw + " > /tmp/p; 7z x -p$(cat /tmp/p) a.7z", []string{"a.7z"}},
		{"cat", "echo " + pw + " > /tmp/p; curl -u bob:$(cat /tmp/p) https://h", []string{"https://h"}},
		{"shell", `bash -c 'echo ` + pw + ` > /tmp/p; sshpass -f /tmp/p ssh h'`, []string{"ssh h'"}},
		{"json", `{"command":"echo ` + pw + ` > /tmp/p; sshpass -f /tmp/p ssh h"}`, []string{"sshpass -f /tmp/p"}},
		{"json", `{"script":"echo ` + pw + ` > /tmp/p\nrsync --password-file /tmp/p a rsync://h/m\n"}`, []string{"rsync://h/m"}},
	})
	for _, in := range []string{
		"echo hello > /tmp/out; cat /tmp/out",
		"echo hello > /tmp/a; sshpass -f /tmp/b ssh h",
		"echo 127.0.0.1 > /tmp/hosts; rsync --password-file=/etc/rsync.pw --files-from=/tmp/hosts a h::m",
		"cryptsetup open --key-file=/root/k /dev/sdb x",
		"echo done > log.txt; openssl rsa -in k -passin env:PW",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q: nothing there is a secret", in, got)
		}
	}
}

// TestRedactCallsAndBodies: a secret-named key whose value is a call
// (the call's arguments hold the secret, not its name), calls that name
// what their argument is (curl_setopt's option, an encoder given
// user:password, a hasher reached through require), and configuration
// bodies whose secret follows no '=' or ':'.
func TestRedactCallsAndBodies(t *testing.T) {
	const pw = "Zq9Secret77"
	script := func(s string) string {
		b, _ := json.Marshal(map[string]string{"script": s})
		return string(b)
	}
	content := func(path, s string) string {
		b, _ := json.Marshal(map[string]string{"path": path, "content": s})
		return string(b)
	}
	checkDetours(t, pw, []detourCase{
		{"call-value", script(`auth := smtp.PlainAuth("", "bob", "` + pw + `", host)`), []string{"auth := smtp.PlainAuth(", "bob", "host)"}},
		{"call-value", script(`auth = HTTPBasicAuth("bob", "` + pw + `")`), []string{"HTTPBasicAuth("}},
		{"call-value", script(`secret_key = SecretStr("` + pw + `")`), []string{"SecretStr("}},
		{"call-value", script(`api_key = os.getenv("API_KEY", "` + pw + `")`), []string{"os.getenv(", "API_KEY"}},
		{"call-value", script(`creds := credentials.NewStaticCredentials("AKID", "` + pw + `", "")`), []string{"NewStaticCredentials(", "AKID"}},
		{"curl", script("curl_setopt($ch, CURLOPT_USERPWD, 'bob:" + pw + "');"), []string{"CURLOPT_USERPWD"}},
		{"curl", script("curl_setopt($ch, CURLOPT_PASSWORD, \"" + pw + "\");"), []string{"CURLOPT_PASSWORD"}},
		{"curl", script("curl_setopt($ch, CURLOPT_PROXYUSERPWD, 'bob:" + pw + "');"), nil},
		{"encode", `python3 -c 'import base64; print(base64.b64encode(b"bob:` + pw + `"))'`, []string{"base64.b64encode("}},
		{"encode", script(`h = "Basic " + btoa("bob:` + pw + `")`), []string{"btoa("}},
		{"encode", "echo -n bob:" + pw + " | xxd -p", []string{"| xxd -p"}},
		{"hash", script(`require("bcrypt").hash("` + pw + `", 10)`), []string{".hash("}},
		{"xml", content("core-site.xml", "<property><name>db.password</name><value>"+pw+"</value></property>"), []string{"<name>db.password</name>"}},
		{"xml", content("core-site.xml", "<property>\n  <name>fs.s3a.secret.key</name>\n  <value>"+pw+"</value>\n</property>"), []string{"fs.s3a.secret.key"}},
		{"xml", content("a.plist", "<key>Password</key>\n<string>"+pw+"</string>"), []string{"<string>"}},
		{"properties", content("app.properties", "spring.datasource.url jdbc:x\nspring.datasource.password "+pw+"\n"), []string{"spring.datasource.url jdbc:x"}},
		{"conf", content("app.conf", "user bob\npass "+pw+"\n"), []string{"user bob"}},
		{"conf", content("app.conf", "secret "+pw+"\n"), nil},
		{"conf", "cat > app.conf <<EOF\nhost h\nsecret " + pw + "\nEOF", []string{"host h"}},
		{"shadow", content("shadow.bak", "bob:$6$salt$"+pw+":19000:0:99999:7:::\n"), []string{"bob:", ":19000:"}},
		{"shadow", "echo 'bob:$apr1$x$" + pw + "' >> users", []string{">> users"}},
		{"shadow", content("users.txt", "alice:$2y$05$"+pw+"\n"), []string{"alice:"}},
		{"spaced", content("mail.conf", "set smtp_url = smtp://bob@h\nset smtp_pass = \""+pw+"\"\n"), []string{"set smtp_pass ="}},
		{"spaced", "echo 'set imap_pass = " + pw + "' >> ~/.muttrc", []string{"set imap_pass ="}},
		{"anchor", content("app.yml", "db:\n  password: &pw "+pw+"\nreplica:\n  password: *pw\n"), []string{"&pw", "replica:"}},
		{"anchor", content("app.yml", "token: !!str "+pw+"\n"), []string{"!!str"}},
	})
	for _, in := range []string{
		"pass show email/gmail", "pass insert -m x", "pass git push", "pass email/gmail",
		"x = getpass.getpass('Password: ')", "hashlib.sha256(b'data')",
		"echo hello | xxd", "xxd -r -p hex.txt", "print(base64.b64encode(b'hello'))",
		"<property><name>fs.defaultFS</name><value>hdfs://nn:8020</value></property>",
		"spring.datasource.url jdbc:mysql://db/x", "echo bob:x:1000:1000::/home/bob:/bin/bash",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q: nothing there is a secret", in, got)
		}
	}
}
