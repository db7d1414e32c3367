package audit

import (
	"encoding/json"
	"strings"
	"testing"
)

// cr38Case is a command line or a tool call's JSON arguments (starting
// with '{'), the texts that must go and the texts that must stay.
type cr38Case struct {
	in     string
	secret []string
	keep   []string
}

// runCR38 checks each case, as Redact or RedactArgs writes it, in a
// subtest of its own; a command line is checked again as ssh runs it
// on another host (ssh h '…').
func runCR38(t *testing.T, cases []cr38Case) {
	t.Helper()
	for _, c := range cases {
		ins := []string{c.in}
		if !strings.HasPrefix(c.in, "{") && !strings.Contains(c.in, "'") {
			ins = append(ins, "ssh h '"+c.in+"'")
		}
		for _, in := range ins {
			t.Run(in, func(t *testing.T) {
				var got string
				if strings.HasPrefix(in, "{") {
					got = string(RedactArgs(json.RawMessage(in), 0))
				} else {
					got = Redact(in)
				}
				for _, s := range c.secret {
					if strings.Contains(got, s) {
						t.Errorf("secret %q kept:\n in: %s\nout: %s", s, in, got)
					}
				}
				for _, k := range c.keep {
					if !strings.Contains(got, k) {
						t.Errorf("%q lost:\n in: %s\nout: %s", k, in, got)
					}
				}
			})
		}
	}
}

// runCR38Kept checks that ordinary values pass unchanged, locally and
// through ssh.
func runCR38Kept(t *testing.T, ins []string) {
	t.Helper()
	var cases []cr38Case
	for _, in := range ins {
		cases = append(cases, cr38Case{in: in, keep: []string{in}})
	}
	runCR38(t, cases)
}

