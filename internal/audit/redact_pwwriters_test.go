package audit

import "testing"

// TestRedactPasswordFileWriters: a password written to a plain file by a
// command other than echo or printf (here-document, here-string, tee,
// dd, install, a redirection before printf), and files named by more
// programs' password-file options, read in the same command.
func TestRedactPasswordFileWriters(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"heredoc", "cat > /tmp/p <<EOF\n" + pw + "\nEOF\nsshpass -f /tmp/p ssh h", []string{"cat > /tmp/p <<EOF", "sshpass -f /tmp/p ssh h"}},
		// bash reads "EOF; …" as a body line: the body runs to the end.
		{"heredoc", "cat > /tmp/p <<EOF\n" + pw + "\nEOF; sshpass -f /tmp/p ssh h", []string{"cat > /tmp/p <<EOF"}},
		{"heredoc", "cat <<'X' >/tmp/p\n" + pw + "\nX\nrsync --password-file=/tmp/p a b", []string{"rsync --password-file=/tmp/p"}},
		{"herestring", "cat > /tmp/p <<< " + pw + "; sshpass -f /tmp/p ssh h", []string{"cat > /tmp/p <<<", "sshpass"}},
		{"herestring", "cat <<< '" + pw + "' > /tmp/p; sshpass -f /tmp/p ssh h", []string{"> /tmp/p"}},
		{"tee", "tee /tmp/p <<< " + pw + "; sshpass -f /tmp/p ssh h", []string{"tee /tmp/p <<<"}},
		{"tee", "echo " + pw + " | tee /tmp/p; sshpass -f /tmp/p ssh h", []string{"| tee /tmp/p"}},
		{"tee", "echo " + pw + " | tee -a /tmp/p >/dev/null; sshpass -f /tmp/p ssh h", []string{"| tee -a /tmp/p"}},
		{"dd", "dd of=/tmp/p <<< " + pw + "; sshpass -f /tmp/p ssh h", []string{"dd of=/tmp/p"}},
		{"redirect first", "> /tmp/p printf " + pw + "; sshpass -f /tmp/p ssh h", []string{"> /tmp/p printf"}},
		{"vault-id", "echo " + pw + " > /tmp/p; ansible-playbook --vault-id x@/tmp/p site.yml", []string{"--vault-id x@/tmp/p site.yml"}},
		{"vault-id", "echo " + pw + " > /tmp/p; ansible-playbook --vault-id=x@/tmp/p site.yml", []string{"site.yml"}},
		{"passcommand", "echo " + pw + " > /tmp/p; BORG_PASSCOMMAND='cat /tmp/p' borg list", []string{"BORG_PASSCOMMAND='cat /tmp/p' borg list"}},
		{"passcommand", "echo " + pw + " > /tmp/p; restic --password-command 'cat /tmp/p' snapshots", []string{"'cat /tmp/p' snapshots"}},
		{"ipmitool", "echo " + pw + " > /tmp/p; ipmitool -I lanplus -H h -U u -f /tmp/p power status", []string{"-f /tmp/p power status"}},
		{"smbclient", "printf 'username = u\\npassword = " + pw + "\\n' > /tmp/a; smbclient -A /tmp/a //h/s", []string{"smbclient -A /tmp/a //h/s"}},
		{"openvpn", "printf 'u\\n" + pw + "\\n' > /tmp/a; openvpn --auth-user-pass /tmp/a --config c.ovpn", []string{"--config c.ovpn"}},
	})
	// Files written and never read as password files keep their text.
	for _, in := range []string{
		"cat > /tmp/notes <<EOF\nhello world\nEOF\ncat /tmp/notes",
		"echo hello | tee /tmp/x; wc -l /tmp/x",
		"dd of=/tmp/x <<< hello; ls /tmp/x",
	} {
		if got := Redact(in); got != in {
			t.Errorf("changed:\n in: %q\nout: %q", in, got)
		}
	}
}

// TestRedactPlistKeyKept: a property list's <key>Password</key> is a
// name and stays; the <string> or <data> after it goes.
func TestRedactPlistKeyKept(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"plist", "<dict><key>Password</key><string>" + pw + "</string></dict>", []string{"<key>Password</key><string>"}},
		{"plist", "<key>password</key>\n\t<string>" + pw + "</string>", []string{"<key>password</key>"}},
		{"plist", "<key>APIToken</key><data>" + pw + "</data>", []string{"<key>APIToken</key>"}},
		{"plist", `{"path":"/x.plist","content":"<dict>\n<key>Password</key>\n<string>` + pw + `</string>\n</dict>"}`, []string{"<key>Password</key>"}},
		{"xml key", "<key>" + pw + "</key>", nil}, // a bare <key> element's text is still a secret
	})
}
