package audit

import (
	"testing"
)

// TestRedactProcessInputLiterals: a script that runs a program and writes
// its input in the same call (subprocess.run(["chpasswd"], input=…),
// execSync("chpasswd", {input: …}), Open3.capture2("chpasswd",
// stdin_data: …)) gives the program what it reads; for a program that
// reads a secret there by the shell rules, that literal is the secret,
// as an echo piped to it is. Each is tried alone and inside ssh.
func TestRedactProcessInputLiterals(t *testing.T) {
	const pw = "Zq9Secret77"
	scripts := []string{
		`python3 -c 'import subprocess; subprocess.run(["chpasswd"], input="bob:%s", text=True)'`,
		`python3 -c 'subprocess.run(["docker", "login", "-u", "bob", "--password-stdin", "r"], input=b"%s")'`,
		`python3 -c 'subprocess.check_output(["sudo", "-S", "id"], input="%s\n", text=True)'`,
		`python3 -c 'subprocess.run("chpasswd", shell=True, input="bob:%s")'`,
		`python3 -c 'subprocess.run(["passwd", "--stdin", "bob"], input = "%s")'`,
		`python3 -c 'x = "bob:%s"; subprocess.run(["chpasswd"], input=x)'`,
		`python3 -c 'subprocess.run(shlex.split("sudo -S id"), input="%s\n", text=True)'`,
		`node -e 'require("child_process").execSync("chpasswd", {input: "bob:%s"})'`,
		`node -e 'cp.spawnSync("kinit", ["bob@EXAMPLE.ORG"], {input: "%s"})'`,
		`ruby -e 'require "open3"; Open3.capture2("chpasswd", stdin_data: "bob:%s")'`,
		`ruby -e 'Open3.capture3("gh", "auth", "login", "--with-token", stdin_data: "%s")'`,
	}
	checkLocalAndSSH(t, pw, scripts)

	// Kept: the input of programs that read no secret on it.
	checkSpellings(t, []spelling{
		{`python3 -c 'subprocess.run(["sort"], input="b\na\n", text=True)'`, nil, []string{`input="b\na\n"`}},
		{`python3 -c 'subprocess.run(["grep", "password"], input=text)'`, nil, []string{"input=text"}},
		{`node -e 'cp.execSync("wc -l", {input: "one\ntwo"})'`, nil, []string{`{input: "one\ntwo"}`}},
		{`python3 -c 'model.fit(input=x, epochs=3)'`, nil, []string{"input=x, epochs=3"}},
		{`python3 -c 'subprocess.run(["chpasswd"]); input = "notes"; print(input)'`, nil, []string{`input = "notes"`}},
	})
}
