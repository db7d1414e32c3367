package audit

import "testing"

// TestRedactArgvListItems: a program's argv written as a list or a builder
// chain in a script is read item by item as the shell words would be:
// the option's value item, an attached value, the program's secret
// positional counted in items (htpasswd -b FILE USER PASS), with the
// other items kept.
func TestRedactArgvListItems(t *testing.T) {
	checkCases(t, []spelling{
		{"spawn('./app', ['--password', 'S3cr3tZ'])", []string{"S3cr3tZ"}, []string{"['--password', '"}},
		{`spawn("./app", ["--token", "S3cr3tZ", "--verbose"])`, []string{"S3cr3tZ"}, []string{`"--verbose"`}},
		{"execFile('curl', ['-u', 'bob:S3cr3tZ', 'https://h'])", []string{"S3cr3tZ"}, []string{"'bob:", "'https://h'"}},
		{`execFileSync("sshpass", ["-p", "S3cr3tZ", "ssh", "h"])`, []string{"S3cr3tZ"}, []string{`"ssh", "h"`}},
		{"args=['--api-key','S3cr3tZ']", []string{"S3cr3tZ"}, []string{"['--api-key','"}},
		{`Command::new("curl").args(["-u", "bob:S3cr3tZ"])`, []string{"S3cr3tZ"}, []string{`"bob:`}},
		{`Command::new("./app").arg("--password").arg("S3cr3tZ").arg("run")`, []string{"S3cr3tZ"}, []string{`.arg("run")`}},
		{`Command::new("sshpass").arg("-p").arg("S3cr3tZ").arg("ssh")`, []string{"S3cr3tZ"}, []string{`.arg("ssh")`}},
		{`exec.Command("htpasswd", "-b", file, user, "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"htpasswd", "-b", file, user, "`}},
		{`exec.Command("htpasswd", "-bc", ".htpasswd", "bob", "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`".htpasswd", "bob", "`}},
		{`exec.Command("htpasswd", "-nb", user, "S3cr3tZ")`, []string{"S3cr3tZ"}, []string{`"-nb", user, "`}},
		{"subprocess.check_call(['htpasswd', '-b', '/etc/nginx/.htpasswd', 'bob', 'S3cr3tZ'])", []string{"S3cr3tZ"}, []string{"'/etc/nginx/.htpasswd', 'bob', '"}},
		{`subprocess.run(["htpasswd", "-b", "-C", "12", f, "bob", "S3cr3tZ"])`, []string{"S3cr3tZ"}, []string{`"12", f, "bob", "`}},
		{"subprocess.run([\n    'htpasswd', '-b',\n    path,\n    'bob',\n    'S3cr3tZ',\n])", []string{"S3cr3tZ"}, []string{"'bob',"}},
		// Kept: no secret option, and a variable where the secret goes.
		{`Command::new("ls").arg("-la").arg("/tmp")`, nil, []string{`.arg("/tmp")`}},
		{"spawn('ls', ['-la', '/tmp'])", nil, []string{"'/tmp'"}},
		{`exec.Command("htpasswd", "-b", file, user, pw)`, nil, []string{"user, pw)"}},
	})
}
