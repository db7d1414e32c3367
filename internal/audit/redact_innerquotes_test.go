package audit

import "testing"

// TestRedactInnerQuotedSeparators: in a string a shell runs as its script
// (ssh h "…", sh -c '…', bash -c "…", su -c, sudo sh -c), a ';', '|', '&'
// or line end inside one of the script's own strings (printf's text, an
// smbclient -c list) does not end the script's command, so the reader the
// text is piped to still gets it as its input, as at the top level.
func TestRedactInnerQuotedSeparators(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, sep := range []string{";", "|", "&", "&&", "\\n", "\n"} {
		for _, c := range []struct{ open, close string }{
			{`ssh h "`, `"`}, {`ssh -t h sudo bash -c "`, `"`}, {`bash -c "`, `"`}, {`su - root -c "`, `"`},
			{`sh -c '`, `'`}, {`sudo sh -c '`, `'`}, {`ssh h '`, `'`},
		} {
			q, eq := "'", `'`
			if c.close == "'" {
				q, eq = `"`, `"`
			}
			cases = append(cases,
				detourCase{"printf", c.open + "printf " + q + "x" + sep + " y\\nbob:" + pw + "\\n" + eq + " | chpasswd" + c.close, []string{"chpasswd"}},
				detourCase{"echo", c.open + "echo -e " + q + "a" + sep + " b\\nbob:" + pw + eq + " | sudo chpasswd" + c.close, []string{"chpasswd"}},
				detourCase{"smbclient", c.open + "smbclient //h/s -U bob -c " + q + "cd x" + sep + " ls" + eq + " <<< " + pw + c.close, []string{"smbclient //h/s -U bob -c"}},
			)
		}
	}
	cases = append(cases,
		detourCase{"top", "smbclient //h/s -U bob -c 'cd x\nls' <<< " + pw, []string{"smbclient //h/s -U bob -c 'cd x\nls' <<< "}},
		detourCase{"top", "rpcclient -U bob h -c \"enumdomusers\nenumdomgroups\" <<< " + pw, []string{"enumdomgroups"}},
		detourCase{"idiom", `sh -c 'printf '\''x; y\nbob:` + pw + `\n'\'' | chpasswd'`, []string{"chpasswd"}},
		detourCase{"idiom", `ssh h 'printf '\''a|b\nbob:` + pw + `'\'' | sudo chpasswd; uptime'`, []string{"uptime"}},
		detourCase{"idiom", `bash -c 'smbclient //h/s -U bob -c '\''cd x; ls'\'' <<< ` + pw + `'`, []string{"smbclient //h/s -U bob -c"}},
		detourCase{"idiom", `sudo sh -c 'echo '\''a & b'\''; echo bob:` + pw + ` | chpasswd'`, []string{"chpasswd"}},
		detourCase{"command", `gcloud compute ssh vm --command 'printf "a;b\nbob:` + pw + `\n" | chpasswd'`, []string{"chpasswd"}},
		detourCase{"command", `gcloud compute ssh vm --zone z --command="printf 'a|b\nbob:` + pw + `\n' | chpasswd"`, []string{"chpasswd"}},
		detourCase{"escaped", `ssh h "printf \"x; y\nbob:` + pw + `\n\" | chpasswd"`, []string{"chpasswd"}},
		// Kept: the script's separators outside its strings still end
		// its commands, whose words stay.
		detourCase{"kept", `ssh h "printf 'a; b' > /tmp/x; ls -la /srv"`, []string{"ls -la /srv"}},
		detourCase{"kept", `sh -c 'echo "x; y"; uptime; df -h'`, []string{"uptime; df -h"}},
		detourCase{"kept", `ssh h "echo 'it''s; ok' | tee /tmp/n; systemctl restart nginx"`, []string{"systemctl restart nginx"}},
		detourCase{"kept", `bash -c "grep -c 'a|b' /etc/hosts | wc -l"`, []string{"grep -c 'a|b' /etc/hosts | wc -l"}},
		detourCase{"kept", `sh -c 'echo '\''a; b'\''; systemctl status nginx'`, []string{"systemctl status nginx"}},
		detourCase{"kept", `gcloud compute ssh vm --command 'df -h; uptime'`, []string{"df -h; uptime"}},
	)
	checkSubtests(t, pw, cases)
}

// TestRedactInnerHeaderEnds: a header's value in a string of a shell's
// script ends where that string does, not at the end of the script, so
// the script's words after it stay.
func TestRedactInnerHeaderEnds(t *testing.T) {
	const pw = "Zq9Secret77"
	checkSubtests(t, pw, []detourCase{
		{"ssh", `ssh h "printf 'Authorization: Bearer ` + pw + `\n' > /etc/app.conf"`, []string{"> /etc/app.conf", "Authorization: Bearer "}},
		{"ssh", `ssh h "curl -H 'Authorization: Bearer ` + pw + `' https://x/api && echo ok"`, []string{"https://x/api && echo ok"}},
		{"ssh", `ssh h "curl -H 'X-Api-Key: ` + pw + `' https://x/api | jq ."`, []string{"https://x/api | jq ."}},
		{"sh", `sh -c 'curl -H "Authorization: Basic ` + pw + `" https://x/api; echo done'`, []string{"https://x/api; echo done"}},
		{"escaped", `ssh h "curl -H \"Authorization: Bearer ` + pw + `\" https://x/api"`, []string{"https://x/api"}},
		{"printf", `ssh h "printf 'Cookie: sid=` + pw + `\n' | nc x 80"`, []string{"| nc x 80"}},
	})
}
