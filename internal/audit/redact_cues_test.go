package audit

import "testing"

// TestRedactCredentialCueReaders: a literal fed on the input (echo,
// printf, yes, <<<, a here-document) of a command whose own words cue a
// credential (passwd, password, login, unlock, auth, cpw, secret, key, …)
// is the password it asks for, and so are the inputs of the programs that
// read one there without such a word (rabbitmqctl add_user, age -p,
// borg, kadmin, su, telnet, ldap* -W).
func TestRedactCredentialCueReaders(t *testing.T) {
	for _, c := range []string{"cd auth", "vim secret.txt", "ls keys", "grep -r password ."} {
		if ReadsSecretInput(c) {
			t.Errorf("ReadsSecretInput(%q): a session's next line would be taken for a password", c)
		}
	}
	for _, c := range []string{"mosquitto_passwd -c f bob", "/usr/bin/kinit bob", "kadmin -q 'cpw bob'"} {
		if !ReadsSecretInput(c) {
			t.Errorf("ReadsSecretInput(%q) = false", c)
		}
	}
	checkShapes(t, []shaped{
		{"echo SEC | rabbitmqctl add_user bob", []string{"rabbitmqctl add_user bob"}},
		{"echo SEC | pveum passwd bob@pam", []string{"pveum passwd bob@pam"}},
		{"echo SEC | kadmin -p admin -q 'cpw bob'", []string{"-q 'cpw bob'"}},
		{"echo SEC | kadmin -p admin -q listprincs", []string{"listprincs"}},
		{"echo SEC | ldappasswd -W uid=bob", []string{"uid=bob"}},
		{"echo SEC | ldapmodify -x -W -D cn=admin -f x.ldif", []string{"-f x.ldif"}},
		{"echo SEC | mongosh --password", []string{"mongosh --password"}},
		{"printf '%s' SEC | borg init -e repokey r", []string{"borg init"}},
		{"echo SEC | age -p -o out in", []string{"age -p -o out in"}},
		{"echo SEC | systemd-ask-password", []string{"systemd-ask-password"}},
		{"echo SEC | mosquitto_passwd -c f bob", []string{"mosquitto_passwd -c f bob"}},
		{"echo SEC | su -c id", []string{"su -c id"}},
		{"echo SEC | expect -f login.exp", []string{"login.exp"}},
		{"telnet h 23 <<< SEC", []string{"telnet h 23 <<<"}},
		{"echo SEC | telnet h 23", []string{"| telnet h 23"}},
		{"printf '%s' SEC | /usr/bin/telnet h", []string{"/usr/bin/telnet h"}},
		{"echo SEC | ejabberdctl change_password bob h", []string{"change_password bob h"}},
		{"yes SEC | keystore-tool unlock", []string{"unlock"}},
		{"echo SEC | myapp --api-key", []string{"myapp --api-key"}},
		{"myapp set-token <<< SEC", []string{"set-token <<<"}},
		{"echo SEC | /opt/bin/app_passwd bob", []string{"app_passwd bob"}},
		{"echo SEC | sudo mosquitto_passwd -c f bob", []string{"mosquitto_passwd -c f bob"}},
		{"echo SEC | keytool -importpass -alias x -keystore ks", []string{"-importpass -alias x"}},
		{"echo SEC | kadmin.local -q 'cpw bob'", []string{"'cpw bob'"}},
		{"echo SEC | sudo -u rabbitmq rabbitmqctl change_password bob", []string{"change_password bob"}},
	})
	checkSpellings(t, []spelling{
		{"echo hello | grep -i password", nil, []string{"echo hello | grep -i password"}},
		{"echo hello | jq .token", nil, []string{"echo hello | jq .token"}},
		{"echo hello | sed s/key/x/", nil, []string{"echo hello"}},
		{"echo hello | wc -l; passwd -S bob", nil, []string{"echo hello"}},
		{"echo hello | sort | uniq", nil, []string{"echo hello"}},
		{"echo hello | tool --bypass", nil, []string{"echo hello"}},
		{"echo hello | vim secret.txt", nil, []string{"echo hello"}},
	})
}

