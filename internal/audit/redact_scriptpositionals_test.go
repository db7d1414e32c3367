package audit

import "testing"

// TestRedactScriptListPositionals: a program's secret positional counted
// in the items of an argv list (htpasswd -b FILE USER PASS) inside the
// string that holds the script (python3 -c '…', perl -e "…"), whose
// quote differs from the items'.
func TestRedactScriptListPositionals(t *testing.T) {
	const pw = "Zq9Secret77"
	checkDetours(t, pw, []detourCase{
		{"htpasswd", `python3 -c 'subprocess.run(["htpasswd", "-b", "f", "bob", "` + pw + `"])'`, []string{`"f", "bob", "`}},
		{"htpasswd", `python3 -c 'subprocess.run(["htpasswd", "-b", "-C", "12", f, "bob", "` + pw + `"])'`, []string{`"12", f, "bob", "`}},
		{"htpasswd", `python3 -c "subprocess.run(['htpasswd', '-b', 'f', 'bob', '` + pw + `'])"`, []string{"'bob', '"}},
		{"htpasswd", `python3 -c 'subprocess.run(["htpasswd", "-nb", "bob", "` + pw + `"])'`, []string{`"-nb", "bob", "`}},
		{"htpasswd", "python3 -c 'import subprocess\nsubprocess.run([\"htpasswd\", \"-bc\", \".htpasswd\", \"bob\", \"" + pw + "\"])'", []string{`".htpasswd", "bob", "`}},
		{"htpasswd", `perl -e 'exec("htpasswd", "-b", "f", "bob", "` + pw + `")'`, []string{`"f", "bob", "`}},
		{"htpasswd", `perl -e 'system("htpasswd", "-b", "/etc/nginx/.htpasswd", "bob", "` + pw + `")'`, []string{`"bob", "`}},
		{"htpasswd", `ruby -e 'system("htpasswd", "-b", "f", "bob", "` + pw + `")'`, []string{`"bob", "`}},
		{"htpasswd", `node -e 'execFileSync("htpasswd", ["-b", "f", "bob", "` + pw + `"])'`, []string{`"bob", "`}},
		{"htpasswd", `ssh web1 'python3 -c "subprocess.run([\"htpasswd\"]); os.system(\"htpasswd -b f bob ` + pw + `\")"'`, nil},
		{"vault", `python3 -c 'subprocess.run(["vault", "login", "` + pw + `"])'`, []string{`"login", "`}},
		{"rabbitmq", `python3 -c 'subprocess.run(["rabbitmqctl", "add_user", "bob", "` + pw + `"])'`, []string{`"bob", "`}},
		{"rabbitmq", `ruby -e 'system("rabbitmqctl", "change_password", "bob", "` + pw + `")'`, []string{`"bob", "`}},
		{"rabbitmq", `subprocess.run(["rabbitmqctl", "change_password", "bob", "` + pw + `"])`, []string{`"bob", "`}},
		{"mysqladmin", `python3 -c 'subprocess.run(["mysqladmin", "-u", "root", "password", "` + pw + `"])'`, []string{`"password", "`}},
		// Kept: the positional is no secret.
		{"kept", `python3 -c 'subprocess.run(["htpasswd", "-D", "f", "bob"])'`, []string{`"-D", "f", "bob"`}},
		{"kept", `python3 -c 'subprocess.run(["smbpasswd", "-a", "bob"])'`, []string{`"-a", "bob"`}},
		{"kept", `python3 -c 'subprocess.run(["rabbitmqctl", "list_users"])'`, []string{`"list_users"`}},
	})
}
