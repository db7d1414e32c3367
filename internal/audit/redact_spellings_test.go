package audit

import (
	"strings"
	"testing"
)

// spelling is one command that carries a secret (every part of it in
// secret must be gone) and the words around it that must stay readable.
type spelling struct {
	in     string
	secret []string
	keep   []string
}

func checkSpellings(t *testing.T, tests []spelling) {
	t.Helper()
	for _, tt := range tests {
		got := Redact(tt.in)
		for _, s := range tt.secret {
			if strings.Contains(got, s) {
				t.Errorf("Redact(%q) = %q: still contains %q", tt.in, got, s)
			}
		}
		for _, k := range tt.keep {
			if !strings.Contains(got, k) {
				t.Errorf("Redact(%q) = %q: lost %q", tt.in, got, k)
			}
		}
		if len(tt.secret) == 0 && len(tt.keep) == 0 {
			t.Errorf("%q checks nothing", tt.in)
		}
	}
}

// TestRedactLineContinuations: a backslash before a line end joins the
// next line to the command, as bash does, so the program's options on
// the next lines are read by its rules, and an option's value may follow
// on the next line; an escaped backslash before a line end ends the
// command.
func TestRedactLineContinuations(t *testing.T) {
	checkSpellings(t, []spelling{
		{"curl \\\n  -u bob:S3cr3tZ \\\n  https://x", []string{"S3cr3tZ"}, []string{"-u bob:", "\\\n  https://x"}},
		{"curl -sS \\\n  --user bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"--user bob:"}},
		{"curl -X POST \\\n\t-u bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"-u bob:"}},
		{"curl -u \\\n bob:S3cr3tZ https://x", []string{"S3cr3tZ"}, []string{"bob:"}},
		{"sshpass \\\n  -p S3cr3tZ \\\n  ssh h", []string{"S3cr3tZ"}, []string{"ssh h"}},
		{"sshpass -p \\\n  S3cr3tZ ssh -p 22 h", []string{"S3cr3tZ"}, []string{"ssh -p 22 h"}},
		{"htpasswd -b \\\n  f bob S3cr3tZ", []string{"S3cr3tZ"}, []string{"f bob"}},
		{"htpasswd -b f \\\n bob S3cr3tZ && ls", []string{"S3cr3tZ"}, []string{"bob", "&& ls"}},
		{"docker login \\\n  -u bob \\\n  -p S3cr3tZ \\\n  registry.example", []string{"S3cr3tZ"}, []string{"-u bob", "registry.example"}},
		{"mysql -uroot \\\n  -pS3cr3tZ shop", []string{"S3cr3tZ"}, []string{"-uroot", "shop"}},
		// An escaped backslash is no continuation: the next line is
		// another command, whose -p is a port.
		{"sshpass -p S3cr3tZ ssh h ls x\\\\\ndocker run -p 8080:80 nginx", []string{"S3cr3tZ"}, []string{"docker run -p 8080:80 nginx"}},
		{"docker login -p S3cr3tZ r\ndocker run \\\n  -p 8080:80 nginx", []string{"S3cr3tZ"}, []string{"-p 8080:80 nginx"}},
	})
}
