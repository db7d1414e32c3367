package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactAttachedItems: in a JSON array (a call's argv list) an option
// item that holds its own value — a short option with the value attached
// (-pS3cret, curl -ubob:pw), the secret letter inside a cluster
// (ldapsearch -xwS3cret), or any item with a character no option name has
// — took the item after it for its value whenever its text sounded like a
// secret's name (-ppassword, -uadmin:pw), and the audit record lost a
// database, host or URL while the secret stayed or was already redacted.
// The value is redacted where it stands and the next item kept; an option
// alone (-p, --password, -xw) still makes the next item its secret.
func TestRedactAttachedItems(t *testing.T) {
	for _, c := range []struct {
		in         string
		gone, kept []string
	}{
		{`["mysql","-ppassword","orders_db"]`, []string{"password"}, []string{"orders_db"}},
		{`["mysql","-uroot","-pPassw0rd!","orders_db"]`, []string{"Passw0rd!"}, []string{"orders_db"}},
		{`["mysqldump","-psecret123","orders_db"]`, []string{"secret123"}, []string{"orders_db"}},
		{`["sshpass","-ppassword","ssh","db-host"]`, []string{"password"}, []string{`"ssh"`, "db-host"}},
		{`["curl","-uadmin:pw1234","https://api.example/v1"]`, []string{"pw1234"}, []string{"https://api.example/v1"}},
		{`["curl","-sSuadmin:pw1234","https://api.example/v1"]`, []string{"pw1234"}, []string{"https://api.example/v1"}},
		{`["curl","-uapikey:secret-tok","https://api.example/v1"]`, []string{"secret-tok"}, []string{"https://api.example/v1"}},
		{`["7z","x","-ppassword","backup.7z"]`, []string{"password"}, []string{"backup.7z"}},
		{`["redis-cli","-apassword","ping"]`, []string{"password"}, []string{"ping"}},
		{`["ipmitool","-Ppassword","-H","bmc-host"]`, []string{"password"}, []string{`"-H"`, "bmc-host"}},
		{`["ldapsearch","-wpassword","-b","dc=example"]`, []string{"password"}, []string{`"-b"`}},
		{`["ldapsearch","-xwpassword","-b","dc=example"]`, []string{"password"}, []string{`"-b"`}},
		{`["./app","-ubob:pw1234","serve"]`, nil, []string{"serve"}},
		{`["./app","-p#token9","serve"]`, nil, []string{"serve"}},
		// An option alone still takes the next item as its secret.
		{`["mysql","--password","Passw0rd!","orders_db"]`, []string{"Passw0rd!"}, []string{"orders_db"}},
		{`["sshpass","-p","Passw0rd!","ssh","db-host"]`, []string{"Passw0rd!"}, []string{"db-host"}},
		{`["curl","-u","admin:pw1234","https://api.example/v1"]`, []string{"pw1234"}, []string{"https://api.example/v1"}},
		{`["ldapsearch","-xw","Passw0rd!","-b","dc=example"]`, []string{"Passw0rd!"}, []string{`"-b"`}},
		{`["./app","--api-token","Passw0rd!","serve"]`, []string{"Passw0rd!"}, []string{"serve"}},
		{`["openssl","rsa","-passin","pass:Passw0rd!","-in","k.pem"]`, []string{"Passw0rd!"}, []string{"k.pem"}},
		{`["-p","Passw0rd!","next"]`, nil, []string{"next"}},
	} {
		t.Run(c.in, func(t *testing.T) {
			got := string(RedactArgs(json.RawMessage(`{"argv":`+c.in+`}`), DefaultMaxValue))
			for _, g := range c.gone {
				if strings.Contains(got, g) {
					t.Errorf("%s: %q kept", got, g)
				}
			}
			for _, k := range c.kept {
				if !strings.Contains(got, k) {
					t.Errorf("%s: %q lost", got, k)
				}
			}
		})
	}
}

// TestRedactAttachedListItems: the same in a script's argv list or
// builder chain, where the attached value was not redacted at all (the
// list's rule took the item first) and the next item was.
func TestRedactAttachedListItems(t *testing.T) {
	checkCases(t, []spelling{
		{"spawn('mysql', ['-ppassword', 'orders_db'])", []string{"password"}, []string{"'orders_db'"}},
		{"spawn('sshpass', ['-pPassw0rd', 'ssh', 'h'])", []string{"Passw0rd"}, []string{"'ssh', 'h'"}},
		{`Command::new("sshpass").arg("-pPassw0rd").arg("ssh")`, []string{"Passw0rd"}, []string{`.arg("ssh")`}},
		{`Command::new("mysql").arg("-ppassword").arg("orders_db")`, []string{"password"}, []string{`.arg("orders_db")`}},
		{"spawn('curl', ['-ubob:S3cr3tZ', 'https://h'])", []string{"S3cr3tZ"}, []string{"'https://h'"}},
		{`subprocess.run(["ldapsearch", "-xw", "S3cr3tZ", "-b", "dc=x"])`, []string{"S3cr3tZ"}, []string{`"-b", "dc=x"`}},
		{`execFileSync("sshpass", ["-p", "S3cr3tZ", "ssh", "h"])`, []string{"S3cr3tZ"}, []string{`"ssh", "h"`}},
	})
}
