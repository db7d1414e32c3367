package audit

import "testing"

// TestRedactAnsiblePrompts: ansible's programs ask for a password and read
// it on their input when it is no terminal by short options too — -k (the
// connection's), -K (become's), -J (the vault's), in any cluster — and by
// --vault-id LABEL@prompt; only the long --ask-*-pass spellings, whose
// names cue a password, were read, so `ansible-playbook -K site.yml <<< …`
// kept the become password in the record.
func TestRedactAnsiblePrompts(t *testing.T) {
	const pw = "Zq9Ansible77"
	checkLocalAndSSH(t, pw, []string{
		"ansible-playbook -K site.yml <<< %s",
		"ansible-playbook -bK site.yml <<< %s",
		"ansible-playbook -DCK -i hosts site.yml <<< %s",
		"ansible-playbook -J site.yml <<< '%s'",
		"ansible-playbook -vvvJ site.yml <<EOF\n%s\nEOF",
		"ansible all -k -m ping <<< %s",
		"ansible all -bkK -m ping <<< $'%s\\nbecome'",
		"ansible-pull -K -U https://git.example.com/r.git <<< %s",
		"ansible-console -k web <<< %s",
		"ansible-inventory -J --list <<< %s",
		"ansible-vault view --vault-id @prompt f.yml <<< %s",
		"ansible-vault decrypt --vault-id=dev@prompt f.yml <<< %s",
		"ansible-playbook --vault-id 'prod@prompt' site.yml <<< %s",
		"echo %s | ansible-playbook -K site.yml",
		"printf '%%s\\n' %s | ansible all -k -m ping",
		"sudo -u deploy ansible-playbook -K site.yml <<< %s",
		"/usr/bin/ansible-playbook -K site.yml <<< %s",
	})
	// Kept: no option of these asks for a password, so the input is the
	// program's own (a value letter before k takes the rest of the word).
	const text = "Zq9Plain77"
	checkSubtests(t, "\x00", []detourCase{
		{"kept", "ansible-playbook -ework=1 site.yml <<< " + text, []string{text}},
		{"kept", "ansible-playbook -lkube site.yml <<< " + text, []string{text}},
		{"kept", "ansible-playbook -ikhosts site.yml <<< " + text, []string{text}},
		{"kept", "ansible all -m ping -i hosts <<< " + text, []string{text}},
		{"kept", "ansible-vault view --vault-id dev@~/.vault_pass f.yml <<< " + text, []string{text}},
		{"kept", "curl -k https://h <<< " + text, []string{text}},
		{"kept", "ansible-doc -l", []string{"ansible-doc -l"}},
	})
}