// TestRedactKeepsSecretMetadata: a name that carries a credential word
// but says whose the secret is (AUTH_USER), what rules it must meet
// (login.defs' PASS_MAX_DAYS, PASSWORD_MIN_LEN) or how it is checked or
// carried (RouterOS' authentication-protocol=SHA1, SASL's mechanism)
// holds no secret; nor does an auth setting whose value names a way to
// log in (curl --login-options AUTH=PLAIN), nor Redis' AUTH user. The
// secrets beside them still go.
func TestRedactKeepsSecretMetadata(t *testing.T) {
	runCR38Kept(t, []string{
		"AUTH_USER=bob",
		"export AUTH_USER=bob SMTP_AUTH_USERNAME=alice",
		"docker run -e PROXY_AUTH_USER=bob -e TOKEN_OWNER=ops img",
		"auth_user: bob",
		"PASSWORD_MIN_LEN=12",
		"export PASSWORD_MIN_LEN=12 PASSWORD_MAX_LEN=64",
		"sed -i s/^PASS_MAX_DAYS.*/PASS_MAX_DAYS\\ 90/ /etc/login.defs",
		"echo PASS_MIN_LEN 10 >> /etc/login.defs",
		"echo \"PASS_WARN_AGE 7\" >> /etc/login.defs",
		"/snmp community set 0 authentication-protocol=SHA1",
		"/snmp community set 0 authentication-protocol=MD5 encryption-protocol=AES",
		"/snmp/community/set [find] auth-protocol=SHA1",
		"export SASL_AUTH_MECHANISM=PLAIN",
		"password_hash_algorithm=bcrypt",
		"curl --login-options AUTH=PLAIN smtp://mail.example.com",
		"curl --login-options=AUTH=NTLM smtp://mail.example.com",
		"curl --login-options \"AUTH=*\" imap://mail.example.com",
		"export SMTP_AUTH=LOGIN",
		"redis-cli --user bob ping",
		"/interface wireless security-profiles set default authentication-types=wpa2-psk,wpa2-eap mode=dynamic-keys",
		"/interface wifi security set sec1 authentication-types=wpa2-psk,wpa3-psk",
		"/user set admin password-expire=never",
		"export VAULT_TOKEN_ACCESSOR=8609694a-cdbc-db9b-d345-e782dbb562ed",
		"export PASSWORD_RESET_URL=https://id.example.com/reset AUTH_URL=https://id.example.com/auth",
		"echo \"password requisite pam_pwquality.so retry=3 minlen=12\" >> /etc/pam.d/common-password",
		"sed -i s/minlen=8/minlen=12/ /etc/pam.d/system-auth /etc/pam.d/password-auth",
	})
	runCR38(t, []cr38Case{
		{"redis-cli AUTH bob Zq9Secret77", []string{"Zq9Secret77"}, []string{"AUTH bob "}},
		{"redis-cli -h cache auth bob Zq9Secret77", []string{"Zq9Secret77"}, []string{"auth bob "}},
		{"keydb-cli -h cache AUTH \"bob\" \"Zq9Secret77\"", []string{"Zq9Secret77"}, []string{"AUTH \"bob\" "}},
		{"valkey-cli AUTH bob Zq9Secret77; valkey-cli ping", []string{"Zq9Secret77"}, []string{"AUTH bob ", "ping"}},
		// Secrets stay secret: one word after AUTH, an escaped line
		// end, more than two words, a value with more after it.
		{"redis-cli AUTH Zq9Secret77", []string{"Zq9Secret77"}, []string{"AUTH "}},
		{"redis-cli AUTH Zq9Secret77 2>/dev/null", []string{"Zq9Secret77"}, []string{"2>/dev/null"}},
		{"printf \"AUTH Zq9Secret77\\r\\nGET k\\r\\n\" | nc cache 6379", []string{"Zq9Secret77"}, []string{"| nc cache 6379"}},
		{"echo -e \"AUTH Zq9Secret77\\nGET k\" | redis-cli", []string{"Zq9Secret77"}, []string{"| redis-cli"}},
		{"echo \"AUTH bob Zq9Secret77\" | redis-cli", []string{"Zq9Secret77"}, []string{"| redis-cli"}},
		{"export AUTH=Zq9Secret77", []string{"Zq9Secret77"}, []string{"AUTH="}},
		{"export SMTP_AUTH=\"Basic Zq9Secret77\"", []string{"Zq9Secret77"}, []string{"SMTP_AUTH="}},
		{"echo \"X_AUTH=Basic Zq9Secret77\" >> .env", []string{"Zq9Secret77"}, []string{">> .env"}},
		{"export AUTH_USER_PASSWORD=Zq9Secret77", []string{"Zq9Secret77"}, []string{"AUTH_USER_PASSWORD="}},
		{"kubeadm join 10.0.0.1:6443 --token abcdef.0123456789abcdef --discovery-token-ca-cert-hash sha256:0123456789abcdef", []string{"0123456789abcdef --"}, []string{"--discovery-token-ca-cert-hash sha256:0123456789abcdef"}},
		{"kubeadm join 10.0.0.1:6443 --token=abcdef.0123456789abcdef --discovery-token-ca-cert-hash=sha256:0123456789abcdef", []string{"abcdef.0123456789abcdef"}, []string{"--discovery-token-ca-cert-hash=sha256:0123456789abcdef"}},
		{"export AUTH_URL=https://bob:Zq9Secret77@id.example.com/auth", []string{"Zq9Secret77"}, []string{"AUTH_URL=https://bob:"}},
		{"echo Zq9Secret77 > /etc/pam.d/../app/token", []string{"Zq9Secret77"}, []string{"> /etc/pam.d/../app/token"}},
		{"/snmp community set 0 authentication-protocol=SHA1 authentication-password=Zq9Secret77", []string{"Zq9Secret77"}, []string{"authentication-protocol=SHA1"}},
		{"snmpwalk -v3 -l authPriv -u bob -a SHA -A Zq9Secret77 -x AES -X Zq9Secret88 host", []string{"Zq9Secret77", "Zq9Secret88"}, []string{"-a SHA", "-x AES"}},
	})
}

