package audit

import "testing"

// TestRedactLoginOperandNamedLikeProgram: after login, a registry whose
// name is also a program's (reg, net, git, zip, ssh) was read as that
// program, and the password option after it kept. The registry is a
// value there, for every client that logs in to one.
func TestRedactLoginOperandNamedLikeProgram(t *testing.T) {
	const pw = "Zq9Secret77"
	checkLocalAndSSH(t, pw, []string{
		`docker login reg -u bob -p %s`,
		`docker login reg --password %s`,
		`podman login net -u bob -p %s`,
		`nerdctl login git -u bob -p %s`,
		`helm registry login reg -u bob -p %s`,
		`crane auth login zip -u bob -p %s`,
		`regctl registry login ssh -u bob -p %s`,
		`oras login reg -u bob -p %s`,
		`conan remote login r bob -p %s`,
		`conan remote login reg bob --password %s`,
	})
	// Kept: what follows a command that is not a login names its program.
	checkSpellings(t, []spelling{
		{`docker run reg -p 8080:80`, nil, []string{"-p 8080:80"}},
		{`conan install . -pr default`, nil, []string{"-pr default"}},
	})
}
