package audit

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// valueForms spell the secret S3cr3tV4lue as one shell word in the ways
// bash joins a word from parts; TestValueFormsAreOneWord checks each with
// the real bash.
var valueForms = []string{
	`S3cr3tV4lue`, `'S3cr3tV4lue'`, `"S3cr3tV4lue"`, `$'S3cr3tV4lue'`,
	`S3cr3t"V4"lue`, `S3cr3t'V4'lue`, `'S3cr3t'V4lue`, `"S3cr3t"V4lue`,
	`"S3cr3t"'V4'lue`, `S3cr3t$'V4'lue`, `$'S3cr3t\x56'4lue`, `S3cr3t\V4lue`,
	`S3cr3t${EMPTY}V4lue`, `S3cr3t$(printf V4)lue`, "S3cr3t`printf V4`lue", `S3cr3t"$EMPTY"V4lue`,
}

// leaked reports which part of the canary survives in got.
func leaked(got string) string {
	for _, part := range []string{"S3cr3t", "V4lue", "4lue", "V4"} {
		if strings.Contains(got, part) {
			return part
		}
	}
	return ""
}

// TestValueFormsAreOneWord: every value form really is the secret, one
// word, to bash.
func TestValueFormsAreOneWord(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("no bash")
	}
	for _, v := range valueForms {
		out, err := exec.Command(bash, "-c", "X="+v+"; printf %s \"$X\"").Output()
		if err != nil || string(out) != "S3cr3tV4lue" {
			t.Errorf("bash reads X=%s as %q (%v)", v, out, err)
		}
	}
}

// TestRedactAssignmentForms: a secret-named variable loses its whole
// value, however the value is quoted or joined, in every form that
// assigns a variable or passes one to a program; the name and the command
// stay readable.
func TestRedactAssignmentForms(t *testing.T) {
	names := []string{
		"PGPASSWORD", "MYSQL_PWD", "REDISCLI_AUTH", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"GITHUB_TOKEN", "GH_TOKEN", "GITLAB_TOKEN", "NPM_TOKEN", "VAULT_TOKEN", "DOCKER_PASSWORD",
		"SSHPASS", "RESTIC_PASSWORD", "BORG_PASSPHRASE", "ANSIBLE_VAULT_PASSWORD", "OPENAI_API_KEY",
		"ANTHROPIC_API_KEY", "APP_PASSWD", "APP_PASS", "APP_SECRET", "APP_API_KEY", "APP_APIKEY",
		"APP_PRIVATE_KEY", "db_password", "smtp_pass", "jwt_secret", "clientSecret",
		"DB_PSWD", "ADMIN_PWORD", "USER_PASSW", "LDAP_BINDPW", "CI_JOB_JWT", "TOTP_SEED", "SIM_PUK", "APP_PEPPER",
	}
	forms := []string{
		"%s cmd", "export %s", "export A=1 %s", "declare -x %s", "typeset -x %s", "local %s",
		"readonly %s", "env %s cmd", "env -i %s cmd", "sudo %s cmd", "sudo -E -u app %s cmd",
		"systemd-run -E %s cmd", "systemd-run --setenv %s cmd", "systemd-run --setenv=%s cmd",
		"docker run -e %s img", "docker run --env %s img", "docker run --env=%s img", "podman run -e %s img",
		"kubectl set env deploy/x %s", "heroku config:set %s", "cd /srv && %s ./run", "(%s cmd)", "%s; cmd",
	}
	for _, name := range names {
		for _, form := range forms {
			for _, v := range valueForms {
				in := strings.Replace(form, "%s", name+"="+v, 1)
				got := Redact(in)
				if part := leaked(got); part != "" {
					t.Errorf("Redact(%q) = %q: %q survives", in, got, part)
					continue
				}
				want := strings.Replace(form, "%s", name+"=", 1)
				head, tail, _ := strings.Cut(want, name+"=")
				if !strings.HasPrefix(got, head+name+"=") || !strings.HasSuffix(got, tail) {
					t.Errorf("Redact(%q) = %q: lost the words around the value", in, got)
				}
			}
		}
	}
}