// TestRedactProtocolCommandLines: protocol lines that carry a login, in a
// client's command string or fed to a network client: smbclient's logon
// USER PASS, IMAP's TAG LOGIN USER PASS in any case, Redis AUTH [user]
// pass and POP3 or FTP PASS pass in lower case too (PAM's auth lines
// are kept), FTP's user NAME PASS, SMTP AUTH PLAIN.
func TestRedactProtocolCommandLines(t *testing.T) {
	checkShapes(t, []shaped{
		{"smbclient -c 'logon bob SEC' //h/s", []string{"logon bob", "//h/s"}},
		{"smbclient //h/s -c \"logon bob SEC; ls\"", []string{"logon bob", "; ls"}},
		{"smbclient //h/s -U% -c 'logon \"bob\" SEC'", []string{"logon \"bob\""}},
		{"smbclient //h/s -c 'ls; logon bob SEC'", []string{"ls; logon bob"}},
		{"smbclient //h/s --command='logon bob SEC'", []string{"logon bob"}},
		{"smbclient //h/s --command 'LOGON bob SEC'", []string{"LOGON bob"}},
		{"rpcclient -c 'logon bob SEC' h", []string{"logon bob"}},
		{"printf 'a LOGIN bob SEC\\r\\n' | openssl s_client -quiet -connect h:993", []string{"a LOGIN bob"}},
		{"printf 'a login bob SEC\\r\\n' | openssl s_client -quiet -connect h:993", []string{"a login bob"}},
		{"printf 'a1 login bob SEC\\n' | nc h 143", []string{"a1 login bob"}},
		{"echo 'a1 login bob SEC' | socat - TCP:h:143", []string{"a1 login bob"}},
		{"echo 'A001 Login bob SEC' | ncat h 143", []string{"A001 Login bob"}},
		{"nc h 143 <<< 'a login bob SEC'", []string{"a login bob"}},
		{"ftp -n h <<< 'user bob SEC'", []string{"ftp -n h"}},
		{"printf 'user bob\\r\\npass SEC\\r\\n' | nc h 110", []string{"user bob"}},
		{"printf 'USER bob\\r\\nPASS SEC\\r\\n' | nc h 110", []string{"USER bob"}},
		{"echo 'auth SEC' | nc h 6379", []string{"| nc h 6379"}},
		{"echo 'Auth default SEC' | nc h 6379", []string{"| nc h 6379"}},
		{"nc h 6379 <<< 'auth SEC'", []string{"nc h 6379"}},
		{"redis-cli <<< 'AUTH bob SEC'", []string{"redis-cli"}},
		{"printf 'AUTH SEC\\r\\nINFO\\r\\n' | nc h 6379", []string{"| nc h 6379"}},
	})
	checkSpellings(t, []spelling{
		{"printf 'EHLO x\\r\\nAUTH PLAIN AGJvYgBodW50ZXIy\\r\\n' | openssl s_client -connect h:465", []string{"AGJvYgBodW50ZXIy"}, []string{"EHLO x"}},
		{"echo 'AUTH PLAIN AGJvYgBodW50ZXIy' | nc h 25", []string{"AGJvYgBodW50ZXIy"}, []string{"| nc h 25"}},
		{"echo 'auth required pam_unix.so' >> /etc/pam.d/x", nil, []string{"auth required pam_unix.so"}},
		{"echo 'auth include system-auth' >> /etc/pam.d/x", nil, []string{"auth include system-auth"}},
		{"printf 'auth [success=1 default=ignore] pam_unix.so\\n' >> f", nil, []string{"pam_unix.so"}},
		{"echo 'a1 login bob now please' | nc h 143", nil, []string{"bob now please"}},
		{"smbclient //h/s -c 'ls; get logon.txt'", nil, []string{"get logon.txt"}},
	})
}

