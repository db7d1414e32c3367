package audit

import "testing"

// TestRedactCryptHashes: a password hash in the modular crypt format is
// redacted wherever it stands, with its '$' doubled too; shell
// expansions and prices that look alike are kept.
func TestRedactCryptHashes(t *testing.T) {
	const sha = "$6$rounds=5000$saltsalt$S3cr3tZabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789ab"
	const bcrypt = "$2y$10$S3cr3tZabcdefghijklmnOPQRSTUVWXYZ0123456789abcdefgh"
	checkCases(t, []spelling{
		{"cat >> haproxy.cfg <<EOF\nuserlist L\n  user amy password " + sha + "\nEOF", []string{"S3cr3tZ"}, []string{"user amy password "}},
		{"cat > Caddyfile <<EOF\nbasicauth /* {\n  bob " + bcrypt + "\n}\nEOF", []string{"S3cr3tZ"}, []string{"  bob ", "\n}\nEOF"}},
		{"  - traefik.http.middlewares.a.basicauth.users=bob:$$2y$$10$$S3cr3tZabcdefghijklmnOPQRSTUVWXYZ0123456789abcdefgh", []string{"S3cr3tZ"}, []string{"basicauth.users="}},
		{"users = [\"bob:$apr1$H6uskkkW$S3cr3tZIgXLP6ewTrSuBkTrqE8wj/\"]", []string{"S3cr3tZ"}, []string{`users = ["bob:`}},
		{"  password: \"" + sha + "\"", []string{"S3cr3tZ"}, []string{"password: "}},
		{"ansible all -m user -a 'name=bob password=" + bcrypt + "'", []string{"S3cr3tZ"}, []string{"name=bob password="}},
		{"echo '" + bcrypt + "' > hash.txt", []string{"S3cr3tZ"}, []string{"> hash.txt"}},
		{"$argon2id$v=19$m=65536,t=3,p=4$c2FsdHNhbHQ$S3cr3tZabcdefghijklmnopqrstuvwxyz012345", []string{"S3cr3tZ"}, nil},
		{"hash=$y$j9T$saltsaltsalt$S3cr3tZabcdefghijklmnopqrstuvwxyz0123", []string{"S3cr3tZ"}, []string{"hash="}},
		{"{\"hash\": \"$pbkdf2-sha256$29000$c2FsdA$S3cr3tZabcdefghijklmnopqrstu\"}", []string{"S3cr3tZ"}, []string{`{"hash": "`}},
		// Kept: expansions and amounts.
		{`mv "$1$2" "$3"; echo $HOME$PATH; echo "$6$7$8"`, nil, []string{`"$1$2" "$3"`, "$HOME$PATH", `"$6$7$8"`}},
		{"price: $5$ per unit, $1$ off", nil, []string{"$5$ per unit, $1$ off"}},
		{"awk '{print $1$2$3$4$5$6$7$8$9}' f", nil, []string{"$1$2$3$4$5$6$7$8$9"}},
	})
}

// TestRedactDaemonPasswordDirectives: haproxy's insecure-password and
// stats auth user:PW, cntlm's password hashes.
func TestRedactDaemonPasswordDirectives(t *testing.T) {
	checkCases(t, []spelling{
		{"cat >> /etc/haproxy/haproxy.cfg <<EOF\nlisten stats\n  stats auth admin:S3cr3tZ\n  stats uri /s\nEOF", []string{"S3cr3tZ"}, []string{"stats auth admin:", "stats uri /s"}},
		{"cat >> haproxy.cfg <<EOF\nuserlist L\n  user bob insecure-password S3cr3tZ groups g\nEOF", []string{"S3cr3tZ"}, []string{"user bob insecure-password ", "groups g"}},
		{`echo '  user bob insecure-password S3cr3tZ' >> haproxy.cfg`, []string{"S3cr3tZ"}, []string{">> haproxy.cfg"}},
		{"echo 'PassNTLMv2 S3cr3tZ0123456789ABCDEF0123456' >> /etc/cntlm.conf", []string{"S3cr3tZ"}, []string{"PassNTLMv2 ", ">> /etc/cntlm.conf"}},
		{"PassNT S3cr3tZ0123456789ABCDEF0123456\nPassLM S3cr3tY0123456789ABCDEF0123456", []string{"S3cr3tZ", "S3cr3tY"}, []string{"PassNT ", "PassLM "}},
		// Kept: other stats and auth words.
		{"stats enable\nstats uri /haproxy\nauth required pam_unix.so", nil, []string{"stats uri /haproxy", "auth required pam_unix.so"}},
	})
}

// TestRedactProxychainsLogins: a proxychains.conf line gives the proxy's
// user and password after its host and port.
func TestRedactProxychainsLogins(t *testing.T) {
	checkCases(t, []spelling{
		{"echo 'socks5 10.0.0.1 1080 bob S3cr3tZ' >> /etc/proxychains.conf", []string{"S3cr3tZ"}, []string{"socks5 10.0.0.1 1080 bob ", ">> /etc/proxychains.conf"}},
		{"cat >> /etc/proxychains4.conf <<EOF\n[ProxyList]\nhttp  proxy.lan 3128 bob S3cr3tZ\nsocks4 1.2.3.4 1080\nEOF", []string{"S3cr3tZ"}, []string{"http  proxy.lan 3128 bob ", "socks4 1.2.3.4 1080"}},
		{"socks4\t192.168.1.1\t1080\tbob\tS3cr3tZ", []string{"S3cr3tZ"}, []string{"\tbob\t"}},
		// Kept: a proxy without a login, prose.
		{"socks5 127.0.0.1 9050\nhttp is a protocol and socks5 too", nil, []string{"socks5 127.0.0.1 9050", "http is a protocol"}},
	})
}