// TestRedactOptionValueForms: program options read by their program's
// rules lose the whole of a joined or quoted value.
func TestRedactOptionValueForms(t *testing.T) {
	templates := []string{
		"sshpass -p %s ssh h", "sshpass -p%s ssh h", "curl -u bob:%s https://x", "mysql -p%s db",
		"docker login -p %s r", "docker login --password=%s r", "redis-cli -a %s ping",
		"openssl rsa -passin pass:%s -in k", "smbclient -U bob%%%s //h/s", "ldapsearch -w %s -b x",
		"tool --token %s x", "tool --api-key=%s x", "wget --password=%s x", "htpasswd -b f u %s",
		"chpasswd <<< bob:%s", "vault login %s", "git config user.password %s", "ipmitool -P %s x",
		"kubectl create secret generic x --from-literal=pw=%s", "sqlplus scott/%s@db",
		"skopeo copy --creds u:%s a b", "curl https://u:%s@h/", "mount -o password=%s,ro //h/s /m",
		"curl -H 'X-Api-Key: '%s x", "echo %s | sudo -S ls",
	}
	for _, tmpl := range templates {
		for _, v := range valueForms {
			in := strings.Replace(strings.Replace(tmpl, "%s", v, 1), "%%", "%", 1)
			got := Redact(in)
			if part := leaked(got); part != "" {
				t.Errorf("Redact(%q) = %q: %q survives", in, got, part)
			}
			if last := tmpl[strings.LastIndexByte(tmpl, ' ')+1:]; !strings.Contains(last, "%s") && !strings.HasSuffix(got, last) {
				t.Errorf("Redact(%q) = %q: lost %q", in, got, last)
			}
		}
	}
}

// TestRedactNestedShells: the same secrets inside sh -c '…', bash -c "…",
// ssh host '…', su -c and JSON-escaped strings, where the quote that
// closes the outer string ends the value and the words after it stay.
func TestRedactNestedShells(t *testing.T) {
	inner := []string{
		"PGPASSWORD=S3cr3tV4lue psql", `PGPASSWORD="S3cr3tV4lue" psql`, "export API_TOKEN='S3cr3tV4lue'",
		"mysql -pS3cr3tV4lue db", "curl -u u:S3cr3tV4lue x", "sshpass -p S3cr3tV4lue ssh h",
		"docker login -p S3cr3tV4lue r", "htpasswd -b f u S3cr3tV4lue", "X_TOKEN=S3cr3t\"V4\"lue cmd",
		"X_TOKEN=S3cr3tV4lue",
	}
	for _, cmd := range inner {
		single := "'" + strings.ReplaceAll(cmd, "'", `'\''`) + "'"
		double := `"` + strings.ReplaceAll(cmd, `"`, `\"`) + `"`
		for _, in := range []string{
			"sh -c " + single + "; ls /srv", "bash -c " + double + " && ls /srv", "sudo sh -c " + single + " ; ls /srv",
			"ssh host " + single + " ; ls /srv", "ssh host " + double + "; ls /srv", "su - app -c " + single + "; ls /srv",
			"kubectl exec p -- sh -c " + single + "; ls /srv", "ssh h " + cmd + "; ls /srv",
			`{"command":` + double + `,"x":"ls /srv"}`,
		} {
			got := Redact(in)
			if part := leaked(got); part != "" {
				t.Errorf("Redact(%q) = %q: %q survives", in, got, part)
			}
			if !strings.Contains(got, "ls /srv") {
				t.Errorf("Redact(%q) = %q: lost the next command", in, got)
			}
		}
	}
}