// TestRedactSecretNamedStoreKeys: key-value stores' put, create and set
// store the value of a key whose last path segment names a secret.
func TestRedactSecretNamedStoreKeys(t *testing.T) {
	checkShapes(t, []shaped{
		{"consul kv put app/password SEC", []string{"consul kv put app/password"}},
		{"consul kv put app/db_pass SEC", []string{"app/db_pass"}},
		{"consul kv put -cas -modify-index 5 app/password SEC", []string{"app/password"}},
		{"consul kv put config/api/token SEC", []string{"config/api/token"}},
		{"etcdctl put /app/password SEC", []string{"etcdctl put /app/password"}},
		{"etcdctl put app/secret SEC", []string{"app/secret"}},
		{"etcdctl --endpoints h:2379 put /svc/db/PASSWORD SEC", []string{"/svc/db/PASSWORD"}},
		{"ETCDCTL_API=3 etcdctl put /app/api_key SEC", []string{"/app/api_key"}},
		{"zkCli.sh create /app/password SEC", []string{"zkCli.sh create /app/password"}},
		{"zkCli.sh -server h:2181 set /app/password SEC", []string{"/app/password"}},
		{"zkCli.sh create -e /app/db-password SEC", []string{"/app/db-password"}},
		{"zookeeper-shell.sh h:2181 create /app/password SEC", []string{"/app/password"}},
		{"redis-cli set db_password SEC", []string{"db_password"}},
		{"redis-cli hset cfg password SEC", []string{"cfg password"}},
		{"redis-cli hmset cfg user bob password SEC", []string{"user bob password"}},
		{"redis-cli setex session_secret 60 SEC", []string{"session_secret 60"}},
		{"/usr/bin/consul kv put app/password SEC", []string{"app/password"}},
	})
	checkSpellings(t, []spelling{
		{"etcdctl put /app/name bob", nil, []string{"etcdctl put /app/name bob"}},
		{"consul kv get app/password", nil, []string{"consul kv get app/password"}},
		{"zkCli.sh create /app/owner bob", nil, []string{"/app/owner bob"}},
		{"redis-cli setex counter 60 v1", nil, []string{"counter 60 v1"}},
	})
}

// TestRedactProgramCousins: aliases and forks of programs with rules
// share them (mcli and minio-client are mc; yt-dlp and gallery-dl are
// youtube-dl, whose -p is --password); bundle config's HOST user:pw;
// deluge-console's connect with the port as its own word.
func TestRedactProgramCousins(t *testing.T) {
	checkShapes(t, []shaped{
		{"mcli admin user add m bob SEC", []string{"mcli admin user add m bob"}},
		{"minio-client admin user add m bob SEC", []string{"add m bob"}},
		{"mcli alias set m https://h:9000 admin SEC", []string{"https://h:9000 admin"}},
		{"/usr/local/bin/mcli alias set m https://h:9000 admin SEC", []string{"admin"}},
		{"yt-dlp -u bob -p SEC URL", []string{"-u bob -p", "URL"}},
		{"gallery-dl -u bob -p SEC URL", []string{"-u bob -p", "URL"}},
		{"youtube-dl -u bob -p SEC URL", []string{"URL"}},
		{"yt-dlp --video-password SEC URL", []string{"URL"}},
		{"bundle config set --global gems.example bob:SEC", []string{"gems.example bob:"}},
		{"bundle config gems.example bob:SEC", []string{"gems.example bob:"}},
		{"bundle config set --local https://gems.example.com/ bob:SEC", []string{"bob:"}},
		{"bundler config --global gems.example bob:SEC", []string{"bob:"}},
		{"deluge-console \"connect h 58846 bob SEC\"", []string{"connect h 58846 bob"}},
		{"deluge-console \"connect h:58846 bob SEC; info\"", []string{"connect h:58846 bob", "; info"}},
		{"deluge-console connect h 58846 bob SEC \\; info", []string{"connect h 58846 bob", "\\; info"}},
	})
	checkSpellings(t, []spelling{
		{"bundle config set path vendor/bundle", nil, []string{"path vendor/bundle"}},
		{"bundle config mirror.https://rubygems.org https://mirror.example", nil, []string{"https://mirror.example"}},
		{"yt-dlp -f best URL", nil, []string{"-f best URL"}},
	})
}

// TestRedactAuthSchemeAfterEquals: a header-like key joined to its value
// by '=' keeps the scheme and loses the credentials, as after ':'.
func TestRedactAuthSchemeAfterEquals(t *testing.T) {
	checkShapes(t, []shaped{
		{"streamlink --twitch-api-header 'Authorization=OAuth SEC' u", []string{"'Authorization=OAuth ", "' u"}},
		{"streamlink --twitch-api-header \"Authorization=OAuth SEC\" u", []string{"\"Authorization=OAuth ", "\" u"}},
		{"mytool --header 'Authorization=Bearer SEC' x", []string{"Authorization=Bearer "}},
		{"mytool --header='Authorization=Bearer SEC'", []string{"Authorization=Bearer "}},
		{"mytool -H \"Proxy-Authorization=Basic SEC\" x", []string{"Proxy-Authorization=Basic "}},
		{"mytool --set 'authorization=Token SEC' x", []string{"authorization=Token "}},
		{"tool --hdr 'X-Authorization=AWS4-HMAC-SHA256 SEC' x", []string{"X-Authorization=AWS4-HMAC-SHA256 "}},
		{"tool 'Authorization=SEC'", []string{"'Authorization="}},
	})
}
