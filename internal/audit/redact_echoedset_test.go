package audit

import "testing"

// TestRedactEchoedSetLines: fish's set -x NAME VALUE (which names the
// program only at a command's start) written as a line by echo or printf
// into a config file loses its value, as the command itself does.
func TestRedactEchoedSetLines(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"fish", "echo 'set -x PGPASSWORD " + pw + "' >> ~/.config/fish/config.fish", []string{"set -x PGPASSWORD", "config.fish"}},
		{"fish", `echo "set -gx API_TOKEN ` + pw + `" >> ~/.config/fish/config.fish`, []string{"set -gx API_TOKEN"}},
		{"fish", "printf 'set -Ux GITHUB_TOKEN " + pw + "\\n' >> config.fish", []string{"GITHUB_TOKEN"}},
		{"fish", "printf '# env\nset -gx DB_PASSWORD " + pw + "\n' | tee -a config.fish", nil},
		{"fish", "ssh h \"echo 'set -x VAULT_TOKEN " + pw + "' >> ~/.config/fish/config.fish\"", []string{"ssh h"}},
		// Kept: set lines with no secret.
		{"kept", "echo 'set -x PATH $PATH /opt/bin' >> ~/.config/fish/config.fish", []string{"set -x PATH $PATH /opt/bin"}},
		{"kept", `echo "set -g fish_greeting ''" >> config.fish`, []string{"fish_greeting"}},
		{"kept", "echo set up done", []string{"echo set up done"}},
		{"kept", `echo "set nocompatible" >> ~/.vimrc`, []string{"set nocompatible"}},
		{"kept", "echo 'set editing-mode vi' >> ~/.inputrc", []string{"set editing-mode vi"}},
	})
}