// TestRedactStdinUserLines: what a tool writes to the input of a reader
// of name:password lines (chpasswd, newusers), when it reaches the
// reader as it is, keeps the names and loses the passwords; anything
// that may reorder it on the way (a pipe, a process substitution) or
// another secret reader keeps it secret whole.
func TestRedactStdinUserLines(t *testing.T) {
	runCR38(t, []cr38Case{
		{`{"command":"chpasswd","stdin":"bob:Zq9Secret77\nalice:Zq9Secret88\n"}`, []string{"Zq9Secret77", "Zq9Secret88"}, []string{`"bob:`, `\nalice:`}},
		{`{"command":"sudo chpasswd","stdin":"bob:Zq9Secret77"}`, []string{"Zq9Secret77"}, []string{`"stdin":"bob:`}},
		{`{"command":"sudo -n chpasswd -c SHA512","stdin":"bob:Zq9 Secret77"}`, []string{"Zq9", "Secret77"}, []string{`"stdin":"bob:`}},
		{`{"command":"ssh nas1 chpasswd","stdin":"admin:Zq9Secret77"}`, []string{"Zq9Secret77"}, []string{`"stdin":"admin:`}},
		{`{"command":"docker exec -i app chgpasswd","stdin":"staff:Zq9Secret77"}`, []string{"Zq9Secret77"}, []string{`"stdin":"staff:`}},
		{`{"command":"newusers","stdin":"bob:Zq9Secret77:1001:1001::/home/bob:/bin/sh"}`, []string{"Zq9Secret77"}, []string{`"stdin":"bob:`}},
		{`{"script":"chpasswd","stdin":"bob:Zq9Secret77"}`, []string{"Zq9Secret77"}, []string{`"stdin":"bob:`}},
		// Whole: a line with no name, fields that a pipe may swap,
		// another reader, a value that is no text.
		{`{"command":"chpasswd","stdin":"Zq9Secret77\n-x:Zq9Secret88"}`, []string{"Zq9Secret77", "Zq9Secret88"}, nil},
		{`{"command":"rev | chpasswd","stdin":"77terceS9qZ:bob"}`, []string{"77terceS9qZ"}, nil},
		{`{"command":"chpasswd < <(rev)","stdin":"77terceS9qZ:bob"}`, []string{"77terceS9qZ"}, nil},
		{`{"command":"chpasswd; passwd --stdin root","stdin":"bob:Zq9Secret77"}`, []string{"Zq9Secret77"}, nil},
		{`{"command":"passwd --stdin bob","stdin":"Zq9Secret77"}`, []string{"Zq9Secret77"}, nil},
		{`{"command":"chpasswd","stdin":["bob:Zq9Secret77"]}`, []string{"Zq9Secret77"}, nil},
	})
}

// TestRedactRouterOSVariables: a RouterOS script's variable given where
// a secret goes (password=$p, the community menu's name=$c, a wireless
// key) holds the secret, so the value :local, :global or :set gives it
// goes, as the shell's p=… does; other variables keep their values.
func TestRedactRouterOSVariables(t *testing.T) {
	runCR38(t, []cr38Case{
		{`:local p "Zq9Secret77"; /user set admin password=$p`, []string{"Zq9Secret77"}, []string{":local p ", "/user set admin password=$p"}},
		{`:global p "Zq9Secret77"; /user set admin password=$p`, []string{"Zq9Secret77"}, []string{":global p "}},
		{`:global p Zq9Secret77; /user set admin password=$p`, []string{"Zq9Secret77"}, []string{":global p "}},
		{`:local p; :set p "Zq9Secret77"; /user set admin password=$p`, []string{"Zq9Secret77"}, []string{":set p "}},
		{`:local c "Zq9Secret77"; /snmp community set name=$c`, []string{"Zq9Secret77"}, []string{":local c "}},
		{`:local c Zq9Secret77; /snmp community add name=$c addresses=10.0.0.0/8`, []string{"Zq9Secret77"}, []string{"addresses=10.0.0.0/8"}},
		{":local p \"Zq9Secret77\"\n/user add name=bob group=full password=$p", []string{"Zq9Secret77"}, []string{"name=bob group=full"}},
		{":local k \"Zq9Secret77\"\n/interface wireless security-profiles set default wpa2-pre-shared-key=$k", []string{"Zq9Secret77"}, []string{"set default"}},
		{":local s \"Zq9Secret77\"\n/ppp secret add name=bob password=$s service=pppoe", []string{"Zq9Secret77"}, []string{"service=pppoe"}},
		{`:local n "bob"; :local p "Zq9Secret77"; /user add name=$n password=$p group=full`, []string{"Zq9Secret77"}, []string{`:local n "bob"`}},
	})
	runCR38Kept(t, []string{
		`:local n "bob"; /user add name=$n group=full`,
		`:local c "public"; :put $c`,
		`:global iface "ether1"; /interface enable $iface`,
	})
}