// TestRedactKeepsPlainCommands: ordinary commands, references to
// secret-named variables (echo $PGPASSWORD names the variable, it holds
// no value; a default in ${TOKEN:-…} is a value and is redacted) and quoting around values that are no secrets come out as
// they went in.
func TestRedactKeepsPlainCommands(t *testing.T) {
	for _, in := range []string{
		"grep -i password /etc/app.conf", "echo $PGPASSWORD", `echo "${GITHUB_TOKEN} ${#VAULT_TOKEN}"`, "ls -p", "mysql -p",
		"ps -u root", "curl -u", "curl -s https://example.com", "journalctl -u nginx", "git status",
		"cat /etc/hosts", "ls -la /var/log | grep x", `export PATH="$HOME/bin:$PATH"`, "unset DB_PASSWORD",
		"export DB_PASSWORD", `sh -c 'echo "it'\''s fine"'`, `curl 'https://x/a?b=1' -H 'Accept: json'`,
		`psql -c "select 'a', 'b'"`, `echo "PWD=$PWD"`, "cut -d: -f1 /etc/passwd", "mysql -u root -p shop",
		"sudo -u postgres psql -c '\\du'", "docker run -p 8080:80 -e LANG=C nginx", "env | grep -c TOKEN",
		"# don't log in\nls /srv", "cat <<'EOF'\nit's\nEOF\nls 'a b'", `printf '%s\n' "a'b"`,
		`git log --format='%an <%ae>' -n 3`, "find / -name '*.pem' -o -name \"*.key\"",
		"PGPASSFILE=/etc/pgpass.d/app psql", "NETRC=/etc/netrc curl -n https://x", "SHIPWRIGHT=1 OPTIONS=2 make",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactArrayAssignments: elements of secret-named arrays, and
// secret-named keys of associative arrays, lose their values; bash takes
// all of these spellings.
func TestRedactArrayAssignments(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"PASSWORDS[0]=S3cr3tV4lue", "PASSWORDS[0]=[REDACTED]"},
		{"DB_PASSWORD[1]='S3cr3tV4lue' ./run", "DB_PASSWORD[1]='[REDACTED]' ./run"},
		{"TOKENS[$i]+=S3cr3t\"V4\"lue", "TOKENS[$i]+=[REDACTED]"},
		{"m[api_key]=S3cr3tV4lue; echo ok", "m[api_key]=[REDACTED]; echo ok"},
		{"declare -A m=([password]=S3cr3tV4lue [user]=bob)", "declare -A m=([password]=[REDACTED] [user]=bob)"},
		{"declare -a TOKENS=(S3cr3tV4lue 'S3cr3t V4lue') && ls", "declare -a TOKENS=([REDACTED]) && ls"},
		{"GH_TOKENS+=([x]=S3cr3tV4lue)", "GH_TOKENS+=([REDACTED])"},
		{"arr[0]=hello names=(a b)", "arr[0]=hello names=(a b)"},
	} {
		if got := Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestRedactCredentialFilesAndScripts: what a command writes into a file
// that holds credentials (echo, printf, here-documents, tee) is redacted
// whatever its format, as are netrc lines, a script's password fields and
// calls, and stores' --value options; writes to ordinary files stay.
func TestRedactCredentialFilesAndScripts(t *testing.T) {
	tests := []struct {
		name, in string
		keep     []string
	}{
		{"echo > .netrc", "echo 'machine github.com login bob password S3cr3tV4lue' > ~/.netrc", []string{"> ~/.netrc"}},
		{"printf >> .netrc", "printf 'machine h login u password %s\\n' S3cr3tV4lue >> ~/.netrc", []string{">> ~/.netrc"}},
		{"echo >> .pgpass", "echo 'db:5432:*:app:S3cr3tV4lue' >> ~/.pgpass && chmod 600 ~/.pgpass", []string{"chmod 600 ~/.pgpass"}},
		{"cat > file <<EOF", "cat > ~/.pgpass <<EOF\ndb:5432:*:app:S3cr3tV4lue\nEOF\nls", []string{"cat > ~/.pgpass <<EOF\n", "\nEOF\nls"}},
		{"cat <<EOF > file", "cat <<'EOF' > /root/.netrc\nmachine h\nlogin u\npassword S3cr3tV4lue\nEOF", []string{"> /root/.netrc", "\nEOF"}},
		{"token file", "echo S3cr3tV4lue > ~/.vault-token", []string{"> ~/.vault-token"}},
		{"tee", "echo -n S3cr3tV4lue | tee ~/.config/gh/token >/dev/null", []string{"| tee ~/.config/gh/token"}},
		{"sudo tee -a", "printf '%s\\n' 'bob * S3cr3tV4lue *' | sudo tee -a /etc/ppp/chap-secrets", []string{"sudo tee -a /etc/ppp/chap-secrets"}},
		{"secrets dir", "echo 'S3cr3tV4lue' > /run/secrets/db", []string{"/run/secrets/db"}},
		{"s3fs", "echo AKIDEXAMPLE:S3cr3tV4lue > ~/.passwd-s3fs", []string{"~/.passwd-s3fs"}},
		{"private key file", "echo S3cr3tV4lue > /etc/ssl/private/server.key", []string{"/etc/ssl/private/server.key"}},
		{"shadow", "echo 'bob:$6$salt$S3cr3tV4lue:19000::::::' >> /etc/shadow", []string{"/etc/shadow"}},
		{"inside ssh", `ssh h "echo 'S3cr3tV4lue' | sudo -S systemctl restart x"`, []string{"sudo -S systemctl restart x"}},
		{"inside sh -c", "sh -c 'echo S3cr3tV4lue | passwd --stdin bob'", []string{"passwd --stdin bob"}},
		{"netrc line", "machine h login u password S3cr3tV4lue", []string{"machine h login u password"}},
		{"mongo pwd", `mongosh --eval 'db.createUser({user:"u", pwd: "S3cr3tV4lue", roles:[]})'`, []string{`user:"u"`, "roles:[]"}},
		{"mongo auth", `mongosh --eval 'db.auth("u", "S3cr3tV4lue")'`, []string{`db.auth("u", "`}},
		{"mongo change", `mongosh --eval "db.changeUserPassword('u', 'S3cr3tV4lue')"`, []string{"changeUserPassword('u', '"}},
		{"httpie raw json", `http POST x password:='"S3cr3tV4lue"'`, []string{"http POST x password:="}},
		{"make :=", "make deploy DB_PASSWORD:=S3cr3tV4lue", []string{"make deploy DB_PASSWORD:="}},
		{"t-sql with password =", `sqlcmd -Q "ALTER LOGIN sa WITH PASSWORD = 'S3cr3tV4lue'"`, []string{"ALTER LOGIN sa WITH PASSWORD"}},
		{"aws ssm --value", "aws ssm put-parameter --name /db/pw --value S3cr3tV4lue --type SecureString", []string{"--type SecureString"}},
		{"az keyvault --value", "az keyvault secret set --vault-name v --name n --value S3cr3tV4lue", []string{"--name n --value"}},
		{"gcloud secrets stdin", "gcloud secrets versions add x --data-file=- <<< S3cr3tV4lue", []string{"--data-file=- <<<"}},
	}
	for _, tt := range tests {
		got := Redact(tt.in)
		if part := leaked(got); part != "" {
			t.Errorf("%s: Redact(%q) = %q: %q survives", tt.name, tt.in, got, part)
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("%s: Redact(%q) = %q: lost %q", tt.name, tt.in, got, k)
			}
		}
	}
	for _, in := range []string{
		"echo hello > out.txt", "ls -la > /tmp/list", "echo x 2>/dev/null",
		"echo 'bob:x:1001:1001::/home/bob:/bin/bash' >> /etc/passwd",
		"echo 'ssh-ed25519 AAAAC3Nza bob' >> ~/.ssh/authorized_keys", "cat x | tee out.log",
		"echo done | tee -a /var/log/x.log", "ssh h 'echo hi | grep h'", "echo 1 > /proc/sys/net/ipv4/ip_forward",
		"cat > notes.md <<EOF\nhello\nEOF\nls", "aws ssm get-parameter --name /x", "echo login with your password",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactInnerStrings: secrets two shells deep, in the '\” idiom, in
// strings an ansible or parallel runs as a command, and set by commands
// that take a variable's name and value as two words.
func TestRedactInnerStrings(t *testing.T) {
	tests := []struct {
		in   string
		keep []string
	}{
		{`ssh h "bash -c 'PGPASSWORD=\"S3cr3tV4lue\" psql'"`, []string{"psql'\""}},
		{`ssh h 'sudo -u postgres psql -c "ALTER USER x PASSWORD '\''S3cr3tV4lue'\''"'`, []string{"ALTER USER x PASSWORD"}},
		{`ssh h "echo 'machine x login u password S3cr3tV4lue' > ~/.netrc"; ls`, []string{"> ~/.netrc\"; ls"}},
		{"ansible all -m shell -a 'echo S3cr3tV4lue | passwd --stdin bob'", []string{"| passwd --stdin bob'"}},
		{"parallel 'echo S3cr3tV4lue | sudo -S id' ::: 1", []string{"sudo -S id' ::: 1"}},
		{"launchctl setenv API_TOKEN S3cr3tV4lue", []string{"launchctl setenv API_TOKEN"}},
		{"setx API_TOKEN S3cr3tV4lue", []string{"setx API_TOKEN"}},
		{"read -s PW <<< 'S3cr3tV4lue'", []string{"read -s PW <<<"}},
		{"read -r DB_PASSWORD <<< S3cr3tV4lue; echo ok", []string{"; echo ok"}},
		{"printf -v PGPASSWORD '%s' 'S3cr3tV4lue'; psql", []string{"printf -v PGPASSWORD", "; psql"}},
		{`env 'PGPASSWORD=S3cr3tV4lue' psql`, []string{"' psql"}},
		{`docker run -e 'A=1' -e"PGPASSWORD=S3cr3tV4lue" x`, []string{`-e 'A=1'`, `" x`}},
		{`export "PGPASSWORD"=S3cr3tV4lue`, []string{`export "PGPASSWORD"=`}},
	}
	for _, tt := range tests {
		got := Redact(tt.in)
		if part := leaked(got); part != "" {
			t.Errorf("Redact(%q) = %q: %q survives", tt.in, got, part)
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("Redact(%q) = %q: lost %q", tt.in, got, k)
			}
		}
	}
	for _, in := range []string{"read -r line <<< 'hello'", "launchctl setenv LANG C", "setx PATH x", "printf -v line '%s' hello"} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestRedactShellSetters: csh's setenv and fish's set take a variable's
// name and value as two words; set elsewhere is a subcommand and keeps
// its program's rules.
func TestRedactShellSetters(t *testing.T) {
	for _, in := range []string{
		"setenv PGPASSWORD S3cr3tV4lue", "set -gx GITHUB_TOKEN S3cr3tV4lue", "set -x API_KEY 'S3cr3tV4lue'; and curl x",
		"gh secret set X --body S3cr3tV4lue", "mc alias set nas https://nas:9000 AK S3cr3tV4lue",
	} {
		if got := Redact(in); leaked(got) != "" {
			t.Errorf("Redact(%q) = %q: the value survives", in, got)
		}
	}
	for _, in := range []string{"set -euo pipefail", "set -- a b c", "setenv PATH /bin", "set -gx PATH /usr/bin $PATH"} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// The quote tracker remembers at most maxDelims here-documents a line
// starts; past that their bodies are read as text, and quotes in them
// must still not leave a secret after them in the log.
func TestRedactPastHeredocLimit(t *testing.T) {
	for _, sec := range []string{"PGPASSWORD=S3cr3t\"V4\"lue psql", "sh -c 'htpasswd -b f u S3cr3tV4lue'; ls",
		"mysql -pS3cr3t'V4'lue", "curl -u u:S3cr3t\"V4lue\" https://h/"} {
		for _, n := range []int{1, maxDelims, maxDelims + 1, maxDelims + 4} {
			var b strings.Builder
			b.WriteString("cat")
			for i := range n {
				fmt.Fprintf(&b, " <<E%d", i)
			}
			b.WriteString("\n")
			for i := range n {
				fmt.Fprintf(&b, "it's \"body\nE%d\n", i)
			}
			b.WriteString(sec + "\n")
			if out := Redact(b.String()); strings.Contains(out, "S3cr3t") || strings.Contains(out, "V4") {
				t.Errorf("%d here-documents, then %q: the secret is in %q", n, sec, out)
			}
		}
	}
}
