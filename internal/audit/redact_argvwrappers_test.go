package audit

import (
	"strings"
	"testing"
)

// TestRedactArgsArgvWrappers: a JSON argv list read its options by the
// program its first item names only, so a list that runs the program
// through another (["sudo", "mysql", "-p…"], ["kubectl", "-n", "x",
// "exec", "p", "--", "mysql", "-p…"], ["timeout", "5", "sshpass", "-p",
// …]) kept the password, and an option a subcommand qualifies (docker
// login -p) was never one. The wrapped program now reads its own items,
// as the shell's words after sudo, env or a container's exec are read,
// and the plain items so far are the subcommands; a list whose first item
// no rule knows gives way to a later item that one does.
func TestRedactArgsArgvWrappers(t *testing.T) {
	const pw = "Zq9vTr7mK"
	cases := []spelling{
		{`{"cmd":["sudo","mysql","-pZq9vTr7mK"]}`, nil, []string{`"sudo","mysql","-p`}},
		{`{"cmd":["sudo","-u","x","mysql","-pZq9vTr7mK","db"]}`, nil, []string{`"db"`}},
		{`{"cmd":["doas","-u","x","sshpass","-p","Zq9vTr7mK","ssh","h"]}`, nil, []string{`"ssh","h"`}},
		{`{"cmd":["env","-i","A=1","mysql","-pZq9vTr7mK"]}`, nil, []string{`"A=1"`}},
		{`{"cmd":["timeout","5","sshpass","-p","Zq9vTr7mK","ssh","h"]}`, nil, []string{`"timeout","5"`}},
		{`{"cmd":["/usr/bin/nice","-n","5","/usr/bin/mysql","-pZq9vTr7mK"]}`, nil, []string{`"-n","5"`}},
		{`{"cmd":["docker","exec","c","mysql","-pZq9vTr7mK"]}`, nil, []string{`"exec","c"`}},
		{`{"cmd":["docker","--context","x","exec","-it","c","ldapsearch","-xwZq9vTr7mK","-D","cn=a"]}`, nil, []string{`"-D","cn=a"`}},
		{`{"cmd":["kubectl","-n","x","exec","p","--","mysql","-pZq9vTr7mK"]}`, nil, []string{`"exec","p","--"`}},
		{`{"cmd":["podman","run","--rm","img","ipmitool","-P","Zq9vTr7mK","-H","h"]}`, nil, []string{`"-H","h"`}},
		{`{"cmd":["ssh","h","sshpass","-p","Zq9vTr7mK","ssh","g"]}`, nil, []string{`"ssh","g"`}},
		{`{"cmd":["./run.sh","redis-cli","-a","Zq9vTr7mK","ping"]}`, nil, []string{`"ping"`}},
		{`{"cmd":["docker","login","-u","bob","-p","Zq9vTr7mK","reg.example"]}`, nil, []string{`"bob"`, `"reg.example"`}},
		{`{"cmd":["sudo","docker","login","-p","Zq9vTr7mK","reg.example"]}`, nil, []string{`"reg.example"`}},
	}
	for _, tt := range cases {
		t.Run(tt.in, func(t *testing.T) {
			got := string(RedactArgs([]byte(tt.in), 0))
			if strings.Contains(got, pw) {
				t.Errorf("RedactArgs(%s) = %s: still holds the secret", tt.in, got)
			}
			for _, k := range tt.keep {
				if !strings.Contains(got, k) {
					t.Errorf("RedactArgs(%s) = %s: lost %q", tt.in, got, k)
				}
			}
		})
	}
	// Kept: a wrapper's own values and a wrapped program's plain items.
	for _, in := range []string{
		`{"cmd":["sudo","-u","mysql","ls","-p","/tmp"]}`,
		`{"cmd":["docker","run","-p","8080:80","nginx"]}`,
		`{"cmd":["kubectl","exec","p","--","mkdir","-p","/srv/a"]}`,
		`{"cmd":["timeout","5","ssh","-p","2222","h"]}`,
	} {
		t.Run(in, func(t *testing.T) {
			if got := string(RedactArgs([]byte(in), 0)); got != in {
				t.Errorf("RedactArgs(%s) = %s: changed a list without a secret", in, got)
			}
		})
	}
}