// TestRedactCredentialFileWrites: what a command writes to a credential
// file goes however the redirection is placed (before the command, in
// the middle of echo's words, with a descriptor's number, >|, inside an
// ssh string) and the record keeps its shape: the redirection operator,
// the quotes around a token, the other redirections. Ordinary writes
// stay.
func TestRedactCredentialFileWrites(t *testing.T) {
	runCR38(t, []cr38Case{
		{">~/.token echo Zq9Secret77", []string{"Zq9Secret77"}, []string{">~/.token echo "}},
		{"> ~/.token printf %s Zq9Secret77", []string{"Zq9Secret77"}, []string{"> ~/.token printf "}},
		{"1>/etc/nomad.d/acl.token echo Zq9Secret77", []string{"Zq9Secret77"}, []string{"1>/etc/nomad.d/acl.token echo "}},
		{"> ~/.token echo Zq9Secret77 && chmod 600 ~/.token", []string{"Zq9Secret77"}, []string{"&& chmod 600 ~/.token"}},
		{"echo >~/.token Zq9Secret77", []string{"Zq9Secret77"}, []string{"echo >~/.token "}},
		{"echo -n > /etc/app/api_key Zq9Secret77; ls", []string{"Zq9Secret77"}, []string{"> /etc/app/api_key ", "; ls"}},
		{"echo Zq9Secret77 > ~/.token 2>/dev/null", []string{"Zq9Secret77"}, []string{"> ~/.token 2>/dev/null"}},
		{"echo -n \"Zq9Secret77\" >| /root/.vault-token", []string{"Zq9Secret77"}, []string{">| /root/.vault-token"}},
		{"echo \"ghp_abcdefghijklmnopqrstuvwxyz0123456789\" > ~/.config/gh/token", []string{"abcdefghijklmnopqrstuvwxyz0123456789"}, []string{"echo \"[REDACTED]\" > ~/.config/gh/token"}},
		{"ssh nas '> ~/.token echo Zq9Secret77; ls'", []string{"Zq9Secret77"}, []string{"; ls'"}},
		{`{"command":"> ~/.token cat","stdin":"Zq9Secret77"}`, []string{"Zq9Secret77"}, nil},
		{`{"command":"cat > ~/.token","stdin":"Zq9Secret77"}`, []string{"Zq9Secret77"}, nil},
		{"ssh nas \">~/.token printf %s Zq9Secret77\"", []string{"Zq9Secret77"}, []string{"printf [REDACTED]\""}},
	})
	runCR38Kept(t, []string{
		"> /tmp/notes echo hello",
		"echo hello > /tmp/notes.txt 2>/dev/null",
		"echo 1 >| /proc/sys/net/ipv4/ip_forward",
		"echo > /etc/motd Welcome",
	})
}

