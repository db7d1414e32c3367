package audit

import "testing"

// TestRedactBlankSeparatedKeys: a configuration line whose key is a
// secret-named identifier (auth_pass, smtp_password, api_key) and whose
// value follows a blank, bare or quoted, with or without C's ';', loses
// the value, in a file's content or an echoed line; the key stays.
func TestRedactBlankSeparatedKeys(t *testing.T) {
	checkCases(t, []spelling{
		{"vrrp_instance V {\n  authentication {\n    auth_type PASS\n    auth_pass S3cr3tZ\n  }\n}\n", []string{"S3cr3tZ"}, []string{"auth_type PASS", "auth_pass "}},
		{"admin_password S3cr3tZ\nlisten 8080\n", []string{"S3cr3tZ"}, []string{"admin_password ", "listen 8080"}},
		{"smtp_password S3cr3tZ;\n", []string{"S3cr3tZ"}, []string{"smtp_password ", ";"}},
		{"api_key \"S3cr3tZ\"\n", []string{"S3cr3tZ"}, []string{`api_key "`}},
		{"proxy-password\tS3cr3tZ\n", []string{"S3cr3tZ"}, []string{"proxy-password\t"}},
		{"key \"tsig\" {\n  algorithm hmac-sha256;\n  secret \"S3cr3tZ\";\n};\n", []string{"S3cr3tZ"}, []string{"algorithm hmac-sha256;", `secret "`, `";`}},
		{"db.secret_key S3cr3tZ", []string{"S3cr3tZ"}, []string{"db.secret_key "}},
		{"echo 'auth_pass S3cr3tZ' >> /etc/keepalived/keepalived.conf", []string{"S3cr3tZ"}, []string{"echo 'auth_pass ", "' >> /etc/keepalived/keepalived.conf"}},
		{`echo '  secret "S3cr3tZ";' >> /etc/bind/named.conf.local`, []string{"S3cr3tZ"}, []string{`secret "`, `";' >> /etc/bind/named.conf.local`}},
		{`printf '%s\n' "admin_password S3cr3tZ" >> app.conf`, []string{"S3cr3tZ"}, []string{`"admin_password `, `" >> app.conf`}},
		// Settings about passwords and prose keep their words.
		{"password_policy strict\nauth_type PASS\n", nil, []string{"password_policy strict", "auth_type PASS"}},
		{`git commit -m "secret santa list" && git commit -m "api_key rotation done"`, nil, []string{"secret santa list", "api_key rotation done"}},
		{"secret-tool lookup service db", nil, []string{"secret-tool lookup service db"}},
	})
}
