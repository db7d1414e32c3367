package audit

import "testing"

// TestRedactEscapedArgvItems: an argv list one quoting level down (ssh h
// "python3 -c '…[\"sshpass\", \"-p\", \"…\"]…'", bash -c "…") has items
// quoted \"…\"; they are read as the items they become: by the rules of
// the program the first item names, or by the option's name.
func TestRedactEscapedArgvItems(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"ssh", `ssh db1 "python3 -c 'subprocess.run([\"sshpass\", \"-p\", \"` + pw + `\", \"ssh\", \"h\"])'"`, []string{`\"ssh\", \"h\"`}},
		{"ssh", `ssh db1 'python3 -c "subprocess.run([\"sshpass\", \"-p\", \"` + pw + `\"])"'`, []string{"ssh db1"}},
		{"ssh", `ssh db1 "python3 -c 'subprocess.run([\"./app\", \"--password\", \"` + pw + `\"])'"`, []string{`\"--password\"`}},
		{"ssh", `ssh db1 "python3 -c 'subprocess.run([\"curl\", \"-u\", \"bob:` + pw + `\"])'"`, []string{`\"bob:`}},
		{"ssh", `ssh db1 "python3 -c 'subprocess.run([\"mysql\", \"-u\", \"root\", \"-p` + pw + `\"])'"`, []string{`\"root\"`}},
		{"ssh", `ssh db1 "node -e 'spawn(\"curl\", [\"-s\", \"-u\", \"bob:` + pw + `\", \"https://h\"])'"`, []string{`\"https://h\"`}},
		{"ssh", `ssh db1 "ruby -e 'a = [\"sshpass\"]; a << \"-p\" << \"` + pw + `\"; system(*a)'"`, []string{"system(*a)"}},
		{"ssh", `ssh db1 "ruby -e 'a = [\"sshpass\"]; a.push(\"-p\", \"` + pw + `\"); system(*a)'"`, []string{"system(*a)"}},
		{"shell", `bash -c "python3 -c 'subprocess.run([\"sshpass\", \"-p\", \"` + pw + `\"])'"`, nil},
		{"shell", `sudo sh -c "python3 -c 'subprocess.check_call([\"docker\", \"login\", \"-u\", \"bob\", \"-p\", \"` + pw + `\"])'"`, []string{`\"bob\"`}},
		{"json", `echo "{\"args\": [\"--token\", \"` + pw + `\"]}" > cfg.json`, []string{"cfg.json"}},
		// Kept: no item is a secret.
		{"kept", `ssh db1 "python3 -c 'subprocess.run([\"ls\", \"-la\", \"/tmp\"])'"`, []string{`\"-la\", \"/tmp\"`}},
		{"kept", `ssh db1 "python3 -c 'subprocess.run([\"curl\", \"-o\", \"out\", \"https://h\"])'"`, []string{`\"-o\", \"out\"`}},
		{"kept", `echo "{\"args\": [\"--verbose\", \"x\"]}" > cfg.json`, []string{`\"--verbose\", \"x\"`}},
		{"kept", `ssh db1 "python3 -c 'subprocess.run([\"git\", \"--no-password\", \"x\"])'"`, []string{`\"x\"`}},
	})
}