// TestRedactPrintedSecrets: a session's recording is redacted as the
// commands are, so what vault operator init, nomad acl bootstrap and
// consul acl bootstrap print under a two-word label goes there: unseal
// and recovery keys, numbered or in -format=json's arrays, and secret
// IDs. Accessor IDs, names and public keys stay.
func TestRedactPrintedSecrets(t *testing.T) {
	for _, c := range []cr38Case{
		{"Unseal Key 1: 4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq/JgOm\nUnseal Key 2: B05G1DRtfYckFV5BbdBvXq0wkK5HFqB9g2jcDmNfTQiS\n\nInitial Root Token: hvs.CAESIJ3kFqzYj1m0aR2xw8nPqLbVtU\n\nVault initialized with 5 key shares",
			[]string{"4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq", "B05G1DRtfYckFV5BbdBvXq0wkK5HFqB9g2jcDmNfTQiS", "CAESIJ3kFqzYj1m0aR2xw8nPqLbVtU"},
			[]string{"Unseal Key 1: ", "Unseal Key 2: ", "Vault initialized with 5 key shares"}},
		{"Recovery Key 1: 4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq/JgOm", []string{"4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq"}, []string{"Recovery Key 1: "}},
		{"Key Share 3: 4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq", []string{"4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq"}, []string{"Key Share 3: "}},
		{"{\n  \"unseal_keys_b64\": [\n    \"4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq/JgOm\"\n  ],\n  \"unseal_keys_hex\": [\n    \"e2361b97608122fe92a64ab\"\n  ],\n  \"recovery_keys_b64\": [],\n  \"unseal_shares\": 1\n}",
			[]string{"4jYbl2CBIv6SpkKj6Hos9iD32k5RfGkLzlosrrq", "e2361b97608122fe92a64ab"}, []string{`"unseal_shares": 1`}},
		{"Accessor ID  = 5b7fd453-d3f7-6814-81dc-fcfe6daedea5\nSecret ID    = 9184ec35-65d4-9258-61e3-0c066d0a45c5\nName         = Bootstrap Token\nType         = management",
			[]string{"9184ec35-65d4-9258-61e3-0c066d0a45c5"}, []string{"Accessor ID  = 5b7fd453-d3f7-6814-81dc-fcfe6daedea5", "Secret ID    = ", "Name         = Bootstrap Token"}},
		{"AccessorID:       edcaacda-b6d0-1954-5939-b5aceaca7c9a\nSecret ID:        4411f091-a4c9-48e6-0884-1fcb092da1c8\nDescription:      Bootstrap Token (Global Management)",
			[]string{"4411f091-a4c9-48e6-0884-1fcb092da1c8"}, []string{"AccessorID:       edcaacda-b6d0-1954-5939-b5aceaca7c9a", "Bootstrap Token (Global Management)"}},
		// A password a tool announces it made: on the line, on the
		// next, after an empty one, in a table row.
		{"2026-12-01T10:00:00Z 6 [Note] [MY-010454] [Server] A temporary password is generated for root@localhost: Zq9Secret77\r\n", []string{"Zq9Secret77"}, []string{"generated for root@localhost: "}},
		{"The generated password for the elastic user is:\n  Zq9Secret77\n", []string{"Zq9Secret77"}, []string{"elastic user is:"}},
		{"Changed password for user elastic\nPASSWORD elastic = Zq9Secret77\n", []string{"Zq9Secret77"}, []string{"PASSWORD elastic = "}},
		{"Please use the following password to proceed to installation:\n\nZq9Secret77\n\nThis may also be found at: /var/lib/jenkins/secrets/initialAdminPassword", []string{"Zq9Secret77"}, []string{"This may also be found at: /var/lib/jenkins/secrets/initialAdminPassword"}},
		// Kept: chage -l's rows, prompts, prose, an expansion.
		{"Last password change\t\t\t\t\t: Dec 01, 2026\nPassword expires\t\t\t\t\t: never\nMinimum number of days between password change\t\t: 0", nil,
			[]string{"Last password change\t\t\t\t\t: Dec 01, 2026\nPassword expires\t\t\t\t\t: never\nMinimum number of days between password change\t\t: 0"}},
		{"[sudo] password for bob: \nGenerated password hashes are stored in /etc/shadow\necho \"initial password: $PW\"", nil,
			[]string{"[sudo] password for bob: \nGenerated password hashes are stored in /etc/shadow\necho \"initial password: $PW\""}},
		// Kept: other numbered and identified labels.
		{"Public Key 1: ssh-ed25519 AAAAC3Nz\nStep 1: install\nAccessor ID = 5b7fd453\nKey 1 of 5", nil,
			[]string{"Public Key 1: ssh-ed25519 AAAAC3Nz\nStep 1: install\nAccessor ID = 5b7fd453\nKey 1 of 5"}},
		{`{"public_key_hex": "ab12cd34ef"}`, nil, []string{`"public_key_hex": "ab12cd34ef"`}},
		{"docker buildx build --secret id=npm,src=/root/.npmrc .", nil, []string{"--secret id=npm,src=/root/.npmrc ."}},
		{`{"type":"password","value":"Zq9Secret77","temporary":false}`, []string{"Zq9Secret77"}, []string{`"temporary":false}`}},
	} {
		t.Run(c.in, func(t *testing.T) {
			got := Redact(c.in)
			for _, s := range c.secret {
				if strings.Contains(got, s) {
					t.Errorf("secret %q kept:\n in: %s\nout: %s", s, c.in, got)
				}
			}
			for _, k := range c.keep {
				if !strings.Contains(got, k) {
					t.Errorf("%q lost:\n in: %s\nout: %s", k, c.in, got)
				}
			}
		})
	}
}
