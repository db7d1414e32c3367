package audit

import "testing"

// TestRedactScriptVariables: a script's variable given where a secret
// goes in an argv list holds the secret: the literal assigned to it goes,
// in Go, Python, JavaScript and Kotlin spellings; a variable given
// elsewhere keeps its value.
func TestRedactScriptVariables(t *testing.T) {
	checkCases(t, []spelling{
		{"p := \"S3cr3tZ\"\nexec.Command(\"sshpass\", \"-p\", p, \"ssh\", \"h\")", []string{"S3cr3tZ"}, []string{`"-p", p, "ssh"`}},
		{"x = \"S3cr3tZ\"\nsubprocess.run([\"curl\", \"-u\", x, \"https://h\"])", []string{"S3cr3tZ"}, []string{`"-u", x,`}},
		{"const t = 'S3cr3tZ'; spawn('mysql', ['--password', t])", []string{"S3cr3tZ"}, []string{"['--password', t]"}},
		{"val s = \"S3cr3tZ\"; listOf(\"sshpass\", \"-p\", s, \"ssh\", \"h\")", []string{"S3cr3tZ"}, []string{"val s = \""}},
		{"h = 'S3cr3tZ'; subprocess.run([\"htpasswd\", \"-b\", \"f\", \"bob\", h])", []string{"S3cr3tZ"}, []string{`"bob", h]`}},
		// Kept: variables given as other options' values or printed.
		{"x = \"2222\"\nsubprocess.run([\"ssh\", \"-p\", x, \"h\"])", nil, []string{`x = "2222"`}},
		{"p := \"keep\"\nfmt.Println(p)", nil, []string{`p := "keep"`}},
		{"p=keep; q = \"x\"; echo $p", nil, []string{"p=keep", `q = "x"`}},
	})
}
