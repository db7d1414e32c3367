package audit

import "testing"

// TestRedactKeepsSettingsAndReferences: ordinary admin commands keep
// their meaning in the audit line. A setting named for how one
// authenticates (ssh -o PasswordAuthentication=no), git's credential
// settings, a flag that asks for the secret (--ask-password), a file
// that holds it (--from-file=password=pw.txt, credentials=/root/.smbcred)
// a locked account's marker (usermod -p '!'), a switch about a password
// (MYSQL_ALLOW_EMPTY_PASSWORD=yes) and a file:// reference are no secret;
// the secrets beside them still go.
func TestRedactKeepsSettingsAndReferences(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, k := range []struct{ in, keep string }{
		{"ssh -o PasswordAuthentication=no -o PubkeyAuthentication=yes h uptime", "PasswordAuthentication=no -o PubkeyAuthentication=yes h uptime"},
		{"ssh -o PreferredAuthentications=publickey,keyboard-interactive h", "PreferredAuthentications=publickey,keyboard-interactive h"},
		{"ssh -o KbdInteractiveAuthentication=no -o ChallengeResponseAuthentication=no h", "KbdInteractiveAuthentication=no -o ChallengeResponseAuthentication=no h"},
		{"sed -i 's/^#\\?PasswordAuthentication.*/PasswordAuthentication no/' /etc/ssh/sshd_config", "PasswordAuthentication no/'"},
		{"echo 'PasswordAuthentication no' >> /etc/ssh/sshd_config", "PasswordAuthentication no"},
		{"augtool set /files/etc/ssh/sshd_config/PasswordAuthentication no", "PasswordAuthentication no"},
		{"sshd -T | grep -i passwordauthentication", "passwordauthentication"},
		{"git -c credential.helper= clone https://git.example.com/o/r.git", "credential.helper= clone https://git.example.com/o/r.git"},
		{"git config --global credential.helper 'cache --timeout=3600'", "credential.helper 'cache --timeout=3600'"},
		{"git config --global credential.useHttpPath true", "credential.useHttpPath true"},
		{"git config --global credential.interactive never", "credential.interactive never"},
		{"wget --ask-password ftp://bob@files.example.com/x.tgz", "--ask-password ftp://bob@files.example.com/x.tgz"},
		{"ansible-playbook --ask-vault-pass site.yml", "--ask-vault-pass site.yml"},
		{"ansible-playbook -i hosts --ask-become-pass site.yml", "--ask-become-pass site.yml"},
		{"duplicity --ask-password /srv file:///backup", "--ask-password /srv file:///backup"},
		{"pgcli --prompt-passwd app", "--prompt-passwd app"},
		{"rclone config --ask-password=false", "--ask-password=false"},
		{"kubectl create secret generic db --from-file=password=./pw.txt", "--from-file=password=./pw.txt"},
		{"kubectl create secret generic db --from-file=token=token.txt -n prod", "--from-file=token=token.txt -n prod"},
		{"mount -t cifs //nas/share /mnt -o credentials=/root/.smbcred,uid=1000", "credentials=/root/.smbcred,uid=1000"},
		{"echo '//nas/share /mnt cifs credentials=/etc/samba/creds 0 0' >> /etc/fstab", "credentials=/etc/samba/creds 0 0"},
		{"usermod -p '!' bob", "-p '!' bob"},
		{"usermod -p '*' svc", "-p '*' svc"},
		{"useradd -m -p '!!' bob", "-p '!!' bob"},
		{"docker run -d -e MYSQL_ALLOW_EMPTY_PASSWORD=yes mysql:8", "MYSQL_ALLOW_EMPTY_PASSWORD=yes mysql:8"},
		{"docker run -e MYSQL_RANDOM_ROOT_PASSWORD=true mysql", "MYSQL_RANDOM_ROOT_PASSWORD=true mysql"},
		{"docker run -e MARIADB_RANDOM_ROOT_PASSWORD=1 mariadb", "MARIADB_RANDOM_ROOT_PASSWORD=1 mariadb"},
		{"export SKIP_PASSWORD_CHECK=no", "SKIP_PASSWORD_CHECK=no"},
		{"aws secretsmanager create-secret --name prod/db --secret-string file://secret.json", "--secret-string file://secret.json"},
		{"aws secretsmanager put-secret-value --secret-id x --secret-binary fileb://blob.bin", "--secret-binary fileb://blob.bin"},
	} {
		cases = append(cases, detourCase{"kept", k.in, []string{k.keep}}, detourCase{"ssh", `ssh h "` + escapeDouble(k.in) + `"`, []string{k.keep}})
	}
	checkSubtests(t, pw, cases)

	// The secrets beside them still go.
	checkSpellings(t, []spelling{
		{"kubectl create secret generic db --from-file=ca=./ca.crt --from-literal=password=" + pw, []string{pw}, []string{"--from-file=ca=./ca.crt"}},
		{"mount -t cifs //nas/s /mnt -o username=bob,password=" + pw + ",credentials=/x", []string{pw}, []string{"username=bob"}},
		{"usermod -p '" + pw + "' bob", []string{pw}, []string{"bob"}},
		{"usermod -p '!" + pw + "' bob", []string{pw}, []string{"bob"}},
		{"curl -H 'X-Authentication: " + pw + "' https://x", []string{pw}, []string{"X-Authentication"}},
		{"curl -H 'Authentication: " + pw + "' https://x", []string{pw}, []string{"Authentication"}},
		{"git config --global credential.https://h.example.com.password " + pw, []string{pw}, []string{"credential"}},
		{"ansible-playbook --vault-password " + pw + " site.yml", []string{pw}, []string{"site.yml"}},
		{"mysql --password=" + pw + " --ask-password db", []string{pw}, []string{"db"}},
		{"export CREDENTIALS=" + pw, []string{pw}, []string{"CREDENTIALS="}},
		{"docker run -e MYSQL_ALLOW_EMPTY_PASSWORD=" + pw + " mysql", []string{pw}, []string{"mysql"}},
		{"export MYSQL_ROOT_PASSWORD=yes", []string{"=yes"}, []string{"MYSQL_ROOT_PASSWORD="}},
		{"aws secretsmanager create-secret --name x --secret-string " + pw, []string{pw}, []string{"--name x"}},
		{"aws secretsmanager create-secret --name x --secret-string '{\"password\":\"" + pw + "\"}'", []string{pw}, []string{"--name x"}},
	})
}
