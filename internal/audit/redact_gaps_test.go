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
