package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRedactSambaPasswordPositional: smbclient's second positional is the
// password wherever its options put it, the options that take a value
// (-U bob, -W DOM, -c 'ls', --port 445) being skipped; without a second
// positional nothing is redacted.
func TestRedactSambaPasswordPositional(t *testing.T) {
	checkSpellings(t, []spelling{
		{"smbclient //nas/share -U bob -W DOM S3cr3tZ", []string{"S3cr3tZ"}, []string{"//nas/share -U bob -W DOM"}},
		{"smbclient //nas/share -W DOM -U bob 'S3cr3tZ' -c ls", []string{"S3cr3tZ"}, []string{"-W DOM -U bob", "-c ls"}},
		{"smbclient -W DOM -p 445 //nas/share S3cr3tZ -U bob", []string{"S3cr3tZ"}, []string{"-p 445 //nas/share"}},
		{"smbclient --workgroup DOM --user bob '\\\\nas\\share' S3cr3tZ", []string{"S3cr3tZ"}, []string{"--user bob"}},
		{"smbclient -m SMB3 -c 'get a' //nas/share \"S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"-c 'get a' //nas/share"}},
		{"smbclient -N -g //nas/share -U bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"-N -g //nas/share -U bob"}},
		{"/usr/bin/smbclient //nas/share -U bob -I 10.0.0.5 S3cr3tZ", []string{"S3cr3tZ"}, []string{"-I 10.0.0.5"}},
		{"sh -c 'smbclient //nas/share -U bob -W DOM S3cr3tZ -c ls'", []string{"S3cr3tZ"}, []string{"-W DOM", "-c ls"}},
		// No password positional: the option values stay.
		{"smbclient //nas/share -U bob -W DOM -c 'ls; get report.pdf'", nil, []string{"smbclient //nas/share -U bob -W DOM -c 'ls; get report.pdf'"}},
		{"smbclient -L nas -U bob -W DOM -N", nil, []string{"smbclient -L nas -U bob -W DOM -N"}},
		{"smbclient //nas/share -A authfile -D docs -c ls", nil, []string{"smbclient //nas/share -A authfile -D docs -c ls"}},
	})
}

// TestRedactFTPLogins: FTP clients read their commands, and without -n
// the answers to their login prompts, on their input, so what a command
// feeds them (here-documents, here-strings, echo and printf) is a secret;
// lftp's user command in its -e or -c script takes the password as its
// second argument.
func TestRedactFTPLogins(t *testing.T) {
	checkSpellings(t, []spelling{
		{"ftp -n h <<< 'user bob S3cr3tZ'", []string{"S3cr3tZ"}, []string{"ftp -n h <<<"}},
		{"ftp -n h <<<\"user bob S3cr3tZ\"", []string{"S3cr3tZ"}, []string{"ftp -n h"}},
		{"ftp -n h <<EOF\nuser bob S3cr3tZ\nls\nbye\nEOF\necho done", []string{"S3cr3tZ"}, []string{"ftp -n h <<EOF", "EOF\necho done"}},
		{"ftp -inv h <<'END'\nuser bob S3cr3tZ\nget f\nEND", []string{"S3cr3tZ"}, []string{"ftp -inv h"}},
		{"ftp h <<EOF\nbob\nS3cr3tZ\nls\nEOF", []string{"S3cr3tZ"}, []string{"ftp h <<EOF"}},
		{"ftp -n <<-EOF\n\topen h\n\tuser bob S3cr3tZ\n\tEOF", []string{"S3cr3tZ"}, []string{"ftp -n <<-EOF"}},
		{"printf 'open h\\nuser bob S3cr3tZ\\nls\\n' | ftp -n", []string{"S3cr3tZ"}, []string{"| ftp -n"}},
		{"echo 'user bob S3cr3tZ' | tnftp -n h && ls", []string{"S3cr3tZ"}, []string{"tnftp -n h && ls"}},
		{"lftp h <<EOF\nopen -u bob,S3cr3tZ h\nmirror a\nEOF", []string{"S3cr3tZ"}, []string{"lftp h <<EOF"}},
		{"lftp h -e 'user bob S3cr3tZ; ls; bye'", []string{"S3cr3tZ"}, []string{"user bob ", "; ls; bye"}},
		{"lftp -c 'user bob \"S3cr3tZ\"; open h; mirror a'", []string{"S3cr3tZ"}, []string{"; open h; mirror a"}},
		{"lftp -u bob,S3cr3tZ h", []string{"S3cr3tZ"}, []string{"-u bob,"}},
		{"lftp -e 'set ftp:ssl-allow no; open -u bob,S3cr3tZ h; mirror a'", []string{"S3cr3tZ"}, []string{"open -u bob,", "; mirror a"}},
		{"busybox ftpget -u bob -p S3cr3tZ h f", []string{"S3cr3tZ"}, []string{"-u bob -p", "h f"}},
		{"ftpput -u bob -p 'S3cr3tZ' -P 2121 h f", []string{"S3cr3tZ"}, []string{"-P 2121 h f"}},
		// Input fed to other programs, and ftp itself, stay.
		{"echo 'user bob logged in' | grep user", nil, []string{"echo 'user bob logged in' | grep user"}},
		{"ftp -n h", nil, []string{"ftp -n h"}},
		{"lftp -e 'mirror a; bye' h", nil, []string{"lftp -e 'mirror a; bye' h"}},
		{"open -u https://example.com", nil, []string{"open -u https://example.com"}},
	})
}

// TestRedactOptionsHeldForLaterCommands: option words written before
// their program is named — in an array, a variable, set's positionals, a
// function's call, the words after sh -c's script, what xargs is fed —
// are read by the rules of the program they are later given to.
func TestRedactOptionsHeldForLaterCommands(t *testing.T) {
	checkSpellings(t, []spelling{
		{`set -- -pS3cr3tZ; mysql "$@"`, []string{"S3cr3tZ"}, []string{"set -- -p", `mysql "$@"`}},
		{`set -- -u root -pS3cr3tZ shop; mysql "$@"`, []string{"S3cr3tZ"}, []string{"-u root -p", "shop"}},
		{`set -- "-pS3cr3tZ"` + "\nmysqldump $@ shop", []string{"S3cr3tZ"}, []string{"mysqldump $@ shop"}},
		{`args=(-pS3cr3tZ); mysql "${args[@]}"`, []string{"S3cr3tZ"}, []string{"args=(-p", `mysql "${args[@]}"`}},
		{`args=(-u root -pS3cr3tZ shop) && mariadb "${args[*]}"`, []string{"S3cr3tZ"}, []string{"-u root -p", "shop)"}},
		{`args=(-u root); args+=(-pS3cr3tZ); mysql "${args[@]}"`, []string{"S3cr3tZ"}, []string{"args+=(-p"}},
		{`declare -a args=(-p S3cr3tZ ssh h); sshpass "${args[@]}"`, []string{"S3cr3tZ"}, []string{"ssh h)"}},
		{`local -a o=(-b f bob S3cr3tZ); htpasswd "${o[@]}"`, []string{"S3cr3tZ"}, []string{"-b f bob"}},
		{`opts="-pS3cr3tZ"; mysql $opts shop`, []string{"S3cr3tZ"}, []string{"opts=\"-p", "mysql $opts shop"}},
		{`export MYSQL_OPTS='-u root -pS3cr3tZ'` + "\nmysql ${MYSQL_OPTS} shop", []string{"S3cr3tZ"}, []string{"-u root -p"}},
		{`o=-aS3cr3tZ; redis-cli $o ping`, []string{"S3cr3tZ"}, []string{"redis-cli $o ping"}},
		{`smb=(-U 'bob%S3cr3tZ'); smbclient //nas/share "${smb[@]}"`, []string{"S3cr3tZ"}, []string{"-U 'bob%"}},
		{`f() { mysql "$@"; }; f -uroot -pS3cr3tZ shop`, []string{"S3cr3tZ"}, []string{"f -uroot -p", "shop"}},
		{"function login {\n sshpass \"$@\" ssh h\n}\nlogin -p S3cr3tZ", []string{"S3cr3tZ"}, []string{"login -p "}},
		{`bash -c 'mysql "$@" shop' sh -uroot -pS3cr3tZ`, []string{"S3cr3tZ"}, []string{"sh -uroot -p"}},
		{`sh -ec 'exec sshpass "$@"' _ -p S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{"_ -p ", "ssh h"}},
		{strings.Repeat(`a=(-x); f() { :; }; `, 40) + `set -- -pS3cr3tZ; mysql "$@"`, []string{"S3cr3tZ"}, []string{"set -- -p"}},
		{"args=(\n  -uroot\n  -pS3cr3tZ\n)\nmysql \"${args[@]}\" shop", []string{"S3cr3tZ"}, []string{"-uroot\n  -p", "shop"}},
		// The program itself held in a variable.
		{`cmd=(mysql -uroot); "${cmd[@]}" -pS3cr3tZ shop`, []string{"S3cr3tZ"}, []string{`"${cmd[@]}" -p`, "shop"}},
		{`MYSQL="mysql -uroot"; $MYSQL -pS3cr3tZ shop`, []string{"S3cr3tZ"}, []string{"$MYSQL -p", "shop"}},
		{`c=sshpass; $c -p S3cr3tZ ssh h`, []string{"S3cr3tZ"}, []string{"$c -p ", "ssh h"}},
		{`d=docker; $d run -p 8080:80 nginx`, nil, []string{`d=docker; $d run -p 8080:80 nginx`}},
		{`echo -uroot -pS3cr3tZ | xargs mysql shop`, []string{"S3cr3tZ"}, []string{"| xargs mysql shop"}},
		{`printf '%s\n' -pS3cr3tZ | xargs -I{} mysql {} shop`, []string{"S3cr3tZ"}, []string{"xargs -I{} mysql {} shop"}},
		// Held words given to programs whose rules find no secret in
		// them, or to no program with rules, stay.
		{`set -- -la /tmp; ls "$@"`, nil, []string{`set -- -la /tmp; ls "$@"`}},
		{`set -e; mysql -h db shop`, nil, []string{`set -e; mysql -h db shop`}},
		{`args=(-p 8080:80); docker run "${args[@]}" nginx`, nil, []string{`args=(-p 8080:80); docker run "${args[@]}" nginx`}},
		{`opts=-pmyfile; echo $opts`, nil, []string{`opts=-pmyfile; echo $opts`}},
		{`f() { ls "$@"; }; f -pS`, nil, []string{`f() { ls "$@"; }; f -pS`}},
		{`echo -n hi | xargs grep -p`, nil, []string{`echo -n hi | xargs grep -p`}},
	})
}

// TestRedactShortKnownSecrets: a secret shorter than minSecret that a
// tool names (the rest of a password an earlier session_send began, a
// short answer to a password prompt) is replaced where it stands as a
// word, and in the call's JSON arguments only inside string values: keys,
// numbers and words that merely contain it stay.
func TestRedactShortKnownSecrets(t *testing.T) {
	sec := Secrets(nil).With("Zq", "7")
	for _, tt := range []struct{ in, want string }{
		{`{"session_id":"aZq1","data":"Zq ./poll.sh","enter":true}`, `{"session_id":"aZq1","data":"[REDACTED] ./poll.sh","enter":true}`},
		{`{"data":"echo\nZq","n":7,"Zq":"x"}`, `{"data":"echo\n[REDACTED]","n":7,"Zq":"x"}`},
		{`{"data":"7","wait_s":7}`, `{"data":"[REDACTED]","wait_s":7}`},
		{`{"data":"Zqx 17 a-Zq"}`, `{"data":"Zqx 17 a-Zq"}`},
		{`{"data":"say \"Zq\"; ls"}`, `{"data":"say \"[REDACTED]\"; ls"}`},
	} {
		got := string(sec.RedactJSON([]byte(tt.in)))
		if got != tt.want {
			t.Errorf("RedactJSON(%s) = %s, want %s", tt.in, got, tt.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("RedactJSON(%s) = %s: not JSON", tt.in, got)
		}
	}
	for _, tt := range []struct{ in, want string }{
		{`unknown program "Zq"`, `unknown program "[REDACTED]"`},
		{"Zq ./poll.sh; Zqx", "[REDACTED] ./poll.sh; Zqx"},
		{"tier 7 of 17", "tier [REDACTED] of 17"},
	} {
		if got := sec.Redact(tt.in); got != tt.want {
			t.Errorf("Redact(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	// What rules find alone stays looked for only when long enough.
	if _, found := RedactArgsFound([]byte(`{"command":"curl -u bob:pw x"}`), 0, true); len(found.With()) != 0 {
		t.Errorf("a short secret a rule found is looked for elsewhere: %q", found.With())
	}
}

// TestRedactSecretsInVariables: a variable expanded where a secret goes
// (sshpass -p "$p", curl -u bob:$p, Bearer $t, a function's "$1") has its
// assigned value, or the words that set the positionals, replaced too;
// variables expanded elsewhere keep their values.
func TestRedactSecretsInVariables(t *testing.T) {
	checkSpellings(t, []spelling{
		{`p=S3cr3tZ && sshpass -p $p ssh h`, []string{"S3cr3tZ"}, []string{"p=", "ssh h"}},
		{`p='S3cr3tZ'; sshpass -p "$p" ssh h`, []string{"S3cr3tZ"}, []string{"p='", "ssh h"}},
		{`export T=S3cr3tZ; curl -H "Authorization: Bearer $T" https://x`, []string{"S3cr3tZ"}, []string{"export T=", "https://x"}},
		{`t="S3cr3tZ" curl -H "X-Api-Key: ${t}" https://x`, []string{"S3cr3tZ"}, []string{"https://x"}},
		{`u=bob; p=S3cr3tZ; curl -u "$u:$p" https://x`, []string{"S3cr3tZ"}, []string{"u=bob", "https://x"}},
		{`local p=S3cr3tZ; mysql -uroot -p"$p" shop`, []string{"S3cr3tZ"}, []string{"shop"}},
		{`declare -r k=S3cr3tZ; redis-cli -a "$k" ping`, []string{"S3cr3tZ"}, []string{"ping"}},
		{`x=S3cr3tZ; docker login -u bob -p $x r.example`, []string{"S3cr3tZ"}, []string{"r.example"}},
		{`x=S3cr3tZ; htpasswd -b f bob "$x"`, []string{"S3cr3tZ"}, []string{"f bob"}},
		{`f() { sshpass -p "$1" ssh h; }; f S3cr3tZ`, []string{"S3cr3tZ"}, []string{"f() { sshpass -p"}},
		{`sh -c 'mysql -uroot -p"$1" shop' _ S3cr3tZ`, []string{"S3cr3tZ"}, []string{"shop' _ "}},
		{`set -- S3cr3tZ; smbclient //nas/share "$1" -U bob`, []string{"S3cr3tZ"}, []string{"-U bob"}},
		{`x=S3cr3tZ; mysql -uroot -p$x shop`, []string{"S3cr3tZ"}, []string{"shop"}},
		{`x=S3cr3tZ; eval "mysql -p${x} shop"`, []string{"S3cr3tZ"}, []string{"shop"}},
		{`mysql -uroot -p$(cat /run/pw) shop`, nil, []string{"shop"}},
		{`for p in S3cr3tZ; do sshpass -p "$p" ssh h; done`, []string{"S3cr3tZ"}, []string{"for p in ", "; do sshpass"}},
		{"for k in 'S3cr3tZ' S3cr3tZb\ndo redis-cli -a $k ping; done", []string{"S3cr3tZ", "S3cr3tZb"}, []string{"ping; done"}},
		{`for h in db1 db2; do sshpass -p "$P" ssh $h; done`, nil, []string{"for h in db1 db2;"}},
		// Expanded elsewhere, or named but never set here: kept.
		{`p=8080; docker run -p $p nginx`, nil, []string{`p=8080; docker run -p $p nginx`}},
		{`db=shop; mysql -h db1 $db`, nil, []string{`db=shop; mysql -h db1 $db`}},
		{`u=bob; curl -u "$u:$PW" https://x`, nil, []string{`u=bob`}},
	})
}

// TestRedactMoreCredentialOptions: option clusters and value-taking
// options before the secret (useradd -mp, htpasswd -bnBC 10 …), and a few
// testers' and mounters' credentials.
func TestRedactMoreCredentialOptions(t *testing.T) {
	checkSpellings(t, []spelling{
		{"useradd -mp 'S3cr3tZ' bob", []string{"S3cr3tZ"}, []string{"useradd -mp", "bob"}},
		{"usermod -Up S3cr3tZ bob", []string{"S3cr3tZ"}, []string{"bob"}},
		{"htpasswd -bnBC 10 bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"-bnBC 10 bob"}},
		{"htpasswd -bcC 12 f bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"12 f bob"}},
		{"curlftpfs bob:S3cr3tZ@ftp.example /mnt", []string{"S3cr3tZ"}, []string{"bob:", "@ftp.example /mnt"}},
		{"keyctl add user api S3cr3tZ @u", []string{"S3cr3tZ"}, []string{"add user api", "@u"}},
		{"nikto -h h -id bob:S3cr3tZ", []string{"S3cr3tZ"}, []string{"-id bob:"}},
		{"wfuzz --basic bob:S3cr3tZ -u h/FUZZ", []string{"S3cr3tZ"}, []string{"--basic bob:"}},
		{"hey -n 10 -a bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"-a bob:"}},
		{"useradd -m -s /bin/sh bob", nil, []string{"useradd -m -s /bin/sh bob"}},
		{"htpasswd -v f bob", nil, []string{"htpasswd -v f bob"}},
		{"keyctl show @u", nil, []string{"keyctl show @u"}},
	})
}

// TestRedactSecretsReadIntoVariables: read fills a variable from its
// input; when the variable is later expanded where a secret goes, that
// input is the secret.
func TestRedactSecretsReadIntoVariables(t *testing.T) {
	checkSpellings(t, []spelling{
		{`read -r p <<< S3cr3tZ; sshpass -p "$p" ssh h`, []string{"S3cr3tZ"}, []string{"read -r p <<<", "ssh h"}},
		{`read -rs -p 'pw: ' p <<< 'S3cr3tZ' && mysql -uroot -p"$p" shop`, []string{"S3cr3tZ"}, []string{"read -rs -p 'pw: ' p", "shop"}},
		{"read u p <<EOF\nbob S3cr3tZ\nEOF\ncurl -u \"$u:$p\" https://x", []string{"S3cr3tZ"}, []string{"read u p <<EOF", "https://x"}},
		{`read -r host <<< db1; mysql -h "$host" shop`, nil, []string{`read -r host <<< db1; mysql -h "$host" shop`}},
	})
}

// TestRedactProtocolLogins: the login lines of FTP, POP3, IMAP, SMTP and
// Redis fed to a network client (PASS pw, a1 LOGIN user pw, AUTH …), as
// here-strings, here-documents or printf's escaped lines, are secret;
// other upper-case words and lower-case pass lines stay.
func TestRedactProtocolLogins(t *testing.T) {
	checkSpellings(t, []spelling{
		{`nc h 21 <<< $'USER bob\r\nPASS S3cr3tZ\r\n'`, []string{"S3cr3tZ"}, []string{`USER bob\r\nPASS `}},
		{`printf 'USER bob\r\nPASS S3cr3tZ\r\nLIST\r\n' | nc h 21`, []string{"S3cr3tZ"}, []string{"| nc h 21"}},
		{`echo -e "USER bob\nPASS S3cr3tZ\nSTAT" | ncat --ssl h 995`, []string{"S3cr3tZ"}, []string{"ncat --ssl h 995"}},
		{"telnet h 110 <<EOF\nUSER bob\nPASS S3cr3tZ\nQUIT\nEOF", []string{"S3cr3tZ"}, []string{"USER bob\nPASS ", "QUIT"}},
		{`openssl s_client -quiet -connect h:993 <<< 'a1 LOGIN bob S3cr3tZ'`, []string{"S3cr3tZ"}, []string{"a1 LOGIN bob "}},
		{`printf 'a1 LOGIN bob "S3cr3tZ"\r\na2 LOGOUT\r\n' | openssl s_client -connect h:993`, []string{"S3cr3tZ"}, []string{"a1 LOGIN bob"}},
		{"nc h 143 <<EOF\nt LOGIN bob S3cr3tZ\nt LOGOUT\nEOF", []string{"S3cr3tZ"}, []string{"t LOGIN bob "}},
		{`printf 'EHLO x\r\nAUTH PLAIN AGJvYgBTM2NyM3Ra\r\n' | nc h 25`, []string{"AGJvYgBTM2NyM3Ra"}, []string{"EHLO x"}},
		{"nc h 143 <<EOF\nt1 LOGIN bob 'S3cr3tZ'\nEOF", []string{"S3cr3tZ"}, []string{"t1 LOGIN bob '"}},
		{`sqlcmd -Q "CREATE LOGIN app WITH PASSWORD = 'S3cr3tZ'"`, []string{"S3cr3tZ"}, []string{"CREATE LOGIN app WITH PASSWORD"}},
		{`sqlcmd -Q "DROP LOGIN app"`, nil, []string{`sqlcmd -Q "DROP LOGIN app"`}},
		{`go test ./... | grep -c PASS`, nil, []string{`go test ./... | grep -c PASS`}},
		{`echo "LOGIN page" | tee out`, nil, []string{`echo "LOGIN page" | tee out`}},
		{"python3 - <<EOF\nif x:\n    pass\nEOF", nil, []string{"    pass\nEOF"}},
	})
}

// TestRedactInlineAuthBlocks: an OpenVPN config's inline <auth-user-pass>
// block holds the user and password, written by a here-document, an echo
// or write_file.
func TestRedactInlineAuthBlocks(t *testing.T) {
	checkSpellings(t, []spelling{
		{"cat > c.ovpn <<EOF\nremote vpn 1194\n<auth-user-pass>\nbob\nS3cr3tZ\n</auth-user-pass>\nEOF", []string{"S3cr3tZ"}, []string{"remote vpn 1194\n<auth-user-pass>\n", "\n</auth-user-pass>\nEOF"}},
		{`printf '<auth-user-pass>\nbob\nS3cr3tZ\n</auth-user-pass>\n' >> c.conf`, []string{"S3cr3tZ"}, []string{"</auth-user-pass>"}},
		{"<auth-user-pass>\nbob\nS3cr3tZ", []string{"S3cr3tZ"}, []string{"<auth-user-pass>"}},
		{"grep -c auth-user-pass c.ovpn < c.ovpn", nil, []string{"grep -c auth-user-pass c.ovpn < c.ovpn"}},
	})
	got := string(RedactArgs([]byte(`{"path":"/etc/openvpn/client.conf","content":"<auth-user-pass>\nbob\nS3cr3tZ\n</auth-user-pass>\n"}`), DefaultMaxValue))
	if strings.Contains(got, "S3cr3tZ") || !strings.Contains(got, "</auth-user-pass>") {
		t.Errorf("write_file's inline auth block: %s", got)
	}
}

// TestRedactArgsEnvUsedByCommand: a variable of run_command's env map
// that the command expands where a secret goes, or gives a program as its
// options, is redacted as that; other variables stay.
func TestRedactArgsEnvUsedByCommand(t *testing.T) {
	for _, tt := range []struct{ in, secret, keep string }{
		{`{"command":"sshpass -p \"$P\" ssh h","env":{"P":"S3cr3tZ","HOST":"db1"}}`, "S3cr3tZ", `"HOST":"db1"`},
		{`{"command":"mysql $OPTS shop","env":{"OPTS":"-uroot -pS3cr3tZ"}}`, "S3cr3tZ", `-uroot -p`},
		{`{"command":"curl -u bob:$X https://x","env":{"X":"S3cr3tZ"}}`, "S3cr3tZ", `"command":"curl -u bob:[REDACTED] https://x"`},
		{`{"interpreter":"bash","script":"redis-cli -a \"$K\" ping","env":{"K":"S3cr3tZ"}}`, "S3cr3tZ", `"env":{"K":"[REDACTED]"}`},
		{`{"command":"mysql -h \"$H\" shop","env":{"H":"db1.example"}}`, "", `"H":"db1.example"`},
	} {
		got := string(RedactArgs([]byte(tt.in), DefaultMaxValue))
		if tt.secret != "" && strings.Contains(got, tt.secret) || !strings.Contains(got, tt.keep) {
			t.Errorf("RedactArgs(%s) = %s", tt.in, got)
		}
	}
}
