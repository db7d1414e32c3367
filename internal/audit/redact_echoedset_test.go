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

// TestRedactEchoedScriptCommands: a command in the text an echo or printf
// writes starts a line of the script there not only after the text's
// opening quote or a line end but after printf's \n or \r escape, a
// separator, or a keyword that starts a command (fish's and, or, begin),
// past blanks and \t escapes; fish's set, which names a program only at a
// command's start, loses its value there too.
func TestRedactEchoedScriptCommands(t *testing.T) {
	const pw = "Zq9Secret77"
	var cases []detourCase
	for _, set := range []string{"set -x PGPASSWORD ", "set -gx API_TOKEN ", "set --export DB_PASSWORD ", "set -Ux VAULT_TOKEN "} {
		for _, line := range []string{
			"printf '\\n" + set + pw + "' | fish",
			"printf 'echo hi\\n" + set + pw + "\\npsql\\n' | fish",
			"printf \"echo hi\\r\\n" + set + pw + "\" | fish",
			"echo -e 'echo hi\\n  " + set + pw + "' | fish",
			"printf 'if true\\n\\t" + set + pw + "\\nend\\n' | fish",
			"echo 'echo hi; " + set + pw + "; psql' | fish",
			"echo 'true; and " + set + pw + "' | fish",
			"echo 'test -n x; or " + set + pw + "' | fish",
			"echo 'begin; " + set + pw + "; psql; end' | fish",
			"echo 'if true; " + set + pw + "; end' | fish",
			"echo 'true && " + set + pw + "' | fish",
			"echo 'a | " + set + pw + "' | fish",
			"printf 'x\\n" + set + pw + "\\n' >> ~/.config/fish/config.fish",
			"ssh h \"printf 'x\\n" + set + pw + "' | fish\"",
			"ssh h 'echo \"a; " + set + pw + "\" | fish'",
		} {
			cases = append(cases, detourCase{"fish", line, []string{"fish"}})
		}
	}
	cases = append(cases,
		detourCase{"bash", "printf 'x\\r\\nmysql -p" + pw + "' | bash", []string{"| bash"}},
		detourCase{"bash", "echo -e 'a\\nsshpass -p " + pw + " ssh h' | bash", []string{"ssh h"}},
		// Kept: set lines with no secret, and text that only
		// mentions set.
		detourCase{"kept", "printf 'x\\nset -x PATH /opt/bin $PATH\\n' | fish", []string{"set -x PATH /opt/bin $PATH"}},
		detourCase{"kept", "echo 'set -e PGPASSWORD; set -x EDITOR vim' | fish", []string{"set -x EDITOR vim"}},
		detourCase{"kept", "printf 'Column\\tset\\tvalue\\n'", []string{"Column\\tset\\tvalue"}},
		detourCase{"kept", "echo \"now we set the table; set up done\" >> notes", []string{"set the table; set up done"}},
		detourCase{"kept", "printf 'a\\nset nocompatible\\n' >> ~/.vimrc", []string{"set nocompatible"}},
		detourCase{"kept", "printf 'done\\tand set\\n'", []string{"done\\tand set"}},
	)
	checkSubtests(t, pw, cases)
}
